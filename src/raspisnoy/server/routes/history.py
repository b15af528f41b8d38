"""A player's games, and the score report and record of any started game."""

from typing import Any

from fastapi import APIRouter

from raspisnoy.core import Game
from raspisnoy.core.record import Record, game_to_record, record_to_json
from raspisnoy.server.actor import rebuild_game
from raspisnoy.server.deps import CurrentUser, HubDep, OptionalUser, StoreDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.hub import Hub
from raspisnoy.server.wire import GamesOut, RecordOut, ReportOut, game_report, history_json
from raspisnoy.store import NotFoundError, Store, UserRow

router = APIRouter(prefix="/api", tags=["history"])


@router.get("/me/games", response_model=GamesOut)
async def my_games(user: CurrentUser, store: StoreDep, hub: HubDep) -> dict[str, Any]:
    """The caller's games, unfinished and finished, newest first."""
    rows = await hub.run(store.tables_of_user, user.id)
    return {"games": [history_json(row, user.id) for row in rows]}


@router.get("/games/{table_id}/score", response_model=ReportOut)
async def score(table_id: str, user: OptionalUser, store: StoreDep, hub: HubDep) -> dict[str, Any]:
    """The score sheet so far (the ``raspisnoy replay --json`` report of RECORD.md). The
    round in progress is reported as the caller sees it: a seat's view for a player of
    the game, the public view for anyone else."""
    game, seat = await _started_game(table_id, user, store, hub)
    return game_report(game, game.view(seat))


@router.get("/games/{table_id}/record", response_model=RecordOut)
async def record(table_id: str, store: StoreDep, hub: HubDep) -> dict[str, Any]:
    """The game as a record (RECORD.md) that ``raspisnoy replay`` accepts. While the
    game runs, only its finished rounds: the hands of the round in play are secret."""
    game, _seat = await _started_game(table_id, None, store, hub)
    full = game_to_record(game)
    finished = len(game.view(None).scores)
    return record_to_json(Record(full.rules, full.players, full.rounds[:finished]))


async def _started_game(
    table_id: str, user: UserRow | None, store: Store, hub: Hub
) -> tuple[Game, int | None]:
    """The game at the table, rebuilt from its stored actions, and the caller's seat in
    it (``None``: not a player of it)."""
    try:
        row = await hub.run(store.get_table, table_id)
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no game {table_id!r}") from None
    if row.status == "open":
        raise RequestError(Refusal.NOT_STARTED, "the game at this table has not started yet")
    events = await hub.run(store.events_of, table_id)
    seat = None if user is None else next((s.seat for s in row.seats if s.user_id == user.id), None)
    return await hub.run(rebuild_game, row, events), seat
