"""Moderation (docs/moderation.md): who moderates, players' reports and moderators'
actions, and what the actions mean now (is a person muted, banned).

``Moderation`` works on the ``Store``'s engine, each method in its own transaction, and
returns frozen values, as the repository does. Whether a person is muted or banned is
read from their latest action of that sort, so it is the same on every worker and ends
by itself when its time passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Select, delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.models import (
    Account,
    ChatMessage,
    ModerationAction,
    Moderator,
    Report,
    SessionToken,
    User,
)
from raspisnoy.store.players import username_key
from raspisnoy.store.repository import (
    NotFoundError,
    Store,
    UserRow,
    lock_users,
    new_id,
    transaction,
    user_row,
)
from raspisnoy.store.repository import utc as _utc
from raspisnoy.store.repository import utc_or_none as _utc_or_none
from raspisnoy.store.together import ChatRow

__all__ = [
    "ActionRow",
    "Moderation",
    "ModeratorRow",
    "NewAction",
    "NewReport",
    "ReportRow",
    "Standing",
]

#: The action kinds that start and end a mute, and a ban.
MUTES = ("mute", "unmute")
BANS = ("ban", "unban")


@dataclass(frozen=True, slots=True)
class ModeratorRow:
    """A moderator: the user, their user name and since when."""

    user: UserRow
    username: str
    granted_at: datetime


@dataclass(frozen=True, slots=True)
class NewReport:
    """A report as a player files it (checked by the service)."""

    reporter_id: str
    reported_id: str
    place: str
    table_id: str | None
    chat_seq: int | None
    reason: str
    note: str | None


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A stored report, with the names of the people in it."""

    id: str
    reporter: UserRow
    reported: UserRow
    place: str
    table_id: str | None
    chat_seq: int | None
    reason: str
    note: str | None
    created_at: datetime
    status: str
    resolved_by: str | None
    resolved_at: datetime | None


@dataclass(frozen=True, slots=True)
class NewAction:
    """A moderator's action as the service checked it."""

    moderator_id: str
    user_id: str
    kind: str
    until: datetime | None
    reason: str
    note: str | None
    report_id: str | None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """A stored moderator's action, with the names of the moderator and the person."""

    id: str
    moderator: UserRow
    user: UserRow
    kind: str
    until: datetime | None
    reason: str
    note: str | None
    report_id: str | None
    created_at: datetime
    seen_at: datetime | None


@dataclass(frozen=True, slots=True)
class Standing:
    """What the moderators' actions mean for a person now: muted until when (``None``:
    not muted), banned or not and until when (``None`` with ``banned``: for good)."""

    muted_until: datetime | None
    banned: bool
    banned_until: datetime | None


