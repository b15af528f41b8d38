"""Reviews of finished games and hints at unrated tables (docs/review.md, "On the server"):
the routes of ``services.reviews.ReviewDesk``, which says who may do what.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict

from raspisnoy.server.deps import Actor, CurrentUser, ServicesDep
from raspisnoy.server.wire import Json

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["reviews"])


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReviewOut(_Out):
    """A review job: its status, progress and, once done, the review itself."""

    game: str
    seat: int
    status: str
    done: int
    total: int
    #: Jobs queued before this one (``null`` unless it is queued).
    position: int | None
    iterations: int
    error: str | None
    #: The ``raspisnoy-review/1`` object of docs/review.md once done.
    review: Json | None
    #: The seats of the game that used hints.
    hints: list[int]


class ChoiceOut(_Out):
    action: str
    visits: int
    points: float


class HintOut(_Out):
    seat: int
    suggested: str
    choices: list[ChoiceOut]


SeatPath = Annotated[int, Path(ge=0, le=15)]


@router.post("/games/{table_id}/reviews/{seat}", status_code=202, response_model=ReviewOut)
async def request_review(
    table_id: str, seat: SeatPath, user: CurrentUser, services: ServicesDep
) -> Json:
    """Ask for the expert's review of one seat of a finished game; it runs in the
    background (poll ``GET`` for its progress). A review asked for before is answered
    as it stands, at no cost."""
    return await services.review_desk.request(table_id, seat, user)


@router.get("/games/{table_id}/reviews/{seat}", response_model=ReviewOut)
async def read_review(table_id: str, seat: SeatPath, services: ServicesDep) -> Json:
    """A seat's review of a finished game as it stands: queued, running (``done`` of
    ``total`` decisions), done (with the review) or failed. Anyone may read it."""
    return await services.review_desk.read(table_id, seat)


@router.post("/tables/{table_id}/hint", response_model=HintOut)
async def ask_hint(actor: Actor, user: CurrentUser, services: ServicesDep) -> dict[str, Any]:
    """The expert's suggested bid or card for the caller's seat on its turn, with the
    expected round points of the top choices, from the caller's own view. Refused at a
    rated table, to spectators and out of turn; the game is marked as one with hints."""
    return await services.review_desk.hint(actor, user)
