"""Clubs in the database (docs/clubs.md): the clubs, their members with role and state,
the tables opened in them, and the results of those tables' games.

``ClubStore`` works on the ``Store``'s engine, each method in its own transaction, and
returns frozen values, as the repository does. Who may do what is the clubs service's
business (``raspisnoy.server.services.clubs``), not this module's.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased, sessionmaker

from raspisnoy.store.club_keys import club_name_key, new_invite_code
from raspisnoy.store.hidden import in_round_being_played
from raspisnoy.store.leaving import leave_club_play
from raspisnoy.store.models import Club, ClubMember, ClubTable, GameResult, GameTable, User
from raspisnoy.store.repository import (
    NotFoundError,
    StaleWriteError,
    Store,
    StoreError,
    hold_rows,
    lock_live_person,
    new_id,
    transaction,
    utc_or_none,
)

#: A person's role and state in a club, as a write expects to find them.
Place = tuple[str, str]
#: The states of a place that only a living account may take: a member's, an asker's.
_IN_THE_CLUB = frozenset({"member", "requested"})

__all__ = [
    "ClubChange",
    "ClubNameTakenError",
    "ClubResultRow",
    "ClubRow",
    "ClubSettings",
    "ClubStore",
    "ClubTableRow",
    "DirectoryKey",
    "MemberRow",
    "club_name_key",
    "known_to_all",
    "new_invite_code",
]


def known_to_all() -> ColumnElement[bool]:
    """Whether the table of the query (``GameTable``) and its game are anyone's to know,
    a condition for a query's ``where``: a public table that is not a club's. A club's
    table is its members' only whatever its ``public`` says, a private one its people's;
    what shows a table's game to others (a profile, a mined puzzle) shows these only."""
    return GameTable.public.is_(True) & ~exists().where(ClubTable.table_id == GameTable.id)


class ClubNameTakenError(StoreError):
    """Another club has this name (compared case-insensitively): ``name``."""

    def __init__(self, name: str) -> None:
        super().__init__(f"a club is already named {name!r}")
        self.name = name


@dataclass(frozen=True, slots=True)
class ClubRow:
    """A stored club."""

    id: str
    name: str
    description: str
    language: str
    rules: dict[str, Any]
    private: bool
    invite_code: str
    owner_id: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ClubSettings:
    """What a club's admins choose: its name, what it is about, its language, its house
    rules (fully resolved, as a table's) and whether the directory hides it."""

    name: str
    description: str
    language: str
    rules: dict[str, Any]
    private: bool


@dataclass(frozen=True, slots=True)
class ClubChange:
    """The settings an admin changes (``ClubSettings``'s): each one ``None`` stays as the
    club has it when the change is stored, not as it was read before."""

    name: str | None = None
    description: str | None = None
    language: str | None = None
    rules: dict[str, Any] | None = None
    private: bool | None = None

    def of(self, club: Club) -> ClubSettings:
        """The settings ``club`` gets: this change over its own."""
        return ClubSettings(
            club.name if self.name is None else self.name,
            club.description if self.description is None else self.description,
            club.language if self.language is None else self.language,
            club.rules if self.rules is None else self.rules,
            club.private if self.private is None else self.private,
        )


@dataclass(frozen=True, slots=True)
class DirectoryKey:
    """Where a club stands in the directory: by member count, the biggest first, ties by
    name (folded). A page is asked for as the clubs after one of these."""

    members: int
    name_key: str


@dataclass(frozen=True, slots=True)
class MemberRow:
    """A person's place in a club, with their nickname now, and until when the club's
    admins muted them in its tables' chat (``None``: not muted, or no longer)."""

    user_id: str
    nickname: str
    role: str
    state: str
    since: datetime
    muted_until: datetime | None


@dataclass(frozen=True, slots=True)
class ClubTableRow:
    """A club's table that has not finished: its id, status and seats."""

    table_id: str
    status: str
    seats: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ClubResultRow:
    """One seat of a finished club game: the person (or the bot level) and how it went."""

    table_id: str
    seat: int
    user_id: str | None
    nickname: str | None
    bot: str | None
    place: int
    points: int
    finished_at: datetime


