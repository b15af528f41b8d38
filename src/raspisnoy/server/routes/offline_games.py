"""``POST /api/offline/games``: an offline game (docs/offline.md) brought to the
player's history, unrated, once the server has replayed it by the rules."""

from fastapi import APIRouter

from raspisnoy.server.deps import CurrentUser, ServicesDep
from raspisnoy.server.wire import OfflineGameIn, OfflineGameOut

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["offline"])


@router.post("/offline/games", response_model=OfflineGameOut, status_code=201)
async def upload(body: OfflineGameIn, user: CurrentUser, services: ServicesDep) -> OfflineGameOut:
    """Stores the finished offline game ``body.game`` (the device's save) as the caller's
    unrated game; 422 ``offline_game_invalid`` if it does not replay, 409
    ``offline_game_not_over`` if it is unfinished: nothing is stored then."""
    row = await services.offline_games.upload(user, body.game)
    return OfflineGameOut(id=row.id, replay=f"/?replay={row.id}")
