"""The set of 500 puzzles built by ``raspisnoy puzzles generate`` (docs/review.md,
"Puzzles"): the count asked for, no puzzle twice, and each one verified: its best move is
legal and solves it, its theme and id are its own, it names no card outside its seat's
view and no person (its seats are ``Player 1``…, as every puzzle's), and the deeper,
verifying search confirms it again (every puzzle of a deterministic sample of the set;
the whole set's verification is the building itself)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from puzzle_set import COUNT, SEED, puzzle_set

from raspisnoy.core import Card, player_names
from raspisnoy.puzzles import Mining, Puzzle, Theme, is_solution, verify, view_to_json
from raspisnoy.puzzles.sets import read_puzzle_set

#: Every how many puzzles of the set the verifying search is run again.
SAMPLE_EVERY = 25


@pytest.fixture(scope="session")
def puzzle_json() -> list[dict[str, Any]]:
    path, cpu = puzzle_set()
    if cpu is not None:
        print(f"\nbuilt {COUNT} puzzles in {cpu:.1f} s of CPU: {path}")
    return read_puzzle_set(path)


@pytest.fixture(scope="session")
def puzzles(puzzle_json: list[dict[str, Any]]) -> list[Puzzle]:
    return [Puzzle.from_json(data) for data in puzzle_json]


def test_the_set_has_the_count_and_no_puzzle_twice(
    puzzle_json: list[dict[str, Any]], puzzles: list[Puzzle]
) -> None:
    assert len(puzzles) == COUNT
    assert len({puzzle.id for puzzle in puzzles}) == COUNT
    positions = {json.dumps(view_to_json(puzzle.view), sort_keys=True) for puzzle in puzzles}
    assert len(positions) == COUNT  # no position twice either, under another move
    assert [data["id"] for data in puzzle_json] == [puzzle.id for puzzle in puzzles]


def test_each_puzzle_is_whole_and_its_own(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        view = puzzle.view
        assert puzzle.best in view.legal_actions and is_solution(puzzle, puzzle.best)
        assert len(view.legal_actions) >= 2
        assert puzzle.theme is Theme.of(view, puzzle.best)
        assert Puzzle.from_json(puzzle.to_json()) == puzzle
        seen = set(view.hand or ()) | {c for hand in view.shown_hands if hand for c in hand}
        seen |= {play.card for trick in (*view.tricks, view.trick) for play in trick.plays}
        seen |= {view.trump_card} if view.trump_card is not None else set()
        named = {Card.parse(text.split(":")[0]) for text in map(str, view.legal_actions)
                 if not text.isdigit()}  # fmt: skip
        assert named <= seen, f"{puzzle.id} names cards its seat never saw"


def test_the_set_names_its_seats_as_every_puzzle_does(puzzle_json: list[dict[str, Any]]) -> None:
    """One format for the set and the puzzles mined from games: neutral seat names."""
    assert {tuple(data["view"]["names"]) for data in puzzle_json} == {player_names(4)}


def test_the_set_has_more_than_one_theme(puzzles: list[Puzzle]) -> None:
    themes = {puzzle.theme for puzzle in puzzles}
    assert {Theme.BID, Theme.PLAY} <= themes and len(themes) >= 4


@pytest.mark.parametrize("index", range(0, COUNT, SAMPLE_EVERY))
def test_the_verifying_search_confirms_the_puzzle_again(puzzles: list[Puzzle], index: int) -> None:
    puzzle = puzzles[index]
    choices = verify(puzzle.view, puzzle.best, Mining(seed=int(SEED)))
    assert choices is not None, puzzle.id
    assert choices[0].action == puzzle.best
