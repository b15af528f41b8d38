"""Clubs (docs/clubs.md): who may create, join, see and run one, and the club page each
caller may see.

Anyone with an account creates a club and owns it; people join by its invite link, or
ask to join a club that is not private and an admin accepts them; the owner names
admins; admins remove, ban and mute members (in the chat of the club's tables, where
``chat.ChatRoom`` refuses a muted member's lines), and a banned person cannot come back. A club's
tables are opened here through the tables service (``TableDesk``) and are open to its
members only: ``guard`` is asked before a table's REST routes, socket or chat serve
anyone. A private club is hidden information: to anyone not in it, it does not exist
(``not_found``, as for an id that never was).

Every answer is a ``ClubView`` built from what the caller may know, so the wire model
only writes it down: a visitor sees a public club's card; a member also its people,
tables, leaderboard and history; an admin also the invite, the requests, the banned
and the muted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from raspisnoy.core import RaspisnoyError, resolve_rules
from raspisnoy.ratings import BOT_RATINGS, DEFAULT_RATING, Rating, displayed, rate_game
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.tables.opening import TableDesk
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    ClubGame,
    ClubIn,
    ClubMuteIn,
    ClubSettingsIn,
    ClubView,
    MemberStanding,
    TableIn,
    directory_cursor,
    directory_key,
)
from raspisnoy.store import (
    ClubChange,
    ClubNameTakenError,
    ClubResultRow,
    ClubRow,
    ClubSettings,
    ClubStore,
    DirectoryKey,
    MemberRow,
    NotFoundError,
    StaleWriteError,
    TableRow,
    TournamentStore,
    UserRow,
)

__all__ = ["NAME_LENGTH", "Clubs", "Manage", "PlaceEnded", "club_ratings"]

#: The shortest and longest club name, in characters (after trimming spaces).
NAME_LENGTH = (2, 64)
#: How many finished games the club page lists.
HISTORY_GAMES = 50
_ADMINS = frozenset({"owner", "admin"})
#: What is told that a person's place in a club ended (the club's id, the person's), once
#: it is stored: the club's tables are no longer theirs to see, so their sockets to them
#: close on every worker (``Hub.close_club_sockets``).
PlaceEnded = Callable[[str, str], Awaitable[None]]


class Manage(StrEnum):
    """What an admin (or, for admins, the owner) does to a person's place in the club."""

    ACCEPT = "accept"  # a request to join
    DECLINE = "decline"
    ADMIN = "admin"  # the owner names an admin…
    UNADMIN = "unadmin"  # …or makes one a member again
    REMOVE = "remove"
    BAN = "ban"
    UNBAN = "unban"


