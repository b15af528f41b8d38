"""Profiles and leaderboards: what anyone may know of a player, from finished games
only (a game in progress is in neither until it ends)."""

from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Query

from raspisnoy.core import PRESETS
from raspisnoy.server.deps import OptionalUser, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    LeaderboardOut,
    ProfileOut,
    board_key,
)
from raspisnoy.store import ALL_SCOPE, BoardKey, NotFoundError

router = APIRouter(prefix="/api", tags=["players"])

#: The leaderboard's "recent" period.
RECENT_DAYS = 30


@router.get("/players/{user_id}", response_model=ProfileOut)
async def profile(user_id: str, services: ServicesDep, viewer: OptionalUser) -> ProfileOut:
    """A player's profile: ratings and their history, statistics overall and per preset,
    recent finished games (each with its replay): to others only the games anyone may know
    of (no private table, no club's), to the player themselves all of them."""
    viewer_id = None if viewer is None else viewer.id
    try:
        found = await in_thread(lambda: services.players.profile(user_id, viewer=viewer_id))
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no player {user_id!r}") from None
    return ProfileOut.of(found)


@router.get("/leaderboard", response_model=LeaderboardOut)
async def leaderboard(
    services: ServicesDep,
    viewer: OptionalUser,
    preset: str = ALL_SCOPE,
    period: Literal["all", "30d"] = "all",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    size: Annotated[int, Query(ge=1, le=100)] = 25,
    after: str | None = None,
    before: str | None = None,
) -> LeaderboardOut:
    """Players by displayed rating, over every rated game (``preset=all``) or one
    preset's, all time or those who played in the last 30 days; ``me`` is the viewer's
    own line wherever it is. Bots have no rating here and are never listed.

    A page is page number ``page``, or the ``size`` lines after the line ``after`` or
    before the line ``before`` (the answer's ``next`` and ``previous``): the cursors
    stay put while ratings move, and cost the same however deep."""
    if preset != ALL_SCOPE and preset not in PRESETS:
        raise RequestError(
            Refusal.INVALID, f"preset: {ALL_SCOPE} or one of {', '.join(PRESETS)}, not {preset!r}"
        )
    if after is not None and before is not None:
        raise RequestError(Refusal.INVALID, "a page is after a line or before one, not both")
    since = None if period == "all" else datetime.now(UTC) - timedelta(days=RECENT_DAYS)
    found = await in_thread(
        lambda: services.players.leaderboard(
            preset,
            since=since,
            offset=(page - 1) * size,
            limit=size,
            viewer=None if viewer is None else viewer.id,
            after=_cursor("after", after),
            before=_cursor("before", before),
        )
    )
    return LeaderboardOut.of(found, preset=preset, period=period, size=size)


def _cursor(name: str, value: str | None) -> BoardKey | None:
    """A line of the leaderboard as the answer names it (``next``, ``previous``)."""
    if value is None:
        return None
    try:
        return board_key(value)
    except ValueError:
        raise RequestError(
            Refusal.INVALID,
            f"{name}: a line's cursor (RATING:ID) as given in an answer, not {value!r}",
        ) from None
