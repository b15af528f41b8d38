"""Clubs on the wire (docs/PROTOCOL.md, "Clubs"): the request bodies, the views the clubs
service builds of a club for one caller (``ClubView``: ``None`` wherever the caller may
not see), and the answers that write a view down (``ClubOut.of``), nothing added.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from raspisnoy.core import DEFAULT_PRESET
from raspisnoy.server.wire.requests import MAX_MINUTES
from raspisnoy.store import ClubRow, ClubTableRow, DirectoryKey, MemberRow

__all__ = [
    "ClubCardOut",
    "ClubGame",
    "ClubGameOut",
    "ClubIn",
    "ClubMuteIn",
    "ClubMutedOut",
    "ClubOut",
    "ClubPersonOut",
    "ClubSeatOut",
    "ClubSettingsIn",
    "ClubTableOut",
    "ClubView",
    "ClubsOut",
    "MemberStanding",
    "MemberStandingOut",
    "directory_cursor",
    "directory_key",
]


class ClubIn(BaseModel):
    """A new club: its name, what it is about, its language, its house rules (a preset
    name or ``{"preset": ..., option: value}``) and whether the directory hides it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=200)
    description: str = Field(default="", max_length=500)
    language: Literal["ru", "uk", "en"] = "ru"
    rules: str | dict[str, Any] = DEFAULT_PRESET
    private: bool = False


