"""Moderation (docs/moderation.md): players report each other; moderators (a role the
command line gives, ``raspisnoy moderators``) read the reports with their chat and table,
and warn, mute or ban; the person is shown each action in their language.

Everything here is kept in the database (``store.Moderation``), so every worker agrees:
a mute is checked by the chat at each message (``ChatRoom``), a ban ends the person's
sessions in the transaction that stores it and their table sockets on every worker
(``Hub.close_sessions``), and a new session of a banned account is refused
(``SessionDesk.begin``). What a moderator reads of a game goes through the routes
anyone reads it by, so a game in progress shows them no hidden hand.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.services.chat import may_read
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    ModerationIn,
    ModerationLogOut,
    ModerationOut,
    NoticesSeenOut,
    PlayerReportIn,
    PlayerReportOut,
    PlayerReportsOut,
    ReportDetailOut,
    StandingOut,
    chat_json,
)
from raspisnoy.store import (
    Moderation,
    NewAction,
    NewReport,
    NotFoundError,
    Store,
    UserRow,
)

__all__ = ["CHAT_SPAN", "ModerationDesk"]

#: The chat lines a report shows on each side of the reported one.
CHAT_SPAN = 5
#: The most reports and log lines one answer carries.
PAGE = 200
#: The actions that need an end (``minutes``), and those that may have one.
_TIMED = frozenset({"mute"})
_MAY_END = frozenset({"mute", "ban"})


class ModerationDesk:
    """The moderation operations of one app."""

    def __init__(
        self,
        store: Store,
        moderation: Moderation,
        limits: Limits,
        hub: Hub,
        admits: Callable[[str, UserRow | None], Awaitable[bool]],
    ) -> None:
        """``admits``: whether a person may see a table, by the rule of every table route
        (``Clubs.admits``)."""
        self._store = store
        self._moderation = moderation
        self._limits = limits
        self._hub = hub
        self._admits = admits

    # ------------------------------------------------------------- everyone

    async def standing_of(self, user: UserRow) -> StandingOut:
        """Whether the caller moderates, until when they are muted, and the actions on
        them they have not been shown yet."""
        moderation = self._moderation
        moderator = await in_thread(moderation.is_moderator, user.id)
        standing = await in_thread(moderation.standing, user.id)
        notices = await in_thread(moderation.notices, user.id)
        return StandingOut.of(moderator, standing, notices)

    async def seen(self, user: UserRow, ids: list[str]) -> NoticesSeenOut:
        """Mark the caller's notices ``ids`` shown (so the next page load skips them)."""
        return NoticesSeenOut(marked=await in_thread(self._moderation.seen, user.id, ids))

    async def report(self, user: UserRow, body: PlayerReportIn) -> PlayerReportOut:
        """File a report: not by a guest (a guest is too easily made again), not of
        oneself, of a person where the reporter met them; counted per reporter
        (``reports_per_user``)."""
        if not user.is_account:
            raise RequestError(
                Refusal.GUEST_CANNOT_REPORT, "register to report a player: guests cannot"
            )
        if body.user_id == user.id:
            raise RequestError(Refusal.REPORT_SELF, "you cannot report yourself")
        limits = self._limits
        limits.hit(limits.reports_per_user, "reports of this user", user.id)
        await self._check_place(user, body)
        report = NewReport(
            reporter_id=user.id,
            reported_id=body.user_id,
            place=body.place,
            table_id=None if body.place == "profile" else body.table_id,
            chat_seq=body.chat_seq if body.place == "chat" else None,
            reason=body.reason,
            note=(body.note or "").strip() or None,
        )
        return PlayerReportOut.of(await in_thread(self._moderation.add_report, report))

    async def _check_place(self, user: UserRow, body: PlayerReportIn) -> None:
        """Refuse a report whose person is not where it says: not seated at the table,
        not the writer of the chat message (a chat the reporter may read), or no person
        at all. What the reporter may not see is answered as if it did not exist: a
        table they may not see (a club's, a running tournament round's) before anything
        about it is looked at, so that a report cannot tell them who sits there. A
        private table is seen by anyone who holds its id, the invite link."""
        missing = RequestError(Refusal.NOT_FOUND, "no such player there")
        try:
            reported = await in_thread(self._store.get_user, body.user_id)
        except NotFoundError:
            raise missing from None
        if reported.kind == "deleted":
            raise missing
        if body.place == "profile":
            return
        if body.table_id is None:
            raise RequestError(Refusal.INVALID, f"a report from a {body.place} names its table_id")
        if not await self._admits(body.table_id, user):
            raise missing
        try:
            table = await in_thread(self._store.get_table, body.table_id)
        except NotFoundError:
            raise missing from None
        if body.place == "table":
            if not any(seat.user_id == body.user_id for seat in table.seats):
                raise missing
            return
        if body.chat_seq is None:
            raise RequestError(Refusal.INVALID, "a report of a chat line names its chat_seq")
        line = await in_thread(self._moderation.chat_message, table.id, body.chat_seq)
        if line is None or line.user_id != body.user_id or not may_read(table, user.id):
            raise missing

    # ------------------------------------------------------------- moderators

    async def _moderator(self, user: UserRow | None) -> UserRow:
        """The caller if they moderate; ``not_moderator`` (403) otherwise."""
        if user is None or not await in_thread(self._moderation.is_moderator, user.id):
            raise RequestError(Refusal.NOT_MODERATOR, "only moderators may do this")
        return user

    async def reports(self, user: UserRow | None, status: str) -> PlayerReportsOut:
        """The reports of ``status`` (``open``: oldest first; ``resolved``: newest)."""
        await self._moderator(user)
        rows = await in_thread(self._moderation.reports, status, PAGE)
        return PlayerReportsOut(reports=[PlayerReportOut.of(row) for row in rows])

    async def report_detail(self, user: UserRow | None, report_id: str) -> ReportDetailOut:
        """One report with the chat around its line (or its table's last lines), its
        table as the lobby shows it, and the reported person's standing and log."""
        await self._moderator(user)
        moderation = self._moderation
        try:
            row = await in_thread(moderation.report, report_id)
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no report {report_id!r}") from None
        chat, table = [], None
        if row.table_id is not None:
            lines = await in_thread(moderation.chat_around, row.table_id, row.chat_seq, CHAT_SPAN)
            chat = [chat_json(line) for line in lines]
            table = await in_thread(self._store.get_table, row.table_id)
        standing = await in_thread(moderation.standing, row.reported.id)
        log = await in_thread(moderation.actions, row.reported.id, PAGE)
        return ReportDetailOut.of(row, chat, table, standing, log)

    async def resolve(self, user: UserRow | None, report_id: str) -> PlayerReportOut:
        """Close a report without an action (nothing to do)."""
        moderator = await self._moderator(user)
        try:
            row = await in_thread(self._moderation.resolve, report_id, moderator.id)
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no report {report_id!r}") from None
        return PlayerReportOut.of(row)

    async def act(self, user: UserRow | None, body: ModerationIn) -> ModerationOut:
        """Warn, mute, unmute, ban or unban a person, logged; a ban also ends their
        sessions and closes their table sockets on every worker."""
        moderator = await self._moderator(user)
        if body.user_id == moderator.id:
            raise RequestError(Refusal.INVALID, "a moderator does not moderate themselves")
        if body.kind in _TIMED and body.minutes is None:
            raise RequestError(Refusal.INVALID, f"a {body.kind} names its minutes")
        if body.kind not in _MAY_END and body.minutes is not None:
            raise RequestError(Refusal.INVALID, f"a {body.kind} has no minutes")
        try:
            await in_thread(self._store.get_user, body.user_id)
            if body.report_id is not None:
                await in_thread(self._moderation.report, body.report_id)
        except NotFoundError as error:
            raise RequestError(Refusal.NOT_FOUND, str(error)) from None
        minutes = body.minutes
        action = NewAction(
            moderator_id=moderator.id,
            user_id=body.user_id,
            kind=body.kind,
            until=None if minutes is None else datetime.now(UTC) + timedelta(minutes=minutes),
            reason=body.reason,
            note=(body.note or "").strip() or None,
            report_id=body.report_id,
        )
        row = await in_thread(self._moderation.act, action)
        if body.kind == "ban":
            await self._hub.close_sessions(EndedSessions(user=body.user_id))
        return ModerationOut.of(row)

    async def log(self, user: UserRow | None, user_id: str | None) -> ModerationLogOut:
        """Every moderator's action, newest first (or those on ``user_id``)."""
        await self._moderator(user)
        rows = await in_thread(self._moderation.actions, user_id, PAGE)
        return ModerationLogOut(actions=[ModerationOut.of(row) for row in rows])
