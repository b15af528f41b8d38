"""``Together.unstarted_rematches``: the rematch tables stored but never started (the
worker that stored one died before starting it), for the pass that starts them
(docs/PROTOCOL.md, "Rematch")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import update
from store_helpers import people, table_of

from raspisnoy.store import Store, TableRow, Together, UserRow
from raspisnoy.store.models import GameTable


def opened_at(store: Store, table_id: str, when: datetime) -> None:
    """Make the table look opened at ``when``."""
    with store.engine.begin() as connection:
        statement = update(GameTable).where(GameTable.id == table_id)
        connection.execute(statement.values(created_at=when))


def rematch(store: Store, host: UserRow) -> TableRow:
    """The rematch of a table of ``host``, stored and not started."""
    return Together(store).open_rematch(table_of(store, host), {0: host.id}, host.id, 1, "s")


def test_an_open_rematch_older_than_the_cut_off_is_listed_and_no_other_table(
    store: Store,
) -> None:
    """Listed: a rematch still open, opened before the cut-off. Not listed: one started
    (by its worker, or by anyone who found it), one opened after the cut-off (its worker
    is starting it now), and an ordinary open table as old (it waits for its host)."""
    cut_off = datetime.now(UTC) - timedelta(minutes=1)  # later: its worker's to start
    (host,) = people(store, "Host")
    lost, started, young = (rematch(store, host) for _ in range(3))
    ordinary = table_of(store, host)
    long_ago = cut_off - timedelta(hours=1)
    for table in (lost, started, ordinary):
        opened_at(store, table.id, long_ago)
    store.start_table(started.id, ["Host", "Bot 2", "Bot 3", "Bot 4"], 1)
    together = Together(store)
    assert together.unstarted_rematches(cut_off) == [lost.id]
    later = datetime.now(UTC) + timedelta(minutes=1)
    assert together.unstarted_rematches(later) == [lost.id, young.id]  # oldest first
    store.start_table(lost.id, ["Host", "Bot 2", "Bot 3", "Bot 4"], 1)
    assert together.unstarted_rematches(cut_off) == []


def test_one_worker_at_a_time_holds_the_lease_of_the_pass(store: Store) -> None:
    together = Together(store)
    assert together.take_lease("first", 100.0, 10.0)
    assert not together.take_lease("second", 105.0, 10.0)
    assert together.take_lease("second", 111.0, 10.0)  # the first one's expired


def test_a_rematch_everyone_left_is_not_listed(store: Store) -> None:
    """Everyone who accepted left the rematch table before its game started (they found
    it waiting after its worker died): a game of bots alone is nobody's rematch."""
    (host,) = people(store, "Host")
    left = rematch(store, host)
    opened_at(store, left.id, datetime.now(UTC) - timedelta(hours=1))
    together = Together(store)
    assert together.unstarted_rematches(datetime.now(UTC)) == [left.id]
    store.leave_open_table(left.id, 0, host.id)
    assert together.unstarted_rematches(datetime.now(UTC)) == []
