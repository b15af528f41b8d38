"""Reviews of finished games and the hints used at tables (docs/review.md, "On the server").

A review is a job keyed by game and seat: ``queued`` when asked for, ``running`` once a
worker has *claimed* it, ``done`` with the review's JSON, or ``failed`` with the reason.
Claiming is one conditional ``UPDATE`` (``status = 'queued'`` → ``running``, with a new
``attempt`` number), which the database applies to one claimant only, on SQLite and on
PostgreSQL alike: with several server workers on one database each job runs once. Every
later write of the job (its progress, its result) names the attempt it belongs to and
changes nothing if the job was claimed again since (a worker paused past the job's
staleness, whose job another worker restarted). A job whose heartbeat (its last
progress) is older than the staleness goes back to the queue: after a crash or a
restart the review starts again.

The queue is **fair** (issue 27, defect 6): each job keeps the address it was asked from
(``requested_from``; the asker's id for a job stored before addresses were), and jobs are
claimed address by address in turn: each active job's rank among its address's active
jobs (``row_number()`` over the address, oldest first, the running ones included), then
the oldest of the lowest rank. So seventy guests from one address wait behind each
other, not in front of everyone else; ``queue_position`` counts in the same order.

The queue is **bounded** (``ReviewBounds``): a new job is counted against the jobs
queued or running of its asker, of its address and of everyone in the transaction that
stores it, which holds the queue first (``_hold_queue``), so requests made at the same
moment are counted one after another and never all slip under a bound.

``HintUse`` counts the hints each seat of a game asked for, so a game's history says
that hints were used (the record itself keeps its format, docs/record.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, Literal

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Subquery,
    and_,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from raspisnoy.store.models import Base
from raspisnoy.store.repository import Store, StoreError, lock_users, transaction, utc

__all__ = [
    "Bound",
    "Claim",
    "GameReview",
    "HintUse",
    "ReviewBoundError",
    "ReviewBounds",
    "ReviewRow",
    "ReviewStatus",
    "Reviews",
]


class ReviewStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


#: The statuses of a job not finished yet: they count against the queue's bounds.
ACTIVE = (ReviewStatus.QUEUED, ReviewStatus.RUNNING)


class GameReview(Base):
    """The review of one seat of a finished game, from the request to the result."""

    __tablename__ = "game_reviews"
    __table_args__ = (
        Index("ix_game_reviews_status_requested", "status", "requested_at"),
        Index("ix_game_reviews_requester_status", "requested_by", "status"),
        Index("ix_game_reviews_address_status", "requested_from", "status"),
    )

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``queued``, ``running``, ``done`` or ``failed`` (``ReviewStatus``).
    status: Mapped[str] = mapped_column(String(16))
    #: Search iterations per move.
    iterations: Mapped[int] = mapped_column(Integer)
    requested_by: Mapped[str] = mapped_column(ForeignKey("users.id"))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The address the request came from (migration 0015; ``None`` for older jobs).
    requested_from: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Counts the claims: each write of a running job names the attempt it belongs to.
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    #: The worker running the job (``host:pid``), for the operator.
    worker: Mapped[str | None] = mapped_column(String(128), nullable=True)
    #: When the running job last reported progress; a stale one is queued again.
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: Decisions reviewed so far, of ``total`` (0 of 0 until the job has counted them).
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    #: The ``raspisnoy-review/1`` object (docs/review.md) once done.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(400), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class HintUse(Base):
    """How many hints one seat of a game asked for, and when first."""

    __tablename__ = "hint_uses"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    first_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class ReviewRow:
    table_id: str
    seat: int
    status: ReviewStatus
    iterations: int
    requested_by: str
    requested_at: datetime
    attempt: int
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None


@dataclass(frozen=True, slots=True)
class Claim:
    """A job a worker has claimed: what to review, and the attempt its writes name."""

    table_id: str
    seat: int
    iterations: int
    attempt: int


@dataclass(frozen=True, slots=True)
class ReviewBounds:
    """The most jobs queued or running that one asker (``per_user``), one address
    (``per_address``) and everyone (``in_all``) may have: a new job beyond one of them
    is refused (``ReviewBoundError``)."""

    per_user: int
    per_address: int
    in_all: int


#: Which bound refused a job: the asker's, the address's or everyone's.
Bound = Literal["user", "address", "all"]


class ReviewBoundError(StoreError):
    """A new job refused: ``count`` jobs queued or running already of those the
    ``bound`` counts, its ``limit`` or more."""

    def __init__(self, bound: Bound, count: int, limit: int) -> None:
        super().__init__(f"{count} reviews waiting or running ({bound}), at most {limit}")
        self.bound = bound
        self.count = count
        self.limit = limit


#: PostgreSQL: the lock new jobs take one at a time (``_hold_queue``), released when
#: the transaction ends. Its key is the schema's, as the migrations' lock.
_REQUESTS_LOCK = text(
    "SELECT pg_advisory_xact_lock(hashtext('raspisnoy review requests ' || current_schema()))"
)


def _now() -> datetime:
    return datetime.now(UTC)


def _hold_queue(session: Session, user_id: str) -> None:
    """Hold, until the transaction ends, all that a new job's bounds count, so that two
    requests are counted one after the other (unheld, five requests at once of a person
    allowed one review gave four jobs). First the asker's row (``lock_users``; on SQLite that
    takes the database's write lock, which is the whole queue already); then, on
    PostgreSQL, one advisory lock of the queue, for the address's and everyone's bounds.

    Why a lock and not a compare: under READ COMMITTED (PostgreSQL's level) a job
    inserted then counted is not seen by another request doing the same, so both may
    find themselves within the bound; and no row of the asker holds the counts of
    other askers from the same address or of everyone. The queue has no row of its own
    to lock (there is no migration for one) and one advisory lock serves as that row:
    only new jobs take it, for two counts and a write, and they are few (each person's
    bounded and rate-limited), so taking turns costs nothing a person would notice."""
    lock_users(session, [user_id])
    if session.get_bind().dialect.name == "postgresql":
        session.execute(_REQUESTS_LOCK)


def _active_count(session: Session, user_id: str | None, address: str | None) -> int:
    """Jobs queued or running: all of them, or those ``user_id`` asked for, or those
    asked from ``address`` (as stored: its first 64 characters)."""
    query = select(func.count()).select_from(GameReview).where(GameReview.status.in_(ACTIVE))
    if user_id is not None:
        query = query.where(GameReview.requested_by == user_id)
    if address is not None:
        query = query.where(GameReview.requested_from == address[:64])
    return int(session.scalar(query) or 0)


def _check_bounds(
    session: Session, bounds: ReviewBounds, user_id: str, address: str | None
) -> None:
    """``ReviewBoundError`` for the first bound, the asker's, the address's (if it is
    known) or everyone's, that has its limit of jobs already."""
    counted: tuple[tuple[Bound, int, str | None, str | None], ...] = (
        ("user", bounds.per_user, user_id, None),
        ("address", bounds.per_address, None, address),
        ("all", bounds.in_all, None, None),
    )
    for bound, limit, whose, where in counted:
        if bound == "address" and address is None:
            continue
        count = _active_count(session, whose, where)
        if count >= limit:
            raise ReviewBoundError(bound, count, limit)


def _fair_queue() -> Subquery:
    """The active jobs with their ``turn``: the job's rank among the active jobs of its
    address (its asker's, for a job with none), the oldest first. Claiming by turn, then
    age, serves every address once before any address twice."""
    asker = func.coalesce(GameReview.requested_from, GameReview.requested_by)
    turn = func.row_number().over(
        partition_by=asker,
        order_by=(GameReview.requested_at, GameReview.table_id, GameReview.seat),
    )
    return (
        select(
            GameReview.table_id,
            GameReview.seat,
            GameReview.status,
            GameReview.requested_at,
            turn.label("turn"),
        )
        .where(GameReview.status.in_(ACTIVE))
        .subquery("fair")
    )


def _row(review: GameReview) -> ReviewRow:
    return ReviewRow(
        table_id=review.table_id,
        seat=review.seat,
        status=ReviewStatus(review.status),
        iterations=review.iterations,
        requested_by=review.requested_by,
        requested_at=utc(review.requested_at),
        attempt=review.attempt,
        done=review.done,
        total=review.total,
        result=None if review.result is None else dict(review.result),
        error=review.error,
    )


class Reviews:
    """The review jobs and hint counts over a ``Store``'s engine (each method its own
    transaction), returning frozen values like the repository."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    # ----------------------------------------------------------------- requests

    def get(self, table_id: str, seat: int) -> ReviewRow | None:
        with self._session() as session:
            review = session.get(GameReview, (table_id, seat))
            return None if review is None else _row(review)

    def request(
        self,
        table_id: str,
        seat: int,
        user_id: str,
        iterations: int,
        address: str | None = None,
        bounds: ReviewBounds | None = None,
    ) -> ReviewRow:
        """Queue the review of ``seat`` asked by ``user_id`` from ``address`` (a failed
        one is queued again), within ``bounds`` if given (else ``ReviewBoundError``,
        and nothing stored); one that is queued, running or done is returned as it is,
        at no cost. The counts and the write are one transaction holding the queue
        (``_hold_queue``): requests at the same moment are counted one by one."""
        address = None if address is None else address[:64]
        with self._session() as session:
            _hold_queue(session, user_id)
            review = session.get(GameReview, (table_id, seat))
            if review is not None and review.status != ReviewStatus.FAILED:
                return _row(review)
            if bounds is not None:
                _check_bounds(session, bounds, user_id, address)
            if review is None:
                review = GameReview(table_id=table_id, seat=seat, attempt=0)
                session.add(review)
            review.status, review.error, review.iterations = ReviewStatus.QUEUED, None, iterations
            review.requested_by, review.requested_at = user_id, _now()
            review.requested_from, review.done, review.total = address, 0, 0
            session.flush()
            return _row(review)

    def active_count(self, user_id: str | None = None, address: str | None = None) -> int:
        """Jobs queued or running: all of them, or those ``user_id`` asked for, or those
        asked from ``address``."""
        with self._session() as session:
            return _active_count(session, user_id, address)

    def queue_position(self, table_id: str, seat: int) -> int | None:
        """How many queued jobs will be claimed before this one, in the fair order of the
        module's docstring (``None``: not queued)."""
        fair = _fair_queue()
        with self._session() as session:
            mine = session.execute(
                select(fair.c.turn, fair.c.requested_at).where(
                    fair.c.table_id == table_id,
                    fair.c.seat == seat,
                    fair.c.status == ReviewStatus.QUEUED,
                )
            ).first()
            if mine is None:
                return None
            turn, requested_at = mine
            ahead = (
                select(func.count())
                .select_from(fair)
                .where(
                    fair.c.status == ReviewStatus.QUEUED,
                    or_(
                        fair.c.turn < turn,
                        and_(fair.c.turn == turn, fair.c.requested_at < requested_at),
                    ),
                )
            )
            return int(session.scalar(ahead) or 0)

    # ----------------------------------------------------------------- workers

    def claim_next(self, worker: str) -> Claim | None:
        """Claim the next queued job in the fair order (the module's docstring) for
        ``worker``, or ``None`` if there is none. The claim is a compare-and-set on the
        status: of several workers racing for one job, one wins and the others try the
        next."""
        fair = _fair_queue()
        with self._session() as session:
            candidates = session.execute(
                select(fair.c.table_id, fair.c.seat)
                .where(fair.c.status == ReviewStatus.QUEUED)
                .order_by(fair.c.turn, fair.c.requested_at)
                .limit(8)
            ).all()
        for table_id, seat in candidates:
            with self._session() as session:
                claimed = session.execute(
                    update(GameReview)
                    .where(
                        GameReview.table_id == table_id,
                        GameReview.seat == seat,
                        GameReview.status == ReviewStatus.QUEUED,
                    )
                    .values(
                        status=ReviewStatus.RUNNING,
                        attempt=GameReview.attempt + 1,
                        worker=worker[:128],
                        heartbeat_at=_now(),
                        done=0,
                        total=0,
                        result=None,
                    )
                    .returning(GameReview.iterations, GameReview.attempt)
                ).first()
            if claimed is not None:
                return Claim(table_id, seat, claimed[0], claimed[1])
        return None

    def progress(
        self, claim: Claim, done: int, total: int, partial: dict[str, Any] | None = None
    ) -> bool:
        """Record progress of a claimed job (its heartbeat too) and, if given, the
        ``partial`` review of the decisions done so far (kept as the job's result while
        it runs, so a reader sees the first mistakes early); ``False`` if the job is no
        longer this claim's (it was claimed again): the worker should stop."""
        values: dict[str, Any] = {"done": done, "total": total, "heartbeat_at": _now()}
        if partial is not None:
            values["result"] = partial
        return self._write(claim, **values)

    def finish(self, claim: Claim, result: dict[str, Any]) -> bool:
        """Store a claimed job's result; ``False`` if the claim was lost."""
        return self._write(claim, status=ReviewStatus.DONE, result=result, finished_at=_now())

    def fail(self, claim: Claim, error: str) -> bool:
        """Mark a claimed job failed with the reason (shown to the client)."""
        return self._write(claim, status=ReviewStatus.FAILED, error=error[:400], finished_at=_now())

    def _write(self, claim: Claim, **values: Any) -> bool:
        with self._session() as session:
            changed = session.execute(
                update(GameReview)
                .where(
                    GameReview.table_id == claim.table_id,
                    GameReview.seat == claim.seat,
                    GameReview.attempt == claim.attempt,
                    GameReview.status == ReviewStatus.RUNNING,
                )
                .values(**values)
            )
            return bool(getattr(changed, "rowcount", 0) == 1)

    def requeue_stale(self, stale_seconds: float) -> int:
        """Queue again every running job whose heartbeat is older than ``stale_seconds``
        (its worker died or the server restarted); how many."""
        cutoff = _now() - timedelta(seconds=stale_seconds)
        with self._session() as session:
            changed = session.execute(
                update(GameReview)
                .where(GameReview.status == ReviewStatus.RUNNING, GameReview.heartbeat_at < cutoff)
                .values(status=ReviewStatus.QUEUED, worker=None, done=0, total=0, result=None)
            )
            return int(getattr(changed, "rowcount", 0))

    def claims_of(self, worker: str) -> set[Claim]:
        """The jobs ``worker`` holds as running now (one that went back to the queue as
        stale, or was claimed again by another worker, is not among them)."""
        query = select(
            GameReview.table_id, GameReview.seat, GameReview.iterations, GameReview.attempt
        ).where(GameReview.status == ReviewStatus.RUNNING, GameReview.worker == worker)
        with self._session() as session:
            return {Claim(*row) for row in session.execute(query)}

    def requeue_worker(self, worker: str) -> int:
        """Queue again the running jobs of ``worker`` (it is stopping); how many."""
        with self._session() as session:
            changed = session.execute(
                update(GameReview)
                .where(GameReview.status == ReviewStatus.RUNNING, GameReview.worker == worker)
                .values(status=ReviewStatus.QUEUED, worker=None, done=0, total=0, result=None)
            )
            return int(getattr(changed, "rowcount", 0))

    # ----------------------------------------------------------------- hints

    def count_hint(self, table_id: str, seat: int) -> None:
        """Count one hint given to ``seat`` of the game."""
        for _ in range(2):  # two first hints at once: the loser of the insert adds one
            try:
                with self._session() as session:
                    use = session.get(HintUse, (table_id, seat))
                    if use is None:
                        session.add(HintUse(table_id=table_id, seat=seat, count=1, first_at=_now()))
                    else:
                        use.count += 1
                return
            except StoreError as error:
                if not isinstance(error.__cause__ or error.__context__, IntegrityError):
                    raise

    def hint_seats(self, table_ids: Sequence[str]) -> dict[str, tuple[int, ...]]:
        """The seats that used hints, by game, for the games of ``table_ids`` that had any."""
        if not table_ids:
            return {}
        query = (
            select(HintUse.table_id, HintUse.seat)
            .where(HintUse.table_id.in_(list(table_ids)))
            .order_by(HintUse.table_id, HintUse.seat)
        )
        out: dict[str, list[int]] = {}
        with self._session() as session:
            for table_id, seat in session.execute(query):
                out.setdefault(table_id, []).append(seat)
        return {table_id: tuple(seats) for table_id, seats in out.items()}
