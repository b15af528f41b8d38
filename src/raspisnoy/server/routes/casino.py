"""Casino Russian poker: the REST API under ``/api/casino`` (docs/PROTOCOL.md, "Casino").

One player against the dealer, so plain requests suffice: the caller's wallet and hand
in progress, a new hand, a decision of the box to act, the advisor's hint, a free refill,
the history of finished hands and each one's record. The game itself is in
``raspisnoy.server.services.casino``; this module reads the requests.
"""

import json
from typing import Annotated

from fastapi import APIRouter, Query, Response

from raspisnoy.casino import Action, Change, parse_action, parse_cards
from raspisnoy.core import InvalidInputError
from raspisnoy.server.deps import CurrentUser, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.casino import HISTORY_LIMIT
from raspisnoy.server.wire import (
    CasinoHintOut,
    CasinoHistoryOut,
    DealIn,
    DecisionIn,
    HandOut,
    HandRecordOut,
    StateOut,
)

__all__ = ["router"]

router = APIRouter(prefix="/api/casino", tags=["casino"])


def _action(decision: DecisionIn) -> Action:
    if decision.action != "change":
        if decision.cards is not None:
            raise RequestError(
                Refusal.INVALID, f"cards: only a change names cards, not {decision.action}"
            )
        return parse_action(decision.action)
    if not decision.cards:
        raise RequestError(Refusal.INVALID, "cards: a change names 1 to 5 of the box's cards")
    try:
        return Change(parse_cards(decision.cards, "cards"))
    except InvalidInputError as error:
        raise RequestError(Refusal.INVALID, str(error)) from None


@router.get("", response_model=StateOut)
async def state(user: CurrentUser, services: ServicesDep) -> StateOut:
    """The caller's balance, the commitment (SHA-256) of their next shuffle, the hand in
    progress as they may see it (or ``null``) and the table's limits."""
    return await services.casino.state(user.id)


@router.post("/hands", status_code=201, response_model=HandOut)
async def deal(body: DealIn, user: CurrentUser, services: ServicesDep) -> HandOut:
    """Deal a new hand from the shuffle committed beforehand: the antes (and the closed
    third box's bet) are taken from the balance."""
    return await services.casino.deal(user.id, body.antes)


@router.post("/hand/decision", response_model=HandOut)
async def decide(body: DecisionIn, user: CurrentUser, services: ServicesDep) -> HandOut:
    """Fold, bet, buy a sixth card or change cards on the box to act; once the dealer
    has shown a hand that does not qualify, buy his game or decline on each box that
    bet. The last decision settles the hand and reveals its seed."""
    return await services.casino.decide(user.id, body.box, _action(body))


@router.get("/hand/hint", response_model=CasinoHintOut)
async def hint(user: CurrentUser, services: ServicesDep) -> CasinoHintOut:
    """The advisor's expected net, in antes, of every option of the decision awaited,
    from what the player may know (429 while the advisor is busy)."""
    return await services.casino.hint(user.id)


@router.post("/refill", response_model=StateOut)
async def refill(user: CurrentUser, services: ServicesDep) -> StateOut:
    """A free refill to the starting balance once the chips have run out (nothing is
    ever bought)."""
    return await services.casino.refill(user.id)


@router.get("/history", response_model=CasinoHistoryOut)
async def history(
    user: CurrentUser,
    services: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=HISTORY_LIMIT)] = 20,
) -> CasinoHistoryOut:
    """The caller's finished hands, newest first, each with its seed, its commitment and
    the command line that verifies it."""
    return await services.casino.history(user.id, limit)


@router.get("/hands/{hand_id}/record", response_model=HandRecordOut)
async def record(hand_id: str, user: CurrentUser, services: ServicesDep) -> Response:
    """A finished hand's record (``russian-poker-hand/1``), as a file for
    ``raspisnoy casino verify``."""
    file, found = await services.casino.record(user.id, hand_id)
    return Response(
        json.dumps(found, ensure_ascii=False, indent=1) + "\n",
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{file}"'},
    )
