"""Each store test runs on SQLite and on the PostgreSQL at 127.0.0.1:5432 (a fresh schema
of its own there, dropped afterwards), through ``store``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fresh_databases import BACKENDS, new_store

from raspisnoy.store import Store


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A migrated store on a fresh database of the test's backend."""
    with new_store(request.param, tmp_path) as opened:
        yield opened
