"""The pass that starts the rematches left open (docs/PROTOCOL.md, "Rematch"): every
``rematch_sweep_seconds``, on the worker holding its lease (``unstarted-rematches``), the
rematch tables still open that were opened more than that long ago are started.

A rematch table is stored (``Together.open_rematch``) and then started by the worker
that stored it. One that died in between left it open with its people seated; the next
load of the old table would start it (``Rematch.restore``), but the clients of the
people in it had gone to the new table already, so nobody may ever load the old one.
The opening worker has its moment first (a table opened less than a pass ago is left
alone), and starting is harmless for whoever finds the table started meanwhile
(``Hub.start_if_open``), so what the pass does is safe to do again."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime, timedelta
from functools import partial

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.passes import LeasedPass
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.threads import in_thread
from raspisnoy.store import Together

__all__ = ["rematch_sweep", "start_unstarted_rematches"]

_log = logging.getLogger(__name__)


def rematch_sweep(together: Together, hub: Hub, settings: ServerSettings) -> LeasedPass:
    """The pass, to start and stop with the app."""
    return LeasedPass(
        "unstarted-rematches",
        lambda: settings.rematch_sweep_seconds,
        together.take_lease,
        partial(start_unstarted_rematches, together, hub, settings),
        time.time,
    )


async def start_unstarted_rematches(
    together: Together, hub: Hub, settings: ServerSettings
) -> list[str]:
    """One pass: start the rematch tables left open for longer than a pass; their ids.
    One whose start fails is logged (``Hub.start_if_open``) and found again next pass."""
    opened_before = datetime.now(UTC) - timedelta(seconds=settings.rematch_sweep_seconds)
    table_ids = await in_thread(together.unstarted_rematches, opened_before)
    if table_ids:
        _log.info("starting %d rematch(es) left open: %s", len(table_ids), ", ".join(table_ids))
    for table_id in table_ids:
        await _start(hub, table_id)
    return table_ids


async def _start(hub: Hub, table_id: str) -> None:
    """Start one (``Hub.start_if_open`` logs a busy store or lease itself); any other
    failure is logged here, so that one table that cannot start (oldest first) never
    keeps the pass from starting the others."""
    try:
        await hub.start_if_open(table_id)
    except Exception:
        _log.exception("the rematch table %s left open could not be started", table_id)
