"""The pass that drops the tables nobody will play at (``store.EmptyTables``): every
``empty_table_sweep_seconds``, on the worker holding its lease, the tables not started
where nobody sits, opened before the lobby's ``lobby_open_table_hours``, are deleted.

A worker that still holds one of them (a page left open on it) finds it gone at its next
write and lets it go (``FencedError``), as it lets go a table another worker took over;
the page then answers that there is no such table."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.lobby import listed_since
from raspisnoy.server.services.passes import LeasedPass
from raspisnoy.server.services.threads import in_thread
from raspisnoy.store import EmptyTables

__all__ = ["EmptyTableSweep"]

_log = logging.getLogger(__name__)


class EmptyTableSweep:
    """Drops the tables nobody will play at, on the worker holding the sweep's lease."""

    def __init__(
        self,
        tables: EmptyTables,
        settings: ServerSettings,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._tables = tables
        self._settings = settings
        self._passes = LeasedPass(
            "empty-tables",
            lambda: settings.empty_table_sweep_seconds,
            tables.take_lease,
            self.sweep,
            clock,
        )

    async def start(self) -> None:
        await self._passes.start()

    async def stop(self) -> None:
        await self._passes.stop()

    async def sweep(self) -> list[str]:
        """One pass: drop the tables nobody will play at; their ids."""
        before = listed_since(self._settings.lobby_open_table_hours)
        dropped = await in_thread(self._tables.drop, before)
        if dropped:
            _log.info("dropped %d table(s) nobody sat at since %s", len(dropped), before)
        return dropped
