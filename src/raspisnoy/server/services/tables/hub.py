"""The hub: the table actors of this process, the event writer, and recovery at start.

Pub/sub is in-process: each actor sends to its own connected clients. ``EventWriter``
commits the actions of all tables in shared transactions (group commit): each action
still waits until it is stored before it is sent, but a busy server pays for one commit
per batch instead of one per action.

With several workers (``ownership`` given, see ``cluster``) a table is loaded only under
its lease, and every write for it carries the fencing token the hub got when it claimed
the table: the database refuses the writes of a worker that lost the table. Tables whose
owner died are adopted by a sweep every lease period, so bot games go on too. Ended
sessions, places in clubs that ended and renamed tables (a deleted account) reach every
worker through ``broadcast`` (Redis pub/sub with several workers), so their table
sockets close, and their clients see the new names, wherever they are.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar

from raspisnoy.core import Game
from raspisnoy.server import revocation
from raspisnoy.server.broadcast import Broadcast
from raspisnoy.server.cluster import LeaseBusyError, Ownership
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.connection import CloseCode, Connection
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.services.chat import ChatMute, chat_mute
from raspisnoy.server.services.lobby import LobbyFeed
from raspisnoy.server.services.results import Results
from raspisnoy.server.services.tables.actor import TableActor
from raspisnoy.store import (
    ChatRow,
    ClubStore,
    EventRow,
    FencedError,
    FriendsRepository,
    Moderation,
    NotAMemberError,
    Store,
    StoreError,
    TableRow,
    Together,
)

__all__ = ["CLUB_PLACE_ENDED", "RENAMED", "EventWriter", "Hub", "renamed_tables"]

_log = logging.getLogger(__name__)
_T = TypeVar("_T")
#: Most actions committed in one transaction.
_BATCH = 512
#: While commits are busy, the least seconds between the starts of two (``EventWriter``).
_GATHER_SECONDS = 0.004
#: Seconds between SQLite checkpoints.
_CHECKPOINT_SECONDS = 2.0
#: Why the clients of a table that moved to another worker are closed (they reconnect).
_MOVED = "the table moved to another server worker: reconnect"
#: The broadcast channel of tables whose names changed in the store (``Hub.renamed``).
RENAMED = "tables-renamed"
#: The broadcast channel of people whose place in a club ended (``Hub.close_club_sockets``).
CLUB_PLACE_ENDED = "club-place-ended"
#: Why a client of a club's table is closed when its person's place in the club ends.
_NOT_IN_CLUB = "no longer a member of this table's club"


class EventWriter:
    """Stores actions in batches; ``write`` returns once its action is committed.

    While commits are busy (the last one took the actions of more than one table), a
    commit begins no sooner than ``gather_seconds`` after the one before, so that it
    takes the actions of more tables: a commit's own cost is most of a small batch's.
    At 1,000 tables that halved the commits (docs/cluster.md, session 19). An action
    after a commit of one, as at a quiet server or a table of bots, is committed at
    once."""

    def __init__(
        self, store: Store, fences: dict[str, int], gather_seconds: float = _GATHER_SECONDS
    ) -> None:
        self._store = store
        #: The fencing token this worker holds for each table it owns.
        self._fences = fences
        self._gather_seconds = gather_seconds
        self._queue: asyncio.Queue[tuple[EventRow, asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        #: When the last batch was taken (the event loop's clock), and its size.
        self._last_began, self._last_size = 0.0, 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="event writer")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def write(self, row: EventRow) -> None:
        """Store ``row``; raises ``StoreError`` if it could not be stored."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((row, future))
        await future

    async def _run(self) -> None:
        while True:
            batch = await self._next_batch()
            try:
                await self._append([row for row, _ in batch])
            except StoreError as error:
                if len(batch) == 1:
                    _settle(batch[0][1], error)
                    continue
                # One bad row must not fail the other tables' actions: store them one by one.
                for row, future in batch:
                    try:
                        await self._append([row])
                    except StoreError as single_error:
                        _settle(future, single_error)
                    else:
                        _settle(future, None)
            else:
                for _, future in batch:
                    _settle(future, None)

    async def _next_batch(self) -> list[tuple[EventRow, asyncio.Future[None]]]:
        """The actions waiting, at least one; while commits are busy, not before
        ``gather_seconds`` after the last batch was taken."""
        first = await self._queue.get()
        loop = asyncio.get_running_loop()
        if self._last_size > 1:
            wait = self._last_began + self._gather_seconds - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
        self._last_began = loop.time()
        batch = [first]
        while len(batch) < _BATCH and not self._queue.empty():
            batch.append(self._queue.get_nowait())
        self._last_size = len(batch)
        return batch

    async def _append(self, rows: list[EventRow]) -> None:
        """Commit ``rows`` here if the store can without waiting (SQLite not locked by
        another writer: ``Store.append_events_now``), else in a worker thread."""
        fences = {row.table_id: self._fences.get(row.table_id, -1) for row in rows}
        if not self._store.append_events_now(rows, fences):
            await asyncio.to_thread(self._store.append_events, rows, fences)


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class _Port:
    """The hub as its actors see it (``actor.TablePort``): the store and the event writer,
    and a way to be dropped."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._store = hub.store
        self._together = Together(hub.store)
        self._friends = FriendsRepository(hub.store)
        self._moderation = Moderation(hub.store)
        self._clubs = hub.clubs

    async def append(self, row: EventRow) -> None:
        await self._fenced(row.table_id, self._hub.writer.write(row))

    async def finish(self, table: TableRow, game: Game) -> TableRow:
        fence = self._hub.fences.get(table.id, -1)
        await self._fenced(table.id, self._hub.results.finish(table, game, fence))
        self._hub.lobby.changed()
        return await self.reload(table.id)

    async def set_seat(self, table_id: str, seat: int, user_id: str | None) -> None:
        await self._seating(table_id, self._store.set_seat, seat, user_id)

    async def leave_open_table(self, table_id: str, seat: int, user_id: str) -> None:
        await self._seating(table_id, self._store.leave_open_table, seat, user_id)

    async def _seating(
        self, table_id: str, write: Callable[..., None], seat: int, user_id: str | None
    ) -> None:
        """Change a seat before the start with ``write`` (a ``Store`` method), under the
        table's fence; the lobby shows the change. One whose place in the table's club
        ended since the table was shown them is answered as for a table that does not
        exist, as every route answers them now (``Clubs.guard``)."""
        fence = self._hub.fences.get(table_id, -1)
        try:
            await self._fenced(table_id, self.run(write, table_id, seat, user_id, fence))
        except NotAMemberError:
            raise RequestError(Refusal.NOT_FOUND, f"no table {table_id!r}") from None
        self._hub.lobby.changed()

    async def start(
        self,
        table_id: str,
        names: Sequence[str],
        first_dealer: int,
        games_cap: int | None,
        seated: Sequence[str | None],
    ) -> TableRow:
        fence = self._hub.fences.get(table_id, -1)
        write = self.run(
            self._store.start_table, table_id, names, first_dealer, fence, games_cap, seated
        )
        await self._fenced(table_id, write)
        self._hub.lobby.changed()
        return await self.reload(table_id)

    async def set_away(self, table_id: str, seat: int, away: bool) -> None:
        fence = self._hub.fences.get(table_id, -1)
        await self._fenced(table_id, self.run(self._store.set_away, table_id, seat, away, fence))

    async def _fenced(self, table_id: str, write: Awaitable[object]) -> None:
        """Await ``write``; if the database refused it because another worker owns the
        table now, this worker lets the table go (its clients reconnect to the owner)."""
        try:
            await write
        except FencedError:
            self._hub.lose(table_id)
            raise

    async def reload(self, table_id: str) -> TableRow:
        return await self.run(self._store.get_table, table_id)

    async def events_of(self, table_id: str) -> list[EventRow]:
        return await self.run(self._store.events_of, table_id)

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.to_thread(function, *args)

    def drop_later(self, table_id: str) -> None:
        self._hub.drop_later(table_id)

    async def add_chat(self, row: ChatRow) -> None:
        fence = self._hub.fences.get(row.table_id, -1)
        await self._fenced(row.table_id, self.run(self._together.add_chat, row, fence))

    async def chat_of(self, table_id: str) -> list[ChatRow]:
        return await self.run(self._together.chat_of, table_id)

    async def blocked_with(self, user_id: str) -> frozenset[str]:
        return await self.run(self._friends.blocked_with, user_id)

    async def mute_of(self, table_id: str, user_id: str) -> ChatMute | None:
        standing = await self.run(self._moderation.standing, user_id)
        club = await self.run(self._clubs.table_mute, table_id, user_id)
        return chat_mute(standing.muted_until, club)

    async def open_rematch(
        self, old: TableRow, people: dict[int, str], host_id: str, first_dealer: int
    ) -> str:
        seed = secrets.token_hex(16)
        args = (old, people, host_id, first_dealer, seed)
        table = await self.run(self._together.open_rematch, *args)
        await self._start_rematch(table.id)
        return table.id

    def bot_failed(self, level: str) -> None:
        self._hub.bot_failures[level] += 1

    async def rematch_of(self, table_id: str) -> str | None:
        rematch_id = await self.run(self._together.rematch_of, table_id)
        if rematch_id is not None:
            await self._start_rematch(rematch_id)
        return rematch_id

    async def _start_rematch(self, table_id: str) -> None:
        """Start the game of a stored rematch table if it is still open: the worker that
        stored it may have died before starting it, so whoever finds it (a settling, or
        a worker loading the old table) starts it (``Hub.start_if_open``; a failed start
        is left to the next load of the old table, or to the pass that starts the
        rematches left open: ``rematch_sweep``). Only an open table where someone sits
        is loaded here: one being played stays with the worker that holds it, and one
        that everyone left is nobody's rematch any more (``Together.unstarted_rematches``)."""
        with suppress(StoreError):  # a busy database: the next load of the old table
            table = await self.reload(table_id)
            if table.status == "open" and any(seat.user_id for seat in table.seats):
                await self._hub.start_if_open(table_id)


