"""The matchmaking pool in the database (docs/pool.md): who waits and what they accept, the
tables the pool opened for them, and the pairing lease.

Everything lives here, never in a worker's memory, so that with several workers any of
them answers a person and one of them pairs at a time (``take_lease``). Taking people out
of the pool and opening their table is one transaction (``open_table``) that does nothing
unless every one of them is still waiting and below the cap of games at once: a worker
killed mid-pairing has either opened the table with its people marked, or changed
nothing; two pairing at once (a lease lost while pairing) cannot seat a person twice, and
a game a person starts elsewhere at that moment cannot take them past the cap with the
pool's (both count under the person's lock). A table opened but not yet started (its worker
died in between) is found by ``unstarted`` and started by the next pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.leases import Leases
from raspisnoy.store.leaving import leave_pool
from raspisnoy.store.models import (
    GameTable,
    PlayerRating,
    PoolAbandon,
    PoolEntry,
    PoolPairing,
    PoolTable,
)
from raspisnoy.store.players import ALL_SCOPE
from raspisnoy.store.repository import Store, add_table, games_held, lock_users, transaction

__all__ = ["AlreadyInPoolError", "NewPoolTable", "PoolEntryRow", "PoolStore", "open_pool_table"]

#: The pairing lease's row.
_LEASE = "pairing"


class AlreadyInPoolError(Exception):
    """The person already waits in the pool, or plays at the table it opened for them;
    ``table_id``: that table, if any."""

    def __init__(self, table_id: str | None) -> None:
        super().__init__("already in the pool" if table_id is None else f"at table {table_id}")
        self.table_id = table_id


class _NotOpened(Exception):
    """One of the people of a table being opened is no longer waiting, or holds as many
    games as the cap allows."""


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
        is replaced)."""
        with self._session() as session:
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
        self, people: Sequence[str], table: NewPoolTable, games_cap: int | None = None
    ) -> str | None:
        """Open ``table`` with ``people`` in seats 0, 1… (the first its host) and take them
        out of the pool, all in one transaction; ``None`` (nothing changed) unless every
        one of them is still waiting and, with a ``games_cap``, holds fewer games than it
        (``open_pool_table``)."""
        try:
            with self._session() as session:
                return open_pool_table(session, people, table, games_cap)
        except _NotOpened:
            return None

    def is_pool_table(self, table_id: str) -> bool:
        """Whether the pool opened this table."""
        with self._session() as session:
            return session.get(PoolTable, table_id) is not None

    def abandons_since(self, user_id: str, since: float) -> list[float]:
        """When the person's abandoned rated pool games since ``since`` ended, oldest
        first."""
        query = select(PoolAbandon.at).where(
            PoolAbandon.user_id == user_id, PoolAbandon.at >= since
        )
        with self._session() as session:
            return list(session.scalars(query.order_by(PoolAbandon.at)))

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
    session: Session, people: Sequence[str], table: NewPoolTable, games_cap: int | None
) -> str:
    """Open ``table`` with ``people`` in seats 0, 1… and take them out of the pool in
    ``session``'s transaction; ``_NotOpened`` (the caller rolls back) unless every one is
    still waiting and, with a ``games_cap``, holds fewer games than it. The pass read
    both before pairing; here they are read again with the people's rows locked
    (``lock_users``), as a start of their own counts its host's (``mark_started``), so
    that a game one of them starts on another worker at this moment cannot take them
    past the cap with the pool's."""
    if games_cap is not None:
        lock_users(session, people)
        held = games_held(session, people)
        if any(held.get(person, 0) >= games_cap for person in people):
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
