"""What a table can be: the bot levels and the rules (presets and options)."""

from typing import Any

from fastapi import APIRouter

from raspisnoy.bots import BOTS
from raspisnoy.server.wire import BotsOut, RulesOut, rules_catalogue

router = APIRouter(prefix="/api", tags=["catalogue"])


@router.get("/bots", response_model=BotsOut)
async def bots() -> dict[str, Any]:
    """The bot levels, weakest first."""
    return {"bots": list(BOTS)}


@router.get("/rules", response_model=RulesOut)
async def rules() -> dict[str, Any]:
    """The presets and every rules option a table may override."""
    return rules_catalogue()
