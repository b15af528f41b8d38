"""The repository: every read and write the server makes, each in its own transaction.

Methods are synchronous (SQLAlchemy's ORM); the server calls them from worker threads
(but for ``append_events_now``, which never waits: from its event loop).
``append_events`` takes the actions of many tables at once, so the server can commit
them in one transaction (group commit) and still store every event before it is sent.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    ColumnElement,
    Engine,
    Select,
    Table,
    Update,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, Dialect, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import InstrumentedAttribute, Session, sessionmaker

from raspisnoy.store.models import (
    Account,
    ClubMember,
    ClubTable,
    GameEvent,
    GameTable,
    OfflineSheetUpload,
    PoolTable,
    ScoreSheet,
    Seat,
    SessionToken,
    User,
    UserKind,
)

__all__ = [
    "EventRow",
    "FencedError",
    "NotAMemberError",
    "NotFoundError",
    "SeatCap",
    "SeatCapError",
    "SeatRow",
    "SheetRow",
    "StaleWriteError",
    "Store",
    "StoreError",
    "TableRow",
    "UserRow",
    "add_sheet",
    "add_table",
    "check_fences",
    "drop_sheets",
    "games_held",
    "hand_over_host",
    "hold_rows",
    "lock_live_person",
    "lock_users",
    "mark_started",
    "require_club_member",
    "transaction",
    "utc",
    "utc_or_none",
]


class StoreError(Exception):
    """The database could not be reached or refused a write; the message says which."""


class NotFoundError(StoreError):
    """No row with that id."""


class FencedError(StoreError):
    """A write for a table by a worker that no longer owns it: another worker claimed the
    table since (its fencing token on the table row is newer than the writer's)."""


class StaleWriteError(StoreError):
    """The row changed since the version the write was based on; read it again."""


@dataclass(frozen=True, slots=True)
class SeatCap:
    """A cap on a new table's host: at most ``limit`` tables waiting for players (opened
    after ``since``: those the lobby still lists) where they hold a seat."""

    limit: int
    since: datetime


class NotAMemberError(StoreError):
    """The person is not, or no longer, a member of the club whose table the write is
    for (``require_club_member``)."""


class SeatCapError(StoreError):
    """A table refused its host, who holds seats at ``held`` tables of those a cap counts
    already, its ``limit`` or more: waiting for players (a new table under a ``SeatCap``)
    or being played (a start under ``Store.start_table``'s ``games_cap``)."""

    def __init__(self, held: int, limit: int) -> None:
        super().__init__(f"the host holds seats at {held} tables of this cap, at most {limit}")
        self.held = held
        self.limit = limit


@dataclass(frozen=True, slots=True)
class UserRow:
    id: str
    nickname: str
    kind: UserKind

    @property
    def is_account(self) -> bool:
        """Whether this is an account, neither a guest nor deleted: what ratings, clubs,
        reports and the rated pool ask for."""
        return self.kind == "registered"


def user_row(user: User) -> UserRow:
    """The stored ``user`` as a row."""
    return UserRow(user.id, user.nickname, user.kind)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: str | None
    nickname: str | None
    bot: str
    #: The seat's person has an account (so a profile worth linking); not a guest.
    registered: bool
    #: A stand-in plays the seat since its person's turn timer lapsed or they left the
    #: game (``Store.set_away``): as stored, for an actor loading the table; the live
    #: presence is the actor's own.
    away: bool = False


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    host_id: str
    status: str
    public: bool
    rules: dict[str, Any]
    seats: tuple[SeatRow, ...]
    turn_seconds: int
    bot_delay_ms: int
    stand_in: str
    seed: str
    names: tuple[str, ...] | None
    first_dealer: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    rated: bool = False
    spectator_chat: bool = False


@dataclass(frozen=True, slots=True)
class EventRow:
    """One stored action; ``seq`` counts from 1 within its table."""

    table_id: str
    seq: int
    seat: int
    action: str
    client_id: str | None


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A stored score sheet: ``sheet`` is its ``raspisnoy-sheet/1`` JSON."""

    id: str
    share_id: str
    edit_token: str
    owner_id: str
    owner_nickname: str
    sheet: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime
    #: The server's sheet this one continues (uploaded from a device that continued it
    #: offline), if any: ``OfflineSheetUpload.continues_id``.
    continues: str | None = None


#: The stored fencing tokens of some tables (``ids``), locked: built once, since building
#: and keying a statement each time cost more CPU than running it.
_FENCE_TOKENS = (
    select(GameTable.id, GameTable.owner_token)
    .where(GameTable.id.in_(bindparam("ids", expanding=True)))
    .with_for_update()
)
#: ``_FENCE_TOKENS`` on SQLite, which has no ``FOR UPDATE``: an update that changes
#: nothing, so that the transaction holds the database's write lock from the check on
#: (a plain read would take none, and another writer could claim or delete the table
#: between the check and the write).
_FENCE_TOKENS_LOCKING_SQLITE = (
    update(GameTable)
    .where(GameTable.id.in_(bindparam("ids", expanding=True)))
    .values(owner_token=GameTable.owner_token)
    .returning(GameTable.id, GameTable.owner_token)
    .execution_options(synchronize_session=False)
)


@dataclass(frozen=True)
class _AppendSQL:
    """``append_events``'s two statements in one database's own SQL, run on its driver's
    cursor: SQLAlchemy's execution of them (its connection, statement cache and
    parameter processing) cost twice what the database did (docs/cluster.md, session
    18), and this is the server's hot path, one batch every few of its actions."""

    #: The stored tokens of the tables whose ids are the one parameter, locked until the
    #: transaction ends (as ``_FENCE_TOKENS``).
    fence_tokens: str
    #: One event: table id, seq, seat, action, client id, moment.
    insert: str
    #: The ids as that parameter.
    ids: Callable[[list[str]], object]


