"""Leak tests for puzzles (docs/review.md, "Puzzles on the server"): before a person
answers a puzzle, nothing the puzzle routes tell them (the next puzzle, the daily one,
the puzzle by id) names its solution or its reason, nor any card (or hidden trump) that
the solver's seat could not know, judged against the full game state of the puzzle's
moment (``leak_check``), not against the view the server stored; another person's answer
changes none of that; and the verdict, once given, names no hidden card either."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from leak_check import cards_in, check_trump, hidden_from
from puzzle_positions import puzzles_with_states, store_test_puzzles
from server_helpers import FAST, Api, Server

from raspisnoy.core import Game
from raspisnoy.puzzles import Puzzle
from raspisnoy.server.config import ServerSettings

Message = dict[str, Any]
#: Keys that would carry a solution or its reason.
SOLUTION_KEYS = {"best", "reason", "solved", "answer"}


@pytest.fixture(scope="module")
def puzzle_server(start_server: Callable[[ServerSettings], Server]) -> Server:
    """A server whose store holds the test puzzles."""
    server = start_server(FAST)
    store_test_puzzles(server.store)
    return server


def state_of(puzzle_id: str) -> tuple[Puzzle, Game]:
    return next((p, g) for p, g in puzzles_with_states() if p.id == puzzle_id)


def keys_in(value: Any) -> set[str]:
    """Every key of every object in a JSON value, with a value that is not null."""
    if isinstance(value, dict):
        own = {key for key, item in value.items() if item is not None}
        return own.union(*(keys_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_in(item) for item in value))
    return set()


def check_unanswered(answer: Message, where: str) -> None:
    """``answer`` (a ``PuzzleOut``) reveals neither the solution nor a hidden card."""
    puzzle, game = state_of(answer["id"])
    seat = puzzle.view.seat
    assert answer["verdict"] is None, where
    assert not keys_in(answer) & SOLUTION_KEYS, f"{where}: {keys_in(answer) & SOLUTION_KEYS}"
    assert answer["game"]["seat"] == seat
    leaked = cards_in(answer) & hidden_from(game, seat)
    assert not leaked, f"{where}: seat {seat} sees hidden cards {leaked}"
    check_trump(answer, game, where)


def test_no_puzzle_answer_reveals_the_solution_or_a_hidden_card(puzzle_server: Server) -> None:
    solver, other = Api(puzzle_server.base, "Solver"), Api(puzzle_server.base, "Other")
    daily = solver.http.get("/api/puzzles/daily").json()
    check_unanswered(daily, "daily")
    seen = set()
    for _ in puzzles_with_states():
        offered = solver.http.get("/api/puzzles/next").json()
        check_unanswered(offered, f"next {offered['id']}")
        # Another person answers it first: the solver still learns nothing of it.
        legal = offered["game"]["legal"]
        assert other.post(f"/api/puzzles/{offered['id']}/answer", move=legal[0]).status_code == 200
        again = solver.http.get(f"/api/puzzles/{offered['id']}").json()
        check_unanswered(again, f"puzzle {offered['id']} after another's answer")
        verdict = solver.post(f"/api/puzzles/{offered['id']}/answer", move=legal[-1]).json()
        puzzle, game = state_of(offered["id"])
        leaked = cards_in(verdict) & hidden_from(game, puzzle.view.seat)
        assert not leaked, f"the verdict on {offered['id']} names hidden cards {leaked}"
        seen.add(offered["id"])
    assert len(seen) == len(puzzles_with_states())


def test_the_check_finds_a_hidden_card_and_a_solution(puzzle_server: Server) -> None:
    offered = Api(puzzle_server.base).http.get("/api/puzzles/next").json()
    check_unanswered(offered, "as sent")
    puzzle, game = state_of(offered["id"])
    assert puzzle.view.seat is not None
    another = (puzzle.view.seat + 1) % game.players
    peeked = {**offered, "game": {**offered["game"], "hand": [str(c) for c in game.hand(another)]}}
    with pytest.raises(AssertionError, match="hidden cards"):
        check_unanswered(peeked, "peeked")
    with pytest.raises(AssertionError):
        check_unanswered({**offered, "names": [{"best": "0"}]}, "told")
