"""Tables and their events in the store: the lobby's list, a player's history, seats
(and a seat kept away), the start, ownership fences, and actions stored all-or-nothing in
order."""

from __future__ import annotations

import secrets
import time
from pathlib import Path

import pytest
from fresh_databases import POSTGRES, new_database
from sqlalchemy import create_engine, text
from store_helpers import people, table_of

from raspisnoy.store import EventRow, FencedError, NotFoundError, Store, StoreError


def test_the_lobby_lists_public_open_tables_newest_first(store: Store) -> None:
    (host,) = people(store, "Host")
    older, private = table_of(store, host), table_of(store, host, public=False)
    newer = table_of(store, host)
    assert [row.id for row in store.list_tables(status="open")] == [newer.id, older.id]
    every = store.list_tables(status="open", public_only=False, limit=None)
    assert {row.id for row in every} == {older.id, private.id, newer.id}
    assert store.list_tables(status="playing") == []
    with pytest.raises(NotFoundError):
        store.get_table("no such table")


def test_seats_history_and_the_start(store: Store) -> None:
    host, guest, stranger = people(store, "Host", "Guest", "Stranger")
    table = table_of(store, host)
    assert [seat.user_id for seat in table.seats] == [host.id, None, None, None]
    store.set_seat(table.id, 2, guest.id)
    assert store.count_seated_tables(guest.id, "open") == 1
    assert store.tables_of_user(guest.id) == []  # a history of started games only
    store.start_table(table.id, ["Host", "Bot", "Guest", "Bot"], first_dealer=1)
    started = store.get_table(table.id)
    assert started.status == "playing" and started.first_dealer == 1
    assert list(started.names or ()) == ["Host", "Bot", "Guest", "Bot"]
    assert store.count_seated_tables(guest.id, "open") == 0
    assert store.count_seated_tables(guest.id, "playing") == 1
    assert store.playing_table_ids() == [table.id]
    assert [row.id for row in store.tables_of_user(guest.id)] == [table.id]
    assert store.tables_of_user(stranger.id) == []


def test_a_host_who_leaves_an_open_table_hands_it_to_the_lowest_seat_or_unlists_it(
    store: Store,
) -> None:
    host, guest, other = people(store, "Host", "Guest", "Other")
    table = table_of(store, host)
    store.set_seat(table.id, 3, other.id)
    store.set_seat(table.id, 2, guest.id)
    store.leave_open_table(table.id, 3, other.id)  # not the host: only the seat is freed
    assert store.get_table(table.id).host_id == host.id
    store.leave_open_table(table.id, 0, host.id)
    handed = store.get_table(table.id)
    assert handed.host_id == guest.id and handed.public
    assert [seat.user_id for seat in handed.seats] == [None, None, guest.id, None]
    store.leave_open_table(table.id, 2, guest.id)  # the last one out: no heir
    left = store.get_table(table.id)
    assert left.host_id == guest.id and not left.public
    assert table.id not in [row.id for row in store.list_tables(status="open")]


def test_a_person_who_sits_moves_and_at_a_table_its_host_left_becomes_its_host(
    store: Store,
) -> None:
    host, guest, friend = people(store, "Host", "Guest", "Friend")
    table = table_of(store, host)
    store.set_seat(table.id, 1, guest.id)
    store.set_seat(table.id, 3, guest.id)  # a move: one write frees the old seat
    moved = store.get_table(table.id)
    assert [seat.user_id for seat in moved.seats] == [host.id, None, None, guest.id]
    assert moved.host_id == host.id  # the host is there: nothing passes
    store.set_seat(table.id, 2, host.id)
    assert store.get_table(table.id).host_id == host.id  # a host moving stays host
    store.leave_open_table(table.id, 3, guest.id)
    store.leave_open_table(table.id, 2, host.id)  # the last one out: nobody can start it
    store.set_seat(table.id, 1, friend.id)  # someone with the link comes
    came = store.get_table(table.id)
    assert came.host_id == friend.id and not came.public


