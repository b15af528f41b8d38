"""``/healthz``: the liveness probe."""

from fastapi import APIRouter

from raspisnoy.server.wire import HealthOut

router = APIRouter(tags=["server"])


@router.get("/healthz", response_model=HealthOut)
async def healthz() -> dict[str, str]:
    """Liveness: 200 while the server runs."""
    return {"status": "ok"}