class Hub:
    """Every live table of this process, by id."""

    def __init__(
        self,
        store: Store,
        settings: ServerSettings,
        ownership: Ownership | None = None,
        broadcast: Broadcast | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.ownership = ownership
        #: Messages to every worker (in this process only, unless given one over Redis).
        self.broadcast = broadcast or Broadcast()
        self.broadcast.subscribe(revocation.CHANNEL, self._sessions_ended)
        self.broadcast.subscribe(RENAMED, self._renamed)
        self.broadcast.subscribe(CLUB_PLACE_ENDED, self._club_place_ended)
        #: The clubs' tables and places (which club a table loaded here is of).
        self.clubs = ClubStore(store)
        #: The fencing token of each table this worker has claimed (``Store.claim_table``).
        self.fences: dict[str, int] = {}
        self.writer = EventWriter(store, self.fences)
        #: Where the actors' finished games go (their results and ratings, stored once).
        self.results = Results(store)
        #: The live lobby's sockets (``lobby_feed``), told of every change of a table.
        self.lobby = LobbyFeed(store, self.broadcast, settings.lobby_open_table_hours)
        #: The bots of each level that failed to choose a move in this process (metrics).
        self.bot_failures: Counter[str] = Counter()
        self._actors: dict[str, TableActor] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._checkpoints: asyncio.Task[None] | None = None
        self._sweeps: asyncio.Task[None] | None = None
        #: How many requests and connections are using each table's actor now.
        self._users: dict[str, int] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._port = _Port(self)

    async def run(self, function: Callable[..., _T], *args: object) -> _T:
        """Run a blocking store call in a worker thread."""
        return await asyncio.to_thread(function, *args)

    async def start(self) -> None:
        """Start the writer and bring back every game that was being played (after a
        restart or a crash: the stored actions rebuild each exactly)."""
        self.writer.start()
        await self.broadcast.start()
        if self.store.needs_checkpoints:
            self._checkpoints = asyncio.create_task(self._checkpoint(), name="checkpoints")
        if self.ownership is not None:
            self.ownership.start(self.lose, self.hand_over)
            self._sweeps = asyncio.create_task(self._sweep(), name="orphan sweep")
            return
        for table_id in await self.run(self.store.playing_table_ids):
            await self._load(table_id)
        _log.info("resumed %d games", len(self._actors))

    async def stop(self) -> None:
        if self._sweeps is not None:
            self._sweeps.cancel()
        await self.broadcast.stop()
        for actor in list(self._actors.values()):
            await actor.close()
        await self.writer.stop()
        await self.lobby.stop()
        if self._checkpoints is not None:
            self._checkpoints.cancel()
        if self.ownership is not None:
            await self.ownership.stop()

    async def _sweep(self) -> None:
        """Adopt every game being played whose owner is gone (its lease expired), so that
        games nobody is connected to (bots, absent players) go on after a crash."""
        assert self.ownership is not None
        while True:
            try:
                playing = await self.run(self.store.playing_table_ids)
                owners = await self.ownership.owners(t for t in playing if t not in self._actors)
                for table_id, owner in owners.items():
                    if owner is None:
                        with suppress(LeaseBusyError):  # another worker was quicker
                            await self._load(table_id, adopt=True)
            except Exception:  # a sweep must never stop sweeping: the next one retries
                _log.exception("sweep for orphaned tables failed")
            await asyncio.sleep(self.ownership.lease_seconds)

    def lose(self, table_id: str) -> None:
        """The table is no longer this worker's (its lease or its token was lost): drop the
        actor and close its clients, who reconnect to the new owner."""
        self.fences.pop(table_id, None)
        actor = self._actors.pop(table_id, None)
        if actor is not None:
            self._spawn(actor.close(CloseCode.RESTART, _MOVED))

    def hand_over(self, table_id: str) -> None:
        """Another worker asks for the table: let it go once its current command is done.
        Asked while this worker is still loading it (the lease taken, the actor not yet
        made), it lets the load finish first and then hands the actor over like any
        other: let go before, the load would go on to install an actor whose lease is
        gone, serving its clients a table another worker owns until its first write."""

        async def let_go() -> None:
            loading = self._loading.get(table_id)
            if loading is not None:
                async with loading:  # the load under way ends (an actor, or none) first
                    pass
            actor = self._actors.get(table_id)
            if actor is not None:
                with suppress(RequestError):  # closed meanwhile: nothing left to finish
                    await actor.call(_nothing)  # the commands queued before the request finish
            self.lose(table_id)
            if self.ownership is not None:
                await self.ownership.release(table_id)

        self._spawn(let_go())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _checkpoint(self) -> None:
        while True:
            await asyncio.sleep(_CHECKPOINT_SECONDS)
            try:
                await self.run(self.store.checkpoint)
            except StoreError as error:  # a busy database: the next one will do
                _log.warning("%s", error)

    async def close_sessions(self, ended: EndedSessions) -> None:
        """Close the table and lobby sockets of the ended sessions on every worker: this
        one's at once, the others' as soon as they hear of it (``broadcast``)."""
        await self.broadcast.publish(revocation.CHANNEL, ended.to_json())

    def _sessions_ended(self, message: dict[str, Any]) -> None:
        ended = EndedSessions.from_json(message)
        for actor in self._actors.values():
            actor.close_sessions(ended.matches)
        self.lobby.close_sessions(ended.matches)

    async def close_club_sockets(self, club_id: str, user_id: str) -> None:
        """``user_id``'s place in the club ended (they left, were removed or banned): close
        their sockets to the club's tables on every worker (4404, as for a table that
        does not exist: a club's tables are its members' only, docs/clubs.md), this
        one's at once, the others' as soon as they hear of it (``broadcast``); the live
        tables not started where they sat reload the seat the store freed."""
        await self.broadcast.publish(CLUB_PLACE_ENDED, {"club": club_id, "user": user_id})

    def _club_place_ended(self, message: dict[str, Any]) -> None:
        club_id, user_id = _club_and_person(message)

        def theirs(connection: Connection) -> bool:
            return connection.user is not None and connection.user.id == user_id

        for actor in self._actors.values():
            if actor.club_id == club_id:
                actor.close_clients(theirs, CloseCode.NOT_FOUND, _NOT_IN_CLUB)
                seated = any(seat.user_id == user_id for seat in actor.table.seats)
                if seated and actor.table.status == "open":
                    actor.submit(actor.reload)  # their seat was freed (``leave_club_play``)

    async def renamed(self, table_ids: Sequence[str]) -> None:
        """The names of these tables changed in the store (``Players.delete_account``):
        every worker's live actor of one reloads them and tells its clients
        (``TableActor.reload``)."""
        await self.broadcast.publish(RENAMED, {"tables": list(table_ids)})

    def _renamed(self, message: dict[str, Any]) -> None:
        for table_id in renamed_tables(message):
            actor = self._actors.get(table_id)
            if actor is not None:
                actor.submit(actor.reload)

    @asynccontextmanager
    async def using(self, table_id: str) -> AsyncIterator[TableActor]:
        """The table's actor while the block runs (loaded from the store on first use;
        ``NotFoundError`` if there is no such table). An actor nobody uses, with no
        clients and no game running, is dropped afterwards to free its memory."""
        actor = await self._load(table_id)
        self._users[table_id] = self._users.get(table_id, 0) + 1
        try:
            yield actor
        finally:
            self._users[table_id] -= 1
            await self.drop_if_idle(table_id)

    async def start_if_open(self, table_id: str) -> None:
        """Start the game of a table opened for the people seated at it, who are on their
        way (a pool's or a tournament's table, a rematch), as its host, unless it started
        meanwhile (``TableActor.start_if_open``: its actor holds it under its lease and
        fence, so a second start, on whatever worker, is none). A busy database or lease
        is logged, not raised: whoever opened the table finds it open again later (the
        next pass, the next load of a rematch's old table)."""
        try:
            async with self.using(table_id) as actor:
                await actor.call(actor.start_if_open)
        except (RequestError, StoreError):
            _log.exception("table %s could not be started", table_id)

    async def drop_if_idle(self, table_id: str) -> None:
        """Drop the table's actor if nothing uses it any more."""
        actor = self._actors.get(table_id)
        if actor is not None and actor.idle and not self._users.get(table_id):
            self._users.pop(table_id, None)
            del self._actors[table_id]
            self.fences.pop(table_id, None)
            await actor.close()
            if self.ownership is not None:
                await self.ownership.release(table_id)

    def drop_later(self, table_id: str) -> None:
        """``drop_if_idle`` from inside the table's own actor, once its command is done."""
        self._spawn(self.drop_if_idle(table_id))

    async def _load(self, table_id: str, *, adopt: bool = False) -> TableActor:
        """The table's actor, loaded if need be: under its lease with several workers
        (waiting for the holder to hand it over; ``adopt``: only if nobody holds it)."""
        actor = self._actors.get(table_id)
        if actor is not None:
            return actor
        try:
            async with self._loading.setdefault(table_id, asyncio.Lock()):
                actor = self._actors.get(table_id)
                if actor is None:
                    actor = await self._take(table_id, adopt)
        finally:  # a table that failed to load (no such table) keeps no lock behind
            self._loading.pop(table_id, None)
        return actor

    async def _take(self, table_id: str, adopt: bool) -> TableActor:
        ownership = self.ownership
        if ownership is not None:
            if adopt:
                if not await ownership.try_acquire(table_id):
                    raise LeaseBusyError(f"table {table_id!r} was adopted by another worker")
            else:
                try:
                    await ownership.acquire(table_id, wait=2 * ownership.lease_seconds + 1)
                except LeaseBusyError as error:
                    raise RequestError(Refusal.BUSY, str(error), retry_after=1) from None
        try:
            # Claim first, read after: the events read include every write of the last
            # owner, whose later writes the claim refuses.
            self.fences[table_id] = await self.run(self.store.claim_table, table_id)
            table = await self.run(self.store.get_table, table_id)
            events = await self.run(self.store.events_of, table_id)
            club_id = await self.run(self.clubs.club_of, table_id)
        except Exception:
            self.fences.pop(table_id, None)
            if ownership is not None:
                await ownership.release(table_id)
            raise
        actor = self._actors[table_id] = TableActor(
            self._port,
            table,
            events,
            self.settings.max_sockets_per_table,
            self.settings.rematch_seconds,
            club_id,
        )
        return actor


async def _nothing() -> None:
    """A command that does nothing: waiting for it waits for the commands before it."""


def _club_and_person(message: dict[str, Any]) -> tuple[str, str]:
    """The club and the person of a ``CLUB_PLACE_ENDED`` message (``ValueError`` if it
    is not one)."""
    club_id, user_id = message.get("club"), message.get("user")
    if not isinstance(club_id, str) or not isinstance(user_id, str):
        raise ValueError(f"not a club and a person: {message!r}")
    return club_id, user_id


def renamed_tables(message: dict[str, Any]) -> list[str]:
    """The table ids of a ``RENAMED`` message (``ValueError`` if it is not one)."""
    tables = message.get("tables")
    if not isinstance(tables, list) or not all(isinstance(t, str) for t in tables):
        raise ValueError(f"not a list of table ids: {tables!r}")
    return tables
