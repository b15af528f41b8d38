"""Reviews in the background, and hints: the server's side of docs/review.md.

``ReviewQueue`` runs the review jobs stored in the database (``raspisnoy.store.reviews``)
in a pool of worker processes, so a review's search never takes the tables' process's
CPU or its interpreter lock: the processes are started with ``spawn`` (no copy of the
server's threads and sockets), lowered to a low priority (``review_nice``, 19 by
default), and as few as ``review_workers``. The server's loop only *claims* jobs (one conditional
``UPDATE``, safe with several server workers on one database) and hands each claim to
a process; the process reads the game, reviews it and writes its progress (at most
every ``PROGRESS_SECONDS``, which is also its heartbeat, with the review of the moves
done so far) and result straight to the database, so every server worker sees them.
A job whose heartbeat stops (its process or server died) goes back to the queue after
``review_stale_seconds``; a server that stops cleanly queues its running jobs again at
once, and a lone server (no Redis, so no other worker) does so for every running job
when it starts.

The same pool mines puzzles from finished games (``settings.puzzle_mining``, docs/review.md
"Puzzles from finished games"), only when no review is waiting for a process: a claim per
game (``store.puzzles.PuzzleStore.claim_game``), and ``run_mining`` searches the decisions
of the people's seats whose people did not opt out, from each seat's own view. The queue
keeps the reviews and the games being mined that it handed over apart (``_Running``) and
never hands the pool more than ``review_workers`` jobs in all: a job beyond them would
wait in the pool's own queue, where a review could go stale and be claimed again, and
which a stop throws away.

``hint_answer`` is the expert's suggestion for one seat from its own view only.

``ReviewDesk`` is what the routes call (docs/review.md, "On the server"), by the rules the
history routes already follow:

- A finished game's record is public to whoever knows its id, hands included, so
  **reading** a review of any seat of it is too.
- **Asking** for a review takes a session (the queue counts what each user and each
  address asked for, in the transaction that stores the request, and serves addresses
  in turn),
  and any seat of a finished game may be asked for, the caller's or not: it reveals
  nothing the record does not.
- A game still being played is never reviewed: its hidden hands would leak.
- A **hint** is for the seat the caller holds, on its turn, at a table that is not rated,
  from that seat's view alone.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import socket
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from typing import Any

from raspisnoy.core import View, game_to_record, parse_action
from raspisnoy.puzzles import Mining, game_puzzles
from raspisnoy.ratings import rebuild_game
from raspisnoy.review import Budget, Review, hint, review_game
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.services.puzzles import NEW_PAIR
from raspisnoy.server.services.tables.actor import TableActor
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import ChoiceOut, HintOut, ReviewOut
from raspisnoy.store import (
    Claim,
    NotFoundError,
    PuzzleStore,
    ReviewRow,
    Reviews,
    ReviewStatus,
    Store,
    StoreError,
    TableRow,
    UserRow,
)
from raspisnoy.store.puzzles import MINING_STALE
from raspisnoy.store.reviews import Bound, ReviewBoundError, ReviewBounds

__all__ = [
    "HINT_CHOICES",
    "PROGRESS_SECONDS",
    "ReviewDesk",
    "ReviewQueue",
    "hint_answer",
    "run_mining",
]

_log = logging.getLogger(__name__)
#: Least seconds between two progress writes of one job (the first and last always go).
PROGRESS_SECONDS = 0.5
#: Seconds between two looks at the queue when nothing wakes the loop (another server
#: worker's requests, stale jobs).
_POLL_SECONDS = 2.0
Json = dict[str, Any]
#: How many of the searched choices a hint shows, the most visited first.
HINT_CHOICES = 5
#: The review's seed: a review is a function of the game, the seat and the budget.
_SEED = 0

#: Each bound of the queue (``ReviewBoundError.bound``): its refusal, whose reviews it
#: counts (in the refusal's English text) and the seconds to wait before asking again.
_BOUNDS: dict[Bound, tuple[Refusal, str, int]] = {
    "user": (Refusal.REVIEWS_PENDING, "yours", 30),
    "address": (Refusal.REVIEWS_FROM_ADDRESS, "from your address", 60),
    "all": (Refusal.REVIEW_QUEUE_FULL, "everyone's", 60),
}

#: The store of a review process (``_start_process``), one per process.
_PROCESS_STORE: Store | None = None


class _LostClaim(Exception):
    """The job was claimed again by someone else: this process stops working on it."""


def _start_process(database_url: str, niceness: int, idle: bool) -> None:
    """A review process: a niceness of at least ``niceness`` (the server's own if that
    is higher already), in the idle scheduling class if ``idle`` (where the system has
    one: Linux), its own connection to the database."""
    global _PROCESS_STORE
    with suppress(OSError):
        os.nice(max(0, niceness - os.nice(0)))
    if idle and hasattr(os, "SCHED_IDLE"):
        with suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    _PROCESS_STORE = Store.open(database_url, migrate=False)


def run_claim(claim: Claim) -> str:
    """Review the claimed job in this process: ``done``, ``failed`` (stored with its
    reason) or ``lost`` (claimed again meanwhile: nothing stored)."""
    store = _PROCESS_STORE
    assert store is not None, "run_claim runs in a review process"
    reviews = Reviews(store)
    last = 0.0
    so_far: list[Review] = []

    def partial(review: Review) -> None:
        so_far[:] = [review]

    def progress(done: int, total: int) -> None:
        # The review so far goes with each write, so the first mistakes show at once.
        nonlocal last
        now = time.monotonic()
        if done in (1, total) or now - last >= PROGRESS_SECONDS:
            last = now
            if not reviews.progress(claim, done, total, so_far[0].to_json()):
                raise _LostClaim

    try:
        table = store.get_table(claim.table_id)
        record = game_to_record(rebuild_game(table, store.events_of(claim.table_id)))
        budget = Budget(claim.iterations, seed=_SEED)
        review = review_game(record, claim.seat, budget, progress, partial)
        return "done" if reviews.finish(claim, review.to_json()) else "lost"
    except _LostClaim:
        return "lost"
    except Exception as error:  # a job must end as failed, never stay running forever
        _log.exception("review of %s seat %d failed", claim.table_id, claim.seat)
        reviews.fail(claim, f"{type(error).__name__}: {error}")
        return "failed"


def run_mining(table_id: str) -> int:
    """Mine the claimed finished game in this process (a review process) for puzzles from
    the seats of people who did not opt out; how many puzzles it stored. The search's
    seed is the game's id: the same game always gives the same puzzles."""
    store = _PROCESS_STORE
    assert store is not None, "run_mining runs in a review process"
    puzzles = PuzzleStore(store, NEW_PAIR)
    found = 0
    try:
        table = store.get_table(table_id)
        people = {seat.seat: seat.user_id for seat in table.seats if seat.user_id is not None}
        out = puzzles.opted_out(list(people.values()))
        seats = frozenset(seat for seat, user_id in people.items() if user_id not in out)
        if seats:
            events = store.events_of(table_id)
            actions = [(event.seat, parse_action(event.action)) for event in events]
            start = rebuild_game(table, [])
            for puzzle in game_puzzles(start, actions, seats, Mining(seed=table_id)):
                found += puzzles.add([puzzle.to_json()], "game")
    except Exception:  # a game that cannot be mined is left as claimed, not retried forever
        _log.exception("mining game %s for puzzles failed", table_id)
    puzzles.finish_game(table_id, found)
    return found


