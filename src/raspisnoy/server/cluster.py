"""Table ownership across workers: a lease per table in Redis, and hand-over requests.

With several workers (``RASPISNOY_REDIS_URL`` set) each live table is owned by exactly
one worker: the one holding its lease, the Redis key ``raspisnoy:owner:{table}`` whose
value names the worker and which expires unless renewed. A worker takes the lease before
it loads a table, then claims the table in the database (``Store.claim_table``), which
raises the table's fencing token: every write it makes for the table carries that token
and the database refuses any other, so even a worker that lost its lease without
noticing (paused, cut off from Redis) cannot change the table behind the new owner.

Leases are renewed by a thread of their own, not by the event loop: a worker whose loop
lags behind under load (seconds, at worst) keeps its tables instead of losing them all at
once and making every client reconnect, which would only add load. The thread renews only
while the loop shows signs of life: a loop stuck for ``LOOP_PATIENCE`` lease periods lets
its leases lapse, so that another worker adopts its tables.

The load balancer sends every request of a table to the same worker (docs/cluster.md);
when that worker is not the owner (the owner died, or the table moved while a worker was
down) it asks the owner to hand the table over, on the Redis channel
``raspisnoy:release``, and takes the lease once the owner let it go or the lease expired.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import Any

from redis import Redis as SyncRedis
from redis.asyncio import Redis
from redis.exceptions import RedisError

__all__ = ["LeaseBusyError", "Ownership", "worker_name"]

_log = logging.getLogger(__name__)
_OWNER = "raspisnoy:owner:"
_RELEASE = "raspisnoy:release"
#: Seconds between tries while another worker holds a wanted lease.
_POLL_SECONDS = 0.1
#: Seconds between requests to hand a wanted table over.
_ASK_SECONDS = 0.5

# Take the lease if it is free (or already ours); 1 if we hold it now, 0 if another does.
_ACQUIRE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
# Extend each lease (KEYS) that is still ours: a list of 1 (renewed) or 0 (lost), in order.
_RENEW = """
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    renewed[i] = redis.call('PEXPIRE', key, ARGV[2])
  else
    renewed[i] = 0
  end
end
return renewed
"""
#: Most leases renewed by one script call (each call stays short for Redis).
_RENEW_BATCH = 1000
#: Lease periods the event loop may stay silent before the renewing thread stops renewing.
LOOP_PATIENCE = 5
# Let the lease go if it is still ours.
_RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class LeaseBusyError(Exception):
    """Another worker kept the table's lease past the wait."""


def worker_name() -> str:
    """This worker's name in the leases: host and process id (unique while it runs)."""
    return f"{socket.gethostname()}:{os.getpid()}"


