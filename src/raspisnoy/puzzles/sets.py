"""A set of puzzles in a file (``raspisnoy-puzzles/1``): what ``raspisnoy puzzles
generate`` writes and the server loads into an empty database (docs/review.md, "The
puzzle set")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from raspisnoy.core import InvalidInputError
from raspisnoy.puzzles.mining import Puzzle

__all__ = ["PUZZLE_SET_FORMAT", "read_puzzle_set"]

PUZZLE_SET_FORMAT = "raspisnoy-puzzles/1"


def read_puzzle_set(path: Path) -> list[dict[str, Any]]:
    """The puzzles of a file that ``generate`` wrote, each checked to parse as a
    ``Puzzle``; ``InvalidInputError`` for a file of another format."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != PUZZLE_SET_FORMAT:
        raise InvalidInputError(f"{path} is not a set of puzzles of format {PUZZLE_SET_FORMAT}")
    puzzles: list[dict[str, Any]] = data["puzzles"]
    for puzzle in puzzles:
        Puzzle.from_json(puzzle)
    return puzzles
