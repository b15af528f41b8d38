"""Reviews of finished games and hints at unrated tables (docs/review.md, "On the server"):
the routes of ``services.reviews.ReviewDesk``, which says who may do what.
"""

from typing import Annotated

from fastapi import APIRouter, Path, Request

from raspisnoy.server.deps import Actor, CurrentUser, OptionalUser, ServicesDep, address_of
from raspisnoy.server.wire import HintOut, ReviewOut

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["reviews"])


SeatPath = Annotated[int, Path(ge=0, le=15)]


@router.post("/games/{table_id}/reviews/{seat}", status_code=202, response_model=ReviewOut)
async def request_review(
    table_id: str, seat: SeatPath, user: CurrentUser, services: ServicesDep, request: Request
) -> ReviewOut:
    """Ask for the expert's review of one seat of a finished game; it runs in the
    background (poll ``GET`` for its progress). A review asked for before is answered
    as it stands, at no cost."""
    await services.clubs.guard(table_id, user, "game")
    return await services.review_desk.request(table_id, seat, user, address_of(request))


@router.get("/games/{table_id}/reviews/{seat}", response_model=ReviewOut)
async def read_review(
    table_id: str, seat: SeatPath, user: OptionalUser, services: ServicesDep
) -> ReviewOut:
    """A seat's review of a finished game as it stands: queued, running (``done`` of
    ``total`` decisions), done (with the review) or failed. Anyone may read it, but a
    club game's reviews are its club's."""
    await services.clubs.guard(table_id, user, "game")
    return await services.review_desk.read(table_id, seat)


@router.post("/tables/{table_id}/hint", response_model=HintOut)
async def ask_hint(actor: Actor, user: CurrentUser, services: ServicesDep) -> HintOut:
    """The expert's suggested bid or card for the caller's seat on its turn, with the
    expected round points of the top choices, from the caller's own view. Refused at a
    rated table, to spectators and out of turn; the game is marked as one with hints."""
    return await services.review_desk.hint(actor, user)
