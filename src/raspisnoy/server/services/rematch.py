"""«Ещё партию»: the rematch offered when a table's game is over (docs/PROTOCOL.md,
"Rematch").

The first person to answer opens it; each person at the table accepts or declines, and
one who has not answered within the ``rematch_seconds`` setting after it opened counts
as declined. Once every person has answered (or the time is up) the rematch starts if
anyone accepted: a new table with the same rules and settings, the people who accepted
in their old seats, every other seat played by its bot (a declined seat by the bot level
it had at the old table), and as first dealer the seat after the old game's first
dealer. Its game starts at once; the ``rematch`` message names the new table to everyone
at the old one, and the clients of those who accepted go there. Nobody accepting
cancels it.

The new table counts as one more game for the people in it; the old one is over, so the
limit of games being played per user (``max_games_per_user``) is not checked again.

A table starts one rematch only, whichever worker holds it: the store records it with
the old table (``Together.open_rematch``, under the old table's lock), a second settling
finds it there, and a worker loading a finished table reads it (``restore``). Its game is
started after it is stored, so a worker that dies in between leaves it open: whoever
finds it (a second settling, ``restore``, or the pass that looks for rematch tables left
open: ``tables.rematch_sweep``, for when nobody comes back to the old table) starts it if
it is still open. Answers to an open offer live in the actor only: after a hand-over or
a restart an offer not yet settled is made anew.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.protocol import ProtocolError, RematchAnswer
from raspisnoy.server.wire import Json, encode, epoch_ms
from raspisnoy.store import StoreError, TableRow

if TYPE_CHECKING:
    from raspisnoy.server.connection import Connection

__all__ = ["Rematch", "RematchTable"]

_log = logging.getLogger(__name__)


class RematchOpener(Protocol):
    """Who opens a rematch table (the actor's port)."""

    async def open_rematch(
        self, old: TableRow, people: dict[int, str], host_id: str, first_dealer: int
    ) -> str:
        """Open and start the rematch of ``old`` for ``people``, or the one it started
        already; its id. A rematch table still open (stored by a worker that died before
        starting it) is started; a failed start is logged, not raised, as the rematch is
        stored all the same (the next ``rematch_of``, or the pass of
        ``tables.rematch_sweep``, starts it)."""

    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch the table started, if any; its game is started now if it
        is still open (the worker that stored it died before starting it)."""


class RematchTable(Protocol):
    """What the rematch sees of its table (the actor): no more, so the rematch needs
    nothing else of the actor and the actor can be tested without it."""

    @property
    def port(self) -> RematchOpener:
        """Who opens the new table."""

    @property
    def table(self) -> TableRow:
        """The table as it is now (its seats, status, host and first dealer)."""

    @property
    def connections(self) -> frozenset[Connection]:
        """The clients connected now."""

    def submit(self, command: Callable[[], Awaitable[Any]]) -> None:
        """Run ``command`` in the table's actor, after the commands queued before it."""


class Rematch:
    """The rematch of one table, inside its actor (every method runs in the actor's task)."""

    def __init__(self, table: RematchTable, seconds: float) -> None:
        # A proxy, not the actor itself: the actor holds this object, and a reference back
        # would make a cycle that keeps a dropped table alive until a collection.
        self._actor: RematchTable = weakref.proxy(table)
        self._seconds = seconds
        #: Each answering seat's answer: ``True`` accepted, ``False`` declined.
        self._answers: dict[int, bool] = {}
        self._deadline: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        #: ``none`` (nobody answered yet), ``open``, ``started`` or ``cancelled``.
        self.status = "none"
        self._table_id: str | None = None

    async def restore(self) -> None:
        """For a table loaded with its game over: the rematch it started, as stored (the
        worker that held the table before a hand-over or a restart may have started one,
        or stored it and died before starting its game, which ``rematch_of`` starts now;
        its answers are not kept, so one not yet settled is offered anew)."""
        found = await self._actor.port.rematch_of(self._actor.table.id)
        if found is not None and self.status == "none":
            self.status, self._table_id = "started", found

    def _people(self) -> dict[int, str]:
        return {s.seat: s.user_id for s in self._actor.table.seats if s.user_id is not None}

    def message(self) -> Json:
        """The ``rematch`` message: each seat's answer, the deadline, the new table."""
        people = self._people()
        seats = []
        for seat in self._actor.table.seats:
            answer = self._answers.get(seat.seat)
            if seat.seat not in people:
                shown = "bot"
            elif answer is None:
                shown = "waiting"
            else:
                shown = "accepted" if answer else "declined"
            seats.append({"seat": seat.seat, "answer": shown})
        return {
            "type": "rematch",
            "status": self.status,
            "seats": seats,
            "deadline_ms": epoch_ms(self._deadline) if self.status == "open" else None,
            "table": self._table_id,
        }

    def send_to(self, connection: Connection) -> None:
        """Tell a client (after its ``state``) about the rematch, if there is one."""
        if self.status != "none":
            connection.send(self.message())

    def _broadcast(self) -> None:
        text = encode(self.message())
        for connection in self._actor.connections:
            connection.send(text)

    async def receive(self, connection: Connection, message: RematchAnswer) -> None:
        """A person's answer: ``{"type": "rematch", "accept": true}`` (or ``false``)."""
        seat = connection.seat
        if seat is None:
            raise ProtocolError(Refusal.NOT_SEATED, "rematch: only the people who played answer it")
        if self._actor.table.status != "over":
            raise ProtocolError(
                Refusal.NOT_OVER, "rematch: the game is not over yet; it is offered at the end"
            )
        if self.status in ("started", "cancelled"):
            where = f" (table {self._table_id})" if self._table_id else ""
            raise ProtocolError(Refusal.REMATCH_CLOSED, f"rematch: already {self.status}{where}")
        if self.status == "none":
            self.status = "open"
            self._deadline = time.time() + self._seconds
            actor = self._actor
            self._timer = asyncio.get_running_loop().call_later(
                self._seconds, lambda: actor.submit(self._expire)
            )
        self._answers[seat] = message.accept
        if set(self._answers) >= set(self._people()):
            await self._settle()
        else:
            self._broadcast()

    async def _expire(self) -> None:
        """Time is up: whoever has not answered declined."""
        if self.status == "open":
            await self._settle()

    async def _settle(self) -> None:
        """Start the rematch with those who accepted, or cancel it if nobody did."""
        self.close()
        people = self._people()
        for seat in people:
            self._answers.setdefault(seat, False)
        accepted = {seat: user for seat, user in people.items() if self._answers[seat]}
        self.status = "cancelled"
        if accepted:
            old = self._actor.table
            host = old.host_id if old.host_id in accepted.values() else accepted[min(accepted)]
            first_dealer = ((old.first_dealer or 0) + 1) % len(old.seats)
            try:
                self._table_id = await self._actor.port.open_rematch(
                    old, accepted, host, first_dealer
                )
                self.status = "started"
            except (StoreError, RequestError):
                _log.exception("table %s: the rematch could not be opened", old.id)
        self._broadcast()

    def close(self) -> None:
        """Stop the timer (the rematch is settled, or the actor is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
