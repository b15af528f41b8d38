"""Puzzles on the server (docs/review.md, "Puzzles on the server"): what the puzzle
routes call. ``PuzzleDesk`` serves a person the next puzzle (rated nearest their puzzle
rating, never one they answered, of the themes they chose), the daily puzzle (the same
for everyone that UTC day: ``store.puzzles``) and one puzzle by id, judges an answer and
rates it, and says a person's puzzle rating.

What a solver sees before answering is the puzzle's seat view and nothing else
(``wire.puzzles.PuzzleOut``; its seats named ``Player 1``…, never by a person's name, so
an account's deletion has nothing to take out of puzzles): the best move and its reason
come only with the verdict, which is kept, so an answer cannot be taken back and tried
again. Anyone with a session, a guest too, may answer; only accounts are rated (a
guest's answer is kept, so they are not served that puzzle again, but it moves no
rating), as only accounts have game ratings.

At start (``start``), a server whose database holds no puzzles of a set (those mined
from its games do not count) loads the set of ``settings.puzzle_file`` (by default
``puzzles.json`` in the data directory), in a thread beside the requests, with a log
line; several workers loading at once store each puzzle once. Until that file is there
the server looks for it every few seconds: ``scripts/serve`` builds it with ``raspisnoy
puzzles generate`` beside the server at the first start, so the server answers at once
and its puzzles come a few minutes later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from raspisnoy.core import parse_action
from raspisnoy.puzzles import Puzzle, Theme, is_solution
from raspisnoy.puzzles.rating import NEW_RATING, PuzzleRating, rate_attempt
from raspisnoy.puzzles.sets import read_puzzle_set
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    PuzzleOut,
    PuzzleRatingOut,
    PuzzleSettings,
    VerdictOut,
    action_text,
)
from raspisnoy.store import AlreadyAnsweredError, PuzzleRow, PuzzleStore, RatingPair, UserRow

__all__ = ["NEW_PAIR", "PuzzleDesk", "load_set", "rater"]

_log = logging.getLogger(__name__)

#: The source the store gives the puzzles of a set file (mined ones are "game"'s).
SET_SOURCE = "self-play"
#: How often a server whose puzzle set file is not there yet looks for it, in seconds.
SET_FILE_POLL_SECONDS = 2.0

#: A new solver's and a new puzzle's rating, as the store keeps it.
NEW_PAIR = RatingPair(NEW_RATING.mu, NEW_RATING.sigma)


def rater(solved: bool) -> Callable[[RatingPair, RatingPair], tuple[RatingPair, RatingPair]]:
    """The store's rating step of one answer: OpenSkill's duel of solver and puzzle
    (``puzzles.rating.rate_attempt``), won by the solver if ``solved``."""

    def rate(solver: RatingPair, puzzle: RatingPair) -> tuple[RatingPair, RatingPair]:
        after, puzzle_after = rate_attempt(
            PuzzleRating(solver.mu, solver.sigma), PuzzleRating(puzzle.mu, puzzle.sigma), solved
        )
        return RatingPair(after.mu, after.sigma), RatingPair(puzzle_after.mu, puzzle_after.sigma)

    return rate


def load_set(puzzles: PuzzleStore, path: Path) -> int | None:
    """Store the puzzles of the file ``path`` when the store has none of a set (how many
    were added), else nothing (``None``); nothing either when there is no such file.
    Puzzles mined from the server's games do not count: they may come first."""
    if not path.is_file() or puzzles.count(SET_SOURCE) > 0:
        return None
    return puzzles.add(read_puzzle_set(path), SET_SOURCE)


def _none_yet() -> RequestError:
    """The refusal while the server has no puzzles at all (its set is still being built:
    module docstring), which is not "you answered them all"."""
    return RequestError(Refusal.NO_PUZZLES_YET, "there are no puzzles on this server yet")


