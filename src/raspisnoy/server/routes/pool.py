"""The matchmaking pool «Играть с людьми» (``services.pool``, docs/pool.md): join with what
you accept, ask where you are (which also says you are still there), leave."""

from typing import Any

from fastapi import APIRouter

from raspisnoy.server.deps import CurrentUser, OptionalUser, ServicesDep
from raspisnoy.server.wire import PoolIn, PoolOut

router = APIRouter(prefix="/api/pool", tags=["pool"])


@router.get("", response_model=PoolOut)
async def pool_status(user: OptionalUser, services: ServicesDep) -> dict[str, Any]:
    """The caller's place in the pool and how many wait for each preset and speed. A
    waiting page asks every second or two: one silent for longer than the grace leaves."""
    return await services.pool.status(user)


@router.post("", response_model=PoolOut)
async def join_pool(body: PoolIn, user: CurrentUser, services: ServicesDep) -> dict[str, Any]:
    """Wait in the pool for a table with people: what the caller accepts."""
    return await services.pool.join(user, body)


@router.delete("", response_model=PoolOut)
async def leave_pool(user: CurrentUser, services: ServicesDep) -> dict[str, Any]:
    """Leave the pool at any moment (nothing happens if the caller is not in it)."""
    return await services.pool.leave(user)