class Ownership:
    """This worker's leases: taking, renewing, handing over and giving them back."""

    def __init__(
        self, redis: Redis, url: str, lease_seconds: float, name: str | None = None
    ) -> None:
        """``redis`` serves the event loop; the renewing thread opens its own client to
        ``url`` (the same server)."""
        self.redis = redis
        self.name = name or worker_name()
        self._url = url
        self._ttl_ms = int(lease_seconds * 1000)
        self._acquire = redis.register_script(_ACQUIRE)
        self._release = redis.register_script(_RELEASE_SCRIPT)
        self._held: set[str] = set()
        self._held_lock = threading.Lock()  # the loop changes the set, the thread reads it
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = threading.Event()
        self._renewer: threading.Thread | None = None
        self._loop_seen = time.monotonic()

    @classmethod
    def connect(cls, url: str, lease_seconds: float) -> Ownership:
        return cls(Redis.from_url(url, decode_responses=True), url, lease_seconds)

    @property
    def lease_seconds(self) -> float:
        return self._ttl_ms / 1000

    def start(self, lost: Callable[[str], None], asked: Callable[[str], None]) -> None:
        """Renew the held leases every third of their life (in a thread), calling
        ``lost(table)`` on the loop for each one that was lost; call ``asked(table)`` when
        another worker asks for a held one."""
        loop = asyncio.get_running_loop()
        self._loop_seen = time.monotonic()
        self._tasks = [
            asyncio.create_task(self._beating(), name="lease heartbeat"),
            asyncio.create_task(self._listening(asked), name="hand-over requests"),
        ]
        self._renewer = threading.Thread(
            target=self._renewing, args=(loop, lost), name="lease renewal", daemon=True
        )
        self._renewer.start()

    async def stop(self) -> None:
        """Stop renewing and give every lease back (a clean shutdown hands over at once)."""
        for task in self._tasks:
            task.cancel()
        self._stopping.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 5)
        with suppress(RedisError, OSError):
            for table in self._holding():
                await self.release(table)
        await self.redis.aclose()

    async def acquire(self, table_id: str, wait: float) -> None:
        """Take the table's lease, asking its holder to hand it over and waiting up to
        ``wait`` seconds; ``LeaseBusyError`` if it is still held by then."""
        now = time.monotonic()
        deadline, ask_at = now + wait, now
        while not await self._acquire(keys=[_OWNER + table_id], args=[self.name, self._ttl_ms]):
            now = time.monotonic()
            if now >= ask_at:  # asked again and again: the holder may have just taken it
                await self.redis.publish(_RELEASE, table_id)
                ask_at = now + _ASK_SECONDS
            if now >= deadline:
                raise LeaseBusyError(f"table {table_id!r} is held by another worker")
            await asyncio.sleep(_POLL_SECONDS)
        self._hold(table_id)

    async def try_acquire(self, table_id: str) -> bool:
        """Take the lease only if nobody holds it."""
        if await self._acquire(keys=[_OWNER + table_id], args=[self.name, self._ttl_ms]):
            self._hold(table_id)
            return True
        return False

    async def release(self, table_id: str) -> None:
        """Give the lease back (if still ours)."""
        self._let_go(table_id)
        await self._release(keys=[_OWNER + table_id], args=[self.name])

    async def owners(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """The worker holding each table's lease (``None``: nobody)."""
        ids = list(table_ids)
        if not ids:
            return {}
        values = await self.redis.mget([_OWNER + table for table in ids])
        return {table: None if v is None else str(v) for table, v in zip(ids, values, strict=True)}

    def _hold(self, table_id: str) -> None:
        with self._held_lock:
            self._held.add(table_id)

    def _let_go(self, table_id: str) -> bool:
        """Forget a held lease; whether it was held."""
        with self._held_lock:
            held = table_id in self._held
            self._held.discard(table_id)
        return held

    def _holding(self) -> list[str]:
        with self._held_lock:
            return list(self._held)

    def _is_held(self, table_id: str) -> bool:
        with self._held_lock:
            return table_id in self._held

    async def _beating(self) -> None:
        """Show the renewing thread that the event loop runs."""
        while True:
            self._loop_seen = time.monotonic()
            await asyncio.sleep(self._ttl_ms / 6000)

    def _renewing(self, loop: asyncio.AbstractEventLoop, lost: Callable[[str], None]) -> None:
        """The renewing thread: every third of a lease's life, extend every held lease
        and tell the loop of those lost (unless the loop itself seems stuck)."""
        client = SyncRedis.from_url(self._url, decode_responses=True)
        renew = client.register_script(_RENEW)
        patience = LOOP_PATIENCE * self.lease_seconds
        try:
            while not self._stopping.wait(self._ttl_ms / 3000):
                if time.monotonic() - self._loop_seen > patience:
                    continue  # the loop is stuck: its tables should go to another worker
                for table in self._renew_all(renew):
                    loop.call_soon_threadsafe(self._lost, table, lost)
        except RuntimeError:  # the loop closed without stopping us: its process is ending
            pass
        finally:
            client.close()

    def _renew_all(self, renew: Callable[..., Any]) -> list[str]:
        """Extend every held lease, in one script call per ``_RENEW_BATCH`` of them; the
        tables whose lease is no longer ours."""
        tables, lost = self._holding(), []
        for start in range(0, len(tables), _RENEW_BATCH):
            batch = tables[start : start + _RENEW_BATCH]
            try:
                renewed = renew(keys=[_OWNER + t for t in batch], args=[self.name, self._ttl_ms])
            except (RedisError, OSError) as error:
                _log.warning("cannot renew table leases: %s", error)
                break
            lost += [table for table, ok in zip(batch, renewed, strict=True) if not ok]
        return lost

    def _lost(self, table_id: str, lost: Callable[[str], None]) -> None:
        """On the loop: a lease the thread could not renew, if it is still held."""
        if self._let_go(table_id):
            lost(table_id)

    async def _listening(self, asked: Callable[[str], None]) -> None:
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(_RELEASE)
                    async for message in pubsub.listen():
                        if message["type"] != "message":
                            continue
                        table = message["data"]
                        if self._is_held(table):
                            asked(table)
            except (RedisError, OSError) as error:
                _log.warning("hand-over requests: %s; listening again", error)
                await asyncio.sleep(1)