_EVENT_COLUMNS = "game_events (table_id, seq, seat, action, client_id, created_at)"
_APPEND_SQL = {
    "sqlite": _AppendSQL(
        "SELECT id, owner_token FROM tables WHERE id IN (SELECT value FROM json_each(?))",
        f"INSERT INTO {_EVENT_COLUMNS} VALUES (?, ?, ?, ?, ?, ?)",
        json.dumps,
    ),
    "postgresql": _AppendSQL(
        "SELECT id, owner_token FROM tables WHERE id = ANY(%s) FOR UPDATE",
        f"INSERT INTO {_EVENT_COLUMNS} VALUES (%s, %s, %s, %s, %s, %s)",
        list,
    ),
}
#: Taken before migrating; released when the migration's transaction ends. The key is
#: the schema's, so schemas of one database (the tests' own) migrate side by side.
_MIGRATION_LOCK = text(
    "SELECT pg_advisory_xact_lock(hashtext('raspisnoy migrations ' || current_schema()))"
)


def _now() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """A stored moment with its zone (SQLite gives it back without; it was UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def utc_or_none(moment: datetime | None) -> datetime | None:
    return None if moment is None else utc(moment)


def new_id() -> str:
    """A random id of 16 URL-safe characters (96 bits): unguessable, so it can be a link."""
    return secrets.token_urlsafe(12)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the writer; a committed transaction survives the
    # process being killed (only a power cut could lose the last ones with NORMAL).
    # Automatic checkpoints would run inside a commit and stall every table waiting on
    # it for the checkpoint's fsync: ``Store.checkpoint`` runs them beside the writes.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


@contextmanager
def transaction(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A session of ``sessions`` whose transaction commits on success; database errors →
    ``StoreError`` (for the repositories beside ``Store``: ``CasinoStore``)."""
    try:
        with sessions.begin() as session:
            yield session
    except SQLAlchemyError as error:
        raise StoreError(f"database error: {_reason(error)}") from None


