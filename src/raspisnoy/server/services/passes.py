"""A background pass that one worker at a time runs: every worker wakes every period,
and the one holding the pass's lease (``store.leases``, a conditional update in the
database) runs it. The pool's pairing and the tournaments' runner both run so.

A worker that dies mid-pass stops renewing its lease; another takes it over once it has
expired (``LEASE_PASSES`` periods), so what the pass does must be safe to do again from
the start: the database says what is done.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from raspisnoy.server.services.threads import in_thread

__all__ = ["LEASE_PASSES", "LeasedPass"]

_log = logging.getLogger(__name__)

#: How many pass periods a lease lasts: a worker that died mid-pass is taken over within
#: this many passes.
LEASE_PASSES = 5


class LeasedPass:
    """Runs ``work`` every ``period()`` seconds while this worker holds the lease
    (``take(holder, now, seconds)``, blocking: run in a thread)."""

    def __init__(
        self,
        kind: str,
        period: Callable[[], float],
        take: Callable[[str, float, float], bool],
        work: Callable[[], Awaitable[Any]],
        clock: Callable[[], float],
    ) -> None:
        self._period = period
        self._take = take
        self._work = work
        self._clock = clock
        #: This worker's name as the lease's holder (with its process id, which operators
        #: and the cluster tests read in ``pool_pairing``).
        self.name = f"{kind}-{os.getpid()}-{secrets.token_hex(4)}"
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"{self.name} passes")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._period())
            try:
                await self.once()
            except Exception:  # a busy database: the next pass tries again
                _log.exception("the %s pass failed", self.name)

    async def once(self) -> bool:
        """One pass if this worker holds (or takes) the lease; whether it did."""
        seconds = LEASE_PASSES * self._period()
        if not await in_thread(self._take, self.name, self._clock(), seconds):
            return False
        await self._work()
        return True
