"""The live lobby: what every lobby page shows (the open public tables, the public games
being played), pushed to each lobby socket (``/ws/lobby``) whenever it changes.

The lobby is read from the store, never from the actors, so that every worker shows
every worker's tables. Whatever may change it (a table opened, a seat taken or freed, a
game started or finished) calls ``LobbyFeed.changed``: one worker alone then rebuilds its
snapshot after a short settling time (a burst of changes costs one read); with several
workers (docs/cluster.md) the change is also published to the others through the
server's ``broadcast`` (channel ``lobby``, on Redis ``raspisnoy:broadcast:lobby``) and
every worker rebuilds its own from the shared database.
A snapshot that equals the last one is not sent again. A table that has waited for
players longer than ``ServerSettings.lobby_open_table_hours`` is not listed: it leaves
the REST list at once, and the sockets' lists at a rebuild that each worker sets for
the moment the oldest table it lists is due to leave (no other change needed).

Only what anyone may know is in it: ``wire.lobby_line`` takes a table's public settings and
the names at it, never its seed, its hands or its private tables.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

from raspisnoy.server.broadcast import Broadcast
from raspisnoy.server.connection import CloseCode, Connection
from raspisnoy.server.wire import encode, lobby_message
from raspisnoy.store import Store, TableRow

__all__ = ["LOBBY_CHANNEL", "LobbyFeed", "listed_open_tables", "listed_since"]

_log = logging.getLogger(__name__)
#: The broadcast channel on which a worker tells every worker that the lobby changed.
LOBBY_CHANNEL = "lobby"
#: Seconds a rebuild waits for more changes of the same burst.
_SETTLE_SECONDS = 0.1
#: Most tables of each list in the lobby (newest first).
MAX_LINES = 50
#: Seconds after a table's time in the lobby is up that the rebuild which drops it runs
#: (so that the database's clock has passed it too).
_EXPIRY_MARGIN_SECONDS = 0.5


def listed_since(hours: int) -> datetime:
    """When the oldest table the lobby lists was opened: ``hours`` ago
    (``ServerSettings.lobby_open_table_hours``)."""
    return datetime.now(UTC) - timedelta(hours=hours)


def listed_open_tables(store: Store, hours: int, limit: int | None = MAX_LINES) -> list[TableRow]:
    """The public tables waiting for players that the lobby lists, newest first: those
    opened in the last ``hours``."""
    return store.list_tables(status="open", limit=limit, created_after=listed_since(hours))


class LobbyFeed:
    """The lobby sockets of this process and the snapshot they were last sent."""

    def __init__(self, store: Store, broadcast: Broadcast, open_table_hours: int) -> None:
        self._store = store
        #: How long a table waits for players in the lobby (``listed_open_tables``).
        self._open_table_hours = open_table_hours
        self._broadcast = broadcast
        broadcast.subscribe(LOBBY_CHANNEL, lambda _message: self._refresh_soon())
        self._subscribers: set[Connection] = set()
        #: The last snapshot sent (encoded); ``None``: none is up to date.
        self._snapshot: str | None = None
        self._refresh: asyncio.Task[None] | None = None
        self._again = False
        self._tasks: set[asyncio.Task[None]] = set()
        #: The rebuild due when the oldest open table listed leaves the lobby.
        self._expiry: asyncio.TimerHandle | None = None

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)

    async def stop(self) -> None:
        for task in [*self._tasks, *([self._refresh] if self._refresh else [])]:
            task.cancel()
        if self._expiry is not None:
            self._expiry.cancel()

    def changed(self) -> None:
        """Something the lobby shows may have changed: rebuild soon, here and on every
        other worker (the broadcast delivers here too)."""
        self._spawn(self._broadcast.publish(LOBBY_CHANNEL, {}))

    async def join(self, subscriber: Connection) -> None:
        """Add a lobby socket and send it the lobby as it is now."""
        self._subscribers.add(subscriber)
        await self.resend(subscriber)

    def part(self, subscriber: Connection) -> None:
        self._subscribers.discard(subscriber)

    def close_sessions(self, ended: Callable[[Connection], bool]) -> None:
        """Close the lobby sockets whose session has ended (4401): a logged-out or banned
        person's invitations and friends' whereabouts stop reaching them at once."""
        for subscriber in self._subscribers:
            if ended(subscriber):
                subscriber.close(CloseCode.UNAUTHORIZED, "the session was ended (logged out)")

    async def resend(self, subscriber: Connection) -> None:
        """Send ``subscriber`` the whole lobby again (its ``sync``)."""
        if self._snapshot is None:
            built = await self._build()
            if self._snapshot is None:  # (a refresh meanwhile is newer)
                self._snapshot = built
        subscriber.send(self._snapshot)

    def _refresh_soon(self) -> None:
        if self._refresh is not None and not self._refresh.done():
            self._again = True  # the running refresh reads once more when it is done
            return
        self._refresh = asyncio.create_task(self._refreshing(), name="lobby refresh")

    async def _refreshing(self) -> None:
        while True:
            self._again = False
            await asyncio.sleep(_SETTLE_SECONDS)
            if not self._subscribers:
                self._snapshot = None  # nobody to tell: the next join reads afresh
            else:
                try:
                    snapshot = await self._build()
                except Exception:  # a busy database: the next change tries again
                    _log.exception("cannot read the lobby")
                    self._snapshot = None
                else:
                    if snapshot != self._snapshot:
                        self._snapshot = snapshot
                        for subscriber in list(self._subscribers):
                            subscriber.send(snapshot)
            if not self._again:
                return

    async def _build(self) -> str:
        """The lobby as it is now, encoded; sets the rebuild that drops the oldest open
        table it lists when that table's time in the lobby is up (``_expire_at``)."""

        def read() -> tuple[list[TableRow], list[TableRow]]:
            store = self._store
            return (
                listed_open_tables(store, self._open_table_hours),
                store.list_tables(status="playing", limit=MAX_LINES),
            )

        open_tables, playing = await asyncio.to_thread(read)
        oldest = min((table.created_at for table in open_tables if table.public), default=None)
        self._expire_at(oldest)
        return encode(lobby_message(open_tables, playing))

    def _expire_at(self, oldest: datetime | None) -> None:
        """Rebuild when the table opened at ``oldest`` leaves the lobby (none: no open
        table listed, no rebuild due); replaces the rebuild set before."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        if oldest is None:
            return
        if oldest.tzinfo is None:  # (SQLite gives UTC without its zone)
            oldest = oldest.replace(tzinfo=UTC)
        leaves = oldest + timedelta(hours=self._open_table_hours)
        delay = (leaves - datetime.now(UTC)).total_seconds() + _EXPIRY_MARGIN_SECONDS
        self._expiry = asyncio.get_running_loop().call_later(max(delay, 0), self._refresh_soon)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
