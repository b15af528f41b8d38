"""Tables nobody will play at, dropped (``EmptyTables``, docs/operations.md): a table
whose game never started and where nobody sits any more (everyone left it, or deleted
their account: ``hand_over_host`` made it private), once it is older than the lobby lists
tables for. Such a table is listed nowhere and counts against nobody's cap; only an old
link reaches it. Without this, every such table stayed in the database for good.

A table that anything else still names is kept: a report of its chat (the moderators'),
a tournament's, the pool's, or one with an action or a result stored (a game started)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Select, Update, delete, exists, select, update
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store import models
from raspisnoy.store.leases import Leases
from raspisnoy.store.models import GameTable, Seat
from raspisnoy.store.repository import Store, transaction

__all__ = ["EmptyTables"]

#: The lease of the pass that drops them (one worker at a time: ``LeasedPass``).
_LEASE = "empty-tables"
#: What keeps a table: a row of any of these naming it.
_KEEPERS = (
    models.GameEvent,
    models.GameResult,
    models.OfflineUpload,
    models.PoolAbandon,
    models.PoolEntry,
    models.PoolTable,
    models.RatingChange,
    models.Report,
    models.TournamentTable,
)
#: What goes with a dropped table: its seats, its chat before the start, its place in a
#: club's list of tables.
_BELONGINGS = (models.ChatMessage, models.ClubTable, Seat)


class EmptyTables:
    """The tables nobody will play at, over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._leases = Leases(store)

    def drop(self, created_before: datetime) -> list[str]:
        """Delete the tables not started, created before ``created_before``, where nobody
        sits and that nothing keeps (the module's docstring), with their seats, chat and
        club listing, in one transaction; their ids.

        The tables are claimed first, as a worker taking them over would (their fencing
        token goes up: ``Store.claim_table``). That write locks them (the rows on
        PostgreSQL, the database on SQLite), and a worker still holding one is refused
        its next write. Who sits is read again after it: a person who sat down at the
        same moment (``Store.set_seat`` checks the token, and waits for the lock) either
        came first, and the table is kept, or finds it gone."""
        with transaction(self._sessions) as session:
            claimed = list(session.scalars(_claim_empty(created_before)))
            seated = set(session.scalars(_seated_at(claimed))) if claimed else set()
            dropped = [table_id for table_id in claimed if table_id not in seated]
            if dropped:
                _delete(session, dropped)
            return dropped

    def take_lease(self, holder: str, now: float, seconds: float) -> bool:
        """Hold the lease of the pass that drops them (``Leases.take``)."""
        return self._leases.take(_LEASE, holder, now, seconds)


def _claim_empty(created_before: datetime) -> Update:
    """Claim the tables ``EmptyTables.drop`` may drop (a new fencing token each),
    returning their ids."""
    someone_sits = exists().where(Seat.table_id == GameTable.id, Seat.user_id.is_not(None))
    kept = [exists().where(model.table_id == GameTable.id) for model in _KEEPERS]
    empty = select(GameTable.id).where(
        GameTable.status == "open",
        GameTable.created_at < created_before,
        ~someone_sits,
        *[~keeper for keeper in kept],
    )
    return (
        update(GameTable)
        .where(GameTable.id.in_(empty.scalar_subquery()))
        .values(owner_token=GameTable.owner_token + 1)
        .returning(GameTable.id)
    )


def _seated_at(table_ids: list[str]) -> Select[str]:
    """The ids among ``table_ids`` of the tables where someone sits."""
    return (
        select(Seat.table_id)
        .where(Seat.table_id.in_(table_ids), Seat.user_id.is_not(None))
        .distinct()
    )


def _delete(session: Session, table_ids: list[str]) -> None:
    """Delete these tables and what goes with them, in ``session``'s transaction."""
    for model in _BELONGINGS:
        session.execute(delete(model).where(model.table_id.in_(table_ids)))
    session.execute(delete(GameTable).where(GameTable.id.in_(table_ids)))
