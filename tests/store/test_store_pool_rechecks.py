"""``PoolStore.open_table`` checks again, under the people's locks, what the pass read
before pairing (docs/pool.md, "Several workers"): each entry is still the one the pass read
(one who left and joined again since, with other choices, is not seated with the old
ones), no two of the people blocked each other, and at a rated table nobody is in the
rated pool's cooldown. A group that fails opens nothing and takes nobody out of the pool.
On SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people, table_of

from raspisnoy.store import FriendsRepository, NewPoolTable, PoolStore, Store, UserRow
from raspisnoy.store.models import Block, PoolAbandon
from raspisnoy.store.pool import Cooldowns, PassRead
from raspisnoy.store.repository import lock_users

CHOICES = {"presets": ["classic"], "players": [3], "speed": "normal", "rated": False}
TABLE = NewPoolTable({"preset": "classic"}, ["random"] * 3, 30, 0, "random", "seed", False)
RATED_TABLE = replace(TABLE, rated=True)
#: 5 minutes after one abandoned game, 15 after two or more, remembered for a week.
COOLDOWNS = Cooldowns((300.0, 900.0), 7 * 24 * 60 * 60.0)
#: When the passes of these tests read the pool.
NOW = 1_000_000.0


def waiting_people(store: Store, *nicknames: str) -> tuple[PoolStore, list[UserRow]]:
    """The pool with a guest for each nickname waiting in it."""
    pool, persons = PoolStore(store), people(store, *nicknames)
    for person in persons:
        pool.join(person.id, CHOICES, 1000.0, NOW - 10)
    return pool, persons


def read(pool: PoolStore, now: float = NOW) -> PassRead:
    """What a pass reads at ``now``."""
    return PassRead({entry.user_id: entry for entry in pool.waiting()}, now, COOLDOWNS)


def ids(*persons: UserRow) -> list[str]:
    return [person.id for person in persons]


def abandoned(store: Store, person: UserRow, at: float) -> None:
    """Record that ``person`` abandoned a rated pool game that ended at ``at``."""
    (host,) = people(store, f"Host of {person.nickname}")
    table = table_of(store, host, rated=True)
    with Session(store.engine) as session, session.begin():
        session.add(PoolAbandon(user_id=person.id, table_id=table.id, at=at))


def test_one_who_joined_again_since_the_pass_read_is_not_seated_with_the_old_choices(
    store: Store,
) -> None:
    pool, (mover, other) = waiting_people(store, "Mover", "Other")
    seen = read(pool)
    assert pool.leave(mover.id)
    pool.join(mover.id, {**CHOICES, "speed": "fast"}, 1000.0, NOW - 5)
    assert pool.open_table(ids(mover, other), TABLE, None, seen) is None
    assert store.list_tables(status="open") == []
    waiting = {entry.user_id: entry.choices["speed"] for entry in pool.waiting()}
    assert waiting == {mover.id: "fast", other.id: "normal"}
    # The next pass reads the new entry: its table opens.
    assert pool.open_table(ids(mover, other), TABLE, None, read(pool)) is not None
    assert pool.waiting() == []


def test_one_who_left_since_the_pass_read_is_not_seated_and_the_others_wait_on(
    store: Store,
) -> None:
    pool, (gone, other) = waiting_people(store, "Gone", "Other")
    seen = read(pool)
    assert pool.leave(gone.id)
    assert pool.open_table(ids(gone, other), TABLE, None, seen) is None
    assert [entry.user_id for entry in pool.waiting()] == [other.id]


def test_no_table_for_two_people_one_of_whom_blocked_the_other(store: Store) -> None:
    """The block was made after the pass read the blocks: the opening finds it."""
    pool, (anna, boris) = waiting_people(store, "Anna", "Boris")
    friends = FriendsRepository(store)
    assert friends.block(boris.id, anna.id)
    assert pool.open_table(ids(anna, boris), TABLE) is None
    assert {entry.user_id for entry in pool.waiting()} == {anna.id, boris.id}
    assert store.list_tables(status="open") == []
    assert friends.unblock(boris.id, anna.id)
    assert pool.open_table(ids(anna, boris), TABLE) is not None


def test_the_opening_waits_for_a_block_being_made_and_finds_it(store: Store) -> None:
    """The block's transaction holds the pair's rows (``FriendsRepository.block``), not
    yet committed, when the pool opens their table: the opening waits for it and opens
    nothing."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("until_blocked_by watches PostgreSQL's locks")
    pool, (anna, boris) = waiting_people(store, "Anna", "Boris")

    def blocking(session: Session) -> None:
        lock_users(session, ids(anna, boris))
        session.add(Block(blocker_id=anna.id, blocked_id=boris.id, created_at=datetime.now(UTC)))

    opened = answer_behind(store, blocking, lambda: pool.open_table(ids(anna, boris), TABLE))
    assert opened is None
    assert {entry.user_id for entry in pool.waiting()} == {anna.id, boris.id}


def test_an_abandon_recorded_since_the_pass_read_keeps_a_rated_table_closed(
    store: Store,
) -> None:
    pool, (quitter, other) = waiting_people(store, "Quitter", "Other")
    seen = read(pool)
    assert pool.cooling_down(ids(quitter, other), NOW, COOLDOWNS) == set()
    abandoned(store, quitter, NOW - 60)  # the cooldown runs until NOW + 240
    assert pool.cooling_down(ids(quitter, other), NOW, COOLDOWNS) == {quitter.id}
    assert pool.open_table(ids(quitter, other), RATED_TABLE, None, seen) is None
    assert {entry.user_id for entry in pool.waiting()} == {quitter.id, other.id}
    late = replace(seen, now=NOW + 239)
    assert pool.open_table(ids(quitter, other), RATED_TABLE, None, late) is None
    # Once the cooldown is over, the rated table opens.
    over = replace(seen, now=NOW + 240)
    assert pool.open_table(ids(quitter, other), RATED_TABLE, None, over) is not None


def test_the_cooldown_keeps_nobody_from_an_unrated_table(store: Store) -> None:
    pool, (quitter, other) = waiting_people(store, "Quitter", "Other")
    abandoned(store, quitter, NOW - 60)
    assert pool.open_table(ids(quitter, other), TABLE, None, read(pool)) is not None


def test_the_cooldown_grows_with_the_abandoned_games_and_ends() -> None:
    assert COOLDOWNS.until([]) is None
    assert COOLDOWNS.until([50.0]) == 350.0
    assert COOLDOWNS.until([10.0, 50.0]) == COOLDOWNS.until([10.0, 20.0, 50.0]) == 950.0
    assert COOLDOWNS.keeps_out([50.0], 349.0) and not COOLDOWNS.keeps_out([50.0], 350.0)
    assert not COOLDOWNS.keeps_out([], 0.0)
