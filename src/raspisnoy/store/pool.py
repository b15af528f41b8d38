"""The matchmaking pool in the database (docs/pool.md): who waits and what they accept, the
tables the pool opened for them, and the pairing lease.

Everything lives here, never in a worker's memory, so that with several workers any of
them answers a person and one of them pairs at a time (``take_lease``). Taking people out
of the pool and opening their table is one transaction (``open_table``) that does nothing
unless, read again under the people's locks, every one of them still waits with the entry
the pass read (``PassRead``), is below the cap of games at once, blocked none of the
others nor was blocked by them, and, at a rated table, is out of the rated pool's
cooldown (``Cooldowns``): a worker killed mid-pairing has either opened the table with
its people marked, or changed nothing; two pairing at once (a lease lost while pairing)
cannot seat a person twice; and what another worker changes between the pass's read and
the opening (a leave and a join with other choices, a game started elsewhere, a block, an
abandoned game recorded) is found, not overrun. A table opened but not yet started (its
worker died in between) is found by ``unstarted`` and started by the next pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import delete, exists, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.leases import Leases
from raspisnoy.store.leaving import leave_pool
from raspisnoy.store.models import (
    Block,
    GameTable,
    PlayerRating,
    PoolAbandon,
    PoolEntry,
    PoolPairing,
    PoolTable,
)
from raspisnoy.store.players import ALL_SCOPE
from raspisnoy.store.repository import (
    Store,
    add_table,
    games_held,
    lock_live_person,
    lock_users,
    transaction,
)

__all__ = [
    "AlreadyInPoolError",
    "Cooldowns",
    "NewPoolTable",
    "PassRead",
    "PoolEntryRow",
    "PoolStore",
    "open_pool_table",
]

#: The pairing lease's row.
_LEASE = "pairing"


class AlreadyInPoolError(Exception):
    """The person already waits in the pool, or plays at the table it opened for them;
    ``table_id``: that table, if any."""

    def __init__(self, table_id: str | None) -> None:
        super().__init__("already in the pool" if table_id is None else f"at table {table_id}")
        self.table_id = table_id


class _NotOpened(Exception):
    """The people of a table being opened may not sit there now (``_seatable``)."""


@dataclass(frozen=True, slots=True)
class PoolEntryRow:
    """One person's entry (``models.PoolEntry``)."""

    user_id: str
    choices: dict[str, Any]
    rating: float
    joined_at: float
    seen_at: float
    table_id: str | None


@dataclass(frozen=True, slots=True)
class NewPoolTable:
    """The table the pool opens for some people: seat ``i`` is ``people[i]``'s, the rest
    bots'."""

    rules: dict[str, Any]
    bots: Sequence[str]
    turn_seconds: int
    bot_delay_ms: int
    stand_in: str
    seed: str
    rated: bool


@dataclass(frozen=True, slots=True)
class Cooldowns:
    """The rated pool's cooldown after abandoned rated pool games (docs/pool.md, "Fair
    play"): ``steps[i]`` seconds after the (i+1)-th abandoned game of the last ``memory``
    seconds (the last step after any later one), counted from the last one's end. The
    server gives the figures; the store applies them again when it opens a rated table
    (``open_pool_table``), with the people's abandoned games as stored then."""

    steps: tuple[float, ...]
    memory: float

    def until(self, abandons: Sequence[float]) -> float | None:
        """When the cooldown after ``abandons`` (when each abandoned game of the last
        ``memory`` ended) is over; ``None``: there is none."""
        if not abandons:
            return None
        return max(abandons) + self.steps[min(len(abandons), len(self.steps)) - 1]

    def keeps_out(self, abandons: Sequence[float], now: float) -> bool:
        """Whether the cooldown after ``abandons`` still runs at ``now``."""
        until = self.until(abandons)
        return until is not None and now < until


@dataclass(frozen=True, slots=True)
class PassRead:
    """What a pass read before pairing, for each opening to check again under the
    people's locks (``open_pool_table``): everyone's entry as read (``entries``, by
    person), and the time ``now`` and the rated pool's ``cooldowns`` it judged by."""

    entries: Mapping[str, PoolEntryRow]
    now: float
    cooldowns: Cooldowns