@dataclass
class _Running:
    """The jobs a queue handed its pool that have not reported back: the reviews' claims,
    and the games being mined with when each was handed over. Kept apart, since the
    database says which reviews are still this queue's (``forget_lost``) but not which
    games are."""

    reviews: set[Claim] = field(default_factory=set)
    mining: dict[str, float] = field(default_factory=dict)

    def count(self) -> int:
        return len(self.reviews) + len(self.mining)

    def add(self, job: Claim | str) -> None:
        """A review's claim, or the id of a game to mine, handed over."""
        if isinstance(job, Claim):
            self.reviews.add(job)
        else:
            self.mining[job] = time.monotonic()

    def end(self, job: Claim | str) -> None:
        """The job reported back (done or failed)."""
        if isinstance(job, Claim):
            self.reviews.discard(job)
        else:
            self.mining.pop(job, None)

    def forget_lost(self, held: set[Claim]) -> None:
        """Forget the jobs whose process died without reporting back: a review no longer
        running as this queue's (``held``: it went back to the queue as stale, or is
        done and its report is on its way), and a game handed over longer ago than a
        mining claim lasts (``MINING_STALE``: another worker takes it over then)."""
        self.reviews &= held
        oldest = time.monotonic() - MINING_STALE.total_seconds()
        self.mining = {game: since for game, since in self.mining.items() if since > oldest}


