"""Puzzles for the store's and the server's tests, each with the full game state of its
moment (which the puzzle itself never holds), so a leak test can judge an answer against
every card the solver's seat could not know.

The positions come from a short game of heuristic bots (a misère and a golden round
among them, so several themes), each made a puzzle by the miner's own ``puzzle_of``
with small budgets; the results are kept per process (``functools.cache``)."""

from __future__ import annotations

from functools import cache

from raspisnoy.bots import make_bot
from raspisnoy.core import Game, Phase, resolve_rules
from raspisnoy.puzzles import Mining, Puzzle, puzzle_of
from raspisnoy.store import PuzzleStore, RatingPair, Store

#: Small budgets: a puzzle in a fraction of a second, verified by a deeper search.
SMALL = Mining(self_play=64, screen=400, verify=1600, seed=5)
#: A short game with a misère and a golden round.
PLAN = ("2", "3", "4:misere", "4:golden", "5")


@cache
def puzzles_with_states(seed: int = 1) -> tuple[tuple[Puzzle, Game], ...]:
    """Every puzzle ``puzzle_of`` finds in one game of heuristic bots (``seed``), each
    with a copy of the game at its moment."""
    game = Game(resolve_rules(custom_plan=PLAN), 4, seed=seed)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    found: list[tuple[Puzzle, Game]] = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view.phase in (Phase.BID, Phase.PLAY) and len(view.legal_actions) > 1:
            puzzle = puzzle_of(view, SMALL)
            if puzzle is not None:
                found.append((puzzle, game.clone()))
        game.apply(bots[seat].act(view), seat)
    return tuple(found)


def store_test_puzzles(store: Store) -> int:
    """Store ``puzzles_with_states()``'s puzzles (at OpenSkill's starting rating, as the
    server stores puzzles); how many."""
    data = [puzzle.to_json() for puzzle, _ in puzzles_with_states()]
    return PuzzleStore(store, RatingPair(25.0, 25.0 / 3)).add(data, "self-play")
