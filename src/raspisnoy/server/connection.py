"""One WebSocket client: its identity, its outgoing queue, and the flood limit.

Messages to a client go through its own queue and writer task, so a slow client never
holds up its table's actor: a client whose queue overflows is closed instead. The queue
is a plain deque with one waiter (the writer) rather than an ``asyncio.Queue``: a message
is queued and written for every seat after every action, and the general queue's
bookkeeping (getters, putters, unfinished tasks) is a share of the server's CPU per action
worth saving (docs/cluster.md, issue 32).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from raspisnoy.server.wire import encode
from raspisnoy.store import UserRow

__all__ = ["CloseCode", "Connection", "TokenBucket"]


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
        #: Messages waiting to be written (JSON text), then a close's code and reason.
        self._outbox: deque[str | tuple[int, str]] = deque()
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
        self._outbox.append(item)
        if self._wakeup is not None and not self._wakeup.done():
            self._wakeup.set_result(None)

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
                if isinstance(item, tuple):
                    await self.websocket.close(*item)
                    return
                await self.websocket.send_text(item)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return  # the client went away; the reader notices too
