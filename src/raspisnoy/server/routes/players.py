"""Profiles and leaderboards: what anyone may know of a player, from finished games
only (a game in progress is in neither until it ends)."""

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from raspisnoy.core import PRESETS
from raspisnoy.server.deps import OptionalUser, PlayersDep, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.wire import LeaderboardOut, ProfileOut, leaderboard_json, profile_json
from raspisnoy.store import ALL_SCOPE, NotFoundError

router = APIRouter(prefix="/api", tags=["players"])

#: The leaderboard's "recent" period.
RECENT_DAYS = 30


@router.get("/players/{user_id}", response_model=ProfileOut)
async def profile(user_id: str, players: PlayersDep, services: ServicesDep) -> dict[str, Any]:
    """A player's profile: ratings and their history, statistics overall and per preset,
    recent finished games (each with its replay)."""
    try:
        found = await services.hub.run(players.profile, user_id)
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no player {user_id!r}") from None
    return profile_json(found)


@router.get("/leaderboard", response_model=LeaderboardOut)
async def leaderboard(
    players: PlayersDep,
    services: ServicesDep,
    viewer: OptionalUser,
    preset: str = ALL_SCOPE,
    period: Literal["all", "30d"] = "all",
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    size: Annotated[int, Query(ge=1, le=100)] = 25,
) -> dict[str, Any]:
    """Players by displayed rating, over every rated game (``preset=all``) or one
    preset's, all time or those who played in the last 30 days; ``me`` is the viewer's
    own line wherever it is. Bots have no rating here and are never listed."""
    if preset != ALL_SCOPE and preset not in PRESETS:
        raise RequestError(
            Refusal.INVALID, f"preset: {ALL_SCOPE} or one of {', '.join(PRESETS)}, not {preset!r}"
        )
    since = None if period == "all" else datetime.now(UTC) - timedelta(days=RECENT_DAYS)
    found = await services.hub.run(
        lambda: players.leaderboard(
            preset,
            since=since,
            offset=(page - 1) * size,
            limit=size,
            viewer=None if viewer is None else viewer.id,
        )
    )
    return leaderboard_json(found, preset=preset, period=period, number=page, size=size)