class Store:
    """The server's database: open it with ``Store.open(url)``."""

    def __init__(
        self, engine: Engine, appends: Engine | None = None, appends_now: Engine | None = None
    ) -> None:
        self.engine = engine
        #: The engine of ``append_events``, the server's hot path: its own pool, without
        #: the ``pool_pre_ping`` of ``engine`` (a ping is one more round trip before every
        #: batch: a quarter of the CPU of an append and half its time, measured). A
        #: connection that died (the database restarted) fails its batch once and the
        #: pool is then invalidated, so the server's retry of each action goes through;
        #: nothing failed is ever acknowledged.
        self._appends = appends or engine
        #: On SQLite, the engine of ``append_events_now``: connections that never wait
        #: for another writer's lock (``busy_timeout`` 0).
        self._appends_now = appends_now
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        #: SQLite's write-ahead log is folded into the database by ``checkpoint``, which
        #: the server calls every few seconds; other databases need nothing of the kind.
        self.needs_checkpoints = engine.dialect.name == "sqlite"

    @classmethod
    def open(cls, url: str | URL, *, migrate: bool = True) -> Store:
        """Connect to ``url`` and bring its schema up to date (Alembic ``upgrade head``)."""
        try:
            parsed = make_url(url)
        except Exception as error:  # SQLAlchemy raises ArgumentError and ValueError here
            raise StoreError(f"not a database URL: {url!s} ({error})") from None
        try:
            engine = create_engine(parsed, pool_pre_ping=True)
            appends = create_engine(parsed)
            sqlite = parsed.get_backend_name() == "sqlite"
            appends_now = create_engine(parsed) if sqlite else None
        except (SQLAlchemyError, ImportError) as error:
            raise StoreError(f"cannot use database {parsed!r}: {error}") from None
        for sqlite_engine in (engine, appends, appends_now) if sqlite else ():
            event.listen(sqlite_engine, "connect", _sqlite_pragmas)
        if appends_now is not None:
            event.listen(appends_now, "connect", _never_wait)
        store = cls(engine, appends, appends_now)
        if migrate:
            store.migrate()
        return store

    def migrate(self) -> None:
        """Apply every migration shipped in ``raspisnoy.store.migrations`` not yet applied.

        On PostgreSQL the upgrade holds an advisory lock of its schema for its whole
        transaction: machines started at once each run it in turn, and each after the
        first finds the schema at head (without it, two would both create the same
        tables and all but one fail)."""
        config = Config()
        config.set_main_option("script_location", str(files("raspisnoy.store") / "migrations"))
        try:
            with self.engine.begin() as connection:
                if connection.dialect.name == "postgresql":
                    connection.execute(_MIGRATION_LOCK)
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except SQLAlchemyError as error:
            raise StoreError(f"cannot migrate the database: {_reason(error)}") from None

    def close(self) -> None:
        self.engine.dispose()
        self._appends.dispose()
        if self._appends_now is not None:
            self._appends_now.dispose()

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database without blocking writers."""
        if not self.needs_checkpoints:
            return
        try:
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except SQLAlchemyError as error:
            raise StoreError(f"checkpoint failed: {_reason(error)}") from None

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    # ----------------------------------------------------------------- users

    def create_user(self, nickname: str) -> UserRow:
        """A new guest with this (already checked) nickname."""
        user = User(id=new_id(), nickname=nickname, kind="guest", created_at=_now())
        with self._session() as session:
            session.add(user)
        return user_row(user)

    def get_user(self, user_id: str) -> UserRow:
        with self._session() as session:
            user = session.get(User, user_id)
            if user is None:
                raise NotFoundError(f"no user {user_id!r}")
            return user_row(user)

    def rename_user(self, user_id: str, nickname: str) -> UserRow:
        """Give the person a new nickname (``NotFoundError``: no such person, or the
        account is deleted, also by a deletion at the same moment: ``lock_live_person``)."""
        with self._session() as session:
            user = lock_live_person(session, user_id)
            user.nickname = nickname
            return user_row(user)

    # ----------------------------------------------------------------- sessions

    def create_session(
        self,
        user_id: str,
        token_hash: str,
        expires_at: datetime,
        user_agent: str | None = None,
        password_hash: str | None = None,
    ) -> None:
        """Store a session of ``user_id`` under its token's hash until ``expires_at`` (made
        in the browser ``user_agent``); the user's expired sessions go at the same time.

        The person's row is held meanwhile (``lock_live_person``), as a ban, a change of
        password and a deletion hold it to end their sessions: a session stored at the
        same moment comes wholly before such a write, which then ends it, or wholly after
        it. ``NotFoundError`` for a deleted account; ``StaleWriteError`` if the account's
        password is no longer ``password_hash`` (a log-in checked against the password a
        change replaced meanwhile)."""
        now = _now()
        with self._session() as session:
            lock_live_person(session, user_id)
            if password_hash is not None:
                account = session.get(Account, user_id, populate_existing=True)
                if account is None or account.password_hash != password_hash:
                    raise StaleWriteError("the password changed meanwhile")
            session.execute(
                delete(SessionToken).where(
                    SessionToken.user_id == user_id, SessionToken.expires_at <= now
                )
            )
            session.add(
                SessionToken(
                    token_hash=token_hash,
                    user_id=user_id,
                    created_at=now,
                    expires_at=expires_at,
                    user_agent=None if user_agent is None else user_agent[:200],
                )
            )

    def user_of_session(self, token_hash: str) -> UserRow | None:
        """The user of the unexpired session stored under ``token_hash``, if any (never a
        deleted account's)."""
        query = (
            select(User)
            .join(SessionToken, SessionToken.user_id == User.id)
            .where(
                SessionToken.token_hash == token_hash,
                SessionToken.expires_at > _now(),
                User.kind != "deleted",  # its sessions went with it, or are going
            )
        )
        with self._session() as session:
            user = session.scalars(query).first()
            return None if user is None else user_row(user)

    def end_session(self, token_hash: str) -> int:
        """Delete the session stored under ``token_hash``; how many were deleted (0 or 1)."""
        with self._session() as session:
            result = session.execute(
                delete(SessionToken).where(SessionToken.token_hash == token_hash)
            )
            return _count(result)

    def end_sessions_of(self, user_id: str) -> int:
        """Delete every session of ``user_id``; how many there were."""
        with self._session() as session:
            result = session.execute(delete(SessionToken).where(SessionToken.user_id == user_id))
            return _count(result)

    # ----------------------------------------------------------------- tables

    def create_table(
        self,
        *,
        host_id: str,
        public: bool,
        rules: dict[str, Any],
        bots: Sequence[str],
        turn_seconds: int,
        bot_delay_ms: int,
        stand_in: str,
        seed: str,
        rated: bool = False,
        spectator_chat: bool = False,
        people: Mapping[int, str] | None = None,
        first_dealer: int | None = None,
        cap: SeatCap | None = None,
        club_id: str | None = None,
    ) -> TableRow:
        """A new open table with ``bots[i]`` as each seat's bot level and the host in seat 0
        (or ``people``, seat → user id, in their seats); a ``rated`` game's end moves its
        players' ratings; with ``spectator_chat`` spectators read and write its chat; a
        ``first_dealer`` is fixed now instead of drawn from the seed when the game starts;
        a ``club_id``'s table is the club's from its first moment (``add_table``).
        With a ``cap``, ``SeatCapError`` and no table where the host is at it: counted in
        this transaction with the host's row locked, so two tables opened at once (on two
        workers) cannot both pass the count."""
        with self._session() as session:
            if cap is not None:
                _check_cap(session, host_id, _waiting_seating_user(host_id, cap.since), cap.limit)
            if club_id is not None:
                require_club_member(session, club_id, host_id)
            table_id = add_table(
                session,
                host_id=host_id,
                public=public,
                rules=rules,
                bots=bots,
                turn_seconds=turn_seconds,
                bot_delay_ms=bot_delay_ms,
                stand_in=stand_in,
                seed=seed,
                rated=rated,
                spectator_chat=spectator_chat,
                people={0: host_id} if people is None else people,
                first_dealer=first_dealer,
                club_id=club_id,
            )
        return self.get_table(table_id)

    def get_table(self, table_id: str) -> TableRow:
        with self._session() as session:
            table = session.get(GameTable, table_id)
            if table is None:
                raise NotFoundError(f"no table {table_id!r}")
            return _table_row(session, table)

    def list_tables(
        self,
        *,
        status: str,
        public_only: bool = True,
        limit: int | None = 100,
        created_after: datetime | None = None,
    ) -> list[TableRow]:
        """Tables with this status, newest first (``limit=None``: all of them; with
        ``created_after``, only those opened since)."""
        with self._session() as session:
            query = select(GameTable).where(GameTable.status == status)
            if public_only:
                query = query.where(GameTable.public.is_(True))
            if created_after is not None:
                query = query.where(GameTable.created_at > created_after)
            query = query.order_by(GameTable.created_at.desc()).limit(limit)
            return _table_rows(session, list(session.scalars(query)))

    def tables_of_user(self, user_id: str) -> list[TableRow]:
        """Every started table where the user holds a seat, newest first."""
        query = _seating_user(user_id).where(GameTable.status != "open")
        with self._session() as session:
            return _table_rows(session, list(session.scalars(query)))

    def live_tables_of(self, user_ids: Collection[str], created_after: datetime) -> list[TableRow]:
        """The tables where any of ``user_ids`` holds a seat that are being played or wait
        for players (opened since ``created_after``), each once, private ones too."""
        seated = select(Seat.table_id).where(Seat.user_id.in_(sorted(user_ids)))
        waiting = (GameTable.status == "open") & (GameTable.created_at > created_after)
        live = or_(GameTable.status == "playing", waiting)
        query = select(GameTable).where(GameTable.id.in_(seated), live)
        with self._session() as session:
            return _table_rows(session, list(session.scalars(query)))

    def waiting_tables_of_user(self, user_id: str, created_after: datetime) -> list[TableRow]:
        """The tables waiting for players where the user holds a seat, opened since
        ``created_after``, newest first."""
        query = _waiting_seating_user(user_id, created_after)
        with self._session() as session:
            return _table_rows(session, list(session.scalars(query)))

    def count_seated_tables(self, user_id: str, status: str) -> int:
        """How many tables of ``status`` the user holds a seat at."""
        with self._session() as session:
            return _count_of(session, _seating_user(user_id).where(GameTable.status == status))

    def count_games_held(self, user_id: str) -> int:
        """How many games the user holds now (``games_held``: being played, or opened for
        them by the pool)."""
        with self._session() as session:
            return games_held(session, [user_id]).get(user_id, 0)

    def set_seat(
        self, table_id: str, seat: int, user_id: str | None, fence: int | None = None
    ) -> None:
        """Put a person in a seat, moving them from any other seat of theirs at this table
        in the same transaction (or empty the seat with ``None``). A person who sits at a
        table not started whose host has no seat there (the host left it alone:
        ``hand_over_host``) becomes its host, so that someone there can start the game.
        ``fence``, here and in every write of a live table: the writer's ownership token
        (``claim_table``); the write is refused with ``FencedError`` if the table has been
        claimed since. ``NotAMemberError`` and nothing changed for a person who is not a
        member of the table's club (``require_club_member``)."""
        with self._session() as session:
            club = select(ClubTable.club_id).where(ClubTable.table_id == table_id)
            if user_id is not None and (club_id := session.scalar(club)) is not None:
                require_club_member(session, club_id, user_id)
            check_fences(session, {table_id: fence})
            if user_id is None:
                session.execute(_seating(table_id, seat, None))
                return
            theirs = Seat.table_id == table_id, Seat.user_id == user_id
            session.execute(update(Seat).where(*theirs).values(user_id=None))
            session.execute(_seating(table_id, seat, user_id))
            table = session.get(GameTable, table_id)
            if table is not None and table.status == "open":
                _host_unless_seated(session, table, user_id)

    def leave_open_table(
        self, table_id: str, seat: int, user_id: str, fence: int | None = None
    ) -> None:
        """``user_id`` leaves their ``seat`` at a table not started yet: the seat is freed,
        and when they are its host the host's part passes on (``hand_over_host``)."""
        with self._session() as session:
            check_fences(session, {table_id: fence})
            session.execute(_seating(table_id, seat, None))
            table = session.get(GameTable, table_id)
            if table is not None and table.host_id == user_id:
                hand_over_host(session, table)

    def start_table(
        self,
        table_id: str,
        names: Sequence[str],
        first_dealer: int,
        fence: int | None = None,
        games_cap: int | None = None,
        seated: Sequence[str | None] | None = None,
    ) -> None:
        """Mark the table's game started with these player names and first dealer (under
        ``fence``: ``set_seat``). With a ``games_cap``, ``SeatCapError`` and nothing
        changed where the host plays that many games already (``mark_started``). With
        ``seated`` (who sits in each seat, as the names were made from),
        ``StaleWriteError`` and nothing changed if the seats are no longer so: a seat freed
        behind the table's owner (an account deleted, a place in a club ended) would
        otherwise keep its person's name in the game for good."""
        with self._session() as session:
            check_fences(session, {table_id: fence})
            if seated is not None:
                _refuse_reseated(session, table_id, seated)
            mark_started(session, table_id, names, first_dealer, games_cap)

    def set_away(self, table_id: str, seat: int, away: bool, fence: int | None = None) -> None:
        """Keep whether a stand-in plays ``seat`` for its away person (``SeatRow.away``),
        under ``fence`` (``set_seat``)."""
        with self._session() as session:
            check_fences(session, {table_id: fence})
            session.execute(
                update(Seat).where(Seat.table_id == table_id, Seat.seat == seat).values(away=away)
            )

    # ----------------------------------------------------------------- events

    def claim_table(self, table_id: str) -> int:
        """Take the table over for a new owner: its fencing token goes up by one and is
        returned. From the moment this commits, writes under an older token are refused,
        so a worker that lost its lease (paused, cut off) cannot change the table behind
        the new owner's back; the new owner reads the events after claiming."""
        with self._session() as session:
            token = session.scalar(
                update(GameTable)
                .where(GameTable.id == table_id)
                .values(owner_token=GameTable.owner_token + 1)
                .returning(GameTable.owner_token)
            )
        if token is None:
            raise NotFoundError(f"no table {table_id!r}")
        return int(token)

    def playing_table_ids(self) -> list[str]:
        """The ids of the tables whose game is being played."""
        with self._session() as session:
            return list(session.scalars(select(GameTable.id).where(GameTable.status == "playing")))

    def append_events(
        self, events: Sequence[EventRow], fences: Mapping[str, int] | None = None
    ) -> None:
        """Store actions of any tables in one transaction: all of them, or (on error) none.
        ``fences``: the writer's ownership token of each table (see ``set_seat``)."""
        try:
            _append(self._appends, events, fences)
        except _Busy:  # another connection held the lock for the whole busy timeout
            raise StoreError("database error: database is locked") from None

    def append_events_now(
        self, events: Sequence[EventRow], fences: Mapping[str, int] | None = None
    ) -> bool:
        """``append_events`` without ever waiting for another writer: whether it was done.

        Only on SQLite, whose commit is a write into its log by this process (no fsync:
        ``synchronous=NORMAL``), quick enough for the server's event loop to make itself:
        handing each batch to a worker thread cost a seventh of the server's CPU per
        action, and a thread waiting for the interpreter's lock behind a busy loop made a
        commit of a busy moment take tens of milliseconds (docs/cluster.md, session 17).
        ``False``, with nothing written, on other databases and while another connection
        holds SQLite's write lock: the caller then calls ``append_events`` in a thread."""
        if self._appends_now is None:
            return False
        try:
            _append(self._appends_now, events, fences)
        except _Busy:
            return False
        return True

    def events_of(self, table_id: str) -> list[EventRow]:
        """A table's actions in order."""
        with self._session() as session:
            query = select(GameEvent).where(GameEvent.table_id == table_id).order_by(GameEvent.seq)
            return [
                EventRow(e.table_id, e.seq, e.seat, e.action, e.client_id)
                for e in session.scalars(query)
            ]

    # ----------------------------------------------------------------- score sheets

    def create_sheet(self, owner_id: str, sheet: dict[str, Any]) -> SheetRow:
        """Store a new (already checked) sheet for its owner, with fresh random ids."""
        with self._session() as session:
            sheet_id = add_sheet(session, owner_id, sheet)
        return self.get_sheet(sheet_id)

    def get_sheet(self, sheet_id: str) -> SheetRow:
        return self._find_sheet(ScoreSheet.id == sheet_id, f"no sheet {sheet_id!r}")

    def get_shared_sheet(self, share_id: str) -> SheetRow:
        """The sheet behind a read-only link."""
        return self._find_sheet(ScoreSheet.share_id == share_id, f"no shared sheet {share_id!r}")

    def _find_sheet(self, condition: Any, missing: str) -> SheetRow:
        with self._session() as session:
            query = (
                select(ScoreSheet, User.nickname, OfflineSheetUpload.continues_id)
                .select_from(ScoreSheet)
                .join(User, User.id == ScoreSheet.owner_id)
                .outerjoin(OfflineSheetUpload, OfflineSheetUpload.sheet_id == ScoreSheet.id)
                .where(condition)
            )
            found = session.execute(query).first()
            if found is None:
                raise NotFoundError(missing)
            return _sheet_row(*found)

    def sheets_of_user(self, owner_id: str, limit: int = 100) -> list[SheetRow]:
        """The user's sheets, the most recently changed first."""
        with self._session() as session:
            query = (
                select(ScoreSheet, User.nickname)
                .join(User)
                .where(ScoreSheet.owner_id == owner_id)
                .order_by(ScoreSheet.updated_at.desc())
                .limit(limit)
            )
            return [_sheet_row(row, nickname) for row, nickname in session.execute(query)]

    def update_sheet(self, sheet_id: str, sheet: dict[str, Any], version: int) -> SheetRow:
        """Replace the sheet if it is still at ``version`` (``StaleWriteError`` otherwise,
        ``NotFoundError`` if it is gone); the stored version goes up by one."""
        with self._session() as session:
            changed = session.execute(
                update(ScoreSheet)
                .where(ScoreSheet.id == sheet_id, ScoreSheet.version == version)
                .values(sheet=sheet, version=version + 1, updated_at=_now())
            )
            if getattr(changed, "rowcount", 0) != 1:
                if session.get(ScoreSheet, sheet_id) is None:
                    raise NotFoundError(f"no sheet {sheet_id!r}")
                raise StaleWriteError(f"sheet {sheet_id!r} changed since version {version}")
        return self.get_sheet(sheet_id)

    def delete_sheet(self, sheet_id: str) -> None:
        """Delete the sheet (``drop_sheets``); ``NotFoundError`` if there is none."""
        with self._session() as session:
            if not drop_sheets(session, select(ScoreSheet.id).where(ScoreSheet.id == sheet_id)):
                raise NotFoundError(f"no sheet {sheet_id!r}")


def _seating_user(user_id: str) -> Select[GameTable]:
    """The tables where ``user_id`` holds a seat, newest first."""
    return (
        select(GameTable)
        .join(Seat, Seat.table_id == GameTable.id)
        .where(Seat.user_id == user_id)
        .order_by(GameTable.created_at.desc())
    )


def _waiting_seating_user(user_id: str, created_after: datetime) -> Select[GameTable]:
    """The tables waiting for players, opened since ``created_after``, where ``user_id``
    holds a seat, newest first."""
    return _seating_user(user_id).where(
        GameTable.status == "open", GameTable.created_at > created_after
    )


def _refuse_reseated(session: Session, table_id: str, seated: Sequence[str | None]) -> None:
    """``StaleWriteError`` unless the table's seats hold ``seated``, read with the seats'
    rows held (a write that frees one waits, or is waited for)."""
    rows = select(Seat.seat, Seat.user_id).where(Seat.table_id == table_id).with_for_update()
    stored = dict(session.execute(rows).all())
    if [stored.get(seat) for seat in range(len(seated))] != list(seated):
        raise StaleWriteError(f"the seats of table {table_id!r} changed meanwhile")


def mark_started(
    session: Session,
    table_id: str,
    names: Sequence[str],
    first_dealer: int,
    games_cap: int | None = None,
) -> None:
    """Mark the table's game started in ``session``'s transaction. With a ``games_cap``,
    ``SeatCapError`` where its host holds that many games already (``games_held``):
    counted with the host's row locked until the transaction ends, so that several of
    their tables started at once (on several workers), or one started as the pool opens
    a game for them, cannot all pass the count."""
    if games_cap is not None:
        host_id = session.scalar(select(GameTable.host_id).where(GameTable.id == table_id))
        if host_id is not None:
            lock_users(session, [host_id])
            held = games_held(session, [host_id], besides=table_id).get(host_id, 0)
            _refuse_at_cap(held, games_cap)
    session.execute(
        update(GameTable)
        .where(GameTable.id == table_id)
        .values(status="playing", names=list(names), first_dealer=first_dealer, started_at=_now())
    )


def games_held(
    session: Session, user_ids: Collection[str], besides: str | None = None
) -> dict[str, int]:
    """How many games each of these people holds (those holding none left out): a seat at
    a table being played, or at one the pool has opened for them and not yet started (it
    starts within the pairing pass: counted from the moment it is opened, so that a game
    they start elsewhere meanwhile cannot take them past the cap with it); ``besides``: a
    table not to count (the one being started)."""
    pool_opened = select(PoolTable.table_id).where(PoolTable.table_id == GameTable.id).exists()
    query = (
        select(Seat.user_id, func.count(func.distinct(GameTable.id)))
        .join(GameTable, GameTable.id == Seat.table_id)
        .where(
            Seat.user_id.in_(list(user_ids)),
            or_(GameTable.status == "playing", and_(GameTable.status == "open", pool_opened)),
        )
        .group_by(Seat.user_id)
    )
    if besides is not None:
        query = query.where(GameTable.id != besides)
    return {str(user_id): int(count) for user_id, count in session.execute(query)}


def _check_cap(session: Session, host_id: str, held: Select[GameTable], limit: int) -> None:
    """``SeatCapError`` unless ``host_id`` holds seats at fewer than ``limit`` of the
    ``held`` tables; their row stays locked until the transaction ends (``lock_users``),
    so the count holds until the write it allows is stored."""
    lock_users(session, [host_id])
    _refuse_at_cap(_count_of(session, held), limit)


def _refuse_at_cap(held: int, limit: int) -> None:
    """``SeatCapError`` for one who holds ``held`` of a cap of ``limit``, once at it."""
    if held >= limit:
        raise SeatCapError(held, limit)


def _count_of(session: Session, tables: Select[GameTable]) -> int:
    """How many rows ``tables`` selects."""
    counted = tables.order_by(None).subquery()
    return int(session.scalar(select(func.count()).select_from(counted)) or 0)


def _seating(table_id: str, seat: int, user_id: str | None) -> Update:
    """The statement that puts ``user_id`` in ``seat`` of the table (``None``: frees it)."""
    return update(Seat).where(Seat.table_id == table_id, Seat.seat == seat).values(user_id=user_id)


def _host_unless_seated(session: Session, table: GameTable, sitter: str) -> None:
    """``sitter`` has just sat at ``table`` (in ``session``'s transaction): they become its
    host if its host has no seat there."""
    host_seated = session.scalar(
        select(Seat.seat).where(Seat.table_id == table.id, Seat.user_id == table.host_id)
    )
    if host_seated is None:
        table.host_id = sitter


def hand_over_host(session: Session, table: GameTable) -> None:
    """The host of ``table``, not started yet, has left it (in ``session``'s transaction,
    their seats there already freed): the host's part, starting the game, passes to the
    person in the lowest seat or, with nobody seated, the table leaves the lobby (made
    private: only those who have its link can still reach it, and the first of them to
    sit becomes its host: ``Store.set_seat``)."""
    heir = session.scalar(
        select(Seat.user_id)
        .where(Seat.table_id == table.id, Seat.user_id.is_not(None))
        .order_by(Seat.seat)
        .limit(1)
    )
    if heir is None:
        table.public = False
    else:
        table.host_id = heir


def drop_sheets(session: Session, ids: Select[str]) -> int:
    """Delete the sheets whose ids ``ids`` selects, in ``session``'s transaction, with the
    keys of their uploads from a device; a sheet uploaded as continuing one of them keeps
    its rounds and no longer names it. How many were deleted. Their rows are held first,
    so an upload continuing one at the same moment (which holds it too) is done before
    the links are cleared, or finds it gone."""
    session.execute(select(ScoreSheet.id).where(ScoreSheet.id.in_(ids)).with_for_update())
    session.execute(
        update(OfflineSheetUpload)
        .where(OfflineSheetUpload.continues_id.in_(ids))
        .values(continues_id=None)
    )
    session.execute(delete(OfflineSheetUpload).where(OfflineSheetUpload.sheet_id.in_(ids)))
    gone = session.execute(delete(ScoreSheet).where(ScoreSheet.id.in_(ids)))
    return int(getattr(gone, "rowcount", 0))


def add_table(
    session: Session,
    *,
    host_id: str,
    public: bool,
    rules: dict[str, Any],
    bots: Sequence[str],
    turn_seconds: int,
    bot_delay_ms: int,
    stand_in: str,
    seed: str,
    rated: bool,
    spectator_chat: bool,
    people: Mapping[int, str],
    first_dealer: int | None,
    club_id: str | None = None,
) -> str:
    """Add a new open table and its seats in ``session`` (``Store.create_table``; the pool
    adds one in the transaction that takes its people out of the pool); its id. With a
    ``club_id``, the table is that club's in the same transaction, so it never exists,
    even for a moment, outside its club (where anyone with its link could reach it)."""
    table_id = new_id()
    session.add(
        GameTable(
            id=table_id,
            host_id=host_id,
            created_at=_now(),
            status="open",
            public=public,
            rules=rules,
            seats=len(bots),
            turn_seconds=turn_seconds,
            bot_delay_ms=bot_delay_ms,
            stand_in=stand_in,
            seed=seed,
            first_dealer=first_dealer,
            rated=rated,
            spectator_chat=spectator_chat,
        )
    )
    session.flush()
    for seat, bot in enumerate(bots):
        session.add(Seat(table_id=table_id, seat=seat, user_id=people.get(seat), bot=bot))
    if club_id is not None:
        session.add(ClubTable(table_id=table_id, club_id=club_id))
    return table_id


def add_sheet(session: Session, owner_id: str, sheet: dict[str, Any]) -> str:
    """Add a new (already checked) sheet of ``owner_id`` in ``session``, with fresh random
    ids (``Store.create_sheet``; an uploaded sheet is added with its upload's key); its id.
    ``NotFoundError`` for an account deleted, however late (``lock_live_person``): its
    sheets went with it, and one added now would keep names it took away."""
    lock_live_person(session, owner_id)
    now = _now()
    sheet_id = new_id()
    session.add(
        ScoreSheet(
            id=sheet_id,
            share_id=new_id(),
            edit_token=secrets.token_urlsafe(24),
            owner_id=owner_id,
            sheet=sheet,
            version=1,
            created_at=now,
            updated_at=now,
        )
    )
    return sheet_id


def _sheet_row(row: ScoreSheet, nickname: str, continues: str | None = None) -> SheetRow:
    return SheetRow(
        id=row.id,
        share_id=row.share_id,
        edit_token=row.edit_token,
        owner_id=row.owner_id,
        owner_nickname=nickname,
        sheet=dict(row.sheet),
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        continues=continues,
    )


def _table_row(session: Session, table: GameTable) -> TableRow:
    return _table_rows(session, [table])[0]


def _table_rows(session: Session, tables: Sequence[GameTable]) -> list[TableRow]:
    """The rows of ``tables`` with their seats, read in one query for all of them (the
    lobby lists up to a hundred tables at each change)."""
    query = (
        select(Seat, User.nickname, User.kind)
        .outerjoin(User, User.id == Seat.user_id)
        .where(Seat.table_id.in_([table.id for table in tables]))
        .order_by(Seat.table_id, Seat.seat)
    )
    seats: dict[str, list[SeatRow]] = {table.id: [] for table in tables}
    for seat, nickname, kind in session.execute(query):
        registered = kind == "registered"
        seats[seat.table_id].append(
            SeatRow(seat.seat, seat.user_id, nickname, seat.bot, registered, seat.away)
        )
    return [_row_of(table, tuple(seats[table.id])) for table in tables]


def _row_of(table: GameTable, seats: tuple[SeatRow, ...]) -> TableRow:
    return TableRow(
        id=table.id,
        host_id=table.host_id,
        status=table.status,
        public=table.public,
        rules=dict(table.rules),
        seats=seats,
        turn_seconds=table.turn_seconds,
        bot_delay_ms=table.bot_delay_ms,
        stand_in=table.stand_in,
        seed=table.seed,
        names=None if table.names is None else tuple(table.names),
        first_dealer=table.first_dealer,
        created_at=table.created_at,
        started_at=table.started_at,
        finished_at=table.finished_at,
        rated=table.rated,
        spectator_chat=table.spectator_chat,
    )


def _append(engine: Engine, events: Sequence[EventRow], fences: Mapping[str, int] | None) -> None:
    """``Store.append_events`` on ``engine``, on a connection of its pool, in one
    transaction (``_AppendSQL``). A connection the database dropped is taken out of the
    pool, so the next batch gets a new one. Raises ``StoreError`` (``FencedError``), or
    ``_Busy`` where SQLite's write lock is another connection's and ``engine`` does not
    wait for it."""
    sql = _APPEND_SQL[engine.dialect.name]
    moment = _stored_now(engine.dialect)
    rows = [(e.table_id, e.seq, e.seat, e.action, e.client_id, moment) for e in events]
    given = _given(fences or {})
    try:
        connection = engine.raw_connection()
    except (SQLAlchemyError, engine.dialect.loaded_dbapi.Error) as error:
        raise StoreError(f"database error: {_reason(error)}") from None
    try:
        cursor = connection.cursor()
        if given:
            cursor.execute(sql.fence_tokens, (sql.ids(list(given)),))
            _refuse_fenced_off(given, dict(cursor.fetchall()))
        cursor.executemany(sql.insert, rows)
        connection.commit()
    except engine.dialect.loaded_dbapi.Error as error:
        if engine.dialect.is_disconnect(error, connection.dbapi_connection, None):
            connection.invalidate(error)
        if _busy(error):
            raise _Busy from None
        raise StoreError(f"database error: {_reason(error)}") from None
    finally:
        connection.close()  # back to the pool, which rolls back what was not committed


class _Busy(Exception):
    """SQLite refused a write: another connection held its write lock (at once on the
    connections of ``append_events_now``, after the busy timeout on the others)."""


def _stored_now(dialect: Dialect) -> Any:
    """Now, as ``dialect`` stores an event's moment (SQLite: text; PostgreSQL: as is)."""
    column_type = cast(Table, GameEvent.__table__).c.created_at.type
    processor = column_type.dialect_impl(dialect).bind_processor(dialect)
    return _now() if processor is None else processor(_now())


def _never_wait(dbapi_connection: Any, _record: Any) -> None:
    """A SQLite connection that gives up at once, rather than wait, when another holds
    the lock it needs (``Store.append_events_now``)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=0")
    cursor.close()


def _busy(error: Exception) -> bool:
    """Whether SQLite refused for a lock another connection holds (``SQLITE_BUSY`` and its
    extended codes: the low byte is 5), not for a fault of the statement or the file."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_BUSY


def check_fences(session: Session | Connection, fences: Mapping[str, int | None]) -> None:
    """Refuse the transaction (``FencedError``) unless each table's stored token is the
    writer's. The rows stay locked (``FOR UPDATE``; on SQLite, the database's write lock)
    until the transaction ends, so a claim by another worker, or the table's deletion
    (``EmptyTables``), waits for this write and cannot slip in between check and write."""
    given = _given(fences)
    if given:
        sqlite = _dialect(session).name == "sqlite"
        query = _FENCE_TOKENS_LOCKING_SQLITE if sqlite else _FENCE_TOKENS
        stored = dict(session.execute(query, {"ids": list(given)}).all())
        _refuse_fenced_off(given, stored)


def lock_users(session: Session, user_ids: Collection[str]) -> None:
    """Hold these people's rows until the transaction ends, so that a write checked
    against what they have (a follow against their blocks, a new table against its
    host's cap) runs one at a time with every other such write of theirs. PostgreSQL:
    ``FOR NO KEY UPDATE`` in id order (two such transactions never wait on each other
    in a circle), which leaves rows that merely refer to them (a seat, an event) free to
    be written; SQLite: an update that changes nothing, which takes the database's
    write lock (as ``_FENCE_TOKENS_LOCKING_SQLITE``)."""
    ids = sorted(set(user_ids))
    if _dialect(session).name == "sqlite":
        unchanged = update(User).where(User.id.in_(ids)).values(kind=User.kind)
        session.execute(unchanged.execution_options(synchronize_session=False))
        return
    locked = select(User.id).where(User.id.in_(ids)).order_by(User.id)
    session.execute(locked.with_for_update(key_share=True))


def hold_rows(
    session: Session,
    key: InstrumentedAttribute[Any],
    touch: InstrumentedAttribute[Any],
    *where: ColumnElement[bool],
) -> None:
    """Hold the rows that ``where`` picks of ``key``'s table until the transaction ends,
    for a write decided on what they hold: PostgreSQL ``FOR UPDATE`` in ``key`` order
    (two such transactions never wait on each other in a circle); SQLite, where ``FOR
    UPDATE`` is nothing and a transaction takes no lock before its first write, an
    update that sets ``touch`` to itself, which takes the database's write lock even
    when it matches no row (as ``lock_users``)."""
    if _dialect(session).name == "sqlite":
        model = key.class_
        unchanged = update(model).where(*where).values({touch: touch})
        session.execute(unchanged.execution_options(synchronize_session=False))
        return
    session.execute(select(key).where(*where).order_by(key).with_for_update())


def require_club_member(session: Session, club_id: str, user_id: str) -> None:
    """``NotAMemberError`` unless ``user_id`` is a member of the club, their place's row
    held until the transaction ends (``hold_rows``): a place ended at the same moment
    (``ClubStore.set_member`` writes that row) comes wholly before the write, which is
    refused, or wholly after it, and undoes it (``leaving.leave_club_play``). Without
    it, one removed while opening a club table hosted it for good (only they could start
    it, and they could no longer reach it). Taken before the table's row (``set_seat``)
    and after the person's (``create_table``), in the order a place's end takes them."""
    place = ClubMember.club_id == club_id, ClubMember.user_id == user_id
    hold_rows(session, ClubMember.user_id, ClubMember.state, *place)
    if session.scalar(select(ClubMember.state).where(*place)) != "member":
        raise NotAMemberError(f"{user_id!r} is not a member of club {club_id!r}")


def lock_live_person(session: Session, user_id: str) -> User:
    """The person's row, held until the transaction ends (``lock_users``);
    ``NotFoundError`` if there is none or the account is deleted. A write of the person's
    own (a new name, an entry, a place in a club) that holds it first cannot slip past a
    deletion on another worker, which writes that row first: the deletion comes wholly
    before it, and it is refused, or wholly after, and undoes it with the rest of the
    account (``Players.delete_account``)."""
    lock_users(session, [user_id])
    user = session.get(User, user_id, populate_existing=True)
    if user is None or user.kind == "deleted":
        raise NotFoundError(f"no user {user_id!r}")
    return user


def _dialect(session: Session | Connection) -> Dialect:
    """The database dialect ``session`` speaks."""
    return session.get_bind().dialect if isinstance(session, Session) else session.dialect


def _given(fences: Mapping[str, int | None]) -> dict[str, int]:
    """The fences to check: those with a token (``None``: the writer holds none)."""
    return {table: token for table, token in fences.items() if token is not None}


def _refuse_fenced_off(given: Mapping[str, int], stored: Mapping[str, int]) -> None:
    """``FencedError`` unless each table's ``stored`` token is the one ``given``."""
    for table, token in given.items():
        if stored.get(table) != token:
            raise FencedError(
                f"table {table!r} is owned by another worker now (token "
                f"{stored.get(table)}, this writer holds {token}): write refused"
            )


def _count(result: Any) -> int:
    """The rows a ``DELETE`` affected."""
    return int(result.rowcount)


def _reason(error: Exception) -> str:
    """The driver's own first line, without SQLAlchemy's statement dump."""
    origin = getattr(error, "orig", None) or error
    return str(origin).strip().splitlines()[0] if str(origin).strip() else type(origin).__name__