class PuzzleDesk:
    """The puzzles' service (module docstring)."""

    def __init__(self, puzzles: PuzzleStore, settings: ServerSettings) -> None:
        self._puzzles = puzzles
        self._file = settings.puzzle_file or settings.data_dir / "puzzles.json"
        self._loading: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Load the puzzle set into an empty database, beside the requests."""
        self._loading = asyncio.create_task(self._load_set(), name="puzzle set")

    async def stop(self) -> None:
        if self._loading is not None:
            self._loading.cancel()

    async def _load_set(self) -> None:
        """Load the set once its file is there (module docstring)."""
        if not self._file.is_file():
            _log.info("puzzles: none until %s is there (scripts/serve builds it)", self._file)
            while not self._file.is_file():
                await asyncio.sleep(SET_FILE_POLL_SECONDS)
        try:
            added = await in_thread(load_set, self._puzzles, self._file)
        except Exception:  # a bad file must not stop the server: it serves no puzzles
            _log.exception("puzzles: could not load %s", self._file)
            return
        if added is not None:
            _log.info("puzzles: %d added from %s", added, self._file)

    async def next(self, user: UserRow | None, themes: list[Theme] | None) -> PuzzleOut:
        """The puzzle rated nearest the caller's puzzle rating that they never answered,
        of ``themes`` if given; refused when none is left."""
        rating = NEW_PAIR
        if user is not None and user.is_account:
            rating = (await in_thread(self._puzzles.solver, user.id)).rating
        wanted = None if not themes else [str(theme) for theme in themes]
        user_id = None if user is None else user.id
        row = await in_thread(self._puzzles.next_for, user_id, rating, wanted)
        if row is None:
            if await in_thread(self._puzzles.count) == 0:
                raise _none_yet()
            raise RequestError(
                Refusal.NO_PUZZLES_LEFT,
                "no puzzle left that you have not answered"
                + ("" if wanted is None else f" of the themes {', '.join(wanted)}"),
            )
        return await self._out(row, user)

    async def daily(self, user: UserRow | None) -> PuzzleOut:
        """The puzzle of today (UTC), the same for everyone."""
        today = datetime.now(UTC).date()
        row = await in_thread(self._puzzles.daily, today)
        if row is None:  # (only while there are none)
            raise _none_yet()
        return await self._out(row, user, today.isoformat())

    async def show(self, puzzle_id: str, user: UserRow | None) -> PuzzleOut:
        """One puzzle by its id, with the caller's verdict if they answered it."""
        return await self._out(await self._row(puzzle_id), user)

    async def answer(self, puzzle_id: str, user: UserRow, move: str) -> VerdictOut:
        """Judge and keep ``user``'s one answer to the puzzle (rated for an account);
        refused for an unknown puzzle, a move that is not one of its legal moves, and a
        second answer (nothing changes)."""
        row = await self._row(puzzle_id)
        puzzle = Puzzle.from_json(row.data)
        try:
            action = parse_action(move)
        except ValueError:  # InvalidInputError too
            action = None
        if action is None or action not in puzzle.view.legal_actions:
            raise RequestError(
                Refusal.PUZZLE_MOVE,
                f"{move!r} is not a legal move of puzzle {puzzle_id!r}",
                params={"move": move[:16]},
            )
        solved = is_solution(puzzle, action)
        rate = rater(solved) if user.is_account else None
        try:
            attempt = await in_thread(
                self._puzzles.answer, row.id, user.id, action_text(action), solved, rate
            )
        except AlreadyAnsweredError:
            raise RequestError(
                Refusal.PUZZLE_ANSWERED, f"you have answered puzzle {puzzle_id!r} already"
            ) from None
        return VerdictOut.of(puzzle, attempt)

    async def rating(self, user: UserRow) -> PuzzleRatingOut:
        """The caller's puzzle rating (a guest's is the starting one, never rated)."""
        solver = await in_thread(self._puzzles.solver, user.id)
        return PuzzleRatingOut.of(solver, user.is_account)

    async def settings(self, user: UserRow) -> PuzzleSettings:
        """Whether puzzles may be mined from ``user``'s seats in finished games."""
        out = await in_thread(self._puzzles.opted_out, [user.id])
        return PuzzleSettings(from_my_games=user.id not in out)

    async def change_settings(self, user: UserRow, wanted: PuzzleSettings) -> PuzzleSettings:
        """Opt ``user`` out of mining their games (or back in); games already mined keep
        their puzzles, later ones are mined by the new choice."""
        await in_thread(self._puzzles.set_opt_out, user.id, not wanted.from_my_games)
        return await self.settings(user)

    async def _row(self, puzzle_id: str) -> PuzzleRow:
        row = await in_thread(self._puzzles.get, puzzle_id)
        if row is None:
            raise RequestError(Refusal.NOT_FOUND, f"no puzzle {puzzle_id!r}")
        return row

    async def _out(self, row: PuzzleRow, user: UserRow | None, day: str | None = None) -> PuzzleOut:
        attempt = None
        if user is not None:
            attempt = await in_thread(self._puzzles.attempt_of, row.id, user.id)
        return PuzzleOut.of(row, Puzzle.from_json(row.data), attempt, day)