class ReviewQueue:
    """The review jobs this server worker runs (see the module's docstring)."""

    def __init__(self, store: Store, settings: ServerSettings, *, alone: bool) -> None:
        self.reviews = Reviews(store)
        self.puzzles = PuzzleStore(store, NEW_PAIR)
        self.settings = settings
        #: No other server worker shares the database: every running job is this one's.
        self.alone = alone
        #: This queue's name in the jobs it claims: the machine, the process, and a
        #: random part (two apps in one process never take each other's jobs).
        self.name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._url = store.engine.url.render_as_string(hide_password=False)
        self._pool: Pool | None = None
        self._running = _Running()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.settings.review_workers == 0:
            return
        if self.alone:  # after a restart: whatever was running is nobody's now
            await in_thread(self.reviews.requeue_stale, 0)
        self._task = asyncio.create_task(self._loop(), name="review queue")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._pool is not None:
            await in_thread(self._close_pool, self._pool)
            with suppress(StoreError):  # queued again now, not after the staleness
                await in_thread(self.reviews.requeue_worker, self.name)

    @staticmethod
    def _close_pool(pool: Pool) -> None:
        """Stop the review processes now (a job they were running is queued again)."""
        pool.terminate()
        pool.join()

    def wake(self) -> None:
        """A job was queued: look at the queue now."""
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            try:
                await self._look()
            except Exception:  # a failing look at the queue must not stop the queue
                _log.exception("the review queue failed; trying again")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), _POLL_SECONDS)
            self._wake.clear()

    async def _look(self) -> None:
        """Fill the free processes: with the reviews waiting first, then, if mining is
        on and one is still free, with a finished game to mine."""
        await in_thread(self.reviews.requeue_stale, self.settings.review_stale_seconds)
        self._running.forget_lost(await in_thread(self.reviews.claims_of, self.name))
        while self._free():
            claim = await in_thread(self.reviews.claim_next, self.name)
            if claim is None:
                break
            await self._submit(run_claim, claim)
        if self.settings.puzzle_mining and self._free():
            table_id = await in_thread(self.puzzles.claim_game, self.name)
            if table_id is not None:
                await self._submit(run_mining, table_id)

    def _free(self) -> bool:
        """Whether a process has no job of this queue's."""
        return self._running.count() < self.settings.review_workers

    async def _start_pool(self) -> Pool:
        """The review processes, started with the first job, not with the server."""
        if self._pool is None:
            self._pool = await in_thread(
                multiprocessing.get_context("spawn").Pool,
                self.settings.review_workers,
                _start_process,
                (self._url, self.settings.review_nice, self.settings.review_idle),
            )
        return self._pool

    async def _submit(self, job: Callable[[Any], Any], argument: Claim | str) -> None:
        """Hand ``job(argument)`` to a process, counted as running until it reports back
        (done or failed); then the queue looks again."""
        pool = await self._start_pool()
        self._running.add(argument)
        loop = asyncio.get_running_loop()

        def reported(_outcome: Any) -> None:  # in the pool's result thread
            loop.call_soon_threadsafe(self._ended, argument)

        pool.apply_async(job, (argument,), callback=reported, error_callback=reported)

    def _ended(self, job: Claim | str) -> None:
        self._running.end(job)
        self._wake.set()


def hint_answer(view: View, iterations: int) -> dict[str, Any]:
    """The expert's suggestion for the seat of ``view`` with the expected round points
    of its top choices: computed from ``view`` alone (what the seat may know), with a
    fixed seed, so the same view always gets the same hint."""
    return hint(view, Budget(iterations, seed=_SEED)).to_json()