class Clubs:
    """Clubs over the store; club tables through the tables service."""

    def __init__(
        self,
        clubs: ClubStore,
        tables: TableDesk,
        tournaments: TournamentStore,
        place_ended: PlaceEnded,
    ) -> None:
        """``place_ended``: told each member's place that ends (``PlaceEnded``)."""
        self._clubs = clubs
        self._tables = tables
        self._tournaments = tournaments
        self._place_ended = place_ended

    async def create(self, user: UserRow, request: ClubIn) -> ClubView:
        """A new club owned by ``user``, with house rules (a preset plus options)."""
        _need_account(user)
        settings = ClubSettings(
            _club_name(request.name),
            request.description.strip(),
            request.language,
            _house_rules(request.rules),
            request.private,
        )
        club = await _named(lambda: self._clubs.create(user.id, settings))
        return await self.view(club.id, user)

    async def change(self, club_id: str, user: UserRow, request: ClubSettingsIn) -> ClubView:
        """An admin changes the club's settings: each one sent replaces the club's, all
        checked as at creation before any is stored (a refusal changes nothing); those
        not sent stay as the club has them when the change is stored (another admin's
        change meanwhile is kept: ``ClubStore.update``)."""
        _, place = await self._club_for(club_id, user)
        _need_admin(place)
        description = request.description
        change = ClubChange(
            None if request.name is None else _club_name(request.name),
            None if description is None else description.strip(),
            request.language or None,
            None if request.rules is None else _house_rules(request.rules),
            request.private,
        )
        await _named(lambda: self._clubs.update(club_id, change))
        return await self.view(club_id, user)

    async def directory(
        self, search: str, after: str | None, size: int
    ) -> tuple[list[tuple[ClubRow, int]], str | None]:
        """A page of the clubs anyone may find (never a private one), with their member
        counts: those whose name holds ``search``, the ``size`` after the cursor
        ``after``; and the cursor of the next page (``None``: none)."""
        try:
            key = None if after is None else directory_key(after)
        except ValueError:
            raise RequestError(
                Refusal.INVALID, f"after: a cursor (MEMBERS:NAME) from an answer, not {after!r}"
            ) from None
        found = await in_thread(lambda: self._clubs.directory(search.strip(), key, size + 1))
        page = found[:size]
        if len(found) <= size:
            return page, None
        club, members = page[-1]
        return page, directory_cursor(DirectoryKey(members, club.name.casefold()))

    async def view(self, club_id: str, user: UserRow | None) -> ClubView:
        """The club page as ``user`` may see it (a private club: only by its people)."""
        club, place = await self._club_for(club_id, user)
        state = "none" if place is None else place.state
        if place is None or place.state != "member":  # a visitor: the club's card
            members = await in_thread(lambda: self._clubs.members(club_id))
            count = sum(m.state == "member" for m in members)
            return ClubView(
                club, state, None, count, None, None, None, None, None, None, None, None
            )
        members, tables, results = await in_thread(lambda: self._clubs.page(club_id))
        in_club = [m for m in members if m.state == "member"]
        standings = _standings(in_club, results)
        admin = place.role in _ADMINS
        return ClubView(
            club,
            state,
            place.role,
            len(in_club),
            standings,
            tuple(sorted(_ranked(standings), key=_board_order)),
            tuple(tables),
            _history(results),
            club.invite_code if admin else None,
            tuple(m for m in members if m.state == "requested") if admin else None,
            tuple(m for m in members if m.state == "banned") if admin else None,
            tuple(m for m in in_club if m.muted_until is not None) if admin else None,
        )

    async def join(self, code: str, user: UserRow) -> ClubView:
        """Join the club of the invite ``code`` (at once: the link is the invitation)."""
        _need_account(user)
        try:
            club = await in_thread(lambda: self._clubs.by_invite(code))
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, "no club has this invite") from None
        place = await in_thread(lambda: self._clubs.member(club.id, user.id))
        if place is None or place.state != "member":
            _not_banned(place)
            await self._set(club.id, user.id, "member", "member", place)
        return await self.view(club.id, user)

    async def ask(self, club_id: str, user: UserRow) -> ClubView:
        """Ask to join a club that is not private; an admin accepts or declines."""
        _need_account(user)
        _, place = await self._club_for(club_id, user)
        if place is None or place.state == "left":
            await self._set(club_id, user.id, "member", "requested", place)
        else:
            _not_banned(place)
        return await self.view(club_id, user)

    async def leave(self, club_id: str, user: UserRow) -> ClubView:
        """Leave the club (or take back a request); one's games stay in its history, and
        one's sockets to its tables close (``PlaceEnded``, told before the page is read:
        of a private club, it is then not found)."""
        club, place = await self._club_for(club_id, user)
        if club.owner_id == user.id:
            raise RequestError(Refusal.CLUB_OWNER_STAYS, "the club's owner cannot leave it")
        if place is not None and place.state in {"member", "requested"}:
            await self._set(club_id, user.id, "member", "left", place)
        return await self.view(club_id, user)

    async def manage(self, club_id: str, user: UserRow, member_id: str, what: Manage) -> ClubView:
        """An admin's act on ``member_id``'s place (naming admins: the owner's); a member
        removed or banned loses their sockets to the club's tables (``PlaceEnded``)."""
        naming = what in {Manage.ADMIN, Manage.UNADMIN}
        other, acting = await self._other(club_id, user, member_id, owners_only=naming)
        role, state = _after(what, other)
        await self._set(club_id, member_id, role, state, other, by=(user.id, acting))
        return await self.view(club_id, user)

    async def mute(
        self, club_id: str, user: UserRow, member_id: str, request: ClubMuteIn | None
    ) -> ClubView:
        """An admin mutes a member in the chat of the club's tables for
        ``request.minutes`` (``None``: unmutes them); an admin is muted by the owner only,
        the owner by nobody. The chat refuses the member's lines until the end."""
        other, _ = await self._other(club_id, user, member_id, owners_only=False)
        if request is not None and other.state != "member":
            raise RequestError(Refusal.CONFLICT, f"cannot mute: the person is {other.state}")
        until = None if request is None else datetime.now(UTC) + timedelta(minutes=request.minutes)
        await in_thread(lambda: self._clubs.mute(club_id, member_id, until))
        return await self.view(club_id, user)

    async def open_table(self, club_id: str, user: UserRow, request: TableIn) -> TableRow:
        """A club table, for its members only: the club's house rules unless the request
        names others; never in the lobby (a private table)."""
        club, place = await self._club_for(club_id, user)
        if place is None or place.state != "member":
            raise RequestError(Refusal.CLUB_MEMBERS_ONLY, "only the club's members may do this")
        rules = request.rules if "rules" in request.model_fields_set else club.rules
        private = request.model_copy(update={"rules": rules, "public": False})
        return await self._tables.open(user, private, club_id)

    async def admits(self, table_id: str, user: UserRow | None) -> bool:
        """Whether ``user`` may see the table: any table but a club's, which is its
        members' only, and one of a tournament round still being played, which is its
        own players' only (``TournamentStore.hides_table``: duplicate deals)."""
        user_id = None if user is None else user.id

        def look() -> bool:
            club_id, state = self._clubs.table_place(table_id, user_id)
            if club_id is not None and state != "member":
                return False
            return not self._tournaments.hides_table(table_id, user_id)

        return await in_thread(look)

    async def guard(self, table_id: str, user: UserRow | None, noun: str = "table") -> None:
        """Refuse a table to anyone it does not admit (``admits``), in the very words a
        route answers for a table (or, ``noun``, a game) that does not exist."""
        if not await self.admits(table_id, user):
            raise RequestError(Refusal.NOT_FOUND, f"no {noun} {table_id!r}")

    async def _club_for(
        self, club_id: str, user: UserRow | None
    ) -> tuple[ClubRow, MemberRow | None]:
        """The club and the caller's place in it; a private club is not found by those
        who have no place in it (a banned person's or a leaver's place does not count)."""
        user_id = None if user is None else user.id
        try:
            club, place = await in_thread(lambda: self._clubs.club_and_place(club_id, user_id))
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no club {club_id!r}") from None
        if club.private and (place is None or place.state != "member"):
            raise RequestError(Refusal.NOT_FOUND, f"no club {club_id!r}")
        return club, place

    async def _other(
        self, club_id: str, user: UserRow, member_id: str, *, owners_only: bool
    ) -> tuple[MemberRow, MemberRow]:
        """The place of the person an admin acts on, once the caller may act on them: an
        admin of this club (the owner, if ``owners_only`` or the person is an admin), and
        never on the owner; and the caller's own place, as read."""
        club, place = await self._club_for(club_id, user)
        _need_admin(place)
        other = await in_thread(lambda: self._clubs.member(club_id, member_id))
        if other is None:
            raise RequestError(Refusal.NOT_FOUND, f"no one {member_id!r} in this club")
        if member_id == club.owner_id:
            raise RequestError(Refusal.CLUB_OWNER_STAYS, "the club's owner stays its owner")
        if (owners_only or other.role == "admin") and user.id != club.owner_id:
            raise RequestError(Refusal.CLUB_OWNER_ONLY, "only the club's owner may do this")
        assert place is not None  # (``_need_admin``)
        return other, place

    async def _set(
        self,
        club_id: str,
        user_id: str,
        role: str,
        state: str,
        was: MemberRow | None,
        by: tuple[str, MemberRow] | None = None,
    ) -> None:
        """Give ``user_id`` this role and state over the place ``was`` that the request
        decided on (``by``: the admin acting, over their place as read); 409 ``conflict``
        if either changed meanwhile (a ban, a leave elsewhere, the admin made a member),
        which the write does not overwrite (``ClubStore.set_member``); 404 if the person's
        account was deleted meanwhile. A member's place that this ends (a leave, a
        removal, a ban) is told, once stored (``PlaceEnded``)."""
        place = None if was is None else (was.role, was.state)
        acting = None if by is None else (by[0], (by[1].role, by[1].state))
        try:
            await in_thread(
                lambda: self._clubs.set_member(
                    club_id, user_id, role=role, state=state, was=place, by=acting
                )
            )
        except StaleWriteError:
            raise RequestError(
                Refusal.CONFLICT, "this place in the club changed meanwhile: look again"
            ) from None
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no player {user_id!r}") from None
        if was is not None and was.state == "member" and state != "member":
            await self._place_ended(club_id, user_id)


