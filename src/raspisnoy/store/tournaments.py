"""Tournaments in the database (docs/tournaments.md): the events, their entrants (people
and bots entered as players), their rounds and each round's tables with their results.

Everything a running tournament needs lives here, never in a worker's memory, so any
worker answers any request and whichever worker holds the runner's lease runs the next
step. Pairing a round is one transaction (``pair_round``): the round's row (its key
unique per tournament and number), its game tables and their seats, all or nothing, so a
worker killed mid-pairing leaves either the whole round or nothing, and two workers
pairing at once cannot both succeed. A table's result is recorded once
(``record_result`` changes nothing for a table recorded already).

Who may do what is the tournaments service's business
(``raspisnoy.server.services.tournaments``), not this module's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.hidden import in_round_being_played
from raspisnoy.store.leases import Leases
from raspisnoy.store.models import (
    GameTable,
    PendingRating,
    Seat,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
    User,
)
from raspisnoy.store.repository import (
    NotFoundError,
    Store,
    StoreError,
    add_table,
    lock_live_person,
    new_id,
    require_club_member,
    transaction,
)
from raspisnoy.store.results import StoredRating, TableRating, rate_people, settle_waiting

__all__ = [
    "DUPLICATE_SCOPE",
    "EntryRow",
    "NewTournament",
    "RegistrationError",
    "RoundRating",
    "RoundRow",
    "RoundTable",
    "SeatedTable",
    "TournamentRow",
    "TournamentStore",
    "TournamentTableRow",
]

#: The runner's lease (a row of ``pool_pairing``, ``store.leases``).
RUNNER_LEASE = "tournaments"


class RegistrationError(StoreError):
    """A registration refused: ``reason`` is ``twice`` (the person is entered already),
    ``full`` (no place is left) or ``closed`` (the tournament has started)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"registration refused: {reason}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class NewTournament:
    """A tournament's options as the service checked them."""

    name: str
    club_id: str | None
    director_id: str
    starts_at: float
    rules: dict[str, Any]
    table_size: int
    rounds: int
    turn_seconds: int
    scoring: str
    fill: str
    max_players: int
    rated: bool
    bot_delay_ms: int
    seed: str


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A stored tournament (``NewTournament``'s options, its state and its round)."""

    id: str
    options: NewTournament
    state: str
    current_round: int
    created_at: float
    finished_at: float | None
    director_name: str


@dataclass(frozen=True, slots=True)
class EntryRow:
    """An entrant: a person (``user_id``) or a bot (``bot``), their name now, their state."""

    entry_id: str
    user_id: str | None
    bot: str | None
    name: str
    state: str
    registered_at: float


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A paired round: its deals' seed, the byes, and when it started and ended."""

    number: int
    seed: str
    byes: tuple[str, ...]
    started_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class TournamentTableRow:
    """A round's table: its game's status now and, once recorded, its result."""

    table_id: str
    round_number: int
    position: int
    entries: tuple[str | None, ...]
    status: str
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """A table to open for a round: the entry at each seat (``None``: a filling bot), the
    person of each seat (by seat) and the bot level of each seat."""

    entries: tuple[str | None, ...]
    people: Mapping[int, str]
    bots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundTable:
    """How every table of a round is opened: the rules, timers, stand-in and seed."""

    rules: dict[str, Any]
    turn_seconds: int
    bot_delay_ms: int
    stand_in: str
    seed: str
    rated: bool
    public: bool


#: The scope of the duplicate rating among a person's ratings (docs/accounts.md).
DUPLICATE_SCOPE = "duplicate"


@dataclass(frozen=True, slots=True)
class RoundRating:
    """How a round's end moves duplicate ratings: the ``people`` it rates, a newcomer's
    rating, and ``rate``, from their ratings now (locked) to their ratings after."""

    people: frozenset[str]
    newcomer: StoredRating
    rate: Callable[[Mapping[str, StoredRating]], Mapping[str, StoredRating]]


def _tournament(row: Tournament, director: str) -> TournamentRow:
    options = NewTournament(
        name=row.name,
        club_id=row.club_id,
        director_id=row.director_id,
        starts_at=row.starts_at,
        rules=dict(row.rules),
        table_size=row.table_size,
        rounds=row.rounds,
        turn_seconds=row.turn_seconds,
        scoring=row.scoring,
        fill=row.fill,
        max_players=row.max_players,
        rated=row.rated,
        bot_delay_ms=row.bot_delay_ms,
        seed=row.seed,
    )
    return TournamentRow(
        row.id, options, row.state, row.current_round, row.created_at, row.finished_at, director
    )


def _entry(row: TournamentEntry, nickname: str | None) -> EntryRow:
    return EntryRow(
        row.entry_id,
        row.user_id,
        row.bot,
        row.name if nickname is None else nickname,
        row.state,
        row.registered_at,
    )


class TournamentStore:
    """Tournaments over a ``Store``'s database; each method one transaction."""

    def __init__(self, store: Store, rating: TableRating | None = None) -> None:
        """``rating``: how a rated table's game moves ratings, for the games whose
        ratings wait for their round's end (``settle_waiting``); a store without it
        refuses to end a round or an event that has such games (``AssertionError``)."""
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._leases = Leases(store)
        self._rating = rating

    def _settle(self, session: Session, tournament_id: str, now: float) -> None:
        """Move the ratings of the event's games that waited for their round's end."""
        if self._rating is None:
            waiting = select(PendingRating.table_id).join(
                TournamentTable, TournamentTable.table_id == PendingRating.table_id
            )
            found = session.scalar(waiting.where(TournamentTable.tournament_id == tournament_id))
            assert found is None, "rated games wait: the store was made without their rating"
            return
        settle_waiting(session, tournament_id, self._rating, datetime.fromtimestamp(now, UTC))

    def _session(self) -> AbstractContextManager[Session]:
        return transaction(self._sessions)

    # ------------------------------------------------------------ tournaments

    def create(self, new: NewTournament) -> TournamentRow:
        """A new tournament, open for registration."""
        tournament_id = new_id()
        with self._session() as session:
            session.add(
                Tournament(
                    id=tournament_id,
                    **{field: getattr(new, field) for field in NewTournament.__dataclass_fields__},
                    state="registering",
                    current_round=0,
                    created_at=time.time(),
                    finished_at=None,
                )
            )
        return self.get(tournament_id)

    def get(self, tournament_id: str) -> TournamentRow:
        """The tournament (``NotFoundError`` if there is none)."""
        with self._session() as session:
            found = session.execute(
                select(Tournament, User.nickname)
                .join(User, User.id == Tournament.director_id)
                .where(Tournament.id == tournament_id)
            ).first()
            if found is None:
                raise NotFoundError(f"no tournament {tournament_id!r}")
            return _tournament(*found)

    def listing(self, club_id: str | None, limit: int = 50) -> list[TournamentRow]:
        """The public tournaments (``club_id`` ``None``) or a club's, newest start first."""
        condition = (
            Tournament.club_id.is_(None) if club_id is None else Tournament.club_id == club_id
        )
        query = (
            select(Tournament, User.nickname)
            .join(User, User.id == Tournament.director_id)
            .where(condition)
            .order_by(Tournament.starts_at.desc(), Tournament.id)
            .limit(limit)
        )
        with self._session() as session:
            return [_tournament(row, name) for row, name in session.execute(query)]

    def set_state(
        self, tournament_id: str, state: str, was: Collection[str], now: float | None = None
    ) -> bool:
        """Move the tournament to ``state`` if it is in one of ``was``; whether it moved
        (``finished`` also notes when, ``now``)."""
        values: dict[str, Any] = {"state": state}
        if state == "finished":
            values["finished_at"] = time.time() if now is None else now
        with self._session() as session:
            moved = session.execute(
                update(Tournament)
                .where(Tournament.id == tournament_id, Tournament.state.in_(list(was)))
                .values(**values)
            )
            done = bool(getattr(moved, "rowcount", 0))
            if done and state == "finished":  # its round, if one was played, is over
                self._settle(session, tournament_id, values["finished_at"])
            return done

    def start_now(self, tournament_id: str, now: float) -> bool:
        """Bring a registering tournament's start forward to ``now``; whether it was
        registering (the runner starts it at its next pass)."""
        with self._session() as session:
            moved = session.execute(
                update(Tournament)
                .where(Tournament.id == tournament_id, Tournament.state == "registering")
                .values(starts_at=now)
            )
            return bool(getattr(moved, "rowcount", 0))

    def due(self, now: float) -> list[TournamentRow]:
        """The tournaments the runner looks at: running or paused (their tables are
        recorded), or registering past their start."""
        query = (
            select(Tournament, User.nickname)
            .join(User, User.id == Tournament.director_id)
            .where(
                Tournament.state.in_(["running", "paused"])
                | ((Tournament.state == "registering") & (Tournament.starts_at <= now))
            )
        )
        with self._session() as session:
            return [_tournament(row, name) for row, name in session.execute(query)]

    # ------------------------------------------------------------ entrants

    def register(
        self, tournament_id: str, *, user_id: str | None, bot: str | None, name: str, now: float
    ) -> EntryRow:
        """Enter a person (``user_id``) or a bot (``bot``, ``name``) while the tournament
        registers and has a place; ``RegistrationError`` otherwise, nothing changed
        (``NotFoundError``: the person's account is deleted, also at the same moment:
        ``lock_live_person``; ``NotAMemberError``: a club's event, and the person's place
        in the club ended, also at the same moment: ``require_club_member``)."""
        try:
            with self._session() as session:
                tournament = session.scalars(
                    select(Tournament).where(Tournament.id == tournament_id).with_for_update()
                ).first()
                if tournament is None:
                    raise NotFoundError(f"no tournament {tournament_id!r}")
                if tournament.state != "registering":
                    raise RegistrationError("closed")
                if user_id is not None:
                    lock_live_person(session, user_id)
                    if tournament.club_id is not None:
                        require_club_member(session, tournament.club_id, user_id)
                entered = self._registered(session, tournament_id)
                if user_id is not None and user_id in {e.user_id for e in entered}:
                    raise RegistrationError("twice")
                if len(entered) >= tournament.max_players:
                    raise RegistrationError("full")
                row = TournamentEntry(
                    tournament_id=tournament_id,
                    entry_id=new_id(),
                    user_id=user_id,
                    bot=bot,
                    name=name,
                    state="registered",
                    registered_at=now,
                )
                session.add(row)
                session.flush()
                return _entry(row, None)
        except StoreError as error:
            if isinstance(error.__context__, IntegrityError):  # entered at the same moment
                raise RegistrationError("twice") from None
            raise

    @staticmethod
    def _registered(session: Session, tournament_id: str) -> list[TournamentEntry]:
        query = select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament_id,
            TournamentEntry.state == "registered",
        )
        return list(session.scalars(query))

    def unregister(self, tournament_id: str, user_id: str) -> bool:
        """Take a person's entry back before the start; whether there was one. The
        tournament's row is locked, as ``register`` locks it: the runner's start (its
        move to running, then the pairing of round 1) waits for the entry to be gone, or
        this sees the tournament running and changes nothing."""
        with self._session() as session:
            tournament = session.scalars(
                select(Tournament).where(Tournament.id == tournament_id).with_for_update()
            ).first()
            if tournament is None or tournament.state != "registering":
                raise RegistrationError("closed")
            entry = session.scalars(
                select(TournamentEntry).where(
                    TournamentEntry.tournament_id == tournament_id,
                    TournamentEntry.user_id == user_id,
                )
            ).first()
            if entry is None:
                return False
            session.delete(entry)
            return True

    def withdraw(self, tournament_id: str, entry_ids: Collection[str]) -> int:
        """Withdraw these entrants from the later rounds; how many were registered."""
        with self._session() as session:
            return self._withdraw(session, tournament_id, entry_ids)

    @staticmethod
    def _withdraw(session: Session, tournament_id: str, entry_ids: Collection[str]) -> int:
        done = session.execute(
            update(TournamentEntry)
            .where(
                TournamentEntry.tournament_id == tournament_id,
                TournamentEntry.entry_id.in_(list(entry_ids)),
                TournamentEntry.state == "registered",
            )
            .values(state="withdrawn")
        )
        return int(getattr(done, "rowcount", 0))

    def entries(self, tournament_id: str) -> list[EntryRow]:
        """Every entrant, registered or withdrawn, first registered first."""
        query = (
            select(TournamentEntry, User.nickname)
            .outerjoin(User, User.id == TournamentEntry.user_id)
            .where(TournamentEntry.tournament_id == tournament_id)
            .order_by(TournamentEntry.registered_at, TournamentEntry.entry_id)
        )
        with self._session() as session:
            return [_entry(row, nickname) for row, nickname in session.execute(query)]

    def counts(self, tournament_ids: Collection[str]) -> dict[str, int]:
        """How many are registered in each of these tournaments."""
        query = (
            select(TournamentEntry.tournament_id, func.count())
            .where(
                TournamentEntry.tournament_id.in_(list(tournament_ids)),
                TournamentEntry.state == "registered",
            )
            .group_by(TournamentEntry.tournament_id)
        )
        with self._session() as session:
            return {tournament_id: int(count) for tournament_id, count in session.execute(query)}

    # ------------------------------------------------------------ rounds

    def pair_round(
        self,
        tournament_id: str,
        number: int,
        byes: Sequence[str],
        how: RoundTable,
        tables: Sequence[SeatedTable],
        now: float,
    ) -> list[str] | None:
        """Pair round ``number`` in one transaction: its row, its tables and their seats
        (in the club's tables too, for a club's tournament); the tables' ids, or ``None``
        (nothing changed) if the round is paired already, the tournament is not running
        at round ``number - 1``, or an entrant the ``tables`` seat was withdrawn after
        they were made (the runner seats the round anew at its next pass). The entrants'
        rows are held from that check to the commit, so a withdrawal at the same moment
        comes wholly before the pairing or applies from the next round on."""
        try:
            with self._session() as session:
                moved = session.execute(
                    update(Tournament)
                    .where(
                        Tournament.id == tournament_id,
                        Tournament.state == "running",
                        Tournament.current_round == number - 1,
                    )
                    .values(current_round=number)
                )
                if getattr(moved, "rowcount", 0) != 1:
                    return None
                if not _none_withdrawn(session, tournament_id, tables):
                    raise _WithdrawnMeanwhile
                tournament = session.get(Tournament, tournament_id)
                assert tournament is not None
                session.add(
                    TournamentRound(
                        tournament_id=tournament_id,
                        number=number,
                        seed=how.seed,
                        byes=list(byes),
                        started_at=now,
                        finished_at=None,
                    )
                )
                session.flush()  # a round paired twice fails here, before any table
                return [
                    self._add_table(session, tournament, number, position, how, table)
                    for position, table in enumerate(tables)
                ]
        except _WithdrawnMeanwhile:
            return None  # rolled back: the round is seated again from the entries as they are
        except StoreError:
            if self.round(tournament_id, number) is not None:
                return None  # another worker paired it first
            raise

    @staticmethod
    def _add_table(
        session: Session,
        tournament: Tournament,
        number: int,
        position: int,
        how: RoundTable,
        table: SeatedTable,
    ) -> str:
        table_id = add_table(
            session,
            host_id=tournament.director_id,
            public=how.public,
            rules=how.rules,
            bots=table.bots,
            turn_seconds=how.turn_seconds,
            bot_delay_ms=how.bot_delay_ms,
            stand_in=how.stand_in,
            seed=how.seed,
            rated=how.rated,
            spectator_chat=False,
            people=table.people,
            first_dealer=None,
            club_id=tournament.club_id,
        )
        session.add(
            TournamentTable(
                table_id=table_id,
                tournament_id=tournament.id,
                round_number=number,
                position=position,
                entries=list(table.entries),
                result=None,
            )
        )
        return table_id

    def round(self, tournament_id: str, number: int) -> RoundRow | None:
        """Round ``number`` if it has been paired."""
        with self._session() as session:
            row = session.get(TournamentRound, (tournament_id, number))
            return None if row is None else _round(row)

    def rounds(self, tournament_id: str) -> list[RoundRow]:
        """The rounds paired so far, in order."""
        query = (
            select(TournamentRound)
            .where(TournamentRound.tournament_id == tournament_id)
            .order_by(TournamentRound.number)
        )
        with self._session() as session:
            return [_round(row) for row in session.scalars(query)]

    def tables(self, tournament_id: str, number: int | None = None) -> list[TournamentTableRow]:
        """The tables of one round (or of every round), by round and position, with their
        games' status now."""
        query = (
            select(TournamentTable, GameTable.status)
            .join(GameTable, GameTable.id == TournamentTable.table_id)
            .where(TournamentTable.tournament_id == tournament_id)
            .order_by(TournamentTable.round_number, TournamentTable.position)
        )
        if number is not None:
            query = query.where(TournamentTable.round_number == number)
        with self._session() as session:
            return [
                TournamentTableRow(
                    row.table_id,
                    row.round_number,
                    row.position,
                    tuple(row.entries),
                    status,
                    None if row.result is None else dict(row.result),
                )
                for row, status in session.execute(query)
            ]

    def record_result(self, table_id: str, result: Mapping[str, Any]) -> bool:
        """The result of a finished table's game, once; whether this call recorded it.
        In the same transaction, the entrants of its ``absent`` seats (who did not show)
        are withdrawn from the later rounds."""
        with self._session() as session:
            done = session.execute(
                update(TournamentTable)
                .where(TournamentTable.table_id == table_id, TournamentTable.result.is_(None))
                .values(result=dict(result))
            )
            if not getattr(done, "rowcount", 0):
                return False
            row = session.get(TournamentTable, table_id)
            assert row is not None
            absent = [row.entries[seat] for seat in result["absent"]]
            self._withdraw(session, row.tournament_id, [e for e in absent if e is not None])
            return True

    def end_round(
        self, tournament_id: str, number: int, now: float, rating: RoundRating | None = None
    ) -> bool:
        """Note that round ``number``'s last game is recorded (once); whether this did.
        In the same transaction, and so once, the ratings its rated games waited with
        move (``settle_waiting``), then ``rating`` moves its people's duplicate ratings
        (``DUPLICATE_SCOPE``)."""
        with self._session() as session:
            done = session.execute(
                update(TournamentRound)
                .where(
                    TournamentRound.tournament_id == tournament_id,
                    TournamentRound.number == number,
                    TournamentRound.finished_at.is_(None),
                )
                .values(finished_at=now)
            )
            if not getattr(done, "rowcount", 0):
                return False
            self._settle(session, tournament_id, now)
            if rating is not None and rating.people:
                at = datetime.fromtimestamp(now, UTC)
                rate_people(
                    session, DUPLICATE_SCOPE, rating.people, rating.newcomer, at, rating.rate
                )
            return True

    def tournament_of_table(self, table_id: str) -> str | None:
        """The tournament a table was opened for, if any."""
        with self._session() as session:
            row = session.get(TournamentTable, table_id)
            return None if row is None else row.tournament_id

    def hides_table(self, table_id: str, user_id: str | None) -> bool:
        """Whether the table is one of a tournament round still being played (the event
        running or paused, the round's last game not yet recorded) and the person
        (``None``: anonymous) does not sit at it. Every table of a round is dealt the
        same cards (duplicate deals), so until the round is over a table is its own
        players' only: another table's cards, play or points would tell them the hands
        they hold (docs/tournaments.md). An event ended by its director hides nothing."""
        seated = select(Seat.table_id).where(Seat.table_id == table_id, Seat.user_id == user_id)
        with self._session() as session:
            if not session.scalar(select(in_round_being_played(literal(table_id)))):
                return False
            return user_id is None or session.scalar(seated) is None

    def take_lease(self, holder: str, now: float, seconds: float) -> bool:
        """Hold the runner's lease (``Leases.take``)."""
        return self._leases.take(RUNNER_LEASE, holder, now, seconds)


class _WithdrawnMeanwhile(Exception):
    """A round's seating seats an entrant withdrawn since it was made: the pairing's
    transaction is rolled back."""


def _none_withdrawn(session: Session, tournament_id: str, tables: Sequence[SeatedTable]) -> bool:
    """Whether no entrant the ``tables`` seat has been withdrawn, their rows held
    (``FOR UPDATE``) until the caller's transaction ends."""
    seated = {entry for table in tables for entry in table.entries if entry is not None}
    states = (
        select(TournamentEntry.state)
        .where(TournamentEntry.tournament_id == tournament_id, TournamentEntry.entry_id.in_(seated))
        .with_for_update()
    )
    return all(state == "registered" for state in session.scalars(states))


def _round(row: TournamentRound) -> RoundRow:
    return RoundRow(row.number, row.seed, tuple(row.byes), row.started_at, row.finished_at)
