"""What a table can be: the bot levels and the rules (presets and options)."""

from fastapi import APIRouter

from raspisnoy.bots import TABLE_BOTS
from raspisnoy.server.wire import BotsOut, RulesOut

router = APIRouter(prefix="/api", tags=["catalogue"])


@router.get("/bots", response_model=BotsOut)
async def bots() -> BotsOut:
    """The bot levels, weakest first."""
    return BotsOut(bots=list(TABLE_BOTS))


@router.get("/rules", response_model=RulesOut)
async def rules() -> RulesOut:
    """The presets and every rules option a table may override."""
    return RulesOut.catalogue()
