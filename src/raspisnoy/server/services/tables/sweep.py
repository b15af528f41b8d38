"""The pass that drops the tables nobody will play at (``store.EmptyTables``): every
``empty_table_sweep_seconds``, on the worker holding its lease (``empty_table_sweep``),
the tables not started where nobody sits, opened before the lobby's
``lobby_open_table_hours``, are deleted.

A worker that still holds one of them (a page left open on it) finds it gone at its next
write and lets it go (``FencedError``), as it lets go a table another worker took over;
the page then answers that there is no such table."""

from __future__ import annotations

import logging
import time
from functools import partial

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.lobby import listed_since
from raspisnoy.server.services.passes import LeasedPass
from raspisnoy.server.services.threads import in_thread
from raspisnoy.store import EmptyTables

__all__ = ["empty_table_sweep", "sweep_empty_tables"]

_log = logging.getLogger(__name__)


def empty_table_sweep(tables: EmptyTables, settings: ServerSettings) -> LeasedPass:
    """The pass, to start and stop with the app."""
    return LeasedPass(
        "empty-tables",
        lambda: settings.empty_table_sweep_seconds,
        tables.take_lease,
        partial(sweep_empty_tables, tables, settings),
        time.time,
    )


async def sweep_empty_tables(tables: EmptyTables, settings: ServerSettings) -> list[str]:
    """One pass: drop the tables nobody will play at; their ids."""
    before = listed_since(settings.lobby_open_table_hours)
    dropped = await in_thread(tables.drop, before)
    if dropped:
        _log.info("dropped %d table(s) nobody sat at since %s", len(dropped), before)
    return dropped
