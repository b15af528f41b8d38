"""The lobby and the tables: list, open, read, take a seat, leave, start."""

from typing import Any

from fastapi import APIRouter

from raspisnoy.server.deps import Actor, CurrentUser, ServicesDep
from raspisnoy.server.services.lobby import listed_open_tables
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import SeatIn, TableIn, TableOut, TablesOut, table_json

router = APIRouter(prefix="/api/tables", tags=["tables"])


@router.get("", response_model=TablesOut)
async def list_tables(services: ServicesDep) -> dict[str, Any]:
    """Public tables waiting for players, newest first: those the lobby lists."""
    hours = services.settings.lobby_open_table_hours
    rows = await in_thread(lambda: listed_open_tables(services.store, hours, limit=100))
    return {"tables": [table_json(row) for row in rows]}


@router.post("", status_code=201, response_model=TableOut)
async def create_table(
    body: TableIn,
    user: CurrentUser,
    services: ServicesDep,
) -> dict[str, Any]:
    """Open a table with the caller as host in seat 0. A private table is found only
    through its invite link. One user holds seats at a few open tables at most."""
    return table_json(await services.table_desk.open(user, body))


@router.get("/{table_id}", response_model=TableOut)
async def read_table(actor: Actor) -> dict[str, Any]:
    """One table, with who is connected and away."""
    return actor.table_json()


@router.post("/{table_id}/sit", response_model=TableOut)
async def sit(body: SeatIn, actor: Actor, user: CurrentUser) -> dict[str, Any]:
    """Take an empty seat before the game starts."""
    return await actor.call(lambda: actor.sit(user.id, body.seat))


@router.post("/{table_id}/leave", response_model=TableOut)
async def leave(actor: Actor, user: CurrentUser) -> dict[str, Any]:
    """Leave the seat; during a game a stand-in bot plays it until you are back."""
    return await actor.call(lambda: actor.leave(user.id))


@router.post("/{table_id}/start", response_model=TableOut)
async def start(actor: Actor, user: CurrentUser, services: ServicesDep) -> dict[str, Any]:
    """The host starts the game; empty seats are filled with their bots. One user plays a
    few games at once at most."""
    return await services.table_desk.start(actor, user)
