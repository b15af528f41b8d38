"""Rows the store tests start from: people and a table of theirs; and a wait for a call to
queue behind a PostgreSQL lock (calls made at the same moment: ``racing``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from raspisnoy.store import Store, TableRow, UserRow
from raspisnoy.store.models import ClubTable
from raspisnoy.store.repository import SeatCap

T = TypeVar("T")


def until_blocked_by(holder: Connection, store: Store, thread: threading.Thread) -> None:
    """Wait until a query of ``thread`` waits on a lock ``holder`` holds in PostgreSQL (or
    until ``thread`` has ended without waiting: the caller's assertions then say so).
    Each look is a transaction of its own: PostgreSQL keeps one snapshot of
    pg_stat_activity for a whole transaction, so a query that started after the first
    look would never be seen (CI hung here once)."""
    blocked = text("SELECT count(*) FROM pg_stat_activity WHERE :pid = ANY(pg_blocking_pids(pid))")
    pid = holder.scalar(text("SELECT pg_backend_pid()"))
    autocommit = store.engine.execution_options(isolation_level="AUTOCOMMIT")
    deadline = time.monotonic() + 60
    with autocommit.connect() as watching:
        while thread.is_alive() and not watching.scalar(blocked, {"pid": pid}):
            assert time.monotonic() < deadline, "the call never waited on the lock"
            time.sleep(0.01)


def answer_behind(store: Store, hold: Callable[[Session], object], call: Callable[[], T]) -> T:
    """``call``'s answer when made while another transaction holds its locks: ``hold``
    writes in a transaction of its own (flushed, not committed), ``call`` starts in a
    thread and waits on those locks (PostgreSQL: ``until_blocked_by``), then ``hold``'s
    transaction commits and ``call`` goes on. ``call`` answers its refusals itself."""
    answers: list[T] = []
    with Session(store.engine) as holding:
        hold(holding)
        holding.flush()
        asking = threading.Thread(target=lambda: answers.append(call()))
        asking.start()
        until_blocked_by(holding.connection(), store, asking)
        holding.commit()
    asking.join()
    (answer,) = answers
    return answer


def people(store: Store, *nicknames: str) -> list[UserRow]:
    """A guest for each nickname."""
    return [store.create_user(nickname) for nickname in nicknames]


def table_of(
    store: Store,
    host: UserRow,
    *,
    public: bool = True,
    rated: bool = False,
    cap: SeatCap | None = None,
    club_id: str | None = None,
) -> TableRow:
    """An open four-seat table of random bots with ``host`` in seat 0 (within ``cap``;
    a ``club_id``'s table)."""
    return store.create_table(
        host_id=host.id,
        public=public,
        rules={"preset": "classic"},
        bots=["random"] * 4,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed="seed",
        rated=rated,
        cap=cap,
        club_id=club_id,
    )


def in_club(store: Store, club_id: str, table_id: str) -> None:
    """Make a table the club's, as a table opened in it is from its first moment (the
    ``club_id`` of ``Store.create_table``), for tests that need a given table there."""
    with Session(store.engine) as session, session.begin():
        session.add(ClubTable(table_id=table_id, club_id=club_id))
