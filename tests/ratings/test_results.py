"""The pure part of a game's end (``raspisnoy.ratings``): a stored game rebuilt from its
events is the game that was played; its end holds each seat's summary and, for a rated
table only, the rating arithmetic, which moves people as OpenSkill does and never bots."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.core import Deal, Game, resolve_rules
from raspisnoy.ratings import (
    BOT_RATINGS,
    DEFAULT_RATING,
    displayed,
    game_end,
    rate_game,
    rebuild_game,
    summarize,
)
from raspisnoy.ratings.results import NEWCOMER, rate_seats
from raspisnoy.store import EventRow, RatedSeat, SeatRow, StoredRating, TableRow

SHORT: dict[str, object] = {"preset": "raspisnoy.com", "custom_plan": ["1", "2", "3"]}


def played(seed: int, rules: str | dict[str, object] = "raspisnoy.com") -> Game:
    game = Game(resolve_rules(rules), ("P1", "P2", "P3", "P4"), seed=f"s{seed}")
    chooser = random.Random(seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()), game.to_act)
    return game


def table_of(
    game: Game, seed: int, *, rated: bool, rules: dict[str, object] | None = None
) -> TableRow:
    seats = tuple(
        SeatRow(n, "anna" if n == 0 else None, "Anna" if n == 0 else None, "random", True)
        for n in range(4)
    )
    return TableRow(
        id="t1",
        host_id="anna",
        status="playing",
        public=True,
        rules=rules or resolve_rules("raspisnoy.com").to_json(),
        seats=seats,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed=f"s{seed}",
        names=game.names,
        first_dealer=game.rounds()[0].dealer,
        created_at=datetime.now(UTC),
        started_at=None,
        finished_at=None,
        rated=rated,
    )


def events_of(game: Game) -> list[EventRow]:
    actions = [e for e in game.events if not isinstance(e.action, Deal)]
    return [
        EventRow("t1", n + 1, e.seat, str(e.action), None)
        for n, e in enumerate(actions)
        if e.seat is not None
    ]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_game_rebuilt_from_its_events_is_the_game_played(seed: int) -> None:
    game = played(seed, SHORT)
    table = table_of(game, seed, rated=False, rules=resolve_rules(SHORT).to_json())
    rebuilt = rebuild_game(table, events_of(game))
    assert rebuilt.is_over and rebuilt.totals == game.totals
    assert rebuilt.view(None) == game.view(None)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_an_end_holds_every_seats_summary(seed: int) -> None:
    game = played(seed, SHORT)
    end = game_end(table_of(game, seed, rated=False, rules=resolve_rules(SHORT).to_json()), game)
    summaries = summarize(game)
    assert [f["points"] for f in end.figures] == list(game.totals)
    assert [f["place"] for f in end.figures] == [s.place for s in summaries]
    assert min(f["place"] for f in end.figures) == 1
    assert end.rate is None  # custom rules are never rated


def test_only_a_rated_table_of_a_presets_own_rules_gets_the_arithmetic() -> None:
    seed = 1
    game = played(seed)
    assert game_end(table_of(game, seed, rated=False), game).rate is None
    end = game_end(table_of(game, seed, rated=True), game)
    assert end.rate is not None and end.newcomer == NEWCOMER
    assert NEWCOMER.display == displayed(DEFAULT_RATING) == 1000


def test_the_arithmetic_moves_people_as_openskill_does_and_never_bots() -> None:
    totals = (120, 40, -10, 75)
    seats = [RatedSeat("anna", "random"), RatedSeat(None, "expert")]
    seats += [RatedSeat(None, "random"), RatedSeat("boris", "beginner")]
    before = {"anna": NEWCOMER, "boris": StoredRating(30.0, 5.0, 1300)}
    after = rate_seats(totals, seats, before)
    assert set(after) == {"anna", "boris"}
    expected = rate_game(
        [
            DEFAULT_RATING,
            BOT_RATINGS["expert"],
            BOT_RATINGS["random"],
            type(DEFAULT_RATING)(30.0, 5.0),
        ],
        totals,
        [False, True, True, False],
    )
    for user, rating in (("anna", expected[0]), ("boris", expected[3])):
        assert (after[user].mu, after[user].sigma) == (rating.mu, rating.sigma)
        assert after[user].display == displayed(rating)
    assert after["anna"].mu > NEWCOMER.mu  # she won
