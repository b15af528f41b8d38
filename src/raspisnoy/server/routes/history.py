"""A player's games and tables waiting for players, and the score report and record of
any started game."""

from collections.abc import Callable
from typing import Any

import orjson
from fastapi import APIRouter, Response
from pydantic import BaseModel

from raspisnoy.core import Game, Record, game_to_record, record_to_json
from raspisnoy.ratings import rebuild_game
from raspisnoy.server.deps import CurrentUser, OptionalUser, Services, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    GamesOut,
    HistoryOut,
    Json,
    RecordOut,
    ReportOut,
    TablesOut,
    game_report,
    table_json,
)
from raspisnoy.store import NotFoundError, UserRow

router = APIRouter(prefix="/api", tags=["history"])


@router.get("/me/games", response_model=GamesOut)
async def my_games(user: CurrentUser, services: ServicesDep) -> GamesOut:
    """The caller's games, unfinished and finished, newest first; a finished one with the
    caller's place and points."""
    rows = await in_thread(services.store.tables_of_user, user.id)
    places = await in_thread(services.players.places_of, user.id)
    hints = await in_thread(services.reviews.hint_seats, [row.id for row in rows])
    return GamesOut(
        games=[
            HistoryOut.of(row, user.id, places.get(row.id), tuple(hints.get(row.id, ())))
            for row in rows
        ]
    )


@router.get("/me/tables", response_model=TablesOut)
async def my_waiting_tables(user: CurrentUser, services: ServicesDep) -> dict[str, Any]:
    """The tables waiting for players where the caller holds a seat, newest first: those
    that count against the cap of such tables, so that they can go back to one."""
    rows = await services.table_desk.waiting(user)
    return {"tables": [table_json(row) for row in rows]}


@router.get("/games/{table_id}/score", response_model=ReportOut)
async def score(table_id: str, user: OptionalUser, services: ServicesDep) -> Response:
    """The score sheet so far (the ``raspisnoy replay --json`` report of docs/record.md). The
    round in progress is reported as the caller sees it: a seat's view for a player of
    the game, the public view for anyone else."""
    return await _answer(
        table_id,
        ReportOut,
        user,
        services,
        lambda game, seat: game_report(game, game.view(seat)),
    )


@router.get("/games/{table_id}/record", response_model=RecordOut)
async def record(table_id: str, user: OptionalUser, services: ServicesDep) -> Response:
    """The game as a record (docs/record.md) that ``raspisnoy replay`` accepts. While the
    game runs, only its finished rounds: the hands of the round in play are secret."""
    return await _answer(table_id, RecordOut, user, services, _finished_record)


def _finished_record(game: Game, _seat: int | None) -> Json:
    full = game_to_record(game)
    finished = len(game.view(None).scores)
    return record_to_json(Record(full.rules, full.players, full.rounds[:finished]))


async def _answer(
    table_id: str,
    model: type[BaseModel],
    user: UserRow | None,
    services: Services,
    build: Callable[[Game, int | None], Json],
) -> Response:
    """``build(game, caller's seat)`` for the started game at the table, checked against
    its response ``model``. A finished game's answer is the same for everyone and never
    changes: it is kept (``KeptReports``, ``report_cache_size``), as the JSON bytes sent,
    rather than rebuilt from every stored action at each request (the bytes take a tenth
    of the memory of the built objects)."""
    await services.clubs.guard(table_id, user, "game")  # before the cache: a club's game is its own
    kept = services.reports.get(table_id, model.__name__)
    if kept is not None:
        return _json(kept)
    store, read_at = services.store, services.reports.reading()
    try:
        row = await in_thread(store.get_table, table_id)
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no game {table_id!r}") from None
    if row.status == "open":
        raise RequestError(Refusal.NOT_STARTED, "the game at this table has not started yet")
    events = await in_thread(store.events_of, table_id)
    game = await in_thread(rebuild_game, row, events)
    seat = None if user is None else next((s.seat for s in row.seats if s.user_id == user.id), None)
    answer = build(game, seat)
    model.model_validate(answer)
    encoded = orjson.dumps(answer)
    if game.is_over:
        services.reports.keep(table_id, model.__name__, encoded, read_at)
    return _json(encoded)


def _json(encoded: bytes) -> Response:
    return Response(encoded, media_type="application/json")
