"""One WebSocket client: its identity, its outgoing queue, and the flood limit.

A message to a client whose writer is idle is written at once, by whoever sends it (the
table's actor, usually): writing a WebSocket frame finishes without waiting unless the
client reads too slowly for the socket's buffers. Otherwise, and for the rest of a write
that had to wait, messages go through the client's own queue and writer task, so a slow
client never holds up its table's actor: a client whose queue overflows is closed
instead. Writing at once spares each message a wake-up of the writer task (a future, a
task step, the loop's turn), several objects for the garbage collector to walk, and the
wait before the loop gets to it (docs/cluster.md, issue 32). The queue is a plain deque
with one waiter (the writer) rather than an ``asyncio.Queue``, whose bookkeeping
(getters, putters, unfinished tasks) is not needed with one reader.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Coroutine
from datetime import UTC, datetime
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from raspisnoy.server.wire import encode
from raspisnoy.store import UserRow

__all__ = ["CloseCode", "Connection", "TokenBucket"]

#: What the writer stops on: the socket failed under a write made at once.
_GONE = (0, "")
#: The errors of a write to a client that went away (its reader notices too).
_CLIENT_GONE = (WebSocketDisconnect, RuntimeError, OSError)


class CloseCode:
    """WebSocket close codes the server uses (RFC 6455 and the 4000 private range)."""

    GOING_AWAY = 1001
    #: The table moved to another server worker: reconnect.
    RESTART = 1012
    POLICY = 1008
    TOO_BIG = 1009
    TRY_LATER = 1013
    UNAUTHORIZED = 4401
    FORBIDDEN_ORIGIN = 4403
    NOT_FOUND = 4404
    #: The table has as many sockets as it takes (``max_sockets_per_table``): not the
    #: person's doing, unlike ``TOO_MANY`` (too many sockets of their own).
    TABLE_FULL = 4409
    TOO_MANY = 4429


class TokenBucket:
    """Allows ``rate`` events per second on average with bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self._tokens = float(burst)
        self._last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Connection:
    """A connected client of one table; ``seat`` is ``None`` for a spectator."""

    def __init__(
        self,
        websocket: WebSocket,
        user: UserRow | None,
        outbox_limit: int,
        session: str | None = None,
        session_ends: datetime | None = None,
    ) -> None:
        self.websocket = websocket
        self.user = user
        #: The hash of the session token the client connected with (``None``: none).
        self.session = session
        #: When that session expires: from then on the client may no longer play.
        self.session_ends = session_ends
        self.seat: int | None = None
        #: Messages waiting to be written (JSON text; first, the rest of a write begun at
        #: once that had to wait), then a close's code and reason.
        self._outbox: deque[str | _Rest | tuple[int, str]] = deque()
        self._outbox_limit = outbox_limit
        #: Set while the writer waits for the outbox to fill.
        self._wakeup: asyncio.Future[None] | None = None
        self._closing = False

    def session_expired(self) -> bool:
        """Whether the session the client connected with has expired since."""
        return self.session_ends is not None and datetime.now(UTC) >= self.session_ends

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded) without waiting."""
        if self._closing:
            return
        if len(self._outbox) >= self._outbox_limit:
            self.close(CloseCode.TRY_LATER, "too slow: too many messages waiting")
            return
        self._put(message if isinstance(message, str) else encode(message))

    def _put(self, item: str | tuple[int, str]) -> None:
        waiting = self._wakeup
        if waiting is None or waiting.done():  # the writer is busy, or not started yet
            self._outbox.append(item)
            return
        if isinstance(item, str):  # nothing queued: write it now
            rest = self._write_now(item)
            if rest is None:
                return
            self._outbox.append(rest)
        else:
            self._outbox.append(item)
        waiting.set_result(None)

    def _write_now(self, text: str) -> _Rest | tuple[int, str] | None:
        """Write ``text`` as far as it goes without waiting: ``None`` once written, else
        what the writer must do first (finish the write, or stop: the client is gone)."""
        write = self.websocket.send_text(text)
        try:
            waits_for = write.send(None)
        except StopIteration:
            return None
        except _CLIENT_GONE:
            self._closing = True
            return _GONE
        return _Rest(write, waits_for)

    @property
    def closing(self) -> bool:
        """Whether the server has decided to close this connection."""
        return self._closing

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then close with ``code`` and ``reason``."""
        if self._closing:
            return
        self._closing = True
        # The queue may be full; the close must get through, so make room for it.
        if len(self._outbox) >= self._outbox_limit:
            self._outbox.popleft()
        self._put((code, reason))

    async def pump(self) -> None:
        """Write queued messages to the socket until closed (run as the connection's task)."""
        try:
            while True:
                if not self._outbox:
                    self._wakeup = asyncio.get_running_loop().create_future()
                    await self._wakeup
                    self._wakeup = None
                item = self._outbox.popleft()
                if item is _GONE:
                    return
                if isinstance(item, tuple):
                    await self.websocket.close(*item)
                    return
                await (item.finish() if isinstance(item, _Rest) else self.websocket.send_text(item))
        except _CLIENT_GONE:
            return  # the client went away; the reader notices too


class _Rest:
    """A write begun at once that had to wait (the client reads slowly): its coroutine,
    suspended on ``waits_for``, which the writer task drives to its end as a task would."""

    def __init__(self, write: Coroutine[Any, Any, None], waits_for: Any) -> None:
        self.write, self.waits_for = write, waits_for

    async def finish(self) -> None:
        """Resume the write each time what it waits for is done, until it returns; if the
        writer is cancelled meanwhile, the write is closed with it."""
        try:
            while True:
                await (self.waits_for if self.waits_for is not None else asyncio.sleep(0))
                self.waits_for = self.write.send(None)
        except StopIteration:
            return
        finally:
            self.write.close()
