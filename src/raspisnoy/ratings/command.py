"""``raspisnoy backfill-results``: results (profile figures) for the games that ended
before they were recorded (``raspisnoy.ratings.backfill``, docs/accounts.md). The
database is found as ``raspisnoy serve`` finds it, and brought up to date first."""

from __future__ import annotations

import sys
from typing import Any

from raspisnoy.cli_support import DatabaseUrl, DataDir, fail

__all__ = ["backfill_command"]


def backfill_command(data_dir: DataDir = None, database_url: DatabaseUrl = None) -> None:
    """``raspisnoy backfill-results``; its help is the ``cli`` catalog's
    ``cli.backfill-results``."""
    from raspisnoy.ratings.backfill import backfill_results
    from raspisnoy.server.config import ServerSettings
    from raspisnoy.store import Store, StoreError

    given: dict[str, Any] = {"data_dir": data_dir, "database_url": database_url}
    settings = ServerSettings(**{name: value for name, value in given.items() if value})
    try:
        store = Store.open(settings.database())
        recorded = backfill_results(store)
    except StoreError as error:
        fail(str(error))
    store.close()
    sys.stdout.write(f"recorded the results of {recorded} finished games\n")
