"""Puzzles («задачи») from real positions (docs/review.md, "Puzzles").

``mine_puzzles(count, rules, mining)`` plays games of expert self-play and keeps the
decisions where one move is clearly best, confirmed by a deeper search (``verify``); a
``Puzzle`` keeps only the solver's seat view, the best move, its reason and a theme.
Pure Python over ``raspisnoy.core``, ``raspisnoy.bots`` and ``raspisnoy.review``; the
puzzle rating (``rating``) is OpenSkill's duel of solver and puzzle;
``raspisnoy puzzles generate`` (``command``) writes a set of them to a file.
"""

from raspisnoy.puzzles.mining import (
    PUZZLE_FORMAT,
    Mining,
    Puzzle,
    Theme,
    game_puzzles,
    is_solution,
    mine_puzzles,
    puzzle_of,
    verify,
    view_from_json,
    view_to_json,
)

__all__ = [
    "PUZZLE_FORMAT",
    "Mining",
    "Puzzle",
    "Theme",
    "game_puzzles",
    "is_solution",
    "mine_puzzles",
    "puzzle_of",
    "verify",
    "view_from_json",
    "view_to_json",
]
