"""Reviews of finished games and hints at unrated tables (docs/review.md, "On the server").

Who may do what, by the rules the history routes already follow:

- A finished game's record is public to whoever knows its id (``GET /api/games/{id}/record``
  answers anyone, hands included), so **reading** a review of any seat of it is too.
- **Asking** for a review takes a session (the queue counts what each user asked for),
  and any seat of a finished game may be asked for, the caller's or not: it reveals
  nothing the record does not.
- A game still being played is never reviewed: its hidden hands would leak.
- A **hint** is for the seat the caller holds, on its turn, at a table that is not rated,
  from that seat's view alone.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path
from pydantic import BaseModel, ConfigDict

from raspisnoy.server.deps import Actor, CurrentUser, LimitsDep, Services, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.reviews import ReviewQueue, hint_answer
from raspisnoy.server.wire import Json
from raspisnoy.store import NotFoundError, ReviewRow, Reviews, ReviewStatus, TableRow

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["reviews"])

#: How many of the searched choices a hint shows, the most visited first.
HINT_CHOICES = 5


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


def _queue(services: ServicesDep) -> ReviewQueue:
    return services.review_queue


QueueDep = Annotated[ReviewQueue, Depends(_queue)]
SeatPath = Annotated[int, Path(ge=0, le=15)]


@router.post("/games/{table_id}/reviews/{seat}", status_code=202, response_model=ReviewOut)
async def request_review(
    table_id: str, seat: SeatPath, user: CurrentUser, services: ServicesDep, queue: QueueDep
) -> Json:
    """Ask for the expert's review of one seat of a finished game; it runs in the
    background (poll ``GET`` for its progress). A review asked for before is answered
    as it stands, at no cost."""
    reviews = queue.reviews
    await _finished_table(table_id, seat, services)
    row = await services.hub.run(reviews.get, table_id, seat)
    if row is None or row.status is ReviewStatus.FAILED:
        settings = services.settings
        mine = await services.hub.run(reviews.active_count, user.id)
        if mine >= settings.reviews_per_user:
            raise RequestError(
                Refusal.TOO_MANY,
                f"you have {mine} reviews waiting or running, at most "
                f"{settings.reviews_per_user}: wait for one to finish",
                retry_after=30,
            )
        waiting = await services.hub.run(reviews.active_count)
        if waiting >= settings.review_queue_limit:
            raise RequestError(
                Refusal.TOO_MANY,
                f"the review queue is full ({waiting} reviews): try again later",
                retry_after=60,
            )
        row = await services.hub.run(
            reviews.request, table_id, seat, user.id, settings.review_iterations
        )
        queue.wake()
    return await _review_json(row, reviews, services)


@router.get("/games/{table_id}/reviews/{seat}", response_model=ReviewOut)
async def read_review(
    table_id: str, seat: SeatPath, services: ServicesDep, queue: QueueDep
) -> Json:
    """A seat's review of a finished game as it stands: queued, running (``done`` of
    ``total`` decisions), done (with the review) or failed. Anyone may read it."""
    await _finished_table(table_id, seat, services)
    row = await services.hub.run(queue.reviews.get, table_id, seat)
    if row is None:
        raise RequestError(
            Refusal.NOT_FOUND, f"seat {seat} of game {table_id!r} has not been reviewed: ask first"
        )
    return await _review_json(row, queue.reviews, services)


async def _finished_table(table_id: str, seat: int, services: Services) -> TableRow:
    """The table of a finished game with that seat, or the refusal: a game in progress
    is never reviewed (its hidden cards would leak)."""
    try:
        table = await services.hub.run(services.store.get_table, table_id)
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no game {table_id!r}") from None
    if table.status != "over":
        raise RequestError(
            Refusal.CONFLICT,
            "only a finished game can be reviewed: reviewing a game in progress would "
            "reveal hidden cards",
        )
    if seat >= len(table.seats):
        raise RequestError(
            Refusal.INVALID, f"seat {seat} does not exist: seats are 0 to {len(table.seats) - 1}"
        )
    return table


async def _review_json(row: ReviewRow, reviews: Reviews, services: Services) -> Json:
    position = await services.hub.run(reviews.queue_position, row.table_id, row.seat)
    hints = await services.hub.run(reviews.hint_seats, [row.table_id])
    return {
        "game": row.table_id,
        "seat": row.seat,
        "status": str(row.status),
        "done": row.done,
        "total": row.total,
        "position": position,
        "iterations": row.iterations,
        "error": row.error,
        "review": row.result,
        "hints": list(hints.get(row.table_id, ())),
    }


@router.post("/tables/{table_id}/hint", response_model=HintOut)
async def ask_hint(
    actor: Actor, user: CurrentUser, services: ServicesDep, limits: LimitsDep, queue: QueueDep
) -> dict[str, Any]:
    """The expert's suggested bid or card for the caller's seat on its turn, with the
    expected round points of the top choices, from the caller's own view. Refused at a
    rated table, to spectators and out of turn; the game is marked as one with hints."""
    table = actor.table
    if table.rated:
        raise RequestError(Refusal.FORBIDDEN, "hints are off at rated tables")
    seat = next((s.seat for s in table.seats if s.user_id == user.id), None)
    if seat is None:
        raise RequestError(Refusal.NOT_SEATED, "you have no seat at this table: no hints")
    game = actor.game
    if game is None or game.is_over:
        raise RequestError(Refusal.NOT_STARTED, "the game is not being played: no hints")
    view = game.view(seat)  # taken between two of the actor's commands: consistent
    if not view.my_turn:
        raise RequestError(Refusal.CONFLICT, "it is not your turn: a hint is for your own turn")
    limits.hit(limits.hints_per_user, "hints of this user", user.id)
    answer = await services.hub.run(hint_answer, view, services.settings.hint_iterations)
    await services.hub.run(queue.reviews.count_hint, table.id, seat)
    choices = answer["choices"][:HINT_CHOICES]
    return {"seat": seat, "suggested": answer["suggested"], "choices": choices}
