"""The hub: the table actors of this process, the event writer, and recovery at start.

Pub/sub is in-process: each actor sends to its own connected clients. ``EventWriter``
commits the actions of all tables in shared transactions (group commit): each action
still waits until it is stored before it is sent, but a busy server pays for one commit
per batch instead of one per action.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from raspisnoy.server.actor import TableActor
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.connection import Connection
from raspisnoy.store import EventRow, Store, StoreError, TableRow

__all__ = ["EventWriter", "Hub"]

_log = logging.getLogger(__name__)
_T = TypeVar("_T")
#: Most actions committed in one transaction.
_BATCH = 512
#: Seconds between SQLite checkpoints.
_CHECKPOINT_SECONDS = 2.0


class EventWriter:
    """Stores actions in batches; ``write`` returns once its action is committed."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._queue: asyncio.Queue[tuple[EventRow, asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

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
            batch = [await self._queue.get()]
            while len(batch) < _BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await asyncio.to_thread(self._store.append_events, [row for row, _ in batch])
            except StoreError as error:
                if len(batch) == 1:
                    _settle(batch[0][1], error)
                    continue
                # One bad row must not fail the other tables' actions: store them one by one.
                for row, future in batch:
                    try:
                        await asyncio.to_thread(self._store.append_events, [row])
                    except StoreError as single_error:
                        _settle(future, single_error)
                    else:
                        _settle(future, None)
            else:
                for _, future in batch:
                    _settle(future, None)


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

    async def append(self, row: EventRow) -> None:
        await self._hub.writer.write(row)

    async def finish(self, table_id: str) -> TableRow:
        await self.run(self._store.finish_table, table_id)
        return await self.reload(table_id)

    async def set_seat(self, table_id: str, seat: int, user_id: str | None) -> None:
        await self.run(self._store.set_seat, table_id, seat, user_id)

    async def start(self, table_id: str, names: Sequence[str], first_dealer: int) -> TableRow:
        await self.run(self._store.start_table, table_id, names, first_dealer)
        return await self.reload(table_id)

    async def reload(self, table_id: str) -> TableRow:
        return await self.run(self._store.get_table, table_id)

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.to_thread(function, *args)

    def drop_later(self, table_id: str) -> None:
        self._hub.drop_later(table_id)


class Hub:
    """Every live table of this process, by id."""

    def __init__(self, store: Store, settings: ServerSettings) -> None:
        self.store = store
        self.settings = settings
        self.writer = EventWriter(store)
        self._actors: dict[str, TableActor] = {}
        self._loading = asyncio.Lock()
        self._checkpoints: asyncio.Task[None] | None = None
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
        if self.store.needs_checkpoints:
            self._checkpoints = asyncio.create_task(self._checkpoint(), name="checkpoints")
        for table in await self.run(
            lambda: self.store.list_tables(status="playing", public_only=False, limit=None)
        ):
            await self._load(table.id)
        _log.info("resumed %d games", len(self._actors))

    async def stop(self) -> None:
        for actor in list(self._actors.values()):
            await actor.close()
        await self.writer.stop()
        if self._checkpoints is not None:
            self._checkpoints.cancel()

    async def _checkpoint(self) -> None:
        while True:
            await asyncio.sleep(_CHECKPOINT_SECONDS)
            try:
                await self.run(self.store.checkpoint)
            except StoreError as error:  # a busy database: the next one will do
                _log.warning("%s", error)

    def close_sessions(self, ended: Callable[[Connection], bool]) -> None:
        """Close every client of every table whose session has ended."""
        for actor in self._actors.values():
            actor.close_sessions(ended)

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

    async def drop_if_idle(self, table_id: str) -> None:
        """Drop the table's actor if nothing uses it any more."""
        actor = self._actors.get(table_id)
        if actor is not None and actor.idle and not self._users.get(table_id):
            self._users.pop(table_id, None)
            del self._actors[table_id]
            await actor.close()

    def drop_later(self, table_id: str) -> None:
        """``drop_if_idle`` from inside the table's own actor, once its command is done."""
        task = asyncio.create_task(self.drop_if_idle(table_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _load(self, table_id: str) -> TableActor:
        actor = self._actors.get(table_id)
        if actor is not None:
            return actor
        async with self._loading:
            actor = self._actors.get(table_id)
            if actor is None:
                table = await self.run(self.store.get_table, table_id)
                events = await self.run(self.store.events_of, table_id)
                actor = self._actors[table_id] = TableActor(
                    self._port, table, events, self.settings.max_sockets_per_table
                )
        return actor