class ClubStore:
    """Clubs, members and club tables over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    def create(self, owner_id: str, settings: ClubSettings) -> ClubRow:
        """A new club with ``owner_id`` as its owner and first member. Raises
        ``ClubNameTakenError`` if it is not private and another such club has the name,
        whatever the case (``club_name_key``)."""
        club = Club(
            id=new_id(),
            invite_code=new_invite_code(),
            owner_id=owner_id,
            created_at=datetime.now(UTC),
        )
        _settle(club, settings)
        with self._session() as session:
            _refuse_taken_name(session, settings, None)
            session.add(club)
            _flush_named(session, settings)
            session.add(_member(club.id, owner_id, "owner", "member"))
        return _club_row(club)

    def update(self, club_id: str, change: ClubChange) -> ClubRow:
        """The club with ``change`` made to its settings as stored now (its row held
        meanwhile), so that two admins' changes at the same moment each keep what the other
        changed: a description changed while the club is made private leaves it private.
        ``NotFoundError`` if there is none, and ``ClubNameTakenError`` (nothing changed) if
        it is not to be private and another such club has the name."""
        with self._session() as session:
            hold_rows(session, Club.id, Club.name, Club.id == club_id)
            club = session.get(Club, club_id, populate_existing=True)
            if club is None:
                raise NotFoundError(f"no club {club_id!r}")
            settings = change.of(club)
            _refuse_taken_name(session, settings, club_id)
            _settle(club, settings)
            _flush_named(session, settings)
        return _club_row(club)

    def by_invite(self, code: str) -> ClubRow:
        """The club whose join link carries ``code``; ``NotFoundError`` if none."""
        with self._session() as session:
            club = session.scalar(select(Club).where(Club.invite_code == code))
            if club is None:
                raise NotFoundError("no club has this invite")
            return _club_row(club)

    def directory(
        self, search: str = "", after: DirectoryKey | None = None, limit: int = 100
    ) -> list[tuple[ClubRow, int]]:
        """The clubs that are not private, with their member counts, the biggest first
        (ties by name): those whose name holds ``search`` (whatever the case), the
        ``limit`` after the line ``after`` (keyset pagination, as the leaderboard's)."""
        members = (
            select(ClubMember.club_id, func.count().label("members"))
            .where(ClubMember.state == "member")
            .group_by(ClubMember.club_id)
            .subquery()
        )
        count = members.c.members
        query = (
            select(Club, count)
            .join(members, members.c.club_id == Club.id)
            .where(Club.private.is_(False))
            .order_by(count.desc(), Club.name_key)
            .limit(limit)
        )
        if search:
            query = query.where(Club.name_key.contains(search.casefold(), autoescape=True))
        if after is not None:
            query = query.where(
                (count < after.members)
                | ((count == after.members) & (Club.name_key > after.name_key))
            )
        with self._session() as session:
            return [(_club_row(club), members) for club, members in session.execute(query)]

    def member(self, club_id: str, user_id: str) -> MemberRow | None:
        """The person's place in the club, or ``None`` if they never had one."""
        with self._session() as session:
            return _place(session, club_id, user_id)

    def members(self, club_id: str) -> list[MemberRow]:
        """Everyone who has a place in the club (in any state), by when they got it."""
        with self._session() as session:
            return _members(session, club_id)

    def club_and_place(self, club_id: str, user_id: str | None) -> tuple[ClubRow, MemberRow | None]:
        """The club and the person's place in it (``None``: none, or no person), read in
        one transaction; ``NotFoundError`` if there is no such club."""
        with self._session() as session:
            club = session.get(Club, club_id)
            if club is None:
                raise NotFoundError(f"no club {club_id!r}")
            return _club_row(club), _place(session, club_id, user_id)

    def page(
        self, club_id: str, results: int = 2000
    ) -> tuple[list[MemberRow], list[ClubTableRow], list[ClubResultRow]]:
        """What a member's club page is made of, read in one transaction: everyone with a
        place, the unfinished tables, and the seats of the newest finished games (those
        of a tournament round still being played left out: ``_results``)."""
        with self._session() as session:
            return (
                _members(session, club_id),
                _tables(session, club_id),
                _results(session, club_id, results),
            )

    def set_member(
        self,
        club_id: str,
        user_id: str,
        *,
        role: str,
        state: str,
        was: Place | None,
        by: tuple[str, Place] | None = None,
    ) -> None:
        """Give the person this role and state in the club, over the place ``was`` that
        the caller decided on (``(role, state)``; ``None``: no place yet).
        ``StaleWriteError``, and nothing changed, if the place is no longer that: a ban, a
        leave or a join stored meanwhile (on another worker, from another device) is never
        overwritten by a write decided on what was there before. Joining or asking to
        (``member``, ``requested``) needs a person whose account is not deleted
        (``NotFoundError``, also for a deletion at the same moment: ``lock_live_person``);
        a ban outlives the account. A member's place that this ends (a leave, a removal,
        a ban) takes them out of the club's tables not started and its tournaments not
        finished, in the same transaction (``leave_club_play``). ``by``: the admin who
        acts and their place as the request read it; ``StaleWriteError`` too if it is no
        longer that (an admin made a member, or removed, at the same moment acts no more)."""
        with self._session() as session:
            if by is not None:
                _require_place(session, club_id, *by)
            if state in _IN_THE_CLUB:
                lock_live_person(session, user_id)
            if was is None:
                session.add(_member(club_id, user_id, role, state))
                try:
                    session.flush()
                except IntegrityError:
                    raise StaleWriteError("the place was made meanwhile; read it again") from None
                return
            was_role, was_state = was
            since = ClubMember.since if state == was_state else datetime.now(UTC)
            changed = session.execute(
                update(ClubMember)
                .where(
                    ClubMember.club_id == club_id,
                    ClubMember.user_id == user_id,
                    ClubMember.role == was_role,
                    ClubMember.state == was_state,
                )
                .values(role=role, state=state, since=since)
            )
            if getattr(changed, "rowcount", 0) != 1:
                raise StaleWriteError("the place changed meanwhile; read it again")
            if was_state == "member" and state != "member":
                leave_club_play(session, club_id, user_id)

    def mute(self, club_id: str, user_id: str, until: datetime | None) -> None:
        """Mute the person in the chat of the club's tables until ``until`` (``None``:
        unmute). Their place must exist (``NotFoundError`` if not)."""
        with self._session() as session:
            found = session.get(ClubMember, (club_id, user_id))
            if found is None:
                raise NotFoundError(f"no one {user_id!r} in club {club_id!r}")
            found.muted_until = until

    def table_mute(
        self, table_id: str, user_id: str, now: datetime | None = None
    ) -> datetime | None:
        """Until when the club the table was opened in muted the person in its chat, if
        that is after ``now`` (default: now); ``None`` for any other table or person."""
        query = (
            select(ClubMember.muted_until)
            .join(ClubTable, ClubTable.club_id == ClubMember.club_id)
            .where(ClubTable.table_id == table_id, ClubMember.user_id == user_id)
        )
        with self._session() as session:
            until = utc_or_none(session.scalar(query))
        return until if until is not None and until > (now or datetime.now(UTC)) else None

    def club_of(self, table_id: str) -> str | None:
        """The club the table was opened in (``None`` for any other table)."""
        with self._session() as session:
            return session.scalar(select(ClubTable.club_id).where(ClubTable.table_id == table_id))

    def table_place(self, table_id: str, user_id: str | None) -> tuple[str | None, str | None]:
        """The club the table was opened in (``None`` for any other table) and the
        person's state in that club (``None`` if they have no place there), in one query."""
        place = aliased(ClubMember)
        query = (
            select(ClubTable.club_id, place.state)
            .outerjoin(place, (place.club_id == ClubTable.club_id) & (place.user_id == user_id))
            .where(ClubTable.table_id == table_id)
        )
        with self._session() as session:
            found = session.execute(query).one_or_none()
            return (None, None) if found is None else (found[0], found[1])


def _place(session: Session, club_id: str, user_id: str | None) -> MemberRow | None:
    """The person's place in the club, or ``None``."""
    if user_id is None:
        return None
    query = _members_query().where(ClubMember.club_id == club_id, ClubMember.user_id == user_id)
    found = session.execute(query).one_or_none()
    return None if found is None else _member_row(*found)


def _members(session: Session, club_id: str) -> list[MemberRow]:
    """Everyone with a place in the club, by when they got it."""
    query = _members_query().where(ClubMember.club_id == club_id)
    rows = session.execute(query.order_by(ClubMember.since, ClubMember.user_id))
    return [_member_row(*found) for found in rows]


def _tables(session: Session, club_id: str) -> list[ClubTableRow]:
    """The club's unfinished tables, the newest first."""
    query = (
        select(GameTable.id, GameTable.status, GameTable.seats, GameTable.created_at)
        .join(ClubTable, ClubTable.table_id == GameTable.id)
        .where(ClubTable.club_id == club_id, GameTable.status != "over")
        .order_by(GameTable.created_at.desc())
    )
    return [ClubTableRow(*found) for found in session.execute(query)]


def _results(session: Session, club_id: str, limit: int) -> list[ClubResultRow]:
    """The newest ``limit`` seats of the club's finished games, newest game first. A
    game of a club tournament's round still being played is left out until the round is
    over (``in_round_being_played``, the condition ``TournamentStore.hides_table`` asks):
    the round's other tables play the same hands, and its points, in the history or
    moving the club ratings, would tell them to the club's members."""
    query = (
        select(
            GameResult.table_id,
            GameResult.seat,
            GameResult.user_id,
            User.nickname,
            GameResult.bot,
            GameResult.place,
            GameResult.points,
            GameResult.finished_at,
        )
        .join(ClubTable, ClubTable.table_id == GameResult.table_id)
        .outerjoin(User, User.id == GameResult.user_id)
        .where(ClubTable.club_id == club_id, ~in_round_being_played(GameResult.table_id))
        .order_by(GameResult.finished_at.desc(), GameResult.table_id, GameResult.seat)
        .limit(limit)
    )
    return [ClubResultRow(*found) for found in session.execute(query)]


def _member(club_id: str, user_id: str, role: str, state: str) -> ClubMember:
    """A new place in a club, from now."""
    return ClubMember(
        club_id=club_id, user_id=user_id, role=role, state=state, since=datetime.now(UTC)
    )


def _members_query() -> Any:
    """Places in clubs with their people's nicknames."""
    return select(
        ClubMember.user_id,
        User.nickname,
        ClubMember.role,
        ClubMember.state,
        ClubMember.since,
        ClubMember.muted_until,
    ).join(User, User.id == ClubMember.user_id)


def _member_row(
    user_id: str,
    nickname: str,
    role: str,
    state: str,
    since: datetime,
    muted_until: datetime | None,
) -> MemberRow:
    """A place, its mute kept only while it lasts (the past one is no one's business)."""
    until = utc_or_none(muted_until)
    return MemberRow(
        user_id,
        nickname,
        role,
        state,
        since,
        until if until and until > datetime.now(UTC) else None,
    )


def _require_place(session: Session, club_id: str, user_id: str, place: Place) -> None:
    """``StaleWriteError`` unless ``user_id``'s place in the club is still ``place`` (role
    and state), its row held until the transaction ends (``hold_rows``)."""
    where = ClubMember.club_id == club_id, ClubMember.user_id == user_id
    hold_rows(session, ClubMember.user_id, ClubMember.state, *where)
    found = session.execute(select(ClubMember.role, ClubMember.state).where(*where)).first()
    if found is None or (found[0], found[1]) != place:
        raise StaleWriteError("the acting admin's place changed meanwhile; read it again")


def _refuse_taken_name(session: Session, settings: ClubSettings, club_id: str | None) -> None:
    """``ClubNameTakenError`` if the club (``club_id``, or a new one) is not to be private
    and another club that is not private has the name, whatever the case."""
    name = settings.name
    taken = select(Club.id).where(Club.name_key == name.casefold(), Club.id != club_id)
    if not settings.private and session.scalar(taken) is not None:
        raise ClubNameTakenError(name)


def _flush_named(session: Session, settings: ClubSettings) -> None:
    """Write the club's name now: ``ClubNameTakenError`` if another request took it
    meanwhile (the unique ``name_key``)."""
    try:
        session.flush()
    except IntegrityError:
        raise ClubNameTakenError(settings.name) from None


def _settle(club: Club, settings: ClubSettings) -> None:
    """Give ``club`` these settings (its unique key too: ``club_name_key``)."""
    club.name, club.private = settings.name, settings.private
    club.name_key = club_name_key(club.id, settings.name, settings.private)
    club.description, club.language = settings.description, settings.language
    club.rules = settings.rules


def _club_row(club: Club) -> ClubRow:
    return ClubRow(
        id=club.id,
        name=club.name,
        description=club.description,
        language=club.language,
        rules=dict(club.rules),
        private=club.private,
        invite_code=club.invite_code,
        owner_id=club.owner_id,
        created_at=club.created_at,
    )
