"""A tournament table's game end, on SQLite and PostgreSQL: its result is recorded as the
game ends (docs/tournaments.md, "Running": ``Results.finish``, what a table's actor
calls, records it with no runner pass, once, with who did not show withdrawn); a rated
tournament's table is rated as any rated table; and the end of a rated event's round
moves the duplicate ratings of the people who held the same cards, once, by their
matchpoints (docs/accounts.md, "The duplicate rating")."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fresh_databases import BACKENDS, new_store
from sqlalchemy.orm import Session
from test_ratings import kept_sums

from raspisnoy.core import Deal, Game, resolve_rules
from raspisnoy.ratings import RATED_STAND_IN
from raspisnoy.ratings.results import NEWCOMER, TABLE_RATING
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.results import Results
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.tournament_ratings import round_rating, same_cards_orders
from raspisnoy.server.services.tournament_results import game_result
from raspisnoy.server.services.tournament_runner import TournamentRunner
from raspisnoy.store import (
    ALL_SCOPE,
    DUPLICATE_SCOPE,
    EventRow,
    NewTournament,
    Players,
    RoundTable,
    SeatedTable,
    Store,
    TournamentStore,
    UserRow,
    recount,
)

#: One deal of one card at tables of three.
RULES = {"preset": "raspisnoy.com", "custom_plan": ["1"]}


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with new_store(request.param, tmp_path) as opened:
        yield opened


def new_event(
    store: Store, director_id: str, rules: dict[str, Any], *, rated: bool, rounds: int = 2
) -> str:
    return (
        TournamentStore(store)
        .create(
            NewTournament(
                name="Кубок",
                club_id=None,
                director_id=director_id,
                starts_at=time.time() + 60,
                rules=rules,
                table_size=3,
                rounds=rounds,
                turn_seconds=30,
                scoring="swiss",
                fill="bots",
                max_players=8,
                rated=rated,
                bot_delay_ms=0,
                seed="event-seed",
            )
        )
        .id
    )


def entered(store: Store, tournament_id: str, *people: UserRow) -> list[str]:
    """Register ``people`` and start the event; their entry ids."""
    tournaments = TournamentStore(store)
    for person in people:
        tournaments.register(tournament_id, user_id=person.id, bot=None, name="", now=time.time())
    tournaments.set_state(tournament_id, "running", {"registering"})
    return [entry.entry_id for entry in tournaments.entries(tournament_id)]


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
    tournament_id = new_event(store, director.id, RULES, rated=False)
    a, b = entered(store, tournament_id, anna, boris)
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


def test_a_rated_tournaments_table_is_rated_as_any_rated_table(store: Store) -> None:
    director, anna, boris = (store.create_user(name) for name in ("Director", "Anna", "Boris"))
    rules = resolve_rules("classic").to_json()  # a preset's own rules: rated
    tournament_id = new_event(store, director.id, rules, rated=True)
    a, b = entered(store, tournament_id, anna, boris)
    how = RoundTable(rules, 30, 0, RATED_STAND_IN, "event-seed/1", rated=True, public=True)
    seated = SeatedTable((a, b, None), {0: anna.id, 1: boris.id}, ("random",) * 3)
    tournaments = TournamentStore(store)
    (table_id,) = tournaments.pair_round(tournament_id, 1, [], how, [seated], time.time()) or []
    assert store.get_table(table_id).rated
    game = played(store, table_id, acting={0, 1})
    assert asyncio.run(Results(store).finish(store.get_table(table_id), game))
    assert tournaments.tables(tournament_id, 1)[0].result is not None

    def rated_games(person: UserRow) -> dict[str, int]:
        profile = Players(store).profile(person.id, viewer=person.id)
        return {line.scope: line.games for line in profile.ratings}

    assert rated_games(anna) == rated_games(boris) == {}  # not while the round is played
    assert TournamentStore(store, TABLE_RATING).end_round(tournament_id, 1, time.time())
    for person in (anna, boris):  # the game's rating path: the overall and the preset's
        assert rated_games(person) == {ALL_SCOPE: 1, "classic": 1}


def deal(points: list[int]) -> dict[str, Any]:
    """A recorded deal: the same hands at every table, these points by seat."""
    return {"number": 1, "hands": [["AS"], ["KS"], ["QS"]], "trump": None, "points": points}


def test_a_rounds_end_moves_the_duplicate_ratings_of_who_held_the_same_cards_once(
    store: Store,
) -> None:
    director, *people = (
        store.create_user(name) for name in ("Director", "Anna", "Boris", "Vera", "Dina", "Egor")
    )
    anna, boris, vera, dina, egor = people
    tournaments = TournamentStore(store)
    tournament_id = new_event(store, director.id, RULES, rated=True)
    a, b, v, d, e = entered(store, tournament_id, *people)
    how = RoundTable(RULES, 30, 0, "random", "event-seed/1", rated=False, public=True)
    first = SeatedTable((a, b, v), {0: anna.id, 1: boris.id, 2: vera.id}, ("random",) * 3)
    second = SeatedTable((d, e, None), {0: dina.id, 1: egor.id}, ("random",) * 3)
    ids = tournaments.pair_round(tournament_id, 1, [], how, [first, second], time.time()) or []
    # Seat 0: Anna beats Dina; seat 1: Egor beats Boris; seat 2: Vera against a bot only.
    tournaments.record_result(ids[0], {"deals": [deal([10, -10, 5])], "absent": []})
    tournaments.record_result(ids[1], {"deals": [deal([0, 20, 40])], "absent": []})
    tables = tournaments.tables(tournament_id, 1)
    entries = tournaments.entries(tournament_id)
    users = {entry.entry_id: entry.user_id or "" for entry in entries}
    assert same_cards_orders(tables, users) == [
        {anna.id: 1000, dina.id: 0},
        {boris.id: 0, egor.id: 1000},
    ]
    rating = round_rating(tables, entries)
    assert rating is not None and rating.people == {anna.id, boris.id, dina.id, egor.id}
    kept = kept_sums(store)
    assert tournaments.end_round(tournament_id, 1, time.time(), rating)
    assert not tournaments.end_round(tournament_id, 1, time.time(), rating)  # once

    def duplicate(person: UserRow) -> tuple[int, int] | None:
        lines = Players(store).profile(person.id).ratings
        found = [(line.display, line.games) for line in lines if line.scope == DUPLICATE_SCOPE]
        return found[0] if found else None

    newcomer = NEWCOMER.display
    assert duplicate(vera) is None  # nobody else held her cards
    for winner, loser in ((anna, dina), (egor, boris)):
        won, lost = duplicate(winner), duplicate(loser)
        assert won is not None and lost is not None
        assert won[1] == lost[1] == 1
        assert won[0] > newcomer > lost[0]
    moved = kept_sums(store)
    assert moved != kept
    with Session(store.engine) as session, session.begin():
        recount(session)  # the kept counts per rating are the recounted ones
    assert kept_sums(store) == moved


@pytest.mark.parametrize("rated", [True, False])
def test_the_runner_ends_a_rated_round_with_its_duplicate_ratings(
    store: Store, tmp_path: Path, rated: bool
) -> None:
    director, *people = (store.create_user(name) for name in ("Director", "Anna", "Dina"))
    anna, dina = people
    tournaments = TournamentStore(store)
    tournament_id = new_event(store, director.id, RULES, rated=rated, rounds=1)
    a, d = entered(store, tournament_id, anna, dina)
    how = RoundTable(RULES, 30, 0, "random", "event-seed/1", rated=False, public=True)
    tables = [
        SeatedTable((entry, None, None), {0: person.id}, ("random",) * 3)
        for entry, person in ((a, anna), (d, dina))
    ]
    ids = tournaments.pair_round(tournament_id, 1, [], how, tables, time.time()) or []
    tournaments.record_result(ids[0], {"deals": [deal([10, 0, 0])], "absent": []})
    tournaments.record_result(ids[1], {"deals": [deal([-10, 0, 0])], "absent": []})
    settings = ServerSettings(data_dir=tmp_path)
    runner = TournamentRunner(tournaments, store, Hub(store, settings), settings)
    asyncio.run(runner.step(tournaments.get(tournament_id)))
    assert tournaments.get(tournament_id).state == "finished"
    scopes = {
        person.id: {line.scope for line in Players(store).profile(person.id).ratings}
        for person in people
    }
    expected = {DUPLICATE_SCOPE} if rated else set()
    assert scopes == {anna.id: expected, dina.id: expected}
