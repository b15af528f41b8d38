"""Players beyond the game: accounts (user name and password hash), the sessions of a
user, profiles and leaderboards (docs/accounts.md).

``Players`` works on the ``Store``'s engine, each method in its own transaction, and
returns frozen values like the repository does. Passwords arrive here already hashed
(``raspisnoy.server.accounts``): the store never sees one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, delete, false, func, insert, literal, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.clubs import known_to_all
from raspisnoy.store.hidden import in_round_being_played
from raspisnoy.store.leaving import (
    delete_sheets,
    forget_ties,
    leave_clubs,
    leave_open_tables,
    leave_pool,
    leave_tournaments,
)
from raspisnoy.store.models import (
    Account,
    ChatMessage,
    GameResult,
    GameTable,
    PlayerFigures,
    PlayerRating,
    RatingChange,
    RatingCount,
    Seat,
    SessionToken,
    User,
)
from raspisnoy.store.repository import (
    NotFoundError,
    Store,
    StoreError,
    UserRow,
    lock_users,
    new_id,
    transaction,
    user_row,
)

__all__ = [
    "ALL_SCOPE",
    "ANONYMOUS",
    "BoardKey",
    "BoardLine",
    "BoardPage",
    "Figures",
    "Players",
    "Profile",
    "RatingLine",
    "RecentGame",
    "SessionLine",
    "UsernameTakenError",
    "add_figures",
    "clean_name",
    "hold_ratings",
    "move_rating_counts",
    "recount",
    "username_key",
]

#: The nickname a deleted account leaves behind; in a game's names it becomes
#: ``Anonymous #N`` (N the seat from 1): ``#`` is not allowed in nicknames, so no
#: person can be mistaken for it.
ANONYMOUS = "Anonymous"


def _deleted_name(seat: int | None) -> str:
    """The name a deleted account leaves in a game (and its chat) at ``seat``:
    ``Anonymous #N``, N the seat from 1, a form clients word in their reader's language
    (docs/PROTOCOL.md); a spectator's chat lines keep just ``Anonymous``."""
    return ANONYMOUS if seat is None else f"{ANONYMOUS} #{seat + 1}"


#: Sessions are named on the wire by the first characters of their hash: enough to be
#: unique, and of no use to anyone (the hash is keyed and never a token).
_SESSION_ID = 16


class UsernameTakenError(StoreError):
    """Another account has this user name (compared case-insensitively)."""


def clean_name(raw: str) -> str:
    """A nickname or user name as it is kept: Unicode NFC, trimmed, every run of white
    space inside it one space."""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def username_key(username: str) -> str:
    """What user names are told apart by: the clean name, case folded. The one
    normalization of registration, log-in look-up and the log-in limit (issue 27,
    defect 4: a limit keyed otherwise than the look-up let respellings through)."""
    return clean_name(username).casefold()


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One session of a user, as the profile lists it."""

    id: str
    created_at: datetime
    expires_at: datetime
    user_agent: str | None
    current: bool


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A rating in one scope: the displayed number and how many rated games made it."""

    scope: str
    display: int
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RoundCounts:
    """Per kind of round, how often it was played, bid exactly and what it paid: one seat's
    game (``raspisnoy.ratings.SeatSummary``) or a sum over games (``Figures``). The names
    are those of ``GameResult``'s columns, which store them per seat."""

    #: Rounds with bids; of them, bid exactly (taken = bid).
    bid_rounds: int
    exact: int
    #: Rounds bid 0 («пас»); of them, taken none.
    zero_bids: int
    zero_exact: int
    #: Blind rounds («тёмная»): played, bid exactly, points.
    blind_rounds: int
    blind_exact: int
    blind_points: int
    #: Misère («мизер») and golden («золотая») rounds: played, points.
    misere_rounds: int
    misere_points: int
    golden_rounds: int
    golden_points: int


#: The names of ``RoundCounts``' fields, in order.
ROUND_COUNTS = tuple(field.name for field in fields(RoundCounts))


@dataclass(frozen=True, slots=True)
class Figures(RoundCounts):
    """Sums over finished games (all of them, or one preset's): ``places[i]`` is how
    often the player came ``i + 1``-th."""

    games: int
    wins: int
    places: tuple[int, ...]
    points: int


