"""``Store.create_table`` with a ``SeatCap``: the host's tables waiting for players are
counted in the transaction that adds the new one, with the host's row locked, so tables
opened at once (two workers, two devices) never take the host past the cap."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from racing import at_the_same_moment
from sqlalchemy.orm import Session
from store_helpers import people, table_of, until_blocked_by

from raspisnoy.store import Store, UserRow
from raspisnoy.store.repository import SeatCap, SeatCapError, add_table, lock_users


def a_day_ago() -> datetime:
    return datetime.now(UTC) - timedelta(hours=24)


def held(store: Store, host: UserRow) -> int:
    """How many tables waiting for players the host holds a seat at."""
    return len(store.waiting_tables_of_user(host.id, a_day_ago()))


def test_a_new_table_is_refused_at_the_cap_counting_only_waiting_tables(store: Store) -> None:
    host, other = people(store, "Host", "Other")
    cap = SeatCap(2, a_day_ago())
    first = table_of(store, host, cap=cap)
    table_of(store, host, cap=cap)
    with pytest.raises(SeatCapError) as refused:
        table_of(store, host, cap=cap)
    assert (refused.value.held, refused.value.limit) == (2, 2)
    assert held(store, host) == 2
    table_of(store, other, cap=cap)  # another host's cap is their own
    store.start_table(first.id, ["Host", "Bot", "Bot", "Bot"], 0)  # no longer waiting
    table_of(store, host, cap=cap)
    with pytest.raises(SeatCapError):
        table_of(store, host, cap=cap)
    forgotten = SeatCap(2, datetime.now(UTC))  # the lobby lists none of them now
    table_of(store, host, cap=forgotten)


def test_tables_opened_at_once_reach_the_cap_exactly(store: Store) -> None:
    """Six opens by one host at the same moment under a cap of three: three tables (on
    SQLite too: the count runs under the database's write lock)."""
    (host,) = people(store, "Host")
    cap = SeatCap(3, a_day_ago())

    def try_open() -> bool:
        try:
            table_of(store, host, cap=cap)
        except SeatCapError:
            return False
        return True

    assert sorted(at_the_same_moment(6, try_open)) == [False] * 3 + [True] * 3
    assert held(store, host) == 3


def test_an_open_waits_for_another_of_the_hosts_and_counts_it(store: Store) -> None:
    """The host's other open is being stored (their row locked, not yet committed) when
    a second one counts: it waits for the first and finds the cap reached."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("until_blocked_by watches PostgreSQL's locks")
    (host,) = people(store, "Host")
    cap = SeatCap(1, a_day_ago())
    answers: list[object] = []

    def second() -> None:
        try:
            answers.append(table_of(store, host, cap=cap).id)
        except SeatCapError as error:
            answers.append(error.held)

    with Session(store.engine) as first:
        lock_users(first, [host.id])  # as ``create_table`` begins under a cap
        table_id = add_table(
            first,
            host_id=host.id,
            public=True,
            rules={"preset": "classic"},
            bots=["random"] * 4,
            turn_seconds=0,
            bot_delay_ms=0,
            stand_in="random",
            seed="seed",
            rated=False,
            spectator_chat=False,
            people={0: host.id},
            first_dealer=None,
        )
        first.flush()
        asking = threading.Thread(target=second)
        asking.start()
        until_blocked_by(first.connection(), store, asking)
        first.commit()
    asking.join()
    assert answers == [1]
    assert [table.id for table in store.waiting_tables_of_user(host.id, a_day_ago())] == [table_id]
