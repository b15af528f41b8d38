"""Puzzles in the store (docs/review.md, "Puzzles on the server"): stored once each, the
next one is the nearest rated that a person never answered, one answer per person and
puzzle (a second is refused and changes nothing), a rated answer moves both ratings in
one transaction, the daily puzzle is the same all day however the set grows, and mining
claims only the finished games anyone may know of."""

from __future__ import annotations

import copy
import hashlib
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fresh_databases import BACKENDS, new_database
from hypothesis import given
from hypothesis import strategies as st
from puzzle_positions import puzzles_with_states
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from store_helpers import in_club, people
from test_store import migrate_to
from test_store_clubs import new_club
from test_store_players import finished_game

from raspisnoy.core import player_names
from raspisnoy.puzzles import Puzzle
from raspisnoy.store import AlreadyAnsweredError, ClubStore, PuzzleStore, RatingPair, Store
from raspisnoy.store.models import User
from raspisnoy.store.puzzles import (
    MINING_STALE,
    DailyPuzzle,
    PuzzleAttempt,
    StoredPuzzle,
    day_index,
)

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
    tournament's), though they ended first: a puzzle shows anyone a seat's hand."""
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


#: The names at the seats of two finished games, as puzzles mined before 0028 kept them.
PEOPLE = ["Anna Gone", "Boris Here", "Vera Here", "Gleb Here"]
OTHERS = ["Dana Gone", "Egor Here", "Zoya Here", "Ilya Here"]
NOW = datetime(2026, 12, 7, tzinfo=UTC)


def mined_before(data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A puzzle as the miner stored it before revision 0028: the seats' names in its view
    and in its id (a digest of the view and the move)."""
    old = copy.deepcopy(data)
    old["view"]["names"] = names
    text = json.dumps([old["view"], old["best"]], sort_keys=True)
    old["id"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return old


def stored(data: dict[str, Any], attempts: int = 0, solved: int = 0) -> StoredPuzzle:
    return StoredPuzzle(
        id=data["id"],
        theme=data["theme"],
        data=data,
        source="game",
        mu=25.0,
        sigma=8.0,
        attempts=attempts,
        solved=solved,
        added_at=NOW,
    )


def attempt(puzzle_id: str, user_id: str, solved: bool, rated: bool) -> PuzzleAttempt:
    mu = 25.0 if rated else None
    return PuzzleAttempt(
        puzzle_id=puzzle_id,
        user_id=user_id,
        answer="0",
        solved=solved,
        mu_before=mu,
        sigma_before=mu,
        mu_after=mu,
        sigma_after=mu,
        answered_at=NOW,
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_migration_0028_takes_people_s_names_out_of_the_stored_puzzles(
    backend: str, tmp_path: Path
) -> None:
    """A puzzle mined from a game before revision 0028 kept its players' names, in its
    view and in its id (a digest of them, which would confirm a guessed name): the
    migration gives its seats the neutral names and the puzzle the id of its position,
    its answers and days following it; one whose position is stored already (the same
    position from another game, or self-play) becomes that one. A self-play puzzle (its
    names neutral already) and one stored without names stay as they are."""
    plain, other, bare = (copy.deepcopy(data) for data in puzzle_json()[:3])
    named, twin = mined_before(other, PEOPLE), mined_before(plain, OTHERS)
    del bare["view"]["names"]
    with new_database(backend, tmp_path) as url:
        migrate_to(url, "0027")
        engine = create_engine(url)
        with Session(engine) as session, session.begin():
            for user_id in ("anna", "boris"):
                session.add(User(id=user_id, nickname=user_id, kind="registered", created_at=NOW))
            session.add_all([stored(plain), stored(named, 1, 0), stored(twin, 1, 1), stored(bare)])
            session.flush()
            session.add_all(
                [
                    attempt(plain["id"], "boris", False, rated=False),
                    attempt(named["id"], "anna", False, rated=True),
                    attempt(twin["id"], "anna", True, rated=True),
                    attempt(twin["id"], "boris", True, rated=False),  # answered plain too
                    DailyPuzzle(day="2026-12-01", puzzle_id=named["id"]),
                    DailyPuzzle(day="2026-12-02", puzzle_id=twin["id"]),
                ]
            )
        engine.dispose()

        store = Store.open(url)
        with Session(store.engine) as session:
            rows = {row.id: row for row in session.scalars(select(StoredPuzzle))}
            answers = {
                (a.puzzle_id, a.user_id): a.solved for a in session.scalars(select(PuzzleAttempt))
            }
            query = select(DailyPuzzle.day, DailyPuzzle.puzzle_id)
            days = {row.day: row.puzzle_id for row in session.execute(query)}
        store.close()

    text = json.dumps([row.data for row in rows.values()])
    assert not [name for name in PEOPLE + OTHERS if name in text]
    renamed = Puzzle.from_json(rows[other["id"]].data)
    assert renamed.id == other["id"] == rows[other["id"]].data["id"]  # its position's id
    assert rows[other["id"]].data["view"]["names"] == list(player_names(4))
    assert set(rows) == {plain["id"], other["id"], bare["id"]}  # the twin is the plain one
    assert rows[plain["id"]].data == plain and rows[bare["id"]].data == bare
    assert Puzzle.from_json(bare).view.names == player_names(4)  # read without names
    assert (rows[other["id"]].attempts, rows[other["id"]].solved) == (1, 0)
    assert (rows[plain["id"]].attempts, rows[plain["id"]].solved) == (1, 1)  # Anna's, rated
    assert answers == {
        (plain["id"], "boris"): False,  # his own answer to it, not the twin's
        (plain["id"], "anna"): True,
        (other["id"], "anna"): False,
    }
    assert days == {"2026-12-01": other["id"], "2026-12-02": plain["id"]}
