"""What a table can be: the bot levels and the rules (presets and options)."""

from fastapi import APIRouter

from raspisnoy.bots import TABLE_BOTS
from raspisnoy.ratings import level_strengths
from raspisnoy.server.wire import BotLevelOut, BotsOut, RulesOut

router = APIRouter(prefix="/api", tags=["catalogue"])


@router.get("/bots", response_model=BotsOut)
async def bots() -> BotsOut:
    """The levels a table may seat, weakest first, with each rated level's rating and strength."""
    return BotsOut(bots=list(TABLE_BOTS), levels=[BotLevelOut.of(s) for s in level_strengths()])


@router.get("/rules", response_model=RulesOut)
async def rules() -> RulesOut:
    """The presets and every rules option a table may override."""
    return RulesOut.catalogue()
