"""Puzzles («задачи») on the server (docs/review.md, "Puzzles on the server"): the puzzles
themselves (the ``raspisnoy-puzzle/1`` JSON, its theme and its rating), each person's
answers to them, each person's puzzle rating, and the puzzle of each UTC day.

``PuzzleStore`` works on the ``Store``'s engine, each method in its own transaction, and
returns frozen values, as the repository does. How an answer is judged and rated is the
caller's business (``raspisnoy.server.services.puzzles``): ``answer`` takes the verdict
and a rating function, and applies it under row locks, so two answers at once (two
server workers, two tabs) never lose a rating change.

One answer per person and puzzle: the attempt's key is the pair, so a second answer is
refused by the database itself (``AlreadyAnsweredError``), whichever worker gets it.
Puzzles are also mined from finished games (``mined_games``: each finished game is
claimed once, by one worker, with a compare-and-set insert, and claimed again once its
claim has gone unfinished for ``MINING_STALE``, its worker dead), only those of public tables
that are not a club's, never from the seat of a person who opted out (``puzzle_opt_outs``).

The daily puzzle is chosen once per day from the puzzles stored then (the day's digest
picks one in the order of their ids) and kept in ``daily_puzzles``, so adding puzzles
later in the day does not change it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    exists,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from raspisnoy.store.clubs import known_to_all
from raspisnoy.store.models import Base, GameTable
from raspisnoy.store.repository import Store, StoreError, transaction

__all__ = [
    "AlreadyAnsweredError",
    "AttemptRow",
    "PuzzleRow",
    "PuzzleStore",
    "RatingPair",
    "SolverRow",
]


class StoredPuzzle(Base):
    """A verified puzzle: its JSON (``raspisnoy-puzzle/1``, docs/review.md), its theme,
    where it was mined (``self-play`` or ``game``) and its rating as a puzzle."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_theme_mu", "theme", "mu"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    theme: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(16))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: Answers of accounts (the rated ones) and how many of them solved it.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleAttempt(Base):
    """One person's answer to one puzzle (only one: the pair is the key), its verdict
    and, for an account, the solver's puzzle rating (mu) before and after it."""

    __tablename__ = "puzzle_attempts"

    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    answer: Mapped[str] = mapped_column(String(16))
    solved: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    answered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SolverRating(Base):
    """An account's puzzle rating, with its rated answers and how many solved."""

    __tablename__ = "puzzle_ratings"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class DailyPuzzle(Base):
    """The puzzle of one UTC day (``YYYY-MM-DD``), the same for everyone."""

    __tablename__ = "daily_puzzles"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"))


class PuzzleOptOut(Base):
    """A person who does not want puzzles made from their games' positions."""

    __tablename__ = "puzzle_opt_outs"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MinedGame(Base):
    """A finished game claimed for mining puzzles: by which worker, when, and once
    finished, how many puzzles it gave."""

    __tablename__ = "mined_games"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    worker: Mapped[str] = mapped_column(String(128))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    found: Mapped[int] = mapped_column(Integer, default=0)


class AlreadyAnsweredError(StoreError):
    """This person has answered this puzzle already."""


@dataclass(frozen=True, slots=True)
class RatingPair:
    """A rating as OpenSkill keeps it: ``mu`` (the mean) and ``sigma`` (how unsure)."""

    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    """A stored puzzle."""

    id: str
    theme: str
    data: dict[str, Any]
    source: str
    rating: RatingPair
    attempts: int
    solved: int


@dataclass(frozen=True, slots=True)
class AttemptRow:
    """A person's answer to a puzzle; ``before`` and ``after`` only for an account."""

    puzzle_id: str
    user_id: str
    answer: str
    solved: bool
    before: RatingPair | None
    after: RatingPair | None


@dataclass(frozen=True, slots=True)
class SolverRow:
    """A person's puzzle rating (the starting one if they never answered rated)."""

    rating: RatingPair
    attempts: int
    solved: int


#: Rates one answer: the solver's and the puzzle's ratings before → after.
Rate = Callable[[RatingPair, RatingPair], tuple[RatingPair, RatingPair]]


