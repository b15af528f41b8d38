"""The hub's ``EventWriter`` on a real SQLite database: a batch of actions is committed by
the event loop itself while SQLite is free (``Store.append_events_now``), and in a worker
thread, waiting, while another connection holds the write lock; the loop runs on
meanwhile and nothing is lost or reordered."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from fresh_databases import new_store
from store_helpers import people, table_of

from raspisnoy.server.services.tables.hub import EventWriter
from raspisnoy.store import EventRow


def test_a_locked_database_is_waited_for_in_a_thread_not_on_the_loop(tmp_path: Path) -> None:
    with new_store("sqlite", tmp_path) as store:
        table_id = table_of(store, *people(store, "Writer")).id
        first, second, third = (EventRow(table_id, seq, 0, f"bid {seq}", None) for seq in (1, 2, 3))

        async def scenario() -> None:
            writer = EventWriter(store, {table_id: store.claim_table(table_id)})
            writer.start()
            await asyncio.wait_for(writer.write(first), 30)  # SQLite free: on the loop
            with store.engine.connect() as other:
                other.exec_driver_sql("BEGIN IMMEDIATE")  # another writer holds the lock
                waiting = asyncio.create_task(writer.write(second))
                started = time.monotonic()
                await asyncio.sleep(0.3)
                # The loop ran on meanwhile: it did not sit out SQLite's 5 s busy timeout.
                assert time.monotonic() - started < 4
                assert not waiting.done()  # not stored (nor refused) while the lock is held
                other.rollback()
            await asyncio.wait_for(waiting, 30)
            await asyncio.wait_for(writer.write(third), 30)
            await writer.stop()

        asyncio.run(scenario())
        assert store.events_of(table_id) == [first, second, third]
