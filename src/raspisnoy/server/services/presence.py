"""Presence (docs/friends.md): who is online now and at which public table, and the live
notices (invitations) sent to a person wherever they are connected.

A person is online while one of their sockets (the lobby's or a table's) is open; each
socket says where it is: at a table (its id, kept only if the table is public, so a
private table's link never leaves this module) or in the lobby. One worker keeps this
in memory (``Presence``). With several workers (docs/cluster.md) ``RedisPresence``
keeps it in Redis, one sorted set per person (``raspisnoy:presence:{user id}``, a
member ``{worker}:{n}|{table id}`` per socket, scored by when it expires in Redis's
clock): each worker refreshes its sockets' members every third of their lifetime, so
the sockets of a worker that died stop counting within the lifetime, and a worker that
was killed leaves nothing behind for long.

A notice for a person is published on the ``notices`` channel of the server's
broadcast; every worker hands it to the sockets it holds of that person.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator, Collection, Iterable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from raspisnoy.server.broadcast import Broadcast
from raspisnoy.server.expiring import RESTORE, refresh_members
from raspisnoy.store import TableRow, UserRow

__all__ = ["NOTICES_CHANNEL", "Place", "Presence", "Reachable", "RedisPresence"]

_log = logging.getLogger(__name__)
#: The broadcast channel of notices to one person (``{"to": user id, "message": {...}}``).
NOTICES_CHANNEL = "notices"
_KEY = "raspisnoy:presence:"
# KEYS[1]: a person's sorted set; ARGV: lifetime in ms, the socket's member.
_ARRIVE = """
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""
# KEYS: sorted sets; the members of each that have not expired (expired ones removed).
_READ = """
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
local found = {}
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ms)
  found[i] = redis.call('ZRANGE', key, 0, -1)
end
return found
"""


class Reachable(Protocol):
    """A socket as presence sees it (``connection.Connection``)."""

    @property
    def user(self) -> UserRow | None: ...

    def send(self, message: dict[str, Any] | str) -> None: ...


@dataclass(frozen=True, slots=True)
class Place:
    """Where an online person is: at a public table (its id), or ``None``: in the lobby,
    or at a table that is not public."""

    table_id: str | None


def place_of(table: TableRow | None) -> str:
    """What a socket at ``table`` (``None``: the lobby) tells of its place: the table's
    id if it is public, nothing otherwise."""
    return table.id if table is not None and table.public else ""


class Presence:
    """Who is online and where, for one worker alone (in memory); the base of
    ``RedisPresence``, whose sockets this also holds to hand notices to."""

    def __init__(self, broadcast: Broadcast) -> None:
        self._broadcast = broadcast
        broadcast.subscribe(NOTICES_CHANNEL, self._deliver)
        #: This worker's sockets of each person, each with its place (``place_of``).
        self._sockets: dict[str, dict[Reachable, str]] = {}

    async def start(self) -> None:
        """Begin what runs beside the requests (nothing in memory)."""

    async def stop(self) -> None:
        """Stop it again."""

    @asynccontextmanager
    async def online(self, socket: Reachable, table: TableRow | None) -> AsyncIterator[None]:
        """``socket``'s person is online at ``table`` (``None``: the lobby) while inside."""
        user = socket.user
        if user is None:  # nobody to find: a socket without a session
            yield
            return
        place = place_of(table)
        self._sockets.setdefault(user.id, {})[socket] = place
        try:
            await self._arrived(socket, user.id, place)
            yield
        finally:
            mine = self._sockets.get(user.id, {})
            mine.pop(socket, None)
            if not mine:
                self._sockets.pop(user.id, None)
            await self._left(socket, user.id, place)

    async def _arrived(self, socket: Reachable, user_id: str, place: str) -> None:
        """Record the socket where every worker reads (nothing more in memory)."""

    async def _left(self, socket: Reachable, user_id: str, place: str) -> None:
        """Forget the socket there."""

    async def where(self, user_ids: Collection[str]) -> dict[str, Place]:
        """Where each of ``user_ids`` who is online is (the others are not in it): at a
        public table if one of their sockets is (the latest such), else in no place."""
        return {
            user_id: _place(sockets.values())
            for user_id in user_ids
            if (sockets := self._sockets.get(user_id))
        }

    async def notify(self, user_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every socket of ``user_id``, on every worker."""
        await self._broadcast.publish(NOTICES_CHANNEL, {"to": user_id, "message": message})

    def _deliver(self, notice: dict[str, Any]) -> None:
        for socket in list(self._sockets.get(str(notice.get("to")), {})):
            socket.send(notice["message"])


class RedisPresence(Presence):
    """Presence shared by every worker through Redis (see the module's docstring). If
    Redis cannot be reached a socket still serves (and a warning is logged); its person
    shows offline to others meanwhile."""

    def __init__(self, broadcast: Broadcast, redis: Redis, name: str, lifetime: float) -> None:
        super().__init__(broadcast)
        self.redis = redis
        self._name = name
        self._lifetime_ms = int(lifetime * 1000)
        self._arrive = redis.register_script(_ARRIVE)
        self._refresh = redis.register_script(RESTORE)
        self._read = redis.register_script(_READ)
        self._numbers = itertools.count()
        #: The member of each socket of this worker, with its person's key.
        self._members: dict[Reachable, tuple[str, str]] = {}
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._refreshing(), name="presence")

    async def stop(self) -> None:
        """Stop refreshing and remove this worker's sockets (a clean shutdown)."""
        if self._task is not None:
            self._task.cancel()
        with suppress(RedisError, OSError):
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, member in self._members.values():
                    pipe.zrem(key, member)
                await pipe.execute()
        self._members.clear()

    async def _arrived(self, socket: Reachable, user_id: str, place: str) -> None:
        key, member = _KEY + user_id, f"{self._name}:{next(self._numbers)}|{place}"
        self._members[socket] = (key, member)
        try:
            await self._arrive(keys=[key], args=[self._lifetime_ms, member])
        except (RedisError, OSError) as error:
            _log.warning("presence: %s; a socket is not shown online", error)

    async def _left(self, socket: Reachable, user_id: str, place: str) -> None:
        held = self._members.pop(socket, None)
        if held is None:
            return
        try:
            await self.redis.zrem(*held)
        except (RedisError, OSError) as error:  # it expires by itself
            _log.warning("presence: %s; a closed socket shows online until it expires", error)

    async def where(self, user_ids: Collection[str]) -> dict[str, Place]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        try:
            found = await self._read(keys=[_KEY + user_id for user_id in ids])
        except (RedisError, OSError) as error:
            _log.warning("presence: %s; nobody is shown online", error)
            return {}
        return {
            user_id: _place(member.partition("|")[2] for member in members)
            for user_id, members in zip(ids, found, strict=True)
            if members
        }

    async def refresh(self) -> None:
        """Give every socket of this worker its whole lifetime again (one round), putting
        back any that Redis lost (``RESTORE``)."""
        await refresh_members(self._refresh, list(self._members.values()), self._lifetime_ms)

    async def _refreshing(self) -> None:
        while True:
            await asyncio.sleep(self._lifetime_ms / 3000)
            try:
                await self.refresh()
            except (RedisError, OSError) as error:
                _log.warning("cannot refresh presence: %s", error)


def _place(places: Iterable[str]) -> Place:
    """One place of a person's sockets' places: a public table if any (the last listed)."""
    tables = [place for place in places if place]
    return Place(tables[-1] if tables else None)
