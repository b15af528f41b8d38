"""Tables nobody will play at, dropped (``EmptyTables``, docs/operations.md): an old table
not started where nobody sits goes with its seats, chat and club listing; one where
someone sits, one newer than the cut, a started game and a table a report names stay."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from racing import at_the_same_moment
from store_helpers import in_club, people, table_of

from raspisnoy.store import (
    ChatRow,
    ClubSettings,
    ClubStore,
    EmptyTables,
    FencedError,
    Moderation,
    NewReport,
    NotFoundError,
    Store,
    Together,
)

#: A cut after every table the tests open: all of them are "old" for ``drop``.
LATER = timedelta(minutes=1)


def chat_line(store: Store, table_id: str, writer_id: str, seq: int = 1) -> None:
    at = datetime.now(UTC)
    Together(store).add_chat(ChatRow(table_id, seq, writer_id, "x", 0, "привет", None, 1, 0, at))


def test_an_old_table_nobody_sits_at_goes_with_its_seats_chat_and_club_listing(
    store: Store,
) -> None:
    host, guest = people(store, "Host", "Guest")
    empty = table_of(store, host, public=False)
    chat_line(store, empty.id, host.id)
    clubs = ClubStore(store)
    club = clubs.create(host.id, ClubSettings("Клуб", "", "ru", {"preset": "classic"}, False))
    in_club(store, club.id, empty.id)
    assert clubs.table_place(empty.id, None) == (club.id, None)
    store.leave_open_table(empty.id, 0, host.id)
    seated = table_of(store, guest)  # someone sits: kept
    tables = EmptyTables(store)
    assert tables.drop(datetime.now(UTC) - LATER) == []  # opened after the cut: kept
    assert tables.drop(datetime.now(UTC) + LATER) == [empty.id]
    with pytest.raises(NotFoundError):
        store.get_table(empty.id)
    assert Together(store).chat_of(empty.id) == []
    assert clubs.table_place(empty.id, None) == (None, None)
    assert store.get_table(seated.id).status == "open"
    assert tables.drop(datetime.now(UTC) + LATER) == []  # nothing left to drop


def test_a_started_game_and_a_table_a_report_names_are_kept(store: Store) -> None:
    host, reporter = people(store, "Host", "Reporter")
    started = table_of(store, host)
    store.start_table(started.id, ["Host", "Bot", "Bot", "Bot"], first_dealer=0)
    store.set_seat(started.id, 0, None)
    reported = table_of(store, host)
    store.set_seat(reported.id, 1, reporter.id)
    chat_line(store, reported.id, host.id)
    Moderation(store).add_report(
        NewReport(reporter.id, host.id, "chat", reported.id, 1, "abuse", "rude")
    )
    store.leave_open_table(reported.id, 1, reporter.id)
    store.leave_open_table(reported.id, 0, host.id)
    assert EmptyTables(store).drop(datetime.now(UTC) + LATER) == []
    assert store.get_table(started.id).status == "playing"
    assert [line.seq for line in Together(store).chat_of(reported.id)] == [1]


def sit_and_drop_at_once(store: Store, table_id: str, fence: int, person: str) -> list[str]:
    """``person`` sits at the table under the owner's ``fence`` while the sweep drops:
    what each did ("sat" or "refused"; "dropped" or "kept"), sorted."""
    turns = itertools.count()

    def sit_or_drop() -> str:
        if next(turns) == 0:
            dropped = EmptyTables(store).drop(datetime.now(UTC) + LATER)
            return "dropped" if table_id in dropped else "kept"
        try:
            store.set_seat(table_id, 1, person, fence)
        except FencedError:
            return "refused"
        return "sat"

    return sorted(at_the_same_moment(2, sit_or_drop))


def test_a_person_sitting_down_as_the_table_is_dropped_either_sits_or_finds_it_gone(
    store: Store,
) -> None:
    """The owner's write of a seat (under its fence, as the server writes) and the drop,
    at the same moment: either the person sits and the table stays, or the table is gone
    and the write refused. Never a table dropped under someone who sat down."""
    host, comer = people(store, "Host", "Comer")
    for _ in range(12):
        table = table_of(store, host, public=False)
        store.leave_open_table(table.id, 0, host.id)
        answers = sit_and_drop_at_once(store, table.id, store.claim_table(table.id), comer.id)
        assert answers in (["kept", "sat"], ["dropped", "refused"]), answers
        if answers == ["kept", "sat"]:
            assert store.get_table(table.id).seats[1].user_id == comer.id
            store.leave_open_table(table.id, 1, comer.id)
        else:
            with pytest.raises(NotFoundError):
                store.get_table(table.id)
