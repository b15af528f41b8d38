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

Only what anyone may know is in its lists: ``wire.lobby_line`` takes a table's public
settings and the names at it, never its seed, its hands or its private tables.

A socket with a session also gets ``mine``: a fingerprint of its own person's live
tables (waiting for players, private ones too, or being played: each id, status and
who sits where), so that their page reads their games again when it changes. The same
changes start a second rebuild: one read of the live tables of the people in this
worker's lobby (``Store.live_tables_of``, by the seats' index) gives each of them their
fingerprint, and the lobby is sent again to those whose fingerprint changed, to them
alone. It runs at most once every ``_MINE_SECONDS`` while changes keep coming, and only
while someone with a session is in the lobby; nothing of anyone's tables reaches anyone
else.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable, Coroutine, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from raspisnoy.server.broadcast import Broadcast
from raspisnoy.server.connection import CloseCode, Connection
from raspisnoy.server.wire import encode, lobby_message
from raspisnoy.store import Store, TableRow, UserRow

__all__ = ["LOBBY_CHANNEL", "LobbyFeed", "listed_open_tables", "listed_since"]

_log = logging.getLogger(__name__)
#: The broadcast channel on which a worker tells every worker that the lobby changed.
LOBBY_CHANNEL = "lobby"
#: Seconds a rebuild waits for more changes of the same burst.
_SETTLE_SECONDS = 0.1
#: Least seconds between two reads of the people's tables (``mine``), while changes keep
#: coming: a busy server's changes cost one read of every live table a second at most.
_MINE_SECONDS = 1.0
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


def tables_digest(tables: Iterable[TableRow]) -> str:
    """The fingerprint of one person's live ``tables`` (the lobby message's ``mine``): it
    changes when one of them is opened, started or over, or a seat at one is taken or
    freed; the same on every worker."""
    lines = sorted(
        (table.id, table.status, [seat.user_id for seat in table.seats]) for table in tables
    )
    return hashlib.blake2b(json.dumps(lines).encode(), digest_size=8).hexdigest()


#: The fingerprint of a person with no live table.
NO_TABLES = tables_digest(())


def digests_by_person(tables: Iterable[TableRow]) -> dict[str, str]:
    """The fingerprint of every person seated at one of the live ``tables``."""
    theirs: dict[str, list[TableRow]] = {}
    for table in tables:
        for user_id in {seat.user_id for seat in table.seats if seat.user_id is not None}:
            theirs.setdefault(user_id, []).append(table)
    return {user_id: tables_digest(rows) for user_id, rows in theirs.items()}


def with_mine(lobby: str, mine: dict[str, str] | None, user: UserRow | None) -> str:
    """The encoded ``lobby`` message for a socket of ``user``: with their ``mine`` where the
    socket has a session and the fingerprints are known (hexadecimal, so inserted into the
    JSON text as it is)."""
    if user is None or mine is None:
        return lobby
    return f'{lobby[:-1]},"mine":"{mine.get(user.id, NO_TABLES)}"}}'


class LobbyFeed:
    """The lobby sockets of this process and the snapshot they were last sent."""

    def __init__(self, store: Store, broadcast: Broadcast, open_table_hours: int) -> None:
        self._store = store
        #: How long a table waits for players in the lobby (``listed_open_tables``).
        self._open_table_hours = open_table_hours
        self._broadcast = broadcast
        broadcast.subscribe(LOBBY_CHANNEL, lambda _message: self._changed_here())
        self._subscribers: set[Connection] = set()
        #: The last snapshot sent (encoded); ``None``: none is up to date.
        self._snapshot: str | None = None
        self._refresh: asyncio.Task[None] | None = None
        self._again = False
        #: The fingerprint of each person in the lobby as last read (``_read_mine``);
        #: ``None``: none is up to date (nobody with a session was in the lobby).
        self._mine: dict[str, str] | None = None
        self._mine_refresh: asyncio.Task[None] | None = None
        self._mine_again = False
        self._tasks: set[asyncio.Task[None]] = set()
        #: The rebuild due when the oldest open table listed leaves the lobby.
        self._expiry: asyncio.TimerHandle | None = None

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)

    async def stop(self) -> None:
        for task in [*self._tasks, self._refresh, self._mine_refresh]:
            if task is not None:
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
        user = subscriber.user
        if user is not None and (self._mine is None or user.id not in self._mine):
            read = await self._read_mine()  # (theirs among them: they are subscribed)
            self._mine = {**read, **(self._mine or {})}  # (a refresh meanwhile is newer)
        subscriber.send(with_mine(self._snapshot, self._mine, subscriber.user))

    def _changed_here(self) -> None:
        """A change reached this worker: the lists and the people's tables are read again."""
        self._refresh_soon()
        self._mine_soon()

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
                            subscriber.send(with_mine(snapshot, self._mine, subscriber.user))
            if not self._again:
                return

    def _mine_soon(self) -> None:
        if self._mine_refresh is not None and not self._mine_refresh.done():
            self._mine_again = True  # the running refresh reads once more when it may
            return
        self._mine_refresh = asyncio.create_task(self._mine_refreshing(), name="lobby mine")

    async def _mine_refreshing(self) -> None:
        """Read the people's tables after the settling time, and again at most once every
        ``_MINE_SECONDS`` while changes keep coming."""
        while True:
            self._mine_again = False
            await asyncio.sleep(_SETTLE_SECONDS)
            if not any(subscriber.user is not None for subscriber in self._subscribers):
                self._mine = None  # nobody to tell: the next join reads afresh
            else:
                try:
                    self._send_mine(await self._read_mine())
                except Exception:  # a busy database: the next change tries again
                    _log.exception("cannot read the people's tables")
            if not self._mine_again:
                return
            await asyncio.sleep(_MINE_SECONDS - _SETTLE_SECONDS)

    def _send_mine(self, mine: dict[str, str]) -> None:
        """Keep ``mine``, and send the lobby again to each socket whose person's
        fingerprint it changes. Nothing is sent where no fingerprints were known (each
        socket with a session that joined since got its own with the lobby) or no lists
        are (their next refresh sends both)."""
        last, self._mine = self._mine, mine
        lobby = self._snapshot
        if last is None or lobby is None:
            return
        for subscriber in list(self._subscribers):
            user = subscriber.user
            if user is not None and last.get(user.id, NO_TABLES) != mine.get(user.id, NO_TABLES):
                subscriber.send(with_mine(lobby, mine, user))

    async def _read_mine(self) -> dict[str, str]:
        """The fingerprint of every person with a lobby socket here, from one read of
        their live tables: waiting for players in the lobby's time, or being played;
        private ones too."""
        people = {s.user.id for s in self._subscribers if s.user is not None}
        since = listed_since(self._open_table_hours)
        tables = await asyncio.to_thread(self._store.live_tables_of, people, since)
        found = digests_by_person(tables)  # (others at their tables: partly, so left out)
        return {person: found.get(person, NO_TABLES) for person in people}

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
