"""Password hashing and checking on a thread pool of its own (issue 27, defect 2).

An argon2id hash or check takes tens of milliseconds of CPU and 64 MiB on purpose. Run in
the default executor (``asyncio.to_thread``), a burst of them queued every store call and
event write behind them, and every table slowed down. Here they get ``workers`` threads
and at most ``waiting`` more checks queued for them; one more is refused at once
(``Refusal.BUSY``, 503 with ``Retry-After``) rather than held, so a flood of password
requests costs their sender, not the players.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from raspisnoy.server.errors import Refusal, RequestError

__all__ = ["THREAD_PREFIX", "Passwords"]

#: The names of the pool's threads begin with this (a test checks where hashes run).
THREAD_PREFIX = "raspisnoy-passwords"
#: A password nobody has: checked against for unknown user names, so that a log-in takes
#: as long whether the name exists or not (issue 27, defect 7).
_DUMMY_PASSWORD = "no account has this password"

_T = TypeVar("_T")


class Passwords:
    """argon2id (``argon2-cffi``, its RFC 9106 low-memory profile) on ``workers`` threads
    of its own, with at most ``waiting`` calls queued for them."""

    def __init__(self, workers: int, waiting: int) -> None:
        self._hasher = PasswordHasher()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=THREAD_PREFIX)
        self._capacity = workers + waiting
        #: Calls running or queued in the pool now (changed on the event loop only).
        self._busy = 0
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password`` to store."""
        return await self._run(self._hasher.hash, password)

    async def check(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` matches ``hashed``; ``None`` (no such account) is checked
        against a dummy hash, so the answer takes as long, and is ``False``."""
        if hashed is None:
            if self._dummy is None:
                self._dummy = await self.hash(_DUMMY_PASSWORD)
            await self._run(self._verify, self._dummy, password)
            return False
        return await self._run(self._verify, hashed, password)

    def close(self) -> None:
        """Let the pool's threads end (the calls queued still run)."""
        self._pool.shutdown(wait=False)

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return self._hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _run(self, function: Callable[..., _T], *args: str) -> _T:
        """``function(*args)`` on the pool, or ``Refusal.BUSY`` if it is full."""
        if self._busy >= self._capacity:
            raise RequestError(
                Refusal.BUSY, "too many password checks at once: try again", retry_after=1
            )
        self._busy += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, function, *args)
        finally:
            self._busy -= 1
