"""Messages to every worker of the server: a small publish/subscribe of JSON objects.

``Broadcast`` delivers in this process only: one worker is the whole server. With several
workers (``RASPISNOY_REDIS_URL``) ``RedisBroadcast`` also publishes each message on the
Redis channel ``raspisnoy:broadcast:{channel}`` and delivers what the other workers
publish. Either way ``publish`` runs this worker's own handlers at once, before it
returns, so a request that ends a session answers only once its own worker's sockets are
closed; the other workers get the message within a Redis round trip.

Redis pub/sub delivers at most once: a worker cut off from Redis misses what is
published meanwhile (it logs the loss and subscribes again). What is sent here must
therefore be something a worker could also find out by itself later (a socket of an
ended session is refused at its next connect anyway); it is a way to act *now*, not a
log of record. Handlers are plain functions, run on the event loop: they must not block.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

__all__ = ["Broadcast", "Handler", "RedisBroadcast"]

_log = logging.getLogger(__name__)
_PREFIX = "raspisnoy:broadcast:"

#: What a subscriber runs for each message of its channel.
Handler = Callable[[dict[str, Any]], None]


class Broadcast:
    """Publish/subscribe inside this process (one worker)."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = {}

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Run ``handler`` for every message published on ``channel`` (before ``start``)."""
        self._handlers.setdefault(channel, []).append(handler)

    async def start(self) -> None:
        """Begin delivering messages from other workers (none here)."""

    async def stop(self) -> None:
        """Stop delivering messages from other workers (none here)."""

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to this worker's handlers of ``channel`` (and, with Redis,
        to every other worker's)."""
        self._deliver(channel, message)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for handler in self._handlers.get(channel, ()):
            try:
                handler(message)
            except Exception:  # one broken handler must not keep the message from others
                _log.exception("broadcast handler of %r failed", channel)


class RedisBroadcast(Broadcast):
    """Publish/subscribe across workers over Redis. Its messages carry ``name`` (the
    worker's) and a token of this instance, which tell its own messages apart (it has
    delivered them already), also where two apps run in one process."""

    def __init__(self, redis: Redis, name: str) -> None:
        super().__init__()
        self.redis = redis
        self.name = f"{name}/{secrets.token_hex(4)}"
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    async def start(self) -> None:
        """Listen to every subscribed channel; returns once the subscription is in place,
        so nothing published after ``start`` is missed."""
        if self._handlers:
            self._task = asyncio.create_task(self._listening(), name="broadcast")
            await self._subscribed.wait()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Deliver here at once, then to the other workers. A Redis that cannot be
        reached is logged, not raised: the other workers learn of it later by themselves
        (see the module's docstring), and the caller's own work is done."""
        self._deliver(channel, message)
        envelope = orjson.dumps({"from": self.name, "message": message})
        try:
            await self.redis.publish(_PREFIX + channel, envelope)
        except (RedisError, OSError) as error:
            _log.warning("cannot publish on %r to the other workers: %s", channel, error)

    async def _listening(self) -> None:
        channels = [_PREFIX + channel for channel in self._handlers]
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(*channels)
                    self._subscribed.set()
                    async for item in pubsub.listen():
                        if item["type"] == "message":
                            self._received(item["channel"], item["data"])
            except (RedisError, OSError) as error:
                _log.warning("broadcast: %s; what is published meanwhile is missed", error)
                await asyncio.sleep(1)

    def _received(self, channel: str | bytes, data: str | bytes) -> None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        try:
            envelope = orjson.loads(data)
            sender, message = envelope["from"], envelope["message"]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            _log.warning("broadcast: not a message of raspisnoy on %r: %.80r", name, data)
            return
        if sender != self.name and isinstance(message, dict):
            self._deliver(name.removeprefix(_PREFIX), message)