def _row(entry: PoolEntry) -> PoolEntryRow:
    return PoolEntryRow(
        entry.user_id,
        dict(entry.choices),
        entry.rating,
        entry.joined_at,
        entry.seen_at,
        entry.table_id,
    )


class PoolStore:
    """The pool over a ``Store``'s database; each method one transaction."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._leases = Leases(store)

    def _session(self) -> AbstractContextManager[Session]:
        return transaction(self._sessions)

    def rating_of(self, user_id: str) -> int | None:
        """The person's displayed rating over every rated game (``None``: not rated yet)."""
        query = select(PlayerRating.display).where(
            PlayerRating.scope == ALL_SCOPE, PlayerRating.user_id == user_id
        )
        with self._session() as session:
            return session.scalar(query)

    def join(self, user_id: str, choices: Mapping[str, Any], rating: float, now: float) -> None:
        """Put the person in the pool; ``AlreadyInPoolError`` if they wait there already or
        play at a table it opened for them that is not over (an entry whose table is over
        is replaced); ``NotFoundError`` if their account is deleted, however late
        (``lock_live_person``): a deleted account is seated nowhere."""
        with self._session() as session:
            lock_live_person(session, user_id)
            held = session.execute(
                select(PoolEntry.table_id, GameTable.status)
                .outerjoin(GameTable, GameTable.id == PoolEntry.table_id)
                .where(PoolEntry.user_id == user_id)
            ).first()
            if held is not None:
                table_id, status = held
                if table_id is None or status != "over":
                    raise AlreadyInPoolError(table_id)
                session.execute(delete(PoolEntry).where(PoolEntry.user_id == user_id))
            session.add(
                PoolEntry(
                    user_id=user_id,
                    choices=dict(choices),
                    rating=rating,
                    joined_at=now,
                    seen_at=now,
                    table_id=None,
                )
            )
            try:
                session.flush()
            except IntegrityError:  # joined at the same moment by another request
                raise AlreadyInPoolError(None) from None

    def seen(self, user_id: str, now: float) -> PoolEntryRow | None:
        """The person's page asked at ``now`` (they are still there): their entry. One
        whose table's game is over is done with and taken out (``None``)."""
        mine = PoolEntry.user_id == user_id
        with self._session() as session:
            entry = session.get(PoolEntry, user_id)
            if entry is None:
                return None
            if entry.table_id is not None:
                table = session.get(GameTable, entry.table_id)
                if table is not None and table.status == "over":
                    session.execute(delete(PoolEntry).where(mine))
                    return None
            # An UPDATE, not the loaded entry's flush: a pass taking the entry out at the
            # same moment (``drop_unseen``) leaves nothing to update instead of an error.
            marked = session.execute(update(PoolEntry).where(mine).values(seen_at=now))
            if not getattr(marked, "rowcount", 0):
                return None
            return replace(_row(entry), seen_at=now)

    def leave(self, user_id: str) -> bool:
        """Take the person out of the pool if they wait there; whether they did
        (``leave_pool``)."""
        with self._session() as session:
            return leave_pool(session, user_id)

    def waiting(self) -> list[PoolEntryRow]:
        """Everyone still waiting, first come first."""
        query = select(PoolEntry).where(PoolEntry.table_id.is_(None))
        with self._session() as session:
            return [_row(e) for e in session.scalars(query.order_by(PoolEntry.joined_at))]

    def games_held(self, user_ids: Sequence[str]) -> dict[str, int]:
        """How many games each of these people holds now (``repository.games_held``); a
        person holding none is left out."""
        with self._session() as session:
            return games_held(session, user_ids)

    def drop_unseen(self, before: float) -> int:
        """Take out the people waiting whose page has not asked since ``before`` (closed,
        or the connection lost for longer than the grace); how many."""
        condition = PoolEntry.table_id.is_(None), PoolEntry.seen_at < before
        with self._session() as session:
            return int(getattr(session.execute(delete(PoolEntry).where(*condition)), "rowcount", 0))

    def open_table(
        self,
        people: Sequence[str],
        table: NewPoolTable,
        games_cap: int | None = None,
        read: PassRead | None = None,
    ) -> str | None:
        """Open ``table`` with ``people`` in seats 0, 1… (the first its host) and take them
        out of the pool, all in one transaction; ``None`` (nothing changed) unless they may
        sit there now (``open_pool_table``)."""
        try:
            with self._session() as session:
                return open_pool_table(session, people, table, games_cap, read)
        except _NotOpened:
            return None

    def is_pool_table(self, table_id: str) -> bool:
        """Whether the pool opened this table."""
        with self._session() as session:
            return session.get(PoolTable, table_id) is not None

    def abandons_since(self, user_id: str, since: float) -> list[float]:
        """When the person's abandoned rated pool games since ``since`` ended, oldest
        first."""
        with self._session() as session:
            return _abandons(session, [user_id], since).get(user_id, [])

    def cooling_down(self, user_ids: Sequence[str], now: float, cooldowns: Cooldowns) -> set[str]:
        """Those of these people whose rated pool's cooldown runs at ``now``
        (``_cooling_down``)."""
        with self._session() as session:
            return _cooling_down(session, user_ids, now, cooldowns)

    def unstarted(self) -> list[str]:
        """The tables the pool opened that have not started."""
        query = (
            select(GameTable.id)
            .join(PoolEntry, PoolEntry.table_id == GameTable.id)
            .where(GameTable.status == "open")
            .distinct()
        )
        with self._session() as session:
            return list(session.scalars(query))

    def take_lease(self, holder: str, now: float, seconds: float) -> bool:
        """Hold the pairing lease for ``seconds`` from ``now`` if nobody else holds it (or
        this holder does: renewed); whether this holder holds it now."""
        return self._leases.take(_LEASE, holder, now, seconds)

    def save_counts(self, holder: str, counts: Mapping[str, Any]) -> None:
        """The counts of people waiting, as the lease's holder saw them."""
        with self._session() as session:
            session.execute(
                update(PoolPairing)
                .where(PoolPairing.name == _LEASE, PoolPairing.holder == holder)
                .values(counts=dict(counts))
            )

    def counts(self) -> dict[str, Any]:
        """The counts of people waiting as last saved (empty before the first pass)."""
        with self._session() as session:
            lease = session.get(PoolPairing, _LEASE)
            return {} if lease is None else dict(lease.counts)


