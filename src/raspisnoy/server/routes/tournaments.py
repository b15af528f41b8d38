"""Tournaments (docs/tournaments.md, docs/PROTOCOL.md "Tournaments"): the lists, a new
tournament, its page as the caller may see it, registering, the director's acts. The
tournaments service decides who may do what; the runner plays the rounds."""

from fastapi import APIRouter

from raspisnoy.server.deps import CurrentUser, OptionalUser, ServicesDep
from raspisnoy.server.wire.tournaments import (
    BotEntryIn,
    TournamentIn,
    TournamentOut,
    TournamentsOut,
)

router = APIRouter(tags=["tournaments"])
_ONE = "/api/tournaments/{tournament_id}"


@router.get("/api/tournaments", response_model=TournamentsOut)
async def public_tournaments(user: OptionalUser, services: ServicesDep) -> TournamentsOut:
    """The public tournaments, the latest start first."""
    return await services.tournaments.listing(user, None)


@router.get("/api/clubs/{club_id}/tournaments", response_model=TournamentsOut)
async def club_tournaments(
    club_id: str, user: OptionalUser, services: ServicesDep
) -> TournamentsOut:
    """A club's tournaments, for its members only."""
    return await services.tournaments.listing(user, club_id)


@router.post("/api/tournaments", status_code=201, response_model=TournamentOut)
async def create(body: TournamentIn, user: CurrentUser, services: ServicesDep) -> TournamentOut:
    """A new tournament directed by the caller (in a club: by one of its admins)."""
    return await services.tournaments.create(user, body)


@router.get(_ONE, response_model=TournamentOut)
async def page(tournament_id: str, user: OptionalUser, services: ServicesDep) -> TournamentOut:
    """The tournament as the caller may see it: entrants, standings, rounds and tables."""
    return await services.tournaments.view(tournament_id, user)


@router.post(_ONE + "/register", response_model=TournamentOut)
async def register(tournament_id: str, user: CurrentUser, services: ServicesDep) -> TournamentOut:
    return await services.tournaments.register(tournament_id, user)


@router.post(_ONE + "/unregister", response_model=TournamentOut)
async def unregister(tournament_id: str, user: CurrentUser, services: ServicesDep) -> TournamentOut:
    return await services.tournaments.unregister(tournament_id, user)


@router.post(_ONE + "/bots", response_model=TournamentOut)
async def add_bot(
    tournament_id: str, body: BotEntryIn, user: CurrentUser, services: ServicesDep
) -> TournamentOut:
    """The director enters a bot as a player."""
    return await services.tournaments.add_bot(tournament_id, user, body)


@router.post(_ONE + "/start", response_model=TournamentOut)
async def start_now(tournament_id: str, user: CurrentUser, services: ServicesDep) -> TournamentOut:
    """The director starts the event now rather than at its start time."""
    return await services.tournaments.start_now(tournament_id, user)


@router.post(_ONE + "/pause", response_model=TournamentOut)
async def pause(tournament_id: str, user: CurrentUser, services: ServicesDep) -> TournamentOut:
    return await services.tournaments.pause(tournament_id, user)


@router.post(_ONE + "/resume", response_model=TournamentOut)
async def resume(tournament_id: str, user: CurrentUser, services: ServicesDep) -> TournamentOut:
    return await services.tournaments.resume(tournament_id, user)


@router.post(_ONE + "/end", response_model=TournamentOut)
async def end(tournament_id: str, user: CurrentUser, services: ServicesDep) -> TournamentOut:
    return await services.tournaments.end(tournament_id, user)


@router.post(_ONE + "/withdraw/{entry_id}", response_model=TournamentOut)
async def withdraw(
    tournament_id: str, entry_id: str, user: CurrentUser, services: ServicesDep
) -> TournamentOut:
    """The director withdraws an entrant from the later rounds."""
    return await services.tournaments.withdraw(tournament_id, user, entry_id)
