"""A table's fencing token: every claim raises it, and a write under an older token is
refused by the database, in the same transaction as the write."""

from __future__ import annotations

import pytest

from raspisnoy.store import EventRow, FencedError, GameEnds, Store


def _started_table(store: Store) -> str:
    host = store.create_user("Ann")
    table = store.create_table(
        host_id=host.id,
        public=True,
        rules={"preset": "classic"},
        bots=["random"] * 4,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed="s",
    )
    store.start_table(table.id, ["Ann", "B", "C", "D"], 0)
    return table.id


def test_an_old_owners_append_is_refused(postgres_url: str) -> None:
    store = Store.open(postgres_url)
    try:
        table = _started_table(store)
        old = store.claim_table(table)
        store.append_events([EventRow(table, 1, 1, "1", None)], {table: old})
        new = store.claim_table(table)  # another worker takes the table over
        assert new > old
        with pytest.raises(FencedError, match="owned by another worker"):
            store.append_events([EventRow(table, 2, 2, "0", None)], {table: old})
        store.append_events([EventRow(table, 2, 2, "1", None)], {table: new})
        assert [(e.seq, e.action) for e in store.events_of(table)] == [(1, "1"), (2, "1")]
    finally:
        store.close()


def test_one_fenced_table_refuses_the_whole_batch(postgres_url: str) -> None:
    store = Store.open(postgres_url)
    try:
        ours, lost = _started_table(store), _started_table(store)
        fences = {ours: store.claim_table(ours), lost: store.claim_table(lost)}
        store.claim_table(lost)
        batch = [EventRow(ours, 1, 1, "1", None), EventRow(lost, 1, 1, "1", None)]
        with pytest.raises(FencedError, match=lost):
            store.append_events(batch, fences)
        assert store.events_of(ours) == []  # nothing of the batch was stored
    finally:
        store.close()


def test_an_old_owners_seat_and_finish_are_refused(postgres_url: str) -> None:
    store = Store.open(postgres_url)
    try:
        table = _started_table(store)
        old = store.claim_table(table)
        store.claim_table(table)
        with pytest.raises(FencedError):
            GameEnds(store).finish(table, fence=old)
        with pytest.raises(FencedError):
            store.set_seat(table, 1, None, old)
        assert store.get_table(table).status == "playing"
    finally:
        store.close()
