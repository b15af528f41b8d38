"""``PoolStore``: one entry a person, a table opened and its people taken out of the pool in
one transaction (or nothing at all), the people gone quiet dropped, and one pairing lease
holder at a time. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from injected_failures import first_statement_fails
from sqlalchemy import delete, update
from store_helpers import people, table_of, until_blocked_by

from raspisnoy.store import (
    ROUND_COUNTS,
    AlreadyInPoolError,
    GameEnd,
    GameEnds,
    NewPoolTable,
    PoolStore,
    Store,
    StoreError,
)
from raspisnoy.store.models import GameTable, PoolEntry

CHOICES = {"presets": ["classic"], "players": [3], "speed": "normal", "rated": False}
TABLE = NewPoolTable({"preset": "classic"}, ["random"] * 3, 30, 0, "random", "seed", False)


def test_a_person_waits_once(store: Store) -> None:
    (one,) = people(store, "One")
    pool = PoolStore(store)
    pool.join(one.id, CHOICES, 1000.0, 5.0)
    with pytest.raises(AlreadyInPoolError):
        pool.join(one.id, {**CHOICES, "speed": "fast"}, 1000.0, 6.0)
    (entry,) = pool.waiting()
    assert (entry.user_id, entry.choices, entry.joined_at, entry.table_id) == (
        one.id,
        CHOICES,
        5.0,
        None,
    )


def test_a_table_takes_its_people_out_of_the_pool_all_or_none(store: Store) -> None:
    a, b, c = people(store, "A", "B", "C")
    pool = PoolStore(store)
    for person in (a, b):
        pool.join(person.id, CHOICES, 1000.0, 1.0)
    # C is not waiting: nothing changes, no table is made.
    assert pool.open_table([a.id, c.id], TABLE) is None
    assert {entry.user_id for entry in pool.waiting()} == {a.id, b.id}
    assert store.list_tables(status="open") == []
    table_id = pool.open_table([a.id, b.id], TABLE)
    assert table_id is not None
    table = store.get_table(table_id)
    assert [seat.user_id for seat in table.seats] == [a.id, b.id, None]
    assert table.host_id == a.id and table.status == "open"
    assert pool.waiting() == []
    assert pool.unstarted() == [table_id]
    # Paired once only: a second table for the same people changes nothing.
    assert pool.open_table([a.id, b.id], TABLE) is None
    # Leaving does not free a person the pool seated, while the game is not over.
    assert not pool.leave(a.id)
    with pytest.raises(AlreadyInPoolError) as raised:
        pool.join(a.id, CHOICES, 1000.0, 2.0)
    assert raised.value.table_id == table_id
    store.start_table(table_id, ["A", "B", "Bot"], 0)
    assert pool.unstarted() == []
    assert pool.seen(a.id, 3.0) is not None  # playing: still matched
    with store.engine.begin() as connection:  # the game ends
        connection.execute(update(GameTable).where(GameTable.id == table_id).values(status="over"))
    assert pool.seen(a.id, 4.0) is None  # done with: the page shows the pool again
    pool.join(a.id, CHOICES, 1000.0, 5.0)
    pool.join(b.id, CHOICES, 1000.0, 5.0)  # an entry whose game is over is replaced
    assert {entry.user_id for entry in pool.waiting()} == {a.id, b.id}


def test_people_gone_quiet_leave_the_pool(store: Store) -> None:
    a, b = people(store, "A", "B")
    pool = PoolStore(store)
    pool.join(a.id, CHOICES, 1000.0, 1.0)
    pool.join(b.id, CHOICES, 1000.0, 1.0)
    assert pool.seen(a.id, 10.0) is not None
    assert pool.drop_unseen(before=5.0) == 1
    assert [entry.user_id for entry in pool.waiting()] == [a.id]
    assert pool.leave(a.id) and not pool.leave(a.id)
    assert pool.seen(a.id, 11.0) is None


def test_a_page_asking_while_a_pass_takes_its_entry_out_finds_no_entry(store: Store) -> None:
    """The person's page asks (``seen``) while another worker's pass takes their entry
    out (``drop_unseen``, not yet committed): once the pass commits, the page is told it
    waits no more, not given a database error (CI, session 16)."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: no row is taken out under a reader")
    (one,) = people(store, "One")
    pool = PoolStore(store)
    pool.join(one.id, CHOICES, 1000.0, 1.0)
    answers: list[object] = []
    with store.engine.connect() as dropping:
        dropping.execute(delete(PoolEntry).where(PoolEntry.user_id == one.id))
        asking = threading.Thread(target=lambda: answers.append(pool.seen(one.id, 10.0)))
        asking.start()
        until_blocked_by(dropping, store, asking)  # the page's update waits on the row
        dropping.commit()
    asking.join()
    assert answers == [None]
    assert pool.waiting() == []


def test_one_holder_of_the_pairing_lease_at_a_time(store: Store) -> None:
    pool = PoolStore(store)
    assert pool.take_lease("worker 1", now=0.0, seconds=5.0)
    assert not pool.take_lease("worker 2", now=1.0, seconds=5.0)
    assert pool.take_lease("worker 1", now=2.0, seconds=5.0)  # renewed
    pool.save_counts("worker 1", {"classic": {"normal": 2}})
    pool.save_counts("worker 2", {"classic": {"normal": 9}})  # not the holder: ignored
    assert pool.counts() == {"classic": {"normal": 2}}
    assert not pool.take_lease("worker 2", now=6.9, seconds=5.0)
    assert pool.take_lease("worker 2", now=7.1, seconds=5.0)  # lapsed: taken over
    assert not pool.take_lease("worker 1", now=8.0, seconds=5.0)


def test_who_abandoned_a_pool_game_is_stored_with_its_end_once(store: Store) -> None:
    """Stored in the end's transaction: an end that fails stores no abandonment (nor is
    the game over, so it is tried again), and an end stored twice counts it once."""
    host, quitter = people(store, "Host", "Quitter")
    table = table_of(store, host, rated=True)
    figures = tuple(dict.fromkeys((*ROUND_COUNTS, "points", "place"), 0) for _ in table.seats)
    end = GameEnd(figures, "classic", abandoned=(quitter.id,))
    ends, pool = GameEnds(store), PoolStore(store)
    with (
        first_statement_fails(store.engine, "INSERT INTO GAME_RESULTS") as failed,
        pytest.raises(StoreError),
    ):
        ends.finish(table.id, end)
    assert failed and pool.abandons_since(quitter.id, 0.0) == []
    assert store.get_table(table.id).status == "open"
    assert ends.finish(table.id, end) is True
    assert ends.finish(table.id, end) is False
    assert len(pool.abandons_since(quitter.id, 0.0)) == 1
    assert pool.abandons_since(host.id, 0.0) == []