def test_a_claim_fences_off_the_previous_owner(store: Store) -> None:
    (host,) = people(store, "Owner")
    table = table_of(store, host)
    first = store.claim_table(table.id)
    second = store.claim_table(table.id)
    assert second == first + 1
    with pytest.raises(FencedError):
        store.set_seat(table.id, 1, host.id, fence=first)
    store.set_seat(table.id, 1, host.id, fence=second)
    event = EventRow(table.id, 1, 0, "bid 1", "c1")
    with pytest.raises(FencedError):
        store.append_events([event], {table.id: first})
    assert store.events_of(table.id) == []
    with pytest.raises(NotFoundError):
        store.claim_table("no such table")


def test_a_seat_kept_away_is_read_back_and_fenced(store: Store) -> None:
    """``set_away`` (a stand-in plays the seat after a lapse) is what a worker loading
    the table reads in its seats; an old owner's write of it is refused."""
    (host,) = people(store, "Away")
    table = table_of(store, host)
    assert not any(seat.away for seat in table.seats)
    first = store.claim_table(table.id)
    store.set_away(table.id, 0, True, fence=first)
    assert [seat.away for seat in store.get_table(table.id).seats] == [True, False, False, False]
    store.claim_table(table.id)
    with pytest.raises(FencedError):
        store.set_away(table.id, 0, False, fence=first)
    store.set_away(table.id, 0, False)
    assert not store.get_table(table.id).seats[0].away


def test_events_are_stored_in_order_and_all_or_nothing(store: Store) -> None:
    (host,) = people(store, "Player")
    table = table_of(store, host)
    events = [EventRow(table.id, seq, seq % 4, f"bid {seq}", None) for seq in (1, 2, 3)]
    store.append_events(list(reversed(events)))
    assert store.events_of(table.id) == events
    with pytest.raises(StoreError):  # seq 3 again: the whole batch is refused
        store.append_events([EventRow(table.id, 4, 0, "bid 0", None), events[2]])
    assert store.events_of(table.id) == events


def test_appending_now_never_waits_for_another_writer(store: Store) -> None:
    """``append_events_now`` (the server's event loop commits SQLite itself): written at
    once, fences and all-or-nothing as ``append_events``; while another connection holds
    SQLite's write lock it gives up at once with nothing written; other databases always
    leave the batch to ``append_events`` (in a thread)."""
    (host,) = people(store, "Player")
    table = table_of(store, host)
    first, second = (EventRow(table.id, seq, 0, f"bid {seq}", None) for seq in (1, 2))
    if store.engine.dialect.name != "sqlite":
        assert not store.append_events_now([first])
        assert store.events_of(table.id) == []
        return
    token = store.claim_table(table.id)
    assert store.append_events_now([first], {table.id: token})
    with pytest.raises(FencedError):
        store.append_events_now([second], {table.id: token - 1})
    with pytest.raises(StoreError):  # seq 1 again: the whole batch is refused
        store.append_events_now([second, first])
    with store.engine.connect() as writer:  # another writer holds the lock
        writer.exec_driver_sql("BEGIN IMMEDIATE")
        started = time.monotonic()
        assert not store.append_events_now([second])
        assert time.monotonic() - started < 4  # not after a wait: SQLite's busy timeout is 5 s
        writer.rollback()
    assert store.events_of(table.id) == [first]
    assert store.append_events_now([second])
    assert store.events_of(table.id) == [first, second]


def test_a_batch_on_a_connection_the_database_dropped_fails_once_then_the_next_goes_through(
    tmp_path: Path,
) -> None:
    """The append path takes its own connections from the pool: one that PostgreSQL
    dropped (a restart, an administrator) fails its batch with ``StoreError`` and leaves
    the pool, so the server's retry of each action is stored on a new connection."""
    name = f"raspisnoy-test-{secrets.token_hex(4)}"
    with new_database("postgresql", tmp_path) as url:
        store = Store.open(f"{url}&application_name={name}")
        admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        try:
            (host,) = people(store, "Player")
            table = table_of(store, host)
            first, second = (EventRow(table.id, seq, 0, f"bid {seq}", None) for seq in (1, 2))
            store.append_events([first])
            with admin.connect() as connection:
                dropped = connection.execute(
                    text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                        "WHERE application_name = :name"
                    ),
                    {"name": name},
                ).scalar_one()
            assert dropped >= 1
            with pytest.raises(StoreError):
                store.append_events([second])
            store.append_events([second])
            assert store.events_of(table.id) == [first, second]
        finally:
            admin.dispose()
            store.close()