async def _named(store: Callable[[], ClubRow]) -> ClubRow:
    """Store a club's settings with ``store``; ``club_name_taken`` if another club has
    the name."""
    try:
        return await in_thread(store)
    except ClubNameTakenError as taken:
        raise RequestError(
            Refusal.CLUB_NAME_TAKEN,
            f"a club is already named {taken.name!r}",
            params={"name": taken.name},
        ) from None


def _need_account(user: UserRow) -> None:
    """Clubs are for people with an account: a guest's name is not theirs to keep."""
    if not user.is_account:
        raise RequestError(Refusal.CLUB_ACCOUNT, "clubs are for registered accounts")


def _need_admin(place: MemberRow | None) -> None:
    """Refuse anyone who is not an admin (or the owner) of the club now."""
    if place is None or place.state != "member" or place.role not in _ADMINS:
        raise RequestError(Refusal.CLUB_ADMINS_ONLY, "only the club's admins may do this")


def _club_name(sent: str) -> str:
    """A club's name as stored (trimmed); refused unless it is 2 to 64 characters."""
    name = sent.strip()
    low, high = NAME_LENGTH
    if not low <= len(name) <= high:
        raise RequestError(
            Refusal.CLUB_NAME_LENGTH,
            f"a club's name has {low} to {high} characters",
            params={"min": low, "max": high},
        )
    return name