class Moderation:
    """Moderators, reports and actions over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    # ------------------------------------------------------------- moderators

    def grant(self, username: str) -> UserRow:
        """Make the account named ``username`` a moderator (again: nothing changes);
        ``NotFoundError`` if there is no such account."""
        with self._session() as session:
            user = _account(session, username)
            if session.get(Moderator, user.id) is None:
                session.add(Moderator(user_id=user.id, granted_at=datetime.now(UTC)))
            return user_row(user)

    def revoke(self, username: str) -> bool:
        """Take the role from the account named ``username``; whether it had it."""
        with self._session() as session:
            user = _account(session, username)
            gone = session.execute(delete(Moderator).where(Moderator.user_id == user.id))
            return bool(getattr(gone, "rowcount", 0))

    def moderators(self) -> list[ModeratorRow]:
        """Every moderator, by user name."""
        query = (
            select(User, Account.username, Moderator.granted_at)
            .join(Moderator, Moderator.user_id == User.id)
            .join(Account, Account.user_id == User.id)
            .order_by(Account.username_key)
        )
        with self._session() as session:
            return [
                ModeratorRow(user_row(user), username, _utc(granted))
                for user, username, granted in session.execute(query)
            ]

    def is_moderator(self, user_id: str) -> bool:
        """Whether the user moderates (a deleted account does not)."""
        query = select(User.kind).join(Moderator, Moderator.user_id == User.id)
        with self._session() as session:
            kind = session.scalar(query.where(User.id == user_id))
            return kind == "registered"

    # ------------------------------------------------------------- reports

    def add_report(self, report: NewReport) -> ReportRow:
        """Store a new open report."""
        with self._session() as session:
            row = Report(
                id=new_id(),
                reporter_id=report.reporter_id,
                reported_id=report.reported_id,
                place=report.place,
                table_id=report.table_id,
                chat_seq=report.chat_seq,
                reason=report.reason,
                note=report.note,
                created_at=datetime.now(UTC),
                status="open",
            )
            session.add(row)
            session.flush()
            return _reports(session, select(Report).where(Report.id == row.id))[0]

    def reports(self, status: str, limit: int) -> list[ReportRow]:
        """The reports of ``status`` (``open``, ``resolved``), oldest open first, newest
        resolved first."""
        order = Report.created_at.asc() if status == "open" else Report.created_at.desc()
        query = select(Report).where(Report.status == status).order_by(order).limit(limit)
        with self._session() as session:
            return _reports(session, query)

    def report(self, report_id: str) -> ReportRow:
        """One report; ``NotFoundError`` if there is none."""
        with self._session() as session:
            found = _reports(session, select(Report).where(Report.id == report_id))
        if not found:
            raise NotFoundError(f"no report {report_id!r}")
        return found[0]

    def resolve(self, report_id: str, moderator_id: str) -> ReportRow:
        """Mark the report dealt with (by ``moderator_id``, now)."""
        with self._session() as session:
            _resolve(session, report_id, moderator_id)
        return self.report(report_id)

    def chat_message(self, table_id: str, seq: int) -> ChatRow | None:
        """One chat message of a table, if there is one."""
        with self._session() as session:
            found = session.get(ChatMessage, (table_id, seq))
            return None if found is None else _chat(found)

    def chat_around(self, table_id: str, seq: int | None, span: int) -> list[ChatRow]:
        """The chat lines within ``span`` of message ``seq`` of the table (the last
        ``2 × span + 1`` if ``seq`` is ``None``), in order."""
        query = select(ChatMessage).where(ChatMessage.table_id == table_id)
        if seq is None:
            query = query.order_by(ChatMessage.seq.desc()).limit(2 * span + 1)
        else:
            query = query.where(ChatMessage.seq.between(seq - span, seq + span))
        with self._session() as session:
            return sorted((_chat(m) for m in session.scalars(query)), key=lambda row: row.seq)

    # ------------------------------------------------------------- actions

    def act(self, action: NewAction) -> ActionRow:
        """Store a moderator's action; its report, if named, is resolved with it, and a
        ban ends every session of the person, in the same transaction, holding the
        person's row first, as a new session does (``Store.create_session``): a log-in at
        the same moment stores its session wholly before the ban, which ends it, or wholly
        after, and its own check of the ban then finds it."""
        with self._session() as session:
            if action.kind == "ban":
                lock_users(session, [action.user_id])
            row = ModerationAction(
                id=new_id(),
                moderator_id=action.moderator_id,
                user_id=action.user_id,
                kind=action.kind,
                until=action.until,
                reason=action.reason,
                note=action.note,
                report_id=action.report_id,
                created_at=datetime.now(UTC),
            )
            session.add(row)
            if action.report_id is not None:
                _resolve(session, action.report_id, action.moderator_id)
            if action.kind == "ban":
                session.execute(delete(SessionToken).where(SessionToken.user_id == action.user_id))
            session.flush()
            stored = select(ModerationAction).where(ModerationAction.id == row.id)
            return _actions(session, stored)[0]

    def actions(self, user_id: str | None, limit: int) -> list[ActionRow]:
        """The log, newest first: every action, or those on ``user_id``."""
        query = select(ModerationAction).order_by(ModerationAction.created_at.desc())
        if user_id is not None:
            query = query.where(ModerationAction.user_id == user_id)
        with self._session() as session:
            return _actions(session, query.limit(limit))

    def notices(self, user_id: str) -> list[ActionRow]:
        """The actions on ``user_id`` not yet shown to them, oldest first."""
        query = (
            select(ModerationAction)
            .where(ModerationAction.user_id == user_id, ModerationAction.seen_at.is_(None))
            .order_by(ModerationAction.created_at)
        )
        with self._session() as session:
            return _actions(session, query)

    def seen(self, user_id: str, action_ids: Sequence[str]) -> int:
        """Mark these actions on ``user_id`` shown to them; how many were marked now."""
        with self._session() as session:
            marked = session.execute(
                update(ModerationAction)
                .where(
                    ModerationAction.user_id == user_id,
                    ModerationAction.id.in_(list(action_ids)),
                    ModerationAction.seen_at.is_(None),
                )
                .values(seen_at=datetime.now(UTC))
            )
            return int(getattr(marked, "rowcount", 0))

    def standing(self, user_id: str, now: datetime | None = None) -> Standing:
        """Whether the person is muted or banned at ``now`` (default: now): their latest
        mute or unmute, and their latest ban or unban, decide."""
        now = now or datetime.now(UTC)
        with self._session() as session:
            mute = _latest(session, user_id, MUTES)
            ban = _latest(session, user_id, BANS)
        muted = None
        if mute is not None and mute[0] == "mute" and mute[1] is not None and mute[1] > now:
            muted = mute[1]
        banned = ban is not None and ban[0] == "ban" and (ban[1] is None or ban[1] > now)
        return Standing(muted, banned, ban[1] if banned and ban is not None else None)


def _account(session: Session, username: str) -> User:
    query = select(User).join(Account).where(Account.username_key == username_key(username))
    user = session.scalar(query)
    if user is None or user.kind != "registered":
        raise NotFoundError(f"no account named {username!r}")
    return user


def _resolve(session: Session, report_id: str, moderator_id: str) -> None:
    resolved = session.execute(
        update(Report)
        .where(Report.id == report_id)
        .values(status="resolved", resolved_by=moderator_id, resolved_at=datetime.now(UTC))
    )
    if not getattr(resolved, "rowcount", 0):
        raise NotFoundError(f"no report {report_id!r}")


def _latest(
    session: Session, user_id: str, kinds: tuple[str, str]
) -> tuple[str, datetime | None] | None:
    """The kind and end of the person's latest action of ``kinds``."""
    query = (
        select(ModerationAction.kind, ModerationAction.until)
        .where(ModerationAction.user_id == user_id, ModerationAction.kind.in_(kinds))
        .order_by(ModerationAction.created_at.desc(), ModerationAction.id.desc())
        .limit(1)
    )
    found = session.execute(query).first()
    return None if found is None else (found.kind, _utc_or_none(found.until))


