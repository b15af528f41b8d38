"""Puzzles in the store (docs/review.md, "Puzzles on the server"): stored once each, the
next one is the nearest rated that a person never answered, one answer per person and
puzzle (a second is refused and changes nothing), a rated answer moves both ratings in
one transaction, the daily puzzle is the same all day however the set grows, and mining
claims only the finished games anyone may know of."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from puzzle_positions import puzzles_with_states
from store_helpers import in_club, people
from test_store_clubs import new_club
from test_store_players import finished_game

from raspisnoy.store import AlreadyAnsweredError, ClubStore, PuzzleStore, RatingPair, Store
from raspisnoy.store.puzzles import MINING_STALE, day_index

NEW = RatingPair(25.0, 25.0 / 3)


def puzzle_json() -> list[dict[str, Any]]:
    return [puzzle.to_json() for puzzle, _ in puzzles_with_states()]


def person(store: Store, name: str) -> str:
    return store.create_user(name).id


def shifted(by: float) -> Any:
    """A rating step that moves the solver up by ``by`` and the puzzle down by it."""

    def rate(solver: RatingPair, puzzle: RatingPair) -> tuple[RatingPair, RatingPair]:
        return RatingPair(solver.mu + by, solver.sigma - 1), RatingPair(puzzle.mu - by, 1.0)

    return rate


def test_puzzles_are_stored_once_each(store: Store) -> None:
    puzzles = PuzzleStore(store, NEW)
    data = puzzle_json()
    assert puzzles.add(data, "self-play") == len(data)
    assert puzzles.add(data[:3], "self-play") == 0
    assert puzzles.count() == len(data)
    row = puzzles.get(data[0]["id"])
    assert row is not None
    assert row.data == data[0] and row.theme == data[0]["theme"] and row.rating == NEW
    assert puzzles.get("nope") is None


def test_the_next_puzzle_is_the_nearest_rated_not_answered(store: Store) -> None:
    puzzles = PuzzleStore(store, NEW)
    data = puzzle_json()
    puzzles.add(data, "self-play")
    anna, boris = person(store, "anna"), person(store, "boris")
    # Anna's answers move the puzzles they are about: the first goes down by 10, the
    # second by 3; a solver rated 15 is then served the first, one rated 22 the second.
    puzzles.answer(data[0]["id"], anna, "0", True, shifted(10.0))
    puzzles.answer(data[1]["id"], anna, "0", True, shifted(3.0))
    low = puzzles.next_for(boris, RatingPair(15.0, 5.0))
    near = puzzles.next_for(boris, RatingPair(22.0, 5.0))
    assert low is not None and low.id == data[0]["id"]
    assert near is not None and near.id == data[1]["id"]
    served = puzzles.next_for(anna, RatingPair(15.0, 5.0))
    assert served is not None and served.id not in {data[0]["id"], data[1]["id"]}


def test_a_theme_filter_serves_only_those_themes_then_none(store: Store) -> None:
    puzzles = PuzzleStore(store, NEW)
    data = puzzle_json()
    puzzles.add(data, "self-play")
    anna = person(store, "anna")
    misere = [p["id"] for p in data if p["theme"] == "misere"]
    assert misere
    for _ in misere:
        row = puzzles.next_for(anna, NEW, ["misere"])
        assert row is not None and row.theme == "misere"
        puzzles.answer(row.id, anna, "x", False, None)
    assert puzzles.next_for(anna, NEW, ["misere"]) is None
    assert puzzles.next_for(anna, NEW, ["misere", "golden"]) is not None


def test_one_answer_per_person_and_puzzle(store: Store) -> None:
    puzzles = PuzzleStore(store, NEW)
    data = puzzle_json()
    puzzles.add(data, "self-play")
    anna = person(store, "anna")
    first = puzzles.answer(data[0]["id"], anna, "0", True, shifted(2.0))
    assert first.solved and first.before == NEW
    assert first.after == RatingPair(NEW.mu + 2.0, NEW.sigma - 1)
    with pytest.raises(AlreadyAnsweredError):
        puzzles.answer(data[0]["id"], anna, "1", False, shifted(5.0))
    assert puzzles.attempt_of(data[0]["id"], anna) == first
    solver = puzzles.solver(anna)
    assert (solver.rating, solver.attempts, solver.solved) == (first.after, 1, 1)
    row = puzzles.get(data[0]["id"])
    assert row is not None
    assert (row.rating, row.attempts, row.solved) == (RatingPair(NEW.mu - 2.0, 1.0), 1, 1)


def test_an_unrated_answer_is_kept_but_moves_no_rating(store: Store) -> None:
    puzzles = PuzzleStore(store, NEW)
    data = puzzle_json()
    puzzles.add(data, "self-play")
    guest = person(store, "guest")
    attempt = puzzles.answer(data[0]["id"], guest, "0", False, None)
    assert (attempt.solved, attempt.before, attempt.after) == (False, None, None)
    assert puzzles.solver(guest).attempts == 0
    row = puzzles.get(data[0]["id"])
    assert row is not None and (row.rating, row.attempts) == (NEW, 0)


def test_the_daily_puzzle_is_the_same_all_day(store: Store) -> None:
    puzzles = PuzzleStore(store, NEW)
    day = date(2026, 12, 2)
    assert puzzles.daily(day) is None
    data = puzzle_json()
    puzzles.add(data[:4], "self-play")
    chosen = puzzles.daily(day)
    assert chosen is not None
    assert chosen.id == sorted(p["id"] for p in data[:4])[day_index(day, 4)]
    puzzles.add(data[4:], "self-play")  # more puzzles later that day: the same one
    again = puzzles.daily(day)
    assert again is not None and again.id == chosen.id


@given(st.dates(), st.integers(1, 10_000))
def test_the_day_picks_one_of_the_puzzles(day: date, count: int) -> None:
    assert 0 <= day_index(day, count) < count


def test_days_in_a_row_get_different_puzzles() -> None:
    picks = [day_index(date.fromordinal(date(2026, 1, 1).toordinal() + n), 500) for n in range(30)]
    assert len(set(picks)) >= 25


def test_mining_claims_only_games_anyone_may_know_of(store: Store) -> None:
    """Never a private table's game nor a club's (a public one too, as a club
    tournament's), though they ended first: a puzzle shows anyone a seat's hand and the
    players' names."""
    (host,) = people(store, "Host")
    clubs = ClubStore(store)
    games = [finished_game(store, host, public=public) for public in (False, True, True)]
    in_club(store, new_club(clubs, host.id, "Club"), games[1])
    puzzles = PuzzleStore(store, NEW)
    assert puzzles.claim_game("worker") == games[2]
    assert puzzles.claim_game("worker") is None


def test_a_game_a_dead_worker_was_mining_is_claimed_again(store: Store) -> None:
    """A worker killed while mining leaves its claim unfinished: after ``MINING_STALE``
    another worker claims the game again, once; a finished claim never is."""
    (host,) = people(store, "Host")
    first, second = finished_game(store, host), finished_game(store, host)
    puzzles = PuzzleStore(store, NEW)
    start = datetime.now(UTC)
    assert puzzles.claim_game("dead", start) == first
    assert puzzles.claim_game("busy", start) == second
    puzzles.finish_game(second, 0)
    soon = start + MINING_STALE / 2
    assert puzzles.claim_game("other", soon) is None  # the dead one may still be mining
    later = start + MINING_STALE + timedelta(seconds=1)
    assert puzzles.claim_game("other", later) == first
    assert puzzles.claim_game("third", later) is None  # taken over once
