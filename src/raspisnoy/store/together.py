"""What people do together around a game besides playing it: the table's chat, kept with
the game for its replay, and the rematch table opened for the same people (and those
left unstarted by a worker that died, for the pass that starts them: ``take_lease``).

``Together`` works on the ``Store``'s engine, each method in its own transaction, and
returns frozen values, as the repository does.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.leases import Leases
from raspisnoy.store.models import ChatMessage, ClubTable, GameTable, Seat, TableRematch
from raspisnoy.store.repository import Store, TableRow, add_table, check_fences, transaction

__all__ = ["ChatRow", "Together"]

#: The lease of the pass that starts the rematches left open (one worker at a time).
_LEASE = "unstarted-rematches"


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One stored chat message (``seq`` from 1 within its table); exactly one of ``text``
    and ``phrase`` is set."""

    table_id: str
    seq: int
    user_id: str
    name: str
    seat: int | None
    text: str | None
    phrase: str | None
    round: int
    trick: int
    at: datetime


class Together:
    """Chat messages and rematch tables over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._leases = Leases(store)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    def add_chat(self, row: ChatRow, fence: int | None = None) -> None:
        """Store one message (its ``seq`` must be the table's next), under ``fence``: the
        writer's ownership token of the table (``Store.set_seat``), as every write of a
        live table. A worker that lost the table without knowing it yet (paused, cut off)
        is refused with ``FencedError``, so it cannot take a number the new owner, which
        read the chat after claiming the table, will give its own next line."""
        with self._session() as session:
            check_fences(session, {row.table_id: fence})
            session.add(
                ChatMessage(
                    table_id=row.table_id,
                    seq=row.seq,
                    user_id=row.user_id,
                    name=row.name,
                    seat=row.seat,
                    text=row.text,
                    phrase=row.phrase,
                    round=row.round,
                    trick=row.trick,
                    created_at=row.at,
                )
            )

    def chat_of(self, table_id: str) -> list[ChatRow]:
        """A table's chat in order."""
        query = select(ChatMessage).where(ChatMessage.table_id == table_id)
        with self._session() as session:
            return [
                ChatRow(
                    m.table_id,
                    m.seq,
                    m.user_id,
                    m.name,
                    m.seat,
                    m.text,
                    m.phrase,
                    m.round,
                    m.trick,
                    m.created_at,
                )
                for m in session.scalars(query.order_by(ChatMessage.seq))
            ]

    def open_rematch(
        self,
        old: TableRow,
        people: Mapping[int, str],
        host_id: str,
        first_dealer: int,
        seed: str,
    ) -> TableRow:
        """The rematch of ``old``, opened once: a new open table like ``old`` (rules,
        seats and their bots, clocks, who may see it, chat): the ``people`` (seat → user
        id) in their old seats, every other seat played by its bot, ``host_id`` its host.
        Its game's first dealer is fixed now (``first_dealer``) instead of drawn from the
        seed when it starts. The rematch of a club's table is the club's too, recorded
        in the same transaction, so no one outside the club ever sees it
        (docs/clubs.md). With ``old``'s row locked, a rematch it started already
        (``rematch_of``: settled by a worker that held the table before) is answered
        instead of a second one."""
        with self._session() as session:
            session.execute(select(GameTable.id).where(GameTable.id == old.id).with_for_update())
            table_id = session.scalar(
                select(TableRematch.rematch_id).where(TableRematch.table_id == old.id)
            )
            if table_id is None:
                table_id = self._add_rematch(session, old, people, host_id, first_dealer, seed)
        return self._store.get_table(table_id)

    @staticmethod
    def _add_rematch(
        session: Session,
        old: TableRow,
        people: Mapping[int, str],
        host_id: str,
        first_dealer: int,
        seed: str,
    ) -> str:
        table_id = add_table(
            session,
            host_id=host_id,
            public=old.public,
            rules=old.rules,
            bots=[seat.bot for seat in old.seats],
            turn_seconds=old.turn_seconds,
            bot_delay_ms=old.bot_delay_ms,
            stand_in=old.stand_in,
            seed=seed,
            rated=old.rated,
            spectator_chat=old.spectator_chat,
            people=people,
            first_dealer=first_dealer,
            club_id=session.scalar(select(ClubTable.club_id).where(ClubTable.table_id == old.id)),
        )
        session.add(TableRematch(table_id=old.id, rematch_id=table_id))
        return table_id

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch the table started, if it started one."""
        query = select(TableRematch.rematch_id).where(TableRematch.table_id == table_id)
        with self._session() as session:
            return session.scalar(query)

    def unstarted_rematches(self, opened_before: datetime) -> list[str]:
        """The ids of the rematch tables still open that were opened before
        ``opened_before`` and where someone sits, oldest first: the worker that stored
        one died before starting its game, and nobody loaded its old table since (which
        starts it). One that everyone left meanwhile is not listed: a game of bots alone
        is nobody's rematch (it goes, a day on, with the other tables nobody sits at:
        ``EmptyTables``). The open tables come by ``status``'s index, their rematch rows
        by ``rematch_id``'s (migration 0027: without it PostgreSQL read the table whole,
        0.3 s a pass at a million rematches, against 10 ms with it)."""
        someone_sits = exists().where(Seat.table_id == GameTable.id, Seat.user_id.is_not(None))
        query = (
            select(GameTable.id)
            .join(TableRematch, TableRematch.rematch_id == GameTable.id)
            .where(GameTable.status == "open", GameTable.created_at < opened_before, someone_sits)
            .order_by(GameTable.created_at)
        )
        with self._session() as session:
            return list(session.scalars(query))

    def take_lease(self, holder: str, now: float, seconds: float) -> bool:
        """Hold the lease of the pass that starts the rematches left open
        (``Leases.take``)."""
        return self._leases.take(_LEASE, holder, now, seconds)