def _people(session: Session, ids: set[str]) -> dict[str, UserRow]:
    found = session.scalars(select(User).where(User.id.in_(sorted(ids))))
    return {user.id: user_row(user) for user in found}


def _reports(session: Session, query: Select[Report]) -> list[ReportRow]:
    rows = list(session.scalars(query))
    people = _people(session, {r.reporter_id for r in rows} | {r.reported_id for r in rows})
    return [
        ReportRow(
            r.id,
            people[r.reporter_id],
            people[r.reported_id],
            r.place,
            r.table_id,
            r.chat_seq,
            r.reason,
            r.note,
            _utc(r.created_at),
            r.status,
            r.resolved_by,
            _utc_or_none(r.resolved_at),
        )
        for r in rows
    ]


def _actions(session: Session, query: Select[ModerationAction]) -> list[ActionRow]:
    rows = list(session.scalars(query))
    people = _people(session, {r.moderator_id for r in rows} | {r.user_id for r in rows})
    return [
        ActionRow(
            r.id,
            people[r.moderator_id],
            people[r.user_id],
            r.kind,
            _utc_or_none(r.until),
            r.reason,
            r.note,
            r.report_id,
            _utc(r.created_at),
            _utc_or_none(r.seen_at),
        )
        for r in rows
    ]


def _chat(m: ChatMessage) -> ChatRow:
    return ChatRow(
        m.table_id,
        m.seq,
        m.user_id,
        m.name,
        m.seat,
        m.text,
        m.phrase,
        m.round,
        m.trick,
        _utc(m.created_at),
    )