@dataclass(frozen=True, slots=True)
class RecentGame:
    table_id: str
    preset: str
    rated: bool
    finished_at: datetime
    place: int
    points: int
    players: tuple[str, ...]
    #: By seat, the id of each registered person (whose profile a name links to);
    #: ``None`` for a guest, a bot or a deleted account.
    profiles: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Profile:
    """What the viewer may know of a player: only finished games count, and of the
    recent ones only those the viewer may know of (``Players.profile``)."""

    user: UserRow
    username: str | None
    ratings: tuple[RatingLine, ...]
    history: tuple[tuple[datetime, int], ...]
    figures: Figures
    per_preset: tuple[tuple[str, Figures], ...]
    recent: tuple[RecentGame, ...]


@dataclass(frozen=True, slots=True)
class BoardLine:
    position: int
    user_id: str
    nickname: str
    display: int
    games: int


@dataclass(frozen=True, slots=True)
class BoardKey:
    """Where a line stands on a leaderboard: by displayed rating, highest first, ties by
    id. A page is asked for as the lines after (or before) one of these."""

    display: int
    user_id: str


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One page of a leaderboard, how many are on it, the viewer's own line, and the
    keys to ask for the page before and after it (``None``: there is none)."""

    total: int
    lines: tuple[BoardLine, ...]
    mine: BoardLine | None
    previous: BoardKey | None
    next: BoardKey | None


#: The scope of the rating over every rated game (the others are named by their preset).
ALL_SCOPE = "all"
#: The per-seat figures a profile sums: the ``GameResult`` columns after the place.
_SUMMED = tuple(
    column.name
    for column in GameResult.__table__.columns
    if column.name not in ("table_id", "seat", "user_id", "bot", "preset", "rated")
    and column.name not in ("finished_at", "place")
)


class Players:
    """Accounts, sessions, profiles and leaderboards over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        engine = store.engine
        if engine.dialect.name == "postgresql":
            engine = engine.execution_options(isolation_level="REPEATABLE READ")
        self._readers = sessionmaker(engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    @contextmanager
    def _snapshot(self) -> Iterator[Session]:
        """A transaction whose reads all see one state of the database, so that a page,
        its total and its positions agree while games end beside it: PostgreSQL's
        REPEATABLE READ, or on SQLite a savepoint (the driver begins a transaction only
        before a write, and each read outside one sees the latest commit)."""
        with transaction(self._readers) as session:
            if session.get_bind().dialect.name == "sqlite":
                with session.begin_nested():
                    yield session
            else:
                yield session

    # ------------------------------------------------------------- accounts

    def register(self, username: str, password_hash: str, guest_id: str | None = None) -> UserRow:
        """A registered user: the guest ``guest_id`` upgraded in place (same id, so their
        seats, games and sheets stay theirs), or a new user named ``username``."""
        with self._session() as session:
            taken = select(Account.user_id).where(Account.username_key == username_key(username))
            if session.scalar(taken) is not None:
                raise UsernameTakenError(f"the user name {username!r} is taken")
            user = None if guest_id is None else session.get(User, guest_id)
            if user is None or user.kind != "guest":
                user = User(id=new_id(), nickname=username, created_at=datetime.now(UTC))
                session.add(user)
            user.kind = "registered"
            session.flush()  # the user row before the account that points at it
            session.add(
                Account(
                    user_id=user.id,
                    username=username,
                    username_key=username_key(username),
                    password_hash=password_hash,
                    created_at=datetime.now(UTC),
                )
            )
            try:
                session.flush()
            except IntegrityError:  # registered by someone else since the check above
                raise UsernameTakenError(f"the user name {username!r} is taken") from None
            return user_row(user)

    def credentials(self, username: str) -> tuple[UserRow, str] | None:
        """The user with this user name and their password hash, if there is one."""
        query = (
            select(User, Account.password_hash)
            .join(Account)
            .where(Account.username_key == username_key(username))
        )
        with self._session() as session:
            found = session.execute(query).first()
            return None if found is None else (user_row(found[0]), found[1])

    def password_hash(self, user_id: str) -> str | None:
        """The user's password hash (``None``: a guest)."""
        with self._session() as session:
            account = session.get(Account, user_id)
            return None if account is None else account.password_hash

    def set_password(self, user_id: str, password_hash: str, keep_session: str) -> int:
        """Store a new hash; every session but ``keep_session`` (a hash) ends. How many.
        The person's row is held first, as a new session's is (``Store.create_session``):
        a log-in checked against the old password stores its session wholly before this,
        which ends it, or is refused after it."""
        with self._session() as session:
            lock_users(session, [user_id])
            session.execute(
                update(Account)
                .where(Account.user_id == user_id)
                .values(password_hash=password_hash)
            )
            ended = session.execute(
                delete(SessionToken).where(
                    SessionToken.user_id == user_id, SessionToken.token_hash != keep_session
                )
            )
            return int(getattr(ended, "rowcount", 0))

    def delete_account(self, user_id: str) -> tuple[list[str], int]:
        """Delete the account: the user stays as ``Anonymous`` (so their games stay whole),
        loses name, password, sessions, ratings, follows and blocks (both ways: nobody
        keeps a deleted account in their friends), its places in clubs (a club it owned
        passes on), its entries in tournaments not yet finished, its seats at tables not
        started yet (a table it hosts passes on), its wait in the pool and its score
        sheets (``store.leaving``), and every game's names and chat call
        them ``_deleted_name(seat)``. The tables that showed them (every table they sit
        at, whose seat now says ``Anonymous``, and every chat they wrote in), and how
        many sessions ended."""
        with self._session() as session:
            user = session.get(User, user_id)
            if user is None:
                raise NotFoundError(f"no user {user_id!r}")
            user.nickname, user.kind = ANONYMOUS, "deleted"
            ended = session.execute(delete(SessionToken).where(SessionToken.user_id == user_id))
            # Locked in the order a game's end locks them (scope, then person).
            held = select(PlayerRating.scope, PlayerRating.display).with_for_update()
            held = held.where(PlayerRating.user_id == user_id).order_by(PlayerRating.scope)
            gone: dict[tuple[str, int], int] = {}
            for scope, display in session.execute(held):  # their lines leave every board
                gone[scope, display] = -1
            move_rating_counts(session, gone)
            for model in (Account, PlayerRating, RatingChange):
                session.execute(delete(model).where(model.user_id == user_id))
            forget_ties(session, user_id)
            leave_clubs(session, user_id)
            leave_tournaments(session, user_id)
            leave_pool(session, user_id)
            delete_sheets(session, user_id)
            renamed = sorted(leave_open_tables(session, user_id))
            query = select(GameTable, Seat.seat).join(Seat).where(Seat.user_id == user_id)
            for table, seat in session.execute(query):
                if table.names is not None:
                    names = list(table.names)
                    names[seat] = _deleted_name(seat)
                    table.names = names
                renamed.append(table.id)
            lines = select(ChatMessage).where(ChatMessage.user_id == user_id)
            for line in session.scalars(lines):  # what they wrote stays, under the new name
                line.name = _deleted_name(line.seat)
                if line.table_id not in renamed:
                    renamed.append(line.table_id)
            return renamed, int(getattr(ended, "rowcount", 0))

    def username_of(self, user_id: str) -> str | None:
        with self._session() as session:
            account = session.get(Account, user_id)
            return None if account is None else account.username

    # ------------------------------------------------------------- sessions

    def sessions_of(self, user_id: str, current: str) -> list[SessionLine]:
        """The user's unexpired sessions, newest first; ``current`` is the caller's hash."""
        query = (
            select(SessionToken)
            .where(SessionToken.user_id == user_id, SessionToken.expires_at > datetime.now(UTC))
            .order_by(SessionToken.created_at.desc())
        )
        with self._session() as session:
            return [
                SessionLine(
                    row.token_hash[:_SESSION_ID],
                    row.created_at,
                    row.expires_at,
                    row.user_agent,
                    row.token_hash == current,
                )
                for row in session.scalars(query)
            ]

    def end_session_of(self, user_id: str, session_id: str) -> str | None:
        """End the user's session named ``session_id``; its hash, or ``None`` if none."""
        if len(session_id) != _SESSION_ID:
            return None
        query = select(SessionToken).where(
            SessionToken.user_id == user_id, SessionToken.token_hash.startswith(session_id)
        )
        with self._session() as session:
            row = session.scalars(query).first()
            if row is None:
                return None
            session.delete(row)
            return row.token_hash

    # ------------------------------------------------------------- profiles

    def places_of(self, user_id: str) -> dict[str, tuple[int, int]]:
        """The place and the points of the user in each of their finished games, by table
        (the lobby's list of their games says how each ended)."""
        query = select(GameResult.table_id, GameResult.place, GameResult.points)
        with self._session() as session:
            rows = session.execute(query.where(GameResult.user_id == user_id))
            return {table: (place, points) for table, place, points in rows}

    def profile(
        self, user_id: str, *, viewer: str | None = None, recent: int = 20, history: int = 200
    ) -> Profile:
        """A player's profile from their finished games, as ``viewer`` (``None``: anyone)
        may see it (``NotFoundError``: no such user): their recent games are those anyone
        may know of (``known_to_all``), all of them for the player themselves; and to
        anyone else, the games of a tournament round still being played count in no
        figure yet, since its other tables hold the same cards
        (``in_round_being_played``; their ratings wait for the round's end anyway:
        ``raspisnoy.store.results``)."""
        named = select(User, Account.username).outerjoin(Account).where(User.id == user_id)
        with self._snapshot() as session:
            found = session.execute(named).first()
            if found is None:
                raise NotFoundError(f"no player {user_id!r}")
            own = viewer == user_id
            unsettled = () if own else _in_rounds_being_played(session, user_id)
            figures, per_preset = _figures(session, user_id, unsettled)
            return Profile(
                user=user_row(found[0]),
                username=found[1],
                ratings=_ratings(session, user_id),
                history=_history(session, user_id, history),
                figures=figures,
                per_preset=per_preset,
                recent=_recent(session, user_id, recent, everything=own),
            )

    # ------------------------------------------------------------- leaderboards

    def leaderboard(
        self,
        scope: str,
        *,
        since: datetime | None,
        limit: int,
        viewer: str | None,
        offset: int = 0,
        after: BoardKey | None = None,
        before: BoardKey | None = None,
    ) -> BoardPage:
        """A page of players by displayed rating in ``scope`` (bots are never rated, so
        never listed), only those who played since ``since`` if given: the ``limit``
        lines after the line ``after``, or before ``before`` (keyset pagination: one
        range of the order's index however deep), else from ``offset`` on."""
        where = [PlayerRating.scope == scope]
        if since is not None:
            where.append(PlayerRating.last_played_at >= since)
        key = tuple_(*_ORDER)
        query = select(PlayerRating.user_id, PlayerRating.display, PlayerRating.games).where(*where)
        with self._snapshot() as session:
            if before is not None:
                query = query.where(key < _key_of(before)).order_by(*(c.desc() for c in _ORDER))
            elif after is not None:
                query = query.where(key > _key_of(after)).order_by(*_ORDER)
            else:
                query = _from_offset(session, query, scope, since, offset)
            rows = list(session.execute(query.limit(limit + 1)))
            more, rows = len(rows) > limit, rows[:limit]
            if before is not None:
                rows.reverse()
            own = None if viewer is None else _own_row(session, where, viewer)
            start = None  # the first line, for a page asked by cursor
            if rows and (after is not None or before is not None):
                start = BoardKey(rows[0].display, rows[0].user_id)
            marks = [mark for mark in (start, None if own is None else own[0]) if mark is not None]
            total, *above = _counts(session, scope, since, marks)
            counted = dict(zip(marks, above, strict=True))
            first = offset + 1 if start is None else counted[start] + 1
            names = _nicknames(session, [row.user_id for row in rows])
            lines = tuple(
                BoardLine(first + n, row.user_id, names[row.user_id], row.display, row.games)
                for n, row in enumerate(rows)
            )
            mine = None
            if own is not None:
                place, games, nickname = own
                mine = BoardLine(counted[place] + 1, place.user_id, nickname, place.display, games)
        keys = [BoardKey(line.display, line.user_id) for line in lines]
        further = more if before is None else bool(lines)
        return BoardPage(
            total,
            lines,
            mine,
            previous=keys[0] if keys and first > 1 else None,
            next=keys[-1] if keys and further else None,
        )


def add_figures(session: Session, results: Sequence[Mapping[str, Any]]) -> None:
    """Add finished seats (``GameResult`` rows, as mappings of its columns) to their
    people's sums per preset and place (``PlayerFigures``), in the caller's transaction,
    the one that stores the results: a profile reads the sums, never a stale copy."""
    sums: dict[tuple[str, str, int], dict[str, int]] = {}
    for result in results:
        if result["user_id"] is None:
            continue
        key = (result["user_id"], result["preset"], result["place"])
        kept = sums.setdefault(key, dict.fromkeys(("games", *_SUMMED), 0))
        kept["games"] += 1
        for name in _SUMMED:
            kept[name] += result[name]
    rows = [
        {"user_id": user_id, "preset": preset, "place": place, **kept}
        for (user_id, preset, place), kept in sorted(sums.items())
    ]
    _add(session, PlayerFigures, rows)


def move_rating_counts(session: Session, moves: Mapping[tuple[str, int], int]) -> None:
    """Change how many people hold each ``(scope, displayed rating)`` by ``moves``, in
    the caller's transaction, the one that moves the ratings (a rating that goes from
    1200 to 1210 is ``-1`` at 1200 and ``+1`` at 1210): the counts of ``RatingCount``
    are then those of the ``ratings`` rows in every committed state."""
    rows = [
        {"scope": scope, "display": display, "players": change}
        for (scope, display), change in sorted(moves.items())
        if change
    ]
    _add(session, RatingCount, rows)


def recount(session: Session) -> None:
    """Rebuild ``PlayerFigures`` and ``RatingCount`` from the results and ratings stored
    (what migration 0010 did to the rows before it): for a database filled by other
    means than finished games (``scripts/fill_accounts.py``), and for the tests to check
    that the kept sums are the recounted ones."""
    session.execute(delete(PlayerFigures))
    session.execute(delete(RatingCount))
    person = (GameResult.user_id, GameResult.preset, GameResult.place)
    sums = [func.count(), *(func.sum(getattr(GameResult, name)) for name in _SUMMED)]
    figures = select(*person, *sums).where(GameResult.user_id.is_not(None)).group_by(*person)
    columns = ["user_id", "preset", "place", "games", *_SUMMED]
    session.execute(insert(PlayerFigures).from_select(columns, figures))
    held = (PlayerRating.scope, PlayerRating.display)
    counts = select(*held, func.count()).group_by(*held)
    session.execute(insert(RatingCount).from_select(["scope", "display", "players"], counts))


def hold_ratings(session: Session, ratings: list[dict[str, Any]]) -> list[Any]:
    """Lock the ``ratings`` rows of these ``(scope, user_id)`` keys for the caller's
    transaction, making the missing ones as given (a newcomer's rating, 0 games), in key
    order, in one ``INSERT … ON CONFLICT DO UPDATE`` that locks each existing row as it
    meets it; their rows as they are now (``games`` 0: made here). Every game's end
    locks its rows so, so games that share people, newcomers or not, wait for each other
    but cannot deadlock: reading the existing rows and then making the missing ones
    would lock a row that another game made meanwhile out of that order."""
    table = cast(Table, PlayerRating.__table__)
    statement = _inserts(session)(table)
    statement = statement.on_conflict_do_update(
        index_elements=["scope", "user_id"], set_={"games": table.c.games}
    )
    held = statement.returning(
        *(table.c[name] for name in ("scope", "user_id", "mu", "sigma", "display", "games")),
        sort_by_parameter_order=True,
    )
    ordered = sorted(ratings, key=lambda rating: (rating["scope"], rating["user_id"]))
    return list(session.execute(held, ordered)) if ordered else []


#: ``INSERT … ON CONFLICT`` of each database the store runs on.
_INSERTS: dict[str, Any] = {"postgresql": postgresql_insert, "sqlite": sqlite_insert}


def _inserts(session: Session) -> Any:
    """The ``insert`` with ``ON CONFLICT`` of the session's database."""
    dialect = session.get_bind().dialect.name
    if dialect not in _INSERTS:
        raise StoreError(f"the kept sums and ratings need PostgreSQL or SQLite, not {dialect}")
    return _INSERTS[dialect]


def _add(
    session: Session, model: type[PlayerFigures | RatingCount], rows: list[dict[str, Any]]
) -> None:
    """Add ``rows``' numbers to the stored ones under the same key, making the keys not
    yet stored: ``INSERT … ON CONFLICT DO UPDATE``, atomic beside other writers, run
    once per row in one batch (the statement itself is compiled once and cached). The
    rows come in key order, so transactions that share keys lock them in the same order
    and cannot deadlock."""
    if not rows:
        return
    table = cast(Table, model.__table__)
    keys = [column.name for column in table.primary_key.columns]
    statement = _inserts(session)(table)
    added = {name: table.c[name] + statement.excluded[name] for name in rows[0] if name not in keys}
    session.execute(statement.on_conflict_do_update(index_elements=keys, set_=added), rows)


#: The leaderboard's order, ascending: the key of migration 0009's index.
_ORDER = (-PlayerRating.display, PlayerRating.user_id)


def _key_of(line: BoardKey) -> Any:
    """A line's place in the order as the index's key: (−rating, id), ascending."""
    return tuple_(literal(-line.display), literal(line.user_id))


def _counts(
    session: Session, scope: str, since: datetime | None, lines: Sequence[BoardKey]
) -> list[int]:
    """How many lines there are, then how many come before each of ``lines`` in the
    order, in one statement. All time: sums of the kept counts per rating
    (``RatingCount``) above each line's, plus its ties before it (one range of the
    order's index); the last 30 days (who is in it changes with the clock, so it has no
    kept counts): one pass over the scope's index, however many are asked."""
    if since is not None:
        key = tuple_(*_ORDER)
        counts = [func.count(), *(func.count().filter(key < _key_of(line)) for line in lines)]
        where = (PlayerRating.scope == scope, PlayerRating.last_played_at >= since)
        found = session.execute(select(*counts).select_from(PlayerRating).where(*where)).one()
        return [int(value or 0) for value in found]
    held = select(func.coalesce(func.sum(RatingCount.players), 0)).where(RatingCount.scope == scope)
    counts = [held.scalar_subquery()]
    for line in lines:
        tied = select(func.count()).where(
            PlayerRating.scope == scope,
            _ORDER[0] == -line.display,
            PlayerRating.user_id < line.user_id,
        )
        higher = held.where(RatingCount.display > line.display)
        counts.append(higher.scalar_subquery() + tied.scalar_subquery())
    return [int(value) for value in session.execute(select(*counts)).one()]


def _from_offset(
    session: Session, query: Any, scope: str, since: datetime | None, offset: int
) -> Any:
    """``query`` ordered from the line at ``offset`` on. All time, the kept counts per
    rating say which rating that line holds and how many lines come before the first
    holding it (a running sum over a few thousand rows), so only its ties are skipped,
    not every line above; the last 30 days skip ``offset`` entries of the index."""
    query = query.order_by(*_ORDER)
    if since is not None or offset == 0:
        return query.offset(offset)
    running = select(
        RatingCount.display,
        RatingCount.players,
        func.sum(RatingCount.players)
        .over(order_by=RatingCount.display.desc(), rows=(None, 0))
        .label("through"),
    ).where(RatingCount.scope == scope)
    held = running.subquery()
    reached = select(held.c.display, held.c.through - held.c.players)
    reached = reached.where(held.c.through > offset).order_by(held.c.display.desc()).limit(1)
    found = session.execute(reached).first()
    if found is None:  # past the last line
        return query.where(false())
    display, before = found
    return query.where(_ORDER[0] >= -display).offset(offset - int(before))


def _nicknames(session: Session, user_ids: list[str]) -> dict[str, str]:
    query = select(User.id, User.nickname).where(User.id.in_(user_ids))
    return {row.id: row.nickname for row in session.execute(query)}


def _own_row(
    session: Session, where: Sequence[Any], viewer: str
) -> tuple[BoardKey, int, str] | None:
    """The viewer's place in the order, games and nickname, if they are on the board."""
    found = session.execute(
        select(PlayerRating.display, PlayerRating.games, User.nickname)
        .join(User, User.id == PlayerRating.user_id)
        .where(*where, PlayerRating.user_id == viewer)
    ).first()
    if found is None:
        return None
    return BoardKey(found.display, viewer), found.games, found.nickname


def _in_rounds_being_played(session: Session, user_id: str) -> tuple[GameResult, ...]:
    """The person's results at tables of tournament rounds still being played."""
    query = select(GameResult).where(
        GameResult.user_id == user_id, in_round_being_played(GameResult.table_id)
    )
    return tuple(session.scalars(query))


def _ratings(session: Session, user_id: str) -> tuple[RatingLine, ...]:
    """The person's ratings by scope, the overall one first."""
    query = select(PlayerRating).where(PlayerRating.user_id == user_id)
    rows = sorted(session.scalars(query), key=lambda r: (r.scope != ALL_SCOPE, r.scope))
    return tuple(RatingLine(r.scope, r.display, r.mu, r.sigma, r.games) for r in rows)


def _history(session: Session, user_id: str, limit: int) -> tuple[tuple[datetime, int], ...]:
    """The overall rating after each of the last ``limit`` rated games, oldest first."""
    query = select(RatingChange.at, RatingChange.display).where(
        RatingChange.user_id == user_id, RatingChange.scope == ALL_SCOPE
    )
    query = query.order_by(RatingChange.at.desc()).limit(limit)
    return tuple(reversed([(at, display) for at, display in session.execute(query)]))


def _figures(
    session: Session, user_id: str, unsettled: Sequence[GameResult] = ()
) -> tuple[Figures, tuple[tuple[str, Figures], ...]]:
    """The sums over the player's results, overall and per preset, from their kept
    sums per preset and place (a dozen rows however many games they played), less the
    ``unsettled`` results."""
    query = select(PlayerFigures).where(PlayerFigures.user_id == user_id)
    kept = {(row.preset, row.place): _sums_of(row, row.games) for row in session.scalars(query)}
    for result in unsettled:
        sums = kept[result.preset, result.place]
        for name, value in _sums_of(result, 1).items():
            sums[name] -= value
    by_preset: dict[str, list[tuple[int, dict[str, int]]]] = {}
    for (preset, place), sums in sorted(kept.items()):
        if sums["games"]:
            by_preset.setdefault(preset, []).append((place, sums))
    every = [row for rows in by_preset.values() for row in rows]
    return _summed(every), tuple(
        (preset, _summed(by_preset[preset])) for preset in sorted(by_preset)
    )


def _sums_of(row: PlayerFigures | GameResult, games: int) -> dict[str, int]:
    """The summed columns of a kept sum or of one result (``games`` of them)."""
    return {"games": games, **{name: getattr(row, name) for name in _SUMMED}}


def _summed(rows: Sequence[tuple[int, Mapping[str, int]]]) -> Figures:
    """One ``Figures`` of the sums per place of ``rows`` (place, sums)."""
    by_place: dict[int, int] = {}
    for place, sums in rows:
        by_place[place] = by_place.get(place, 0) + sums["games"]
    places = tuple(by_place.get(p, 0) for p in range(1, max(by_place, default=0) + 1))
    totals = {name: sum(sums[name] for _, sums in rows) for name in _SUMMED}
    games = sum(sums["games"] for _, sums in rows)
    return Figures(games=games, wins=by_place.get(1, 0), places=places, **totals)


def _recent(
    session: Session, user_id: str, limit: int, *, everything: bool
) -> tuple[RecentGame, ...]:
    """The person's last ``limit`` finished games: only those anyone may know of (a
    private or a club's table is hidden information), unless ``everything``."""
    query = (
        select(GameResult, GameTable.names)
        .join(GameTable, GameTable.id == GameResult.table_id)
        .where(GameResult.user_id == user_id)
    )
    if not everything:
        query = query.where(known_to_all())
    query = query.order_by(GameResult.finished_at.desc()).limit(limit)
    found = list(session.execute(query))
    registered = select(Seat.table_id, Seat.seat, Seat.user_id).join(User, User.id == Seat.user_id)
    registered = registered.where(
        Seat.table_id.in_([r.table_id for r, _ in found]), User.kind == "registered"
    )
    profiles = {(row.table_id, row.seat): row.user_id for row in session.execute(registered)}
    return tuple(
        RecentGame(
            r.table_id,
            r.preset,
            r.rated,
            r.finished_at,
            r.place,
            r.points,
            tuple(names or ()),
            tuple(profiles.get((r.table_id, seat)) for seat in range(len(names or ()))),
        )
        for r, names in found
    )