#: A claim for mining left without a result this long is taken for a dead worker's, and
#: the game is claimed again (mining a game takes minutes; mining it twice stores nothing
#: twice, since a puzzle's id is what it is: ``PuzzleStore.add``).
MINING_STALE = timedelta(hours=1)


def _now() -> datetime:
    return datetime.now(UTC)


def _puzzle_row(puzzle: StoredPuzzle) -> PuzzleRow:
    return PuzzleRow(
        id=puzzle.id,
        theme=puzzle.theme,
        data=dict(puzzle.data),
        source=puzzle.source,
        rating=RatingPair(puzzle.mu, puzzle.sigma),
        attempts=puzzle.attempts,
        solved=puzzle.solved,
    )


def _pair(mu: float | None, sigma: float | None) -> RatingPair | None:
    return None if mu is None or sigma is None else RatingPair(mu, sigma)


def _attempt_row(attempt: PuzzleAttempt) -> AttemptRow:
    return AttemptRow(
        puzzle_id=attempt.puzzle_id,
        user_id=attempt.user_id,
        answer=attempt.answer,
        solved=attempt.solved,
        before=_pair(attempt.mu_before, attempt.sigma_before),
        after=_pair(attempt.mu_after, attempt.sigma_after),
    )


def day_index(day: date, count: int) -> int:
    """Which of ``count`` puzzles (in the order of their ids) is the puzzle of ``day``:
    a digest of the date, so every worker picks the same one without asking another."""
    digest = hashlib.sha256(f"raspisnoy-daily/{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


class PuzzleStore:
    """The puzzles, answers and puzzle ratings over a ``Store``'s engine (module docstring)."""

    def __init__(self, store: Store, new_rating: RatingPair) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        #: The rating of a new puzzle and of a solver's first rated answer.
        self.new_rating = new_rating

    def _session(self) -> AbstractContextManager[Session]:
        return transaction(self._sessions)

    # ----------------------------------------------------------------- puzzles

    def add(self, puzzles: Iterable[dict[str, Any]], source: str) -> int:
        """Store the puzzles (``Puzzle.to_json()`` objects) not stored yet, at the new
        rating; how many were new. Two workers adding the same puzzles at once: the
        loser of an insert tries again, skipping what the winner stored."""
        batch = {puzzle["id"]: puzzle for puzzle in puzzles}
        try:
            return self._add(batch, source)
        except StoreError as error:
            if not isinstance(error.__cause__ or error.__context__, IntegrityError):
                raise
            return self._add(batch, source)

    def _add(self, batch: dict[str, dict[str, Any]], source: str) -> int:
        added = 0
        with self._session() as session:
            known = set(
                session.scalars(select(StoredPuzzle.id).where(StoredPuzzle.id.in_(list(batch))))
            )
            for puzzle_id, data in batch.items():
                if puzzle_id in known:
                    continue
                session.add(
                    StoredPuzzle(
                        id=puzzle_id,
                        theme=data["theme"],
                        data=data,
                        source=source,
                        mu=self.new_rating.mu,
                        sigma=self.new_rating.sigma,
                        attempts=0,
                        solved=0,
                        added_at=_now(),
                    )
                )
                added += 1
        return added

    def count(self, source: str | None = None) -> int:
        """How many puzzles are stored (of ``source`` only, if given)."""
        query = select(func.count()).select_from(StoredPuzzle)
        if source is not None:
            query = query.where(StoredPuzzle.source == source)
        with self._session() as session:
            return int(session.scalar(query) or 0)

    def get(self, puzzle_id: str) -> PuzzleRow | None:
        with self._session() as session:
            puzzle = session.get(StoredPuzzle, puzzle_id)
            return None if puzzle is None else _puzzle_row(puzzle)

    def next_for(
        self, user_id: str | None, rating: RatingPair, themes: Sequence[str] | None = None
    ) -> PuzzleRow | None:
        """The puzzle rated nearest ``rating`` that ``user_id`` never answered, of one of
        ``themes`` if given (ties: the lowest id); ``None`` if none is left."""
        query = select(StoredPuzzle)
        if user_id is not None:
            answered = exists().where(
                PuzzleAttempt.puzzle_id == StoredPuzzle.id, PuzzleAttempt.user_id == user_id
            )
            query = query.where(~answered)
        if themes:
            query = query.where(StoredPuzzle.theme.in_(list(themes)))
        query = query.order_by(func.abs(StoredPuzzle.mu - rating.mu), StoredPuzzle.id).limit(1)
        with self._session() as session:
            puzzle = session.scalars(query).first()
            return None if puzzle is None else _puzzle_row(puzzle)

    def daily(self, day: date) -> PuzzleRow | None:
        """The puzzle of ``day``, chosen the first time it is asked for (``day_index``)
        and kept; ``None`` while there are no puzzles."""
        key = day.isoformat()
        for _ in range(2):  # two workers choosing at once: the loser reads the winner's
            try:
                with self._session() as session:
                    chosen = session.get(DailyPuzzle, key)
                    if chosen is None:
                        count = int(session.scalar(select(func.count(StoredPuzzle.id))) or 0)
                        if count == 0:
                            return None
                        puzzle_id = session.scalar(
                            select(StoredPuzzle.id)
                            .order_by(StoredPuzzle.id)
                            .offset(day_index(day, count))
                            .limit(1)
                        )
                        chosen = DailyPuzzle(day=key, puzzle_id=puzzle_id)
                        session.add(chosen)
                        session.flush()
                    puzzle = session.get(StoredPuzzle, chosen.puzzle_id)
                    return None if puzzle is None else _puzzle_row(puzzle)
            except StoreError as error:
                if not isinstance(error.__cause__ or error.__context__, IntegrityError):
                    raise
        return None

    # ----------------------------------------------------------------- answers

    def attempt_of(self, puzzle_id: str, user_id: str) -> AttemptRow | None:
        with self._session() as session:
            attempt = session.get(PuzzleAttempt, (puzzle_id, user_id))
            return None if attempt is None else _attempt_row(attempt)

    def solver(self, user_id: str) -> SolverRow:
        """``user_id``'s puzzle rating (the new rating if they never answered rated)."""
        with self._session() as session:
            row = session.get(SolverRating, user_id)
            if row is None:
                return SolverRow(self.new_rating, 0, 0)
            return SolverRow(RatingPair(row.mu, row.sigma), row.attempts, row.solved)

    def answer(
        self, puzzle_id: str, user_id: str, answer: str, solved: bool, rate: Rate | None
    ) -> AttemptRow:
        """Record ``user_id``'s one answer to the puzzle; with ``rate`` (an account's
        answer), move their puzzle rating and the puzzle's by it, in the same
        transaction with both rows locked. Raises ``AlreadyAnsweredError`` for a second
        answer (nothing changes). The puzzle must exist: the caller has read it."""
        if rate is not None:
            self._ensure_solver(user_id)
        try:
            with self._session() as session:
                attempt = PuzzleAttempt(
                    puzzle_id=puzzle_id,
                    user_id=user_id,
                    answer=answer[:16],
                    solved=solved,
                    answered_at=_now(),
                )
                session.add(attempt)
                session.flush()  # a second answer fails here, before any rating moves
                if rate is not None:
                    self._rate(session, attempt, rate)
                return _attempt_row(attempt)
        except StoreError as error:
            if isinstance(error.__cause__ or error.__context__, IntegrityError):
                raise AlreadyAnsweredError(
                    f"puzzle {puzzle_id!r} was answered already by {user_id!r}"
                ) from None
            raise

    def _ensure_solver(self, user_id: str) -> None:
        """Make ``user_id``'s rating row at the new rating if they have none (so the
        answer's transaction can lock it)."""
        try:
            with self._session() as session:
                if session.get(SolverRating, user_id) is None:
                    new = self.new_rating
                    session.add(SolverRating(user_id=user_id, mu=new.mu, sigma=new.sigma))
        except StoreError as error:  # made at the same moment by another answer: fine
            if not isinstance(error.__cause__ or error.__context__, IntegrityError):
                raise

    @staticmethod
    def _rate(session: Session, attempt: PuzzleAttempt, rate: Rate) -> None:
        """Move the solver's and the puzzle's ratings by ``rate``, rows locked (the
        solver's first, then the puzzle's: one order, so no deadlock)."""
        solver = session.scalars(
            select(SolverRating).where(SolverRating.user_id == attempt.user_id).with_for_update()
        ).one()
        puzzle = session.scalars(
            select(StoredPuzzle).where(StoredPuzzle.id == attempt.puzzle_id).with_for_update()
        ).one()
        before = RatingPair(solver.mu, solver.sigma)
        after, puzzle_after = rate(before, RatingPair(puzzle.mu, puzzle.sigma))
        solver.mu, solver.sigma = after.mu, after.sigma
        solver.attempts += 1
        solver.solved += int(attempt.solved)
        puzzle.mu, puzzle.sigma = puzzle_after.mu, puzzle_after.sigma
        puzzle.attempts += 1
        puzzle.solved += int(attempt.solved)
        attempt.mu_before, attempt.sigma_before = before.mu, before.sigma
        attempt.mu_after, attempt.sigma_after = after.mu, after.sigma

    # ----------------------------------------------------------------- mining games

    def set_opt_out(self, user_id: str, out: bool) -> None:
        """Whether puzzles may be made from ``user_id``'s seats (``out``: not)."""
        with self._session() as session:
            row = session.get(PuzzleOptOut, user_id)
            if out and row is None:
                session.add(PuzzleOptOut(user_id=user_id, since=_now()))
            elif not out and row is not None:
                session.delete(row)

    def opted_out(self, user_ids: Sequence[str]) -> set[str]:
        """Those of ``user_ids`` who opted out."""
        if not user_ids:
            return set()
        query = select(PuzzleOptOut.user_id).where(PuzzleOptOut.user_id.in_(list(user_ids)))
        with self._session() as session:
            return set(session.scalars(query))

    def claim_game(self, worker: str, now: datetime | None = None) -> str | None:
        """Claim for ``worker`` the finished game longest over that nobody has mined: a
        claim that a worker left unfinished for ``MINING_STALE`` first (it died while
        mining), else one nobody claimed yet; ``None`` if there is none. Only games anyone
        may know of are mined (``known_to_all``): a puzzle, served to anyone, shows its
        seat's hand (never a name: its seats are named neutrally), so never a private or
        a club's table's game. Of two workers claiming one game at once, the write of one
        fails and it tries the next."""
        now = now or _now()
        return self._claim_abandoned(worker, now) or self._claim_new(worker, now)

    def _claim_abandoned(self, worker: str, now: datetime) -> str | None:
        """Take over a claim left unfinished for ``MINING_STALE``, the oldest first (a
        compare-and-set on its claim's time: one taker only)."""
        stale = MinedGame.finished_at.is_(None), MinedGame.claimed_at < now - MINING_STALE
        query = select(MinedGame.table_id, MinedGame.claimed_at).where(*stale)
        with self._session() as session:
            candidates = list(session.execute(query.order_by(MinedGame.claimed_at).limit(4)))
        for table_id, claimed_at in candidates:
            taken = (
                update(MinedGame)
                .where(MinedGame.table_id == table_id, MinedGame.claimed_at == claimed_at)
                .values(worker=worker[:128], claimed_at=now)
            )
            with self._session() as session:
                if getattr(session.execute(taken), "rowcount", 0) == 1:
                    return str(table_id)
        return None

    def _claim_new(self, worker: str, now: datetime) -> str | None:
        """Claim a finished game nobody claimed yet, the longest over first."""
        claimed = exists().where(MinedGame.table_id == GameTable.id)
        query = (
            select(GameTable.id)
            .where(GameTable.status == "over", known_to_all(), ~claimed)
            .order_by(GameTable.finished_at, GameTable.id)
            .limit(4)
        )
        with self._session() as session:
            candidates = list(session.scalars(query))
        for table_id in candidates:
            try:
                with self._session() as session:
                    session.add(MinedGame(table_id=table_id, worker=worker[:128], claimed_at=now))
                return table_id
            except StoreError as error:
                if not isinstance(error.__cause__ or error.__context__, IntegrityError):
                    raise
        return None

    def finish_game(self, table_id: str, found: int) -> None:
        """Record that the claimed game was mined, and how many puzzles it gave."""
        with self._session() as session:
            row = session.get(MinedGame, table_id)
            if row is not None:
                row.finished_at, row.found = _now(), found
