"""Clubs (docs/clubs.md, docs/PROTOCOL.md "Clubs"): the directory, a new club, a club's
page as its caller may see it, its settings changed by its admins, joining by invite or
by request, leaving, an admin's acts on a member (a mute in the chat of the club's tables
among them), and the club's tables. The clubs service decides who may do what."""

from typing import Annotated, Any

from fastapi import APIRouter, Query

from raspisnoy.server.deps import CurrentUser, OptionalUser, ServicesDep
from raspisnoy.server.services.clubs import Manage
from raspisnoy.server.wire import (
    ClubCardOut,
    ClubIn,
    ClubMuteIn,
    ClubOut,
    ClubSettingsIn,
    ClubsOut,
    TableIn,
    TableOut,
    table_json,
)

router = APIRouter(prefix="/api/clubs", tags=["clubs"])


@router.get("", response_model=ClubsOut)
async def directory(
    services: ServicesDep,
    search: Annotated[str, Query(max_length=64)] = "",
    size: Annotated[int, Query(ge=1, le=100)] = 25,
    after: Annotated[str | None, Query(max_length=100)] = None,
) -> ClubsOut:
    """The clubs anyone may find (never a private one), the biggest first: those whose
    name holds ``search``, ``size`` at a time after the line ``after`` (``next``)."""
    clubs, following = await services.clubs.directory(search, after, size)
    return ClubsOut(
        clubs=[ClubCardOut.of(club, members) for club, members in clubs], next=following
    )


@router.post("", status_code=201, response_model=ClubOut)
async def create_club(body: ClubIn, user: CurrentUser, services: ServicesDep) -> ClubOut:
    """A new club owned by the caller (an account, not a guest)."""
    return ClubOut.of(await services.clubs.create(user, body))


@router.post("/join/{code}", response_model=ClubOut)
async def join(code: str, user: CurrentUser, services: ServicesDep) -> ClubOut:
    """Join the club whose invite link carries ``code``."""
    return ClubOut.of(await services.clubs.join(code, user))


@router.get("/{club_id}", response_model=ClubOut)
async def club_page(club_id: str, user: OptionalUser, services: ServicesDep) -> ClubOut:
    """The club as the caller may see it (a private club: for its members only)."""
    return ClubOut.of(await services.clubs.view(club_id, user))


@router.patch("/{club_id}", response_model=ClubOut)
async def change_club(
    club_id: str, body: ClubSettingsIn, user: CurrentUser, services: ServicesDep
) -> ClubOut:
    """An admin changes the club's name, description, language, visibility or rules."""
    return ClubOut.of(await services.clubs.change(club_id, user, body))


@router.post("/{club_id}/request", response_model=ClubOut)
async def ask_to_join(club_id: str, user: CurrentUser, services: ServicesDep) -> ClubOut:
    """Ask to join a club that is not private; its admins accept or decline."""
    return ClubOut.of(await services.clubs.ask(club_id, user))


@router.post("/{club_id}/leave", response_model=ClubOut)
async def leave(club_id: str, user: CurrentUser, services: ServicesDep) -> ClubOut:
    """Leave the club, or take back a request to join; one's games stay in its history,
    and one's sockets to its tables close."""
    return ClubOut.of(await services.clubs.leave(club_id, user))


@router.post("/{club_id}/members/{member_id}/mute", response_model=ClubOut)
async def mute(
    club_id: str, member_id: str, body: ClubMuteIn, user: CurrentUser, services: ServicesDep
) -> ClubOut:
    """An admin mutes a member in the chat of the club's tables for some minutes."""
    return ClubOut.of(await services.clubs.mute(club_id, user, member_id, body))


@router.delete("/{club_id}/members/{member_id}/mute", response_model=ClubOut)
async def unmute(club_id: str, member_id: str, user: CurrentUser, services: ServicesDep) -> ClubOut:
    """An admin lifts a member's mute in the club's tables' chat."""
    return ClubOut.of(await services.clubs.mute(club_id, user, member_id, None))


@router.post("/{club_id}/members/{member_id}/{what}", response_model=ClubOut)
async def manage(
    club_id: str, member_id: str, what: Manage, user: CurrentUser, services: ServicesDep
) -> ClubOut:
    """An admin accepts or declines a request, removes, bans or unbans a member; the owner
    also names admins (``admin``, ``unadmin``). A member removed or banned loses their
    sockets to the club's tables."""
    return ClubOut.of(await services.clubs.manage(club_id, user, member_id, what))


@router.post("/{club_id}/tables", status_code=201, response_model=TableOut)
async def open_club_table(
    club_id: str, body: TableIn, user: CurrentUser, services: ServicesDep
) -> dict[str, Any]:
    """A table for the club's members only, with the club's house rules unless the body
    names others."""
    return table_json(await services.clubs.open_table(club_id, user, body))
