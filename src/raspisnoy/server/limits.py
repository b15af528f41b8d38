"""Limits on abuse: how often one address or one user may call the server, and how many
sockets one user or table may hold. Rates are counted by the ``limits`` library over a
sliding window (two counters a key: the current window's and the previous one's, weighted
by how much of it still overlaps), in memory for one process and in the Redis that
several workers share (``ServerSettings.rate_limits_at``). Not its moving window: that
keeps one entry per hit, and in memory the library's expiry thread copies every key's entries a
hundred times a second, holding the interpreter's lock (issue 32: 15% of the server's
samples while 1,000 tables were set up over HTTP). The socket counts are this process's
with one worker (``SocketCounts``) and shared by every worker through Redis with several
(``RedisSocketCounts``), so a user's sockets count wherever nginx sent them.

Every limit is a setting (docs/server-settings.md), set far above what a person playing
fast needs: they stop scripts, not players. A request over a limit is refused with
``Refusal.TOO_MANY`` (HTTP 429 with ``Retry-After``); a socket over one is closed with
``CloseCode.TOO_MANY`` (4429).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import time
from collections import Counter
from contextlib import suppress

import orjson
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter
from redis.asyncio import Redis
from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.expiring import REFRESH, refresh_members

__all__ = ["BodyLimit", "Limits", "RedisSocketCounts", "SocketCounts"]

_log = logging.getLogger(__name__)


class Limits:
    """The rate limits of one app, each a list of ``limits`` items (``"30/minute;300/day"``)."""

    def __init__(self, settings: ServerSettings) -> None:
        storage = storage_from_string(settings.rate_limits_at())
        self._limiter = SlidingWindowCounterRateLimiter(storage)
        self.requests_per_address = parse_many(settings.requests_per_address)
        self.requests_per_user = parse_many(settings.requests_per_user)
        self.sessions_per_address = parse_many(settings.sessions_per_address)
        self.tables_per_user = parse_many(settings.tables_per_user)
        self.logins_per_address = parse_many(settings.logins_per_address)
        self.logins_per_account = parse_many(settings.logins_per_account)
        self.password_checks_per_address = parse_many(settings.password_checks_per_address)
        self.password_checks_per_account = parse_many(settings.password_checks_per_account)
        self.chat_per_user = parse_many(settings.chat_messages_per_user)
        self.hints_per_user = parse_many(settings.hints_per_user)
        self.invitations_per_user = parse_many(settings.invitations_per_user)
        self.pool_changes_per_user = parse_many(settings.pool_changes_per_user)
        self.reports_per_user = parse_many(settings.reports_per_user)

    def hit(self, items: list[RateLimitItem], what: str, key: str) -> None:
        """Count one ``what`` (a name for the message) of ``key``; a refusal naming the
        limit and when to try again if that is one too many."""
        for item in items:
            if not self._limiter.hit(item, what, key):
                reset = self._limiter.get_window_stats(item, what, key).reset_time
                raise RequestError(
                    Refusal.TOO_MANY,
                    f"too many {what}: at most {item.amount} per {_window(item)}; try again later",
                    retry_after=max(1, math.ceil(reset - time.time())),
                )


def _window(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


class BodyLimit:
    """ASGI middleware that refuses a request body over ``limit`` bytes with 413 before
    the app reads it (issue 27, defect 5: without it, large bodies were read whole into
    memory). A declared ``Content-Length`` over the limit is refused at once; a body sent
    in chunks is counted as it arrives and refused as soon as it passes the limit, so at
    most ``limit`` bytes of it are ever held. What passes is handed on as it came."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        received: list[Message] = []
        size = 0
        while True:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":  # the client went away: the app sees it
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = orjson.dumps({"detail": f"the request body is over {self.limit} bytes"})
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class SocketCounts:
    """How many table sockets each key (a user, or an address) holds now, in this process."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._counts: Counter[str] = Counter()

    async def start(self) -> None:
        """Nothing to keep up in one process (``RedisSocketCounts`` refreshes its own)."""

    async def stop(self) -> None:
        """Nothing to give back in one process."""

    async def acquire(self, key: str) -> bool:
        """Count one more socket of ``key``; ``False`` (and nothing counted) at the limit."""
        if self._counts[key] >= self.limit:
            return False
        self._counts[key] += 1
        return True

    async def release(self, key: str) -> None:
        self._counts[key] -= 1
        if self._counts[key] <= 0:
            del self._counts[key]


_SOCKETS = "raspisnoy:sockets:"
# KEYS[1]: the key's sorted set of sockets (score: when each expires, in Redis's own
# clock); ARGV: limit, lifetime in ms, the new socket's member. 1 if counted, 0 if full.
_ACQUIRE = """
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""


class RedisSocketCounts(SocketCounts):
    """The socket counts of every worker, in Redis: one sorted set per key, one member
    per open socket (``{worker}:{n}``), each expiring ``lifetime`` seconds after it was
    last refreshed. The worker refreshes its open sockets every third of ``lifetime``
    in a few script calls, so the sockets of a worker that died stop counting within
    ``lifetime`` of its death (their players' new sockets count meanwhile too).

    If Redis cannot be reached the socket is let in uncounted (and a warning logged):
    the limit stops scripts, and an outage of Redis must not stop the players."""

    def __init__(self, redis: Redis, name: str, limit: int, lifetime: float) -> None:
        super().__init__(limit)
        self.redis = redis
        self._name = name
        self._lifetime_ms = int(lifetime * 1000)
        self._acquire = redis.register_script(_ACQUIRE)
        self._refresh = redis.register_script(REFRESH)
        self._numbers = itertools.count()
        #: The members this worker holds, by key.
        self._held: dict[str, list[str]] = {}
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._refreshing(), name="socket counts")

    async def stop(self) -> None:
        """Stop refreshing and remove this worker's sockets (a clean shutdown)."""
        if self._task is not None:
            self._task.cancel()
        with suppress(RedisError, OSError):
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, members in self._held.items():
                    pipe.zrem(_SOCKETS + key, *members)
                await pipe.execute()
        self._held.clear()

    async def acquire(self, key: str) -> bool:
        member = f"{self._name}:{next(self._numbers)}"
        try:
            counted = await self._acquire(
                keys=[_SOCKETS + key], args=[self.limit, self._lifetime_ms, member]
            )
        except (RedisError, OSError) as error:
            _log.warning("socket counts: %s; socket let in uncounted", error)
            counted = 1
        if not counted:
            return False
        self._held.setdefault(key, []).append(member)
        return True

    async def release(self, key: str) -> None:
        members = self._held.get(key)
        if not members:
            return
        member = members.pop()
        if not members:
            del self._held[key]
        try:
            await self.redis.zrem(_SOCKETS + key, member)
        except (RedisError, OSError) as error:  # it expires by itself
            _log.warning("socket counts: %s; a closed socket counts until it expires", error)

    async def _refreshing(self) -> None:
        while True:
            await asyncio.sleep(self._lifetime_ms / 3000)
            held = [(_SOCKETS + key, m) for key, members in self._held.items() for m in members]
            try:
                await refresh_members(self._refresh, held, self._lifetime_ms)
            except (RedisError, OSError) as error:
                _log.warning("cannot refresh the socket counts: %s", error)
