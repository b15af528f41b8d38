"""``Together``: a table's chat stored in order, and rematch tables made like the old one
with the people in their old seats."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from racing import at_the_same_moment
from store_helpers import people, table_of

from raspisnoy.store import ChatRow, FencedError, Store, StoreError, Together

AT = datetime(2026, 12, 1, 12, tzinfo=UTC)


def test_the_chat_is_kept_in_order_and_a_seq_once(store: Store) -> None:
    (host,) = people(store, "Talker")
    table = table_of(store, host)
    together = Together(store)
    rows = [
        ChatRow(table.id, seq, host.id, "Talker", 0, f"line {seq}", None, 1, 0, AT)
        for seq in (1, 2)
    ]
    for row in reversed(rows):
        together.add_chat(row)
    assert [(row.seq, row.text) for row in together.chat_of(table.id)] == [
        (1, "line 1"),
        (2, "line 2"),
    ]
    with pytest.raises(StoreError):
        together.add_chat(rows[0])
    assert together.chat_of(table_of(store, host).id) == []


def test_a_worker_that_lost_the_table_stores_no_chat_line(store: Store) -> None:
    """A chat line is written under the writer's ownership token: once another worker
    claimed the table, the old owner's line is refused and takes no number, so the new
    owner's next line (numbered after the chat it read on claiming) is stored."""
    (host,) = people(store, "Talker")
    table = table_of(store, host)
    together = Together(store)

    def line(seq: int, text: str) -> ChatRow:
        return ChatRow(table.id, seq, host.id, "Talker", 0, text, None, 1, 0, AT)

    stale = store.claim_table(table.id)
    together.add_chat(line(1, "before the hand-over"), stale)
    owner = store.claim_table(table.id)
    with pytest.raises(FencedError):
        together.add_chat(line(2, "from the old owner"), stale)
    together.add_chat(line(2, "from the owner"), owner)
    assert [(row.seq, row.text) for row in together.chat_of(table.id)] == [
        (1, "before the hand-over"),
        (2, "from the owner"),
    ]


def test_a_rematch_is_like_the_old_table(store: Store) -> None:
    host, guest = people(store, "Host", "Guest")
    old = table_of(store, host, public=False, rated=True)
    new = Together(store).open_rematch(old, {0: guest.id, 2: host.id}, host.id, 3, "new seed")
    assert new.id != old.id and new.status == "open" and new.host_id == host.id
    assert (new.public, new.rated, new.rules, new.first_dealer) == (False, True, old.rules, 3)
    assert [seat.user_id for seat in new.seats] == [guest.id, None, host.id, None]
    assert [seat.bot for seat in new.seats] == [seat.bot for seat in old.seats]


def test_a_table_starts_one_rematch_whoever_settles_it(store: Store) -> None:
    """Settled again (another worker after a hand-over, a restart) or at the same moment
    by two, the rematch of a table is the one opened first."""
    host, guest = people(store, "Host", "Guest")
    old = table_of(store, host)
    together = Together(store)
    assert together.rematch_of(old.id) is None

    def open_first() -> str:
        return together.open_rematch(old, {0: host.id}, host.id, 1, "seed").id

    # Two workers at once: PostgreSQL only (SQLite serves one process, whose table actor
    # settles its rematch once; two writers at once there are refused as locked).
    postgresql = store.engine.dialect.name == "postgresql"
    opened = at_the_same_moment(2, open_first) if postgresql else [open_first()]
    again = together.open_rematch(old, {0: host.id, 1: guest.id}, guest.id, 2, "other seed")
    assert set(opened) == {again.id} and together.rematch_of(old.id) == again.id
    assert again.host_id == host.id  # the first one's, not the second's