def open_pool_table(
    session: Session,
    people: Sequence[str],
    table: NewPoolTable,
    games_cap: int | None,
    read: PassRead | None = None,
) -> str:
    """Open ``table`` with ``people`` in seats 0, 1… and take them out of the pool in
    ``session``'s transaction; ``_NotOpened`` (the caller rolls back) unless they may sit
    there now (``_seatable``). Their rows are locked first (``lock_users``), as a start of
    their own (``mark_started``) and a block (``FriendsRepository.block``) lock them, so
    that neither can slip in between these checks and the table."""
    lock_users(session, people)
    if not _seatable(session, people, table, games_cap, read):
        raise _NotOpened
    table_id = add_table(
        session,
        host_id=people[0],
        public=True,
        rules=table.rules,
        bots=table.bots,
        turn_seconds=table.turn_seconds,
        bot_delay_ms=table.bot_delay_ms,
        stand_in=table.stand_in,
        seed=table.seed,
        rated=table.rated,
        spectator_chat=False,
        people=dict(enumerate(people)),
        first_dealer=None,
    )
    marked = session.execute(
        update(PoolEntry)
        .where(PoolEntry.user_id.in_(people), PoolEntry.table_id.is_(None))
        .values(table_id=table_id)
    )
    if getattr(marked, "rowcount", 0) != len(people):
        raise _NotOpened  # the transaction rolls back: no table, nobody marked
    session.add(PoolTable(table_id=table_id))
    return table_id


