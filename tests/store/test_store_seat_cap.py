"""The caps on one host's seats, counted by the store in the transaction that writes, with
the host's row locked, so that writes made at once (two workers, two devices) never take
the host past the cap: ``Store.create_table`` with a ``SeatCap`` (tables waiting for
players), ``Store.start_table`` with a ``games_cap`` (games being played) and the pool's
``PoolStore.open_table`` with the same cap (a game it opens counts from then on)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from racing import at_the_same_moment
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people, table_of

from raspisnoy.store import GameEnds, NewPoolTable, PoolStore, Store, TableRow, UserRow
from raspisnoy.store.pool import open_pool_table
from raspisnoy.store.repository import (
    SeatCap,
    SeatCapError,
    add_table,
    lock_users,
    mark_started,
)

#: The names of a started table's players: its host and three bots.
NAMES = ["Host", "Bot", "Bot", "Bot"]


def a_day_ago() -> datetime:
    return datetime.now(UTC) - timedelta(hours=24)


def refused_at_cap(write: Callable[[], object]) -> int | None:
    """How many tables the host held where the store refused ``write`` at a cap; ``None``
    where it was stored."""
    try:
        write()
    except SeatCapError as error:
        return error.held
    return None


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
    store.start_table(first.id, NAMES, 0)  # no longer waiting
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
    answers = at_the_same_moment(
        6, partial(refused_at_cap, partial(table_of, store, host, cap=cap))
    )
    assert sorted(answer is None for answer in answers) == [False] * 3 + [True] * 3
    assert held(store, host) == 3


def test_an_open_waits_for_another_of_the_hosts_and_counts_it(store: Store) -> None:
    """The host's other open is being stored (their row locked, not yet committed) when
    a second one counts: it waits for the first and finds the cap reached."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("until_blocked_by watches PostgreSQL's locks")
    (host,) = people(store, "Host")
    cap = SeatCap(1, a_day_ago())

    def first(session: Session) -> None:
        lock_users(session, [host.id])  # as ``create_table`` begins under a cap
        add_table(
            session,
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

    second = answer_behind(
        store, first, partial(refused_at_cap, partial(table_of, store, host, cap=cap))
    )
    assert second == 1
    assert held(store, host) == 1


def playing(store: Store, host: UserRow) -> int:
    """How many games the host plays now."""
    return store.count_seated_tables(host.id, "playing")


def test_a_start_is_refused_at_the_games_cap_counting_only_games_played(store: Store) -> None:
    host, other = people(store, "Host", "Other")
    first, second, third = (table_of(store, host) for _ in range(3))
    store.start_table(first.id, NAMES, 0, games_cap=2)
    finished = table_of(store, host)
    store.start_table(finished.id, NAMES, 0)
    GameEnds(store).finish(finished.id)
    store.start_table(second.id, NAMES, 0, games_cap=3)  # the finished one counts no more
    with pytest.raises(SeatCapError) as refused:
        store.start_table(third.id, NAMES, 0, games_cap=2)
    assert (refused.value.held, refused.value.limit) == (2, 2)
    assert store.get_table(third.id).status == "open" and playing(store, host) == 2
    guest_table = table_of(store, other)  # the host sits there as a guest: not theirs to cap
    store.set_seat(guest_table.id, 1, host.id)
    store.start_table(guest_table.id, ["Other", "Host", "Bot", "Bot"], 0, games_cap=1)
    store.start_table(third.id, NAMES, 0)  # without a cap (a rematch, the pool): no count


def test_tables_started_at_once_reach_the_games_cap_exactly(store: Store) -> None:
    """Six of one host's tables started at the same moment under a cap of three: three
    games (on SQLite too: the count runs under the database's write lock)."""
    (host,) = people(store, "Host")
    waiting = [table_of(store, host).id for _ in range(6)]

    def start() -> None:
        store.start_table(waiting.pop(), NAMES, 0, games_cap=3)

    answers = at_the_same_moment(6, partial(refused_at_cap, start))
    assert sorted(answer is None for answer in answers) == [False] * 3 + [True] * 3
    assert playing(store, host) == 3


def test_a_start_waits_for_another_of_the_hosts_and_counts_it(store: Store) -> None:
    """The host's other start is being stored (their row locked, not yet committed) when
    a second one counts: it waits for the first and finds the cap reached."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("until_blocked_by watches PostgreSQL's locks")
    (host,) = people(store, "Host")
    first_table, second_table = table_of(store, host), table_of(store, host)
    second = answer_behind(
        store,
        lambda session: mark_started(session, first_table.id, NAMES, 0, games_cap=1),
        lambda: refused_at_cap(lambda: store.start_table(second_table.id, NAMES, 0, games_cap=1)),
    )
    assert second == 1
    assert [status(store, t) for t in (first_table, second_table)] == ["playing", "open"]


def status(store: Store, table: TableRow) -> str:
    """The table's status as stored now."""
    return store.get_table(table.id).status


# ------------------------------------------------- the pool's games and one's own

#: A three-seat table the pool opens (``PoolStore.open_table``).
POOL_TABLE = NewPoolTable({"preset": "classic"}, ["random"] * 3, 30, 0, "random", "seed", False)
#: What the people of these tests accept in the pool.
CHOICES = {"presets": ["classic"], "players": [3], "speed": "normal", "rated": False}


def waiting(pool: PoolStore, *persons: UserRow) -> None:
    """Put ``persons`` in the pool."""
    for person in persons:
        pool.join(person.id, CHOICES, 1000.0, 1.0)


def test_the_pool_opens_no_game_for_someone_at_the_games_cap(store: Store) -> None:
    host, other = people(store, "Host", "Other")
    pool = PoolStore(store)
    waiting(pool, host, other)
    store.start_table(table_of(store, host).id, NAMES, 0)  # the host plays one game
    assert pool.open_table([other.id, host.id], POOL_TABLE, games_cap=1) is None
    assert {entry.user_id for entry in pool.waiting()} == {host.id, other.id}
    assert store.list_tables(status="open") == []  # nothing was made
    table_id = pool.open_table([other.id, host.id], POOL_TABLE, games_cap=2)
    assert table_id is not None and pool.waiting() == []
    # Opened, not started yet: it counts, for the pool as for a start of one's own.
    assert pool.games_held([host.id, other.id]) == {host.id: 2, other.id: 1}
    assert store.count_games_held(host.id) == 2


def test_a_start_counts_the_game_the_pool_has_just_opened(store: Store) -> None:
    host, other = people(store, "Host", "Other")
    pool = PoolStore(store)
    waiting(pool, host, other)
    own = table_of(store, host)
    pooled = pool.open_table([other.id, host.id], POOL_TABLE, games_cap=1)
    assert pooled is not None
    with pytest.raises(SeatCapError) as refused:
        store.start_table(own.id, NAMES, 0, games_cap=1)
    assert (refused.value.held, refused.value.limit) == (1, 1)
    assert status(store, own) == "open"
    store.start_table(pooled, ["Other", "Host", "Bot"], 0)  # the pool's own start: no count
    assert store.count_games_held(host.id) == 1


def _waiting_with_a_table_of_ones_own(
    store: Store,
) -> tuple[UserRow, UserRow, PoolStore, TableRow]:
    """Host and Other waiting in the pool, and a table of Host's not started (for the
    tests of two transactions at once: PostgreSQL only, whose locks they watch)."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("until_blocked_by watches PostgreSQL's locks")
    host, other = people(store, "Host", "Other")
    pool = PoolStore(store)
    waiting(pool, host, other)
    return host, other, pool, table_of(store, host)


def test_the_pools_opening_waits_for_a_start_of_the_same_person_and_counts_it(
    store: Store,
) -> None:
    """The host's own game is being started (their row locked, not yet committed) when the
    pool opens a game for them: the opening waits for it and finds the cap reached."""
    host, other, pool, own = _waiting_with_a_table_of_ones_own(store)
    opened = answer_behind(
        store,
        lambda session: mark_started(session, own.id, NAMES, 0, games_cap=1),
        lambda: pool.open_table([other.id, host.id], POOL_TABLE, games_cap=1),
    )
    assert opened is None and status(store, own) == "playing"
    assert {entry.user_id for entry in pool.waiting()} == {host.id, other.id}


def test_a_start_waits_for_the_pools_opening_of_the_same_person_and_counts_it(
    store: Store,
) -> None:
    """The pool is opening a game for the host (their row locked, not yet committed) when
    they start one of their own: the start waits for the opening and finds the cap
    reached."""
    host, other, pool, own = _waiting_with_a_table_of_ones_own(store)
    refused = answer_behind(
        store,
        lambda session: open_pool_table(session, [other.id, host.id], POOL_TABLE, 1),
        lambda: refused_at_cap(lambda: store.start_table(own.id, NAMES, 0, games_cap=1)),
    )
    assert refused == 1 and status(store, own) == "open"
    assert pool.waiting() == []
