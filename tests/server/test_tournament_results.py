"""A tournament table's result is recorded as its game ends (docs/tournaments.md,
"Running"): the game's end (``Results.finish``, what a table's actor calls) records it
with no runner pass, once, with who did not show withdrawn; an ordinary table's end
records nothing. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fresh_databases import BACKENDS, new_database

from raspisnoy.core import Deal, Game, resolve_rules
from raspisnoy.server.services.results import Results
from raspisnoy.server.services.tournament_results import game_result
from raspisnoy.store import (
    EventRow,
    NewTournament,
    RoundTable,
    SeatedTable,
    Store,
    TournamentStore,
)

#: One deal of one card at tables of three.
RULES = {"preset": "raspisnoy.com", "custom_plan": ["1"]}


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with new_database(request.param, tmp_path) as url:
        opened = Store.open(url)
        yield opened
        opened.close()


def played(store: Store, table_id: str, acting: set[int]) -> Game:
    """Start the stored table and play its game to the end at random, storing each action
    (by a person's client at the ``acting`` seats, by the stand-in at the others)."""
    table = store.get_table(table_id)
    game = Game(resolve_rules(table.rules), ("A", "B", "C"), seed=table.seed)
    store.start_table(table_id, game.names, game.rounds()[0].dealer)
    chooser = random.Random(7)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()), game.to_act)
    actions = [e for e in game.events if not isinstance(e.action, Deal)]
    store.append_events(
        [
            EventRow(table_id, n + 1, e.seat, str(e.action), f"c{n}" if e.seat in acting else None)
            for n, e in enumerate(actions)
            if e.seat is not None
        ]
    )
    return game


def test_the_games_end_records_the_tournament_result_once(store: Store) -> None:
    director, anna, boris = (store.create_user(name) for name in ("Director", "Anna", "Boris"))
    tournaments = TournamentStore(store)
    tournament_id = tournaments.create(
        NewTournament(
            name="Кубок",
            club_id=None,
            director_id=director.id,
            starts_at=time.time() + 60,
            rules=RULES,
            table_size=3,
            rounds=2,
            turn_seconds=30,
            scoring="swiss",
            fill="bots",
            max_players=8,
            rated=False,
            bot_delay_ms=0,
            seed="event-seed",
        )
    ).id
    for person in (anna, boris):
        tournaments.register(tournament_id, user_id=person.id, bot=None, name="", now=time.time())
    tournaments.set_state(tournament_id, "running", {"registering"})
    a, b = (entry.entry_id for entry in tournaments.entries(tournament_id))
    how = RoundTable(RULES, 30, 0, "random", "event-seed/1", rated=False, public=True)
    seated = SeatedTable((a, b, None), {0: anna.id, 1: boris.id}, ("random",) * 3)
    (table_id,) = tournaments.pair_round(tournament_id, 1, [], how, [seated], time.time()) or []
    game = played(store, table_id, acting={0})
    results = Results(store)
    assert asyncio.run(results.finish(store.get_table(table_id), game))
    (row,) = tournaments.tables(tournament_id, 1)
    assert row.status == "over"
    assert row.result == game_result(game, [0, 1], [0])
    assert row.result is not None and row.result["absent"] == [1]
    states = {e.entry_id: e.state for e in tournaments.entries(tournament_id)}
    assert states == {a: "registered", b: "withdrawn"}
    # Finishing again (a retry, or the runner's catch-up) changes nothing.
    assert not asyncio.run(results.finish(store.get_table(table_id), game))
    assert tournaments.tables(tournament_id, 1)[0].result == row.result
