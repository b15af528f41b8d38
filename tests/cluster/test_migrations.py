"""Several machines starting at once on a fresh PostgreSQL schema each run ``upgrade``:
the advisory lock of ``Store.migrate`` makes them take turns, so every one succeeds and
the schema ends at head, migrated once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from raspisnoy.store import Store

#: Machines starting at once.
STARTS = 6
#: Without the lock the upgrades block one another on the catalogue's locks; each
#: statement gives up after this long, so such a run fails instead of hanging.
TIMEOUT = "%20-cstatement_timeout%3D20000"


def _head() -> str:
    from importlib.resources import files

    head = ScriptDirectory(str(files("raspisnoy.store") / "migrations")).get_current_head()
    assert head is not None
    return head


def test_concurrent_upgrades_of_a_fresh_schema_take_turns(postgres_url: str) -> None:
    assert "options=" in postgres_url  # the fixture's search path: add to its options
    url = postgres_url + TIMEOUT
    ready = threading.Barrier(STARTS)

    def start() -> str:
        store = Store.open(url, migrate=False)  # connected, nothing done yet
        try:
            with store.engine.connect() as connection:  # the pool's connection is open
                connection.execute(text("SELECT 1"))
            ready.wait(timeout=60)  # then every one migrates at the same moment
            store.migrate()
            return store.create_user("Ann").id  # and the schema is usable
        finally:
            store.close()

    with ThreadPoolExecutor(STARTS) as pool:
        users = list(pool.map(lambda _: start(), range(STARTS)))

    assert len(set(users)) == STARTS
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    finally:
        engine.dispose()
    assert [row[0] for row in versions] == [_head()]
