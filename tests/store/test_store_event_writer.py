"""The hub's ``EventWriter`` on a real SQLite database: a batch of actions is committed by
the event loop itself while SQLite is free (``Store.append_events_now``), and in a worker
thread, waiting, while another connection holds the write lock; the loop runs on
meanwhile and nothing is lost or reordered."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
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


def test_busy_commits_wait_to_gather_actions_and_a_lone_action_does_not(tmp_path: Path) -> None:
    """After a commit of one action the next is committed at once; after a commit of
    several (a busy server), the next waits until ``gather_seconds`` after that one, and
    the actions arriving meanwhile go in with it."""
    gather = 3.0
    with new_store("sqlite", tmp_path) as store:
        table_id = table_of(store, *people(store, "Writer")).id
        rows = [EventRow(table_id, seq, 0, f"bid {seq}", None) for seq in range(1, 9)]
        batches: list[int] = []
        append_now = store.append_events_now

        def counted(events: Sequence[EventRow], fences: Mapping[str, int] | None = None) -> bool:
            batches.append(len(events))
            return append_now(events, fences)

        store.append_events_now = counted  # type: ignore[method-assign]

        async def one_at_a_time(writer: EventWriter) -> None:
            for row in rows[:3]:
                await writer.write(row)

        async def scenario() -> None:
            writer = EventWriter(store, {table_id: store.claim_table(table_id)}, gather)
            writer.start()
            # None of these waits: a wait would take ``gather`` seconds.
            await asyncio.wait_for(one_at_a_time(writer), gather - 0.5)
            await asyncio.wait_for(asyncio.gather(*map(writer.write, rows[3:5])), 10)
            waiting = asyncio.create_task(writer.write(rows[5]))  # the last commit took two
            await asyncio.sleep(0.05)
            late = asyncio.gather(*map(writer.write, rows[6:]))
            await asyncio.wait_for(asyncio.gather(waiting, late), gather + 10)
            await writer.stop()

        asyncio.run(scenario())
        assert batches == [1, 1, 1, 2, 3]
        assert store.events_of(table_id) == rows