def _house_rules(sent: str | dict[str, Any]) -> dict[str, Any]:
    """House rules (a preset's name, or a preset plus options) fully resolved, as a
    table's are stored; ``bad_rules`` if they do not make a ruleset."""
    try:
        return resolve_rules(sent).to_json()
    except RaspisnoyError as error:
        raise RequestError(Refusal.BAD_RULES, str(error), params={"option": "preset"}) from None


def _not_banned(place: MemberRow | None) -> None:
    if place is not None and place.state == "banned":
        raise RequestError(Refusal.CLUB_BANNED, "you are banned from this club")


def _after(what: Manage, other: MemberRow) -> tuple[str, str]:
    """The role and state ``what`` leaves ``other`` with; refused if it does not apply."""
    wanted = {
        Manage.ACCEPT: ("requested", ("member", "member")),
        Manage.DECLINE: ("requested", ("member", "left")),
        Manage.ADMIN: ("member", ("admin", "member")),
        Manage.UNADMIN: ("member", ("member", "member")),
        Manage.REMOVE: ("member", ("member", "left")),
        Manage.BAN: (None, ("member", "banned")),
        Manage.UNBAN: ("banned", ("member", "left")),
    }
    needed, result = wanted[what]
    if needed is not None and other.state != needed:
        raise RequestError(Refusal.CONFLICT, f"cannot {what.value}: the person is {other.state}")
    return result


def _standings(
    members: Sequence[MemberRow], results: Sequence[ClubResultRow]
) -> tuple[MemberStanding, ...]:
    """Each member's games, wins and club rating, from the club's finished games."""
    mine: defaultdict[str, list[ClubResultRow]] = defaultdict(list)
    for row in results:
        if row.user_id is not None:
            mine[row.user_id].append(row)
    ratings = club_ratings(results)
    standings = []
    for member in members:
        games = mine.get(member.user_id, [])
        rating = ratings.get(member.user_id)
        standings.append(
            MemberStanding(
                member.user_id,
                member.nickname,
                member.role,
                len(games),
                sum(g.place == 1 for g in games),
                None if rating is None else displayed(rating),
            )
        )
    return tuple(standings)


def club_ratings(results: Sequence[ClubResultRow]) -> dict[str, Rating]:
    """Each person's club rating: OpenSkill (``ratings.rate_game``, the house's model)
    over the club's games alone, replayed oldest first from a newcomer's rating, by final
    totals; a bot seat plays at its level's fixed rating and is not rated. ``results``
    are the seats of the club's finished games, newest game first (``ClubStore.page``)."""
    games: dict[str, list[ClubResultRow]] = {}
    for row in reversed(results):
        games.setdefault(row.table_id, []).append(row)
    ratings: dict[str, Rating] = {}
    for rows in games.values():
        seats = sorted(rows, key=lambda r: r.seat)
        if len(seats) < 2:  # the oldest game, cut by the page's bound
            continue
        before = [
            BOT_RATINGS.get(r.bot or "", DEFAULT_RATING)
            if r.user_id is None
            else ratings.get(r.user_id, DEFAULT_RATING)
            for r in seats
        ]
        bots = [r.user_id is None for r in seats]
        after = rate_game(before, [r.points for r in seats], bots)
        ratings.update((r.user_id, new) for r, new in zip(seats, after, strict=True) if r.user_id)
    return ratings


def _ranked(standings: Sequence[MemberStanding]) -> list[MemberStanding]:
    """The members who have played a club game: the leaderboard's lines."""
    return [line for line in standings if line.rating is not None]


def _board_order(line: MemberStanding) -> tuple[int, int, str]:
    """Highest club rating first, then more games, then by name."""
    return (-(line.rating or 0), -line.games, line.nickname.casefold())


def _history(results: Sequence[ClubResultRow]) -> tuple[ClubGame, ...]:
    """The club's finished games, newest first, each with its seats."""
    games: dict[str, list[ClubResultRow]] = {}
    for row in results:
        games.setdefault(row.table_id, []).append(row)
    return tuple(
        ClubGame(
            table_id,
            rows[0].finished_at,
            tuple(
                (row.nickname or row.bot or "", row.user_id is None, row.place, row.points)
                for row in sorted(rows, key=lambda r: r.seat)
            ),
        )
        for table_id, rows in list(games.items())[:HISTORY_GAMES]
    )