class ReviewDesk:
    """Reviews asked for and read, and hints, by the rules of the module's docstring."""

    def __init__(
        self, store: Store, settings: ServerSettings, queue: ReviewQueue, limits: Limits
    ) -> None:
        self._store = store
        self._settings = settings
        self._queue = queue
        self._reviews = queue.reviews
        self._limits = limits

    async def request(self, table_id: str, seat: int, user: UserRow, address: str) -> ReviewOut:
        """Queue a review of one seat of a finished game (``user``'s request from
        ``address``), unless it was asked for before (then it is answered as it stands,
        at no cost). Refused beyond the bounds of the queue: the reviews waiting or
        running that one person, one address (a flood of guests made from it) or
        everyone may have, counted in the transaction that stores the request
        (``Reviews.request``), so requests at the same moment cannot all slip under
        them; the queue serves addresses in turn (``store.reviews``), so whoever is
        within them is not held up by another address's flood."""
        settings = self._settings
        table = await self._finished_table(table_id, seat)
        bounds = ReviewBounds(
            settings.reviews_per_user, settings.reviews_per_address, settings.review_queue_limit
        )
        try:
            row = await in_thread(
                self._reviews.request,
                table_id,
                seat,
                user.id,
                settings.review_iterations,
                address,
                bounds,
            )
        except ReviewBoundError as error:
            raise _refusal(error) from None
        if row.status is ReviewStatus.QUEUED:
            self._queue.wake()
        return await self._review_json(row, table)

    async def read(self, table_id: str, seat: int) -> ReviewOut:
        """A seat's review of a finished game as it stands."""
        table = await self._finished_table(table_id, seat)
        row = await in_thread(self._reviews.get, table_id, seat)
        if row is None:
            raise RequestError(
                Refusal.NOT_FOUND,
                f"seat {seat} of game {table_id!r} has not been reviewed: ask first",
            )
        return await self._review_json(row, table)

    async def hint(self, actor: TableActor, user: UserRow) -> HintOut:
        """The expert's suggestion for ``user``'s seat on its turn, from its own view;
        refused at a rated table, to spectators and out of turn. The game is marked as
        one with hints."""
        table = actor.table
        if table.rated:
            raise RequestError(Refusal.FORBIDDEN, "hints are off at rated tables")
        seat = next((s.seat for s in table.seats if s.user_id == user.id), None)
        if seat is None:
            raise RequestError(Refusal.NOT_SEATED, "you have no seat at this table: no hints")
        game = actor.game
        if game is None or game.is_over:
            raise RequestError(Refusal.NOT_STARTED, "the game is not being played: no hints")
        view = game.view(seat)  # taken between two of the actor's commands: consistent
        if not view.my_turn:
            raise RequestError(Refusal.CONFLICT, "it is not your turn: a hint is for your own turn")
        self._limits.hit(self._limits.hints_per_user, "hints of this user", user.id)
        answer = await in_thread(hint_answer, view, self._settings.hint_iterations)
        await in_thread(self._reviews.count_hint, table.id, seat)
        choices = [ChoiceOut(**choice) for choice in answer["choices"][:HINT_CHOICES]]
        return HintOut(
            seat=seat, suggested=answer["suggested"], choices=choices, reason=answer["reason"]
        )

    async def _finished_table(self, table_id: str, seat: int) -> TableRow:
        """The table of a finished game with that seat, or the refusal: a game in
        progress is never reviewed (its hidden cards would leak)."""
        try:
            table = await in_thread(self._store.get_table, table_id)
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no game {table_id!r}") from None
        if table.status != "over":
            raise RequestError(
                Refusal.CONFLICT,
                "only a finished game can be reviewed: reviewing a game in progress would "
                "reveal hidden cards",
            )
        if seat >= len(table.seats):
            raise RequestError(
                Refusal.INVALID,
                f"seat {seat} does not exist: seats are 0 to {len(table.seats) - 1}",
            )
        return table

    async def _review_json(self, row: ReviewRow, table: TableRow) -> ReviewOut:
        """The answer of a review: the job, its place in the queue, the seats that used
        hints, and the names ``table`` gives its seats now (not those the review was
        made with: a deleted account's name must not stay in it)."""
        position = await in_thread(self._reviews.queue_position, row.table_id, row.seat)
        hints = await in_thread(self._reviews.hint_seats, [row.table_id])
        return ReviewOut.of(row, position, tuple(hints.get(row.table_id, ())), table.names)


def _refusal(error: ReviewBoundError) -> RequestError:
    """The 429 of a review refused by a bound of the queue: its count and limit."""
    code, whose, seconds = _BOUNDS[error.bound]
    return RequestError(
        code,
        f"{error.count} reviews waiting or running ({whose}), at most {error.limit}: wait "
        "for one to finish",
        retry_after=seconds,
        params={"count": error.count, "limit": error.limit},
    )