def _seatable(
    session: Session,
    people: Sequence[str],
    table: NewPoolTable,
    games_cap: int | None,
    read: PassRead | None,
) -> bool:
    """Whether ``people`` may sit at ``table`` now, read with their rows locked: each
    still waits with the entry ``read`` holds (``_entries_as_read``), holds fewer games
    than the ``games_cap`` (if any), no two of them blocked each other, and at a rated
    table nobody's cooldown runs at ``read.now``. The pass looked at all of these before
    pairing; another worker may have changed any since, and the group then waits for the
    next pass, which reads them anew."""
    return (
        _entries_as_read(session, people, read)
        and not _at_games_cap(session, people, games_cap)
        and not _blocked_among(session, people)
        and not _kept_out(session, people, table, read)
    )


def _entries_as_read(session: Session, people: Sequence[str], read: PassRead | None) -> bool:
    """Whether each of ``people`` still waits, with the entry ``read`` holds for them (if
    given: the same choices, rating and time of joining; one who left and joined again
    since, with other choices maybe, is another entry). Their entries stay locked until
    the transaction ends (PostgreSQL: ``FOR NO KEY UPDATE``, in id order; SQLite: the
    write lock ``lock_users`` took), so no leave or join slips in before they are
    marked."""
    query = (
        select(PoolEntry.user_id, PoolEntry.choices, PoolEntry.rating, PoolEntry.joined_at)
        .where(PoolEntry.user_id.in_(people), PoolEntry.table_id.is_(None))
        .order_by(PoolEntry.user_id)
        .with_for_update(key_share=True)
    )
    stored = {
        row.user_id: (row.choices, row.rating, row.joined_at) for row in session.execute(query)
    }
    if set(stored) != set(people):
        return False
    return read is None or all(stored[person] == _as_read(read, person) for person in people)


def _as_read(read: PassRead, person: str) -> tuple[Any, ...] | None:
    """The person's entry as the pass read it: what ``_entries_as_read`` compares."""
    entry = read.entries.get(person)
    return None if entry is None else (entry.choices, entry.rating, entry.joined_at)


def _at_games_cap(session: Session, people: Sequence[str], games_cap: int | None) -> bool:
    """Whether one of ``people`` holds ``games_cap`` games or more (``None``: no cap)."""
    if games_cap is None:
        return False
    held = games_held(session, people)
    return any(held.get(person, 0) >= games_cap for person in people)


def _kept_out(
    session: Session, people: Sequence[str], table: NewPoolTable, read: PassRead | None
) -> bool:
    """Whether ``table`` is rated and one of ``people`` is in the rated pool's cooldown at
    the pass's time (``read``; without it, nobody is)."""
    if not table.rated or read is None:
        return False
    return bool(_cooling_down(session, people, read.now, read.cooldowns))


def _blocked_among(session: Session, people: Sequence[str]) -> bool:
    """Whether one of ``people`` blocked another of them (docs/friends.md: never seated
    together)."""
    among = Block.blocker_id.in_(people), Block.blocked_id.in_(people)
    return bool(
        session.scalar(select(exists().where(*among, Block.blocker_id != Block.blocked_id)))
    )


def _abandons(session: Session, people: Sequence[str], since: float) -> dict[str, list[float]]:
    """When each of ``people``'s abandoned rated pool games since ``since`` ended, oldest
    first; one with none is left out."""
    query = select(PoolAbandon.user_id, PoolAbandon.at).where(
        PoolAbandon.user_id.in_(people), PoolAbandon.at >= since
    )
    found: dict[str, list[float]] = {}
    for user_id, at in session.execute(query.order_by(PoolAbandon.at)):
        found.setdefault(user_id, []).append(at)
    return found


def _cooling_down(
    session: Session, people: Sequence[str], now: float, cooldowns: Cooldowns
) -> set[str]:
    """Those of ``people`` whose rated pool's cooldown runs at ``now``."""
    abandons = _abandons(session, people, now - cooldowns.memory)
    return {person for person, ends in abandons.items() if cooldowns.keeps_out(ends, now)}
