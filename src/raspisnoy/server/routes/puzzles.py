"""Puzzles («задачи», docs/review.md, "Puzzles on the server"): the routes of
``services.puzzles.PuzzleDesk``, which serves puzzles, judges answers and rates them.
"""

from typing import Annotated

from fastapi import APIRouter, Query

from raspisnoy.puzzles import Theme
from raspisnoy.server.deps import CurrentUser, OptionalUser, ServicesDep
from raspisnoy.server.wire import (
    AnswerIn,
    PuzzleOut,
    PuzzleRatingOut,
    PuzzleSettings,
    VerdictOut,
)

__all__ = ["router"]

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])


@router.get("/next", response_model=PuzzleOut)
async def next_puzzle(
    user: OptionalUser,
    services: ServicesDep,
    theme: Annotated[list[Theme] | None, Query()] = None,
) -> PuzzleOut:
    """The puzzle rated nearest the caller's puzzle rating that they have not answered,
    of the ``theme``s given (repeat it for several), or any."""
    return await services.puzzle_desk.next(user, theme)


@router.get("/daily", response_model=PuzzleOut)
async def daily_puzzle(user: OptionalUser, services: ServicesDep) -> PuzzleOut:
    """Today's puzzle (UTC), the same for everyone."""
    return await services.puzzle_desk.daily(user)


@router.get("/rating", response_model=PuzzleRatingOut)
async def puzzle_rating(user: CurrentUser, services: ServicesDep) -> PuzzleRatingOut:
    """The caller's puzzle rating (a guest's is never rated)."""
    return await services.puzzle_desk.rating(user)


@router.get("/settings", response_model=PuzzleSettings)
async def puzzle_settings(user: CurrentUser, services: ServicesDep) -> PuzzleSettings:
    """The caller's puzzle settings: whether puzzles may be mined from their games."""
    return await services.puzzle_desk.settings(user)


@router.put("/settings", response_model=PuzzleSettings)
async def change_puzzle_settings(
    body: PuzzleSettings, user: CurrentUser, services: ServicesDep
) -> PuzzleSettings:
    """Opt out of puzzles mined from one's games (``from_my_games: false``), or back in."""
    return await services.puzzle_desk.change_settings(user, body)


@router.get("/{puzzle_id}", response_model=PuzzleOut)
async def show_puzzle(puzzle_id: str, user: OptionalUser, services: ServicesDep) -> PuzzleOut:
    """One puzzle, with the caller's verdict if they have answered it."""
    return await services.puzzle_desk.show(puzzle_id, user)


@router.post("/{puzzle_id}/answer", response_model=VerdictOut)
async def answer_puzzle(
    puzzle_id: str, body: AnswerIn, user: CurrentUser, services: ServicesDep
) -> VerdictOut:
    """Answer a puzzle once: solved or not, the best move, why, and (for an account) the
    puzzle rating's change. A second answer is refused."""
    return await services.puzzle_desk.answer(puzzle_id, user, body.move)
