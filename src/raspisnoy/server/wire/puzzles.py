"""Puzzles on the wire (docs/PROTOCOL.md, "Puzzles"): the answer to an attempt, a puzzle
as the solver sees it and a person's puzzle rating. A puzzle's ``game`` is its seat's
``View`` in the table's format (``messages.view_json``), so the page draws it with the
table's own components; its solution and reason are only ever in a ``VerdictOut``,
which a person gets once they have answered. A puzzle names nobody: its seats are
``Player 1``… (``names``), which the page words in the reader's language.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from raspisnoy.core import player_names
from raspisnoy.puzzles import Puzzle
from raspisnoy.puzzles.rating import PuzzleRating, shown
from raspisnoy.server.wire.messages import action_text, view_json
from raspisnoy.store import AttemptRow, PuzzleRow, RatingPair, SolverRow

__all__ = [
    "AnswerIn",
    "PuzzleOut",
    "PuzzleRatingOut",
    "PuzzleSettings",
    "RatingChangeOut",
    "VerdictOut",
    "shown_of",
]


class AnswerIn(BaseModel):
    """An answer to a puzzle: a bid or a card in RECORD.md notation, as in the puzzle's
    ``legal`` list (``2``, ``AS``, ``X:take``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    move: str = Field(max_length=16)


class PuzzleSettings(BaseModel):
    """A person's puzzle settings, asked and answered in the same shape:
    ``from_my_games``, whether puzzles may be mined from their seats in finished games."""

    model_config = ConfigDict(extra="forbid", strict=True)
    from_my_games: bool


def shown_of(rating: RatingPair) -> int:
    """The puzzle rating players see of a stored rating (``puzzles.rating.shown``)."""
    return shown(PuzzleRating(rating.mu, rating.sigma))


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RatingChangeOut(_Out):
    """An account's puzzle rating before and after one answer, as players see it."""

    before: int
    after: int
    change: int

    @classmethod
    def of(cls, before: RatingPair, after: RatingPair) -> RatingChangeOut:
        old, new = shown_of(before), shown_of(after)
        return cls(before=old, after=new, change=new - old)


class VerdictOut(_Out):
    """The verdict on one answer: solved or not, the best move, why it is best (a
    reason's ``code`` and ``params``, docs/review.md, worded by the client) and, for an
    account, its puzzle rating's change (``null`` for a guest: guests are not rated)."""

    puzzle: str
    answer: str
    solved: bool
    best: str
    reason: dict[str, Any]
    rating: RatingChangeOut | None

    @classmethod
    def of(cls, puzzle: Puzzle, attempt: AttemptRow) -> VerdictOut:
        before, after = attempt.before, attempt.after
        change = None if before is None or after is None else RatingChangeOut.of(before, after)
        return cls(
            puzzle=attempt.puzzle_id,
            answer=attempt.answer,
            solved=attempt.solved,
            best=action_text(puzzle.best),
            reason=puzzle.reason.to_json(),
            rating=change,
        )


class PuzzleOut(_Out):
    """A puzzle as its solver sees it: the seat's view of the position (``game``, the
    table's format) with the seats' neutral names (``Player 1``…: never the people who
    sat there) and the rules (``Rules.to_json()``), its theme and rating, the day when it
    is that day's puzzle, and the caller's verdict if they answered it already (``null``
    before: nothing in it hints at the solution)."""

    id: str
    theme: str
    rating: int
    rules: dict[str, Any]
    names: list[str]
    game: dict[str, Any]
    day: str | None
    verdict: VerdictOut | None

    @classmethod
    def of(
        cls, row: PuzzleRow, puzzle: Puzzle, attempt: AttemptRow | None, day: str | None = None
    ) -> PuzzleOut:
        view = puzzle.view
        return cls(
            id=row.id,
            theme=row.theme,
            rating=shown_of(row.rating),
            rules=view.rules.to_json(),
            names=list(player_names(view.players)),
            game=view_json(view),
            day=day,
            verdict=None if attempt is None else VerdictOut.of(puzzle, attempt),
        )


class PuzzleRatingOut(_Out):
    """A person's puzzle rating: as players see it, the model's mean and spread, the
    rated answers and how many solved; ``rated`` is false for a guest (never rated)."""

    rated: bool
    rating: int
    mu: float
    sigma: float
    attempts: int
    solved: int

    @classmethod
    def of(cls, solver: SolverRow, rated: bool) -> PuzzleRatingOut:
        return cls(
            rated=rated,
            rating=shown_of(solver.rating),
            mu=round(solver.rating.mu, 3),
            sigma=round(solver.rating.sigma, 3),
            attempts=solver.attempts,
            solved=solver.solved,
        )