class ClubSettingsIn(BaseModel):
    """New settings of a club (its admins'): each field sent replaces the club's, each
    left out (or ``null``) stays as it is."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = Field(default=None, max_length=200)
    description: str | None = Field(default=None, max_length=500)
    language: Literal["ru", "uk", "en"] | None = None
    rules: str | dict[str, Any] | None = None
    private: bool | None = None


class ClubMuteIn(BaseModel):
    """An admin's mute of a member in the chat of the club's tables, for ``minutes``
    (a minute to a year, as a moderator's)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    minutes: int = Field(ge=1, le=MAX_MINUTES)


@dataclass(frozen=True, slots=True)
class MemberStanding:
    """A member's results in the club's games: games, first places, and the club rating
    (OpenSkill over the club's games, shown as the house shows a rating: 1000 for a
    newcomer; ``None`` before a game)."""

    user_id: str
    nickname: str
    role: str
    games: int
    wins: int
    rating: int | None


@dataclass(frozen=True, slots=True)
class ClubGame:
    """A finished club game: its table, when it ended, and each seat's name (a person's
    nickname, or the bot level), place and points in seat order."""

    table_id: str
    finished_at: datetime
    seats: tuple[tuple[str, bool, int, int], ...]  # (name, is a bot, place, points)


@dataclass(frozen=True, slots=True)
class ClubView:
    """The club as the caller may see it: ``None`` (or empty) where they may not."""

    club: ClubRow
    #: The caller's state: ``member``, ``requested``, ``banned``, ``left`` or ``none``.
    state: str
    role: str | None
    member_count: int
    members: tuple[MemberStanding, ...] | None  # members and admins
    leaderboard: tuple[MemberStanding, ...] | None
    tables: tuple[ClubTableRow, ...] | None
    history: tuple[ClubGame, ...] | None
    invite_code: str | None  # admins
    requests: tuple[MemberRow, ...] | None  # admins
    banned: tuple[MemberRow, ...] | None  # admins
    muted: tuple[MemberRow, ...] | None  # admins: the members muted in the tables' chat now


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MemberStandingOut(_Out):
    """A member with their club rating (OpenSkill over the club's games) and games."""

    user_id: str
    name: str
    role: str
    games: int
    wins: int
    rating: int | None

    @classmethod
    def of(cls, line: MemberStanding) -> MemberStandingOut:
        return cls(
            user_id=line.user_id,
            name=line.nickname,
            role=line.role,
            games=line.games,
            wins=line.wins,
            rating=line.rating,
        )


class ClubPersonOut(_Out):
    """Someone asking to join, or banned: for the club's admins."""

    user_id: str
    name: str
    since: datetime

    @classmethod
    def of(cls, row: MemberRow) -> ClubPersonOut:
        return cls(user_id=row.user_id, name=row.nickname, since=row.since)


class ClubMutedOut(_Out):
    """A member muted in the chat of the club's tables, and until when: for its admins."""

    user_id: str
    name: str
    until: datetime

    @classmethod
    def of(cls, row: MemberRow) -> ClubMutedOut:
        assert row.muted_until is not None, "only a muted member is listed"
        return cls(user_id=row.user_id, name=row.nickname, until=row.muted_until)


class ClubTableOut(_Out):
    """A club table that has not finished."""

    id: str
    status: str
    players: int

    @classmethod
    def of(cls, row: ClubTableRow) -> ClubTableOut:
        return cls(id=row.table_id, status=row.status, players=row.seats)


class ClubSeatOut(_Out):
    name: str
    bot: bool
    place: int
    points: int


class ClubGameOut(_Out):
    """A finished club game, its seats in order."""

    table_id: str
    finished_at: datetime
    seats: list[ClubSeatOut]

    @classmethod
    def of(cls, game: ClubGame) -> ClubGameOut:
        return cls(
            table_id=game.table_id,
            finished_at=game.finished_at,
            seats=[
                ClubSeatOut(name=name, bot=bot, place=place, points=points)
                for name, bot, place, points in game.seats
            ],
        )


class ClubOut(_Out):
    """The club page's data for its caller (``ClubView``); ``null`` where they may not see."""

    id: str
    name: str
    description: str
    language: str
    rules: dict[str, Any]
    private: bool
    state: str
    role: str | None
    member_count: int
    members: list[MemberStandingOut] | None
    leaderboard: list[MemberStandingOut] | None
    tables: list[ClubTableOut] | None
    history: list[ClubGameOut] | None
    invite: str | None
    requests: list[ClubPersonOut] | None
    banned: list[ClubPersonOut] | None
    muted: list[ClubMutedOut] | None

    @classmethod
    def of(cls, view: ClubView) -> ClubOut:
        club = view.club

        def each(items: Any, out: Any) -> Any:
            return None if items is None else [out.of(item) for item in items]

        return cls(
            id=club.id,
            name=club.name,
            description=club.description,
            language=club.language,
            rules=club.rules,
            private=club.private,
            state=view.state,
            role=view.role,
            member_count=view.member_count,
            members=each(view.members, MemberStandingOut),
            leaderboard=each(view.leaderboard, MemberStandingOut),
            tables=each(view.tables, ClubTableOut),
            history=each(view.history, ClubGameOut),
            invite=view.invite_code,
            requests=each(view.requests, ClubPersonOut),
            banned=each(view.banned, ClubPersonOut),
            muted=each(view.muted, ClubMutedOut),
        )


class ClubCardOut(_Out):
    """A club in the directory."""

    id: str
    name: str
    description: str
    language: str
    member_count: int

    @classmethod
    def of(cls, club: ClubRow, members: int) -> ClubCardOut:
        return cls(
            id=club.id,
            name=club.name,
            description=club.description,
            language=club.language,
            member_count=members,
        )


def directory_cursor(key: DirectoryKey) -> str:
    """The cursor of a club's line in the directory: ``MEMBERS:NAME`` (the name folded)."""
    return f"{key.members}:{key.name_key}"


def directory_key(cursor: str) -> DirectoryKey:
    """The line a directory cursor names (``ValueError``: not one)."""
    members, separator, name_key = cursor.partition(":")
    if not separator or not name_key:
        raise ValueError(cursor)
    return DirectoryKey(int(members), name_key)


class ClubsOut(_Out):
    """A page of the directory, and the cursor of the next (``null``: the last page)."""

    clubs: list[ClubCardOut]
    next: str | None
