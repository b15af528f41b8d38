"""The pure part of a game's end (``raspisnoy.ratings``): a stored game rebuilt from its
events is the game that was played; its end holds each seat's summary and, for a rated
table only, the rating arithmetic, which moves people as OpenSkill does and never bots."""

from __future__ import annotations

import random
from collections.abc import Callable
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
from raspisnoy.ratings.results import (
    ABANDON_RUN,
    NEWCOMER,
    TABLE_RATING,
    abandoned_by_person,
    played_by_person,
    rank_points,
    rate_seats,
)
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


def events_of(
    game: Game, by_person: Callable[[int, int], bool] = lambda _n, _seat: False
) -> list[EventRow]:
    """The game's stored actions; ``by_person(n, seat)``: whether the ``n``-th action (of
    seat ``seat``) was sent by the seat's person (with a client id), not by a bot."""
    actions = [
        (e.seat, str(e.action))
        for e in game.events
        if not isinstance(e.action, Deal) and e.seat is not None
    ]
    return [
        EventRow("t1", n + 1, seat, action, f"c{n}" if by_person(n, seat) else None)
        for n, (seat, action) in enumerate(actions)
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
    table = table_of(game, seed, rated=False, rules=resolve_rules(SHORT).to_json())
    end = game_end(table, game, events_of(game))
    summaries = summarize(game)
    assert [f["points"] for f in end.figures] == list(game.totals)
    assert [f["place"] for f in end.figures] == [s.place for s in summaries]
    assert min(f["place"] for f in end.figures) == 1
    assert end.rating is None and end.ranks == ()  # custom rules are never rated


def test_only_a_rated_table_of_a_presets_own_rules_gets_the_arithmetic() -> None:
    seed = 1
    game = played(seed)
    assert game_end(table_of(game, seed, rated=False), game, events_of(game)).rating is None
    end = game_end(table_of(game, seed, rated=True), game, events_of(game))
    assert end.rating is TABLE_RATING and end.rating.newcomer == NEWCOMER
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


def test_rank_points_put_a_seat_its_person_left_last_and_never_a_bots() -> None:
    """A person's seat the stand-in mostly played ranks below every seat, whatever its
    total; a bot's seat, which no person plays, keeps its total."""
    totals, played = (50, 80, -20, 10), (True, False, False, True)
    assert rank_points(totals, played, (False, False, True, True)) == (50, -21, -20, 10)
    assert rank_points(totals, played, (False, False, False, False)) == (50, -21, -21, 10)


def anna_after(game: Game, events: list[EventRow]) -> StoredRating:
    """Anna's (seat 0's) rating after ``game`` at a rated table, against three random bots."""
    end = game_end(table_of(game, 1, rated=True), game, events)
    assert end.rating is not None
    seats = [RatedSeat("anna", "random"), *[RatedSeat(None, "random")] * 3]
    return end.rating.rate(end.ranks, seats, {"anna": NEWCOMER})["anna"]


def winning_game() -> Game:
    """A played game whose seat 0 finishes first."""
    return next(game for seed in range(100) if (game := played(seed)).winners() == (0,))


def test_a_seat_the_stand_in_played_is_rated_last_even_when_it_won() -> None:
    game = winning_game()
    own = anna_after(game, events_of(game, lambda _n, seat: seat == 0))
    left = anna_after(game, events_of(game))  # the stand-in made every action of seat 0
    assert own.mu > NEWCOMER.mu  # she won, playing herself
    assert left.mu < NEWCOMER.mu  # the same seat, played by the stand-in: last
    expected = rate_game(
        [DEFAULT_RATING, *[BOT_RATINGS["random"]] * 3],
        [min(game.totals) - 1, *game.totals[1:]],
        [False, True, True, True],
    )[0]
    assert (left.mu, left.sigma) == (expected.mu, expected.sigma)


def test_a_seat_its_person_played_half_of_counts_as_played() -> None:
    game = winning_game()
    actions = sum(1 for e in events_of(game) if e.seat == 0)
    mine: list[int] = []

    def first_half(_n: int, seat: int) -> bool:
        if seat != 0:
            return False
        mine.append(seat)
        return len(mine) <= (actions + 1) // 2

    assert anna_after(game, events_of(game, first_half)).mu > NEWCOMER.mu


@settings(max_examples=30, deadline=None)
@given(shares=st.lists(st.integers(0, 4), min_size=4, max_size=4))
def test_played_by_person_is_at_least_half_of_each_seats_actions(shares: list[int]) -> None:
    game = played(2, SHORT)
    events = events_of(game, lambda n, seat: n % 4 < shares[seat])
    by_person = played_by_person(events, 4)
    for seat in range(4):
        made = [e for e in events if e.seat == seat]
        own = [e for e in made if e.client_id is not None]
        assert by_person[seat] == (2 * len(own) >= len(made))


def anna_at_a_pool_table(game: Game, events: list[EventRow]) -> StoredRating:
    """Anna's rating after ``game`` at a rated pool table (abandoning ranks last)."""
    end = game_end(table_of(game, 1, rated=True), game, events, abandon_last=True)
    assert end.rating is not None
    seats = [RatedSeat("anna", "random"), *[RatedSeat(None, "random")] * 3]
    return end.rating.rate(end.ranks, seats, {"anna": NEWCOMER})["anna"]


def test_abandoning_a_pool_game_ranks_last_and_a_short_absence_does_not() -> None:
    """Anna wins; at a pool table, leaving her last ``ABANDON_RUN`` actions to the stand-in
    is abandoning (last), one fewer is not; elsewhere the same game counts as played."""
    game = winning_game()
    mine = [n for n, e in enumerate(events_of(game)) if e.seat == 0]

    def gone_for(count: int) -> list[EventRow]:
        return events_of(game, lambda n, seat: seat == 0 and n < mine[-count])

    assert anna_at_a_pool_table(game, gone_for(ABANDON_RUN - 1)).mu > NEWCOMER.mu
    assert anna_at_a_pool_table(game, gone_for(ABANDON_RUN)).mu < NEWCOMER.mu
    assert anna_after(game, gone_for(ABANDON_RUN)).mu > NEWCOMER.mu  # not a pool table


@settings(max_examples=30, deadline=None)
@given(last_own=st.lists(st.integers(-1, 30), min_size=4, max_size=4))
def test_abandoned_is_a_run_of_actions_without_the_person_up_to_the_end(
    last_own: list[int],
) -> None:
    game = played(3, SHORT)
    events = events_of(game, lambda n, seat: n <= last_own[seat])
    gone = abandoned_by_person(events, 4)
    for seat in range(4):
        made = [e for e in events if e.seat == seat]
        own = [i for i, e in enumerate(made) if e.client_id is not None]
        trailing = len(made) - 1 - own[-1] if own else len(made)
        assert gone[seat] == (trailing >= ABANDON_RUN)
