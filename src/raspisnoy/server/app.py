"""The FastAPI application: REST under ``/api/``, the table WebSocket at ``/ws/tables/{id}``,
``/healthz``, OpenAPI docs at ``/api/docs``, and the browser client at ``/`` when
``raspisnoy/web/`` exists.
"""

import asyncio
import secrets
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.staticfiles import StaticFiles

from raspisnoy.bots import BOTS
from raspisnoy.bots.expert import warm_up
from raspisnoy.core import Game, RaspisnoyError, Rules, resolve_rules
from raspisnoy.core.record import Record, game_to_record, record_to_json, replay_report
from raspisnoy.core.rules import PRESET_DESCRIPTIONS, PRESETS, option_info
from raspisnoy.server.actor import LobbyError, TableActor, rebuild_game, table_json
from raspisnoy.server.auth import (
    SESSION_COOKIE,
    SESSION_MAX_AGE,
    InvalidNicknameError,
    Sessions,
    check_nickname,
)
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.connection import CloseCode, Connection, TokenBucket
from raspisnoy.server.hub import Hub
from raspisnoy.server.protocol import (
    ErrorCode,
    ProtocolError,
    error_message,
    parse_client_message,
)
from raspisnoy.server.schemas import NicknameIn, SeatIn, TableIn
from raspisnoy.server.sheets import sheets_router
from raspisnoy.store import NotFoundError, Store, TableRow, UserRow

__all__ = ["WEB_DIR", "create_app"]

#: The browser client's static files, served at ``/`` when the folder exists.
WEB_DIR = Path(__file__).resolve().parents[1] / "web"


def create_app(
    store: Store, settings: ServerSettings | None = None, web_dir: Path = WEB_DIR
) -> FastAPI:
    """The ASGI application over ``store`` (already migrated); ``web_dir``, if it exists,
    is served at ``/``."""
    settings = settings or ServerSettings()
    hub = Hub(store, settings)
    sessions = Sessions(store.secret("session"))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # The expert's compiled search loads (or compiles) once per process: do it now,
        # off the event loop, rather than at the first bot's turn.
        threading.Thread(target=warm_up, name="expert-warm-up", daemon=True).start()
        await hub.start()
        yield
        await hub.stop()

    app = FastAPI(
        title="raspisnoy",
        summary="Raspisnoy poker («расписной покер») online: lobby, tables, game history.",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )

    async def optional_user(request: Request) -> UserRow | None:
        token = request.cookies.get(SESSION_COOKIE)
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            token = header[7:].strip()
        return None if token is None else await _user_of(token)

    async def _user_of(token: str) -> UserRow | None:
        user_id = sessions.user_id(token)
        if user_id is None:
            return None
        try:
            return await hub.run(store.get_user, user_id)
        except NotFoundError:
            return None

    async def current_user(user: Annotated[UserRow | None, Depends(optional_user)]) -> UserRow:
        if user is None:
            raise HTTPException(
                401, "no valid session: choose a nickname first (POST /api/session)"
            )
        return user

    CurrentUser = Annotated[UserRow, Depends(current_user)]

    async def table_actor(table_id: str) -> AsyncIterator[TableActor]:
        try:
            async with hub.using(table_id) as actor:
                yield actor
        except NotFoundError:
            raise HTTPException(404, f"no table {table_id!r}") from None

    Actor = Annotated[TableActor, Depends(table_actor)]

    async def lobby(command: Any) -> dict[str, Any]:
        try:
            result: dict[str, Any] = await command
        except LobbyError as error:
            raise HTTPException(error.status, error.message) from None
        return result

    @app.get("/healthz", tags=["server"])
    async def healthz() -> dict[str, str]:
        """Liveness: 200 while the server runs."""
        return {"status": "ok"}

    # ----------------------------------------------------------------- players

    @app.post("/api/session", tags=["players"])
    async def create_session(body: NicknameIn, response: Response) -> dict[str, Any]:
        """Start a guest session with a nickname: a signed token, also set as a cookie."""
        user = await hub.run(store.create_user, _nickname(body))
        token = sessions.token(user.id)
        response.set_cookie(
            SESSION_COOKIE, token, max_age=SESSION_MAX_AGE, httponly=True, samesite="lax"
        )
        return {"user": _user_json(user), "token": token}

    @app.get("/api/session", tags=["players"])
    async def read_session(user: CurrentUser) -> dict[str, Any]:
        """Who the session belongs to."""
        return {"user": _user_json(user)}

    @app.patch("/api/session", tags=["players"])
    async def rename(body: NicknameIn, user: CurrentUser) -> dict[str, Any]:
        """Change the nickname (games already started keep the old one)."""
        renamed = await hub.run(store.rename_user, user.id, _nickname(body))
        return {"user": _user_json(renamed)}

    # ----------------------------------------------------------------- catalogue

    @app.get("/api/bots", tags=["catalogue"])
    async def bots() -> dict[str, Any]:
        """The bot levels, weakest first."""
        return {"bots": list(BOTS)}

    @app.get("/api/rules", tags=["catalogue"])
    async def rules() -> dict[str, Any]:
        """The presets and every rules option a table may override."""
        return {
            "presets": [
                {
                    "name": name,
                    "description": PRESET_DESCRIPTIONS[name][0],
                    "rules": resolve_rules(name).to_json(),
                }
                for name in PRESETS
            ],
            "options": [
                {
                    "name": info.name,
                    "type": {bool: "bool", int: "int", str: "str", tuple: "list"}[info.type],
                    "default": list(info.default)
                    if isinstance(info.default, tuple)
                    else info.default,
                    "en": info.en,
                    "ru": info.ru,
                    "low": info.low,
                    "high": info.high,
                    "choices": list(info.choices),
                }
                for info in option_info()
            ],
        }

    # ----------------------------------------------------------------- tables

    @app.get("/api/tables", tags=["tables"])
    async def list_tables() -> dict[str, Any]:
        """Public tables waiting for players, newest first."""
        rows = await hub.run(lambda: store.list_tables(status="open"))
        return {"tables": [table_json(row) for row in rows]}

    @app.post("/api/tables", tags=["tables"], status_code=201)
    async def create_table(body: TableIn, user: CurrentUser) -> dict[str, Any]:
        """Open a table with the caller as host in seat 0. A private table is found only
        through its invite link."""
        rules_, bots_ = _check_table(body, settings)
        row = await hub.run(
            lambda: store.create_table(
                host_id=user.id,
                public=body.public,
                rules=rules_.to_json(),
                bots=bots_,
                turn_seconds=body.turn_seconds,
                bot_delay_ms=body.bot_delay_ms,
                stand_in=body.stand_in,
                seed=secrets.token_hex(16),
            )
        )
        return table_json(row)

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def read_table(actor: Actor) -> dict[str, Any]:
        """One table, with who is connected and away."""
        return actor.table_json()

    @app.post("/api/tables/{table_id}/sit", tags=["tables"])
    async def sit(body: SeatIn, actor: Actor, user: CurrentUser) -> dict[str, Any]:
        """Take an empty seat before the game starts."""
        return await lobby(actor.call(lambda: actor.sit(user.id, body.seat)))

    @app.post("/api/tables/{table_id}/leave", tags=["tables"])
    async def leave(actor: Actor, user: CurrentUser) -> dict[str, Any]:
        """Leave the seat; during a game a stand-in bot plays it until you are back."""
        return await lobby(actor.call(lambda: actor.leave(user.id)))

    @app.post("/api/tables/{table_id}/start", tags=["tables"])
    async def start(actor: Actor, user: CurrentUser) -> dict[str, Any]:
        """The host starts the game; empty seats are filled with their bots."""
        return await lobby(actor.call(lambda: actor.start(user.id)))

    # ----------------------------------------------------------------- history

    @app.get("/api/me/games", tags=["history"])
    async def my_games(user: CurrentUser) -> dict[str, Any]:
        """The caller's games, unfinished and finished, newest first."""
        rows = await hub.run(store.tables_of_user, user.id)
        return {"games": [_history_json(row, user.id) for row in rows]}

    @app.get("/api/games/{table_id}/score", tags=["history"])
    async def score(table_id: str) -> dict[str, Any]:
        """The score sheet so far (the ``raspisnoy replay --json`` report of RECORD.md)."""
        return replay_report(await _started_game(table_id))

    @app.get("/api/games/{table_id}/record", tags=["history"])
    async def record(table_id: str) -> dict[str, Any]:
        """The game as a record (RECORD.md) that ``raspisnoy replay`` accepts. While the
        game runs, only its finished rounds: the hands of the round in play are secret."""
        game = await _started_game(table_id)
        full = game_to_record(game)
        finished = len(game.view(None).scores)
        return record_to_json(Record(full.rules, full.players, full.rounds[:finished]))

    async def _started_game(table_id: str) -> Game:
        try:
            row = await hub.run(store.get_table, table_id)
        except NotFoundError:
            raise HTTPException(404, f"no game {table_id!r}") from None
        if row.status == "open":
            raise HTTPException(409, "the game at this table has not started yet")
        events = await hub.run(store.events_of, table_id)
        return await hub.run(rebuild_game, row, events)

    # ----------------------------------------------------------------- the WebSocket

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        """The table's live protocol (docs/PROTOCOL.md)."""
        await websocket.accept()
        token = websocket.query_params.get("token") or websocket.cookies.get(SESSION_COOKIE)
        user = None
        if token is not None:
            user = await _user_of(token)
            if user is None:
                await websocket.close(CloseCode.UNAUTHORIZED, "invalid or expired session token")
                return
        try:
            async with hub.using(table_id) as actor:
                await _connected(
                    websocket, actor, Connection(websocket, user, settings.outbox_limit)
                )
        except NotFoundError:
            await websocket.close(CloseCode.NOT_FOUND, f"no table {table_id[:40]!r}")

    async def _connected(websocket: WebSocket, actor: TableActor, connection: Connection) -> None:
        """Join the table, serve the client until it leaves, then part."""
        pump = asyncio.create_task(connection.pump())
        await actor.call(partial(actor.join, connection))
        try:
            await _serve(websocket, actor, connection, settings)
        finally:
            await actor.call(partial(actor.part, connection))
            if connection.closing:
                with suppress(TimeoutError):
                    await asyncio.wait_for(pump, 5)
            pump.cancel()

    app.include_router(sheets_router(store, optional_user, web_dir))
    if web_dir.is_dir():  # mounted last: the routes above take precedence
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
    return app


async def _serve(
    websocket: WebSocket, actor: TableActor, connection: Connection, settings: ServerSettings
) -> None:
    """Read client messages until the client leaves or breaks the limits."""
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
        if size > settings.max_message_bytes:
            connection.close(
                CloseCode.TOO_BIG,
                f"message too big: {size} bytes, at most {settings.max_message_bytes}",
            )
            return
        if not bucket.take():
            connection.close(
                CloseCode.POLICY,
                f"flooding: more than {settings.messages_per_second:g} messages a second",
            )
            return
        if text is None:
            connection.send(
                error_message(
                    ProtocolError(
                        ErrorCode.BAD_MESSAGE, "send messages as JSON in text frames, not binary"
                    )
                )
            )
            continue
        try:
            parsed = parse_client_message(text)
        except ProtocolError as error:
            connection.send(error_message(error))
            continue
        await actor.call(partial(actor.receive, connection, parsed))


def _nickname(body: NicknameIn) -> str:
    """The checked nickname, or HTTP 422 naming the rule it breaks."""
    try:
        return check_nickname(body.nickname)
    except InvalidNicknameError as error:
        raise HTTPException(422, str(error)) from None


def _user_json(user: UserRow) -> dict[str, Any]:
    return {"id": user.id, "nickname": user.nickname, "kind": user.kind}


def _history_json(row: TableRow, user_id: str) -> dict[str, Any]:
    seat = next(s.seat for s in row.seats if s.user_id == user_id)
    return {
        "id": row.id,
        "status": row.status,
        "seat": seat,
        "players": list(row.names or ()),
        "rules": row.rules.get("preset"),
        "started_at": None if row.started_at is None else row.started_at.isoformat(),
        "finished_at": None if row.finished_at is None else row.finished_at.isoformat(),
        "score": f"/api/games/{row.id}/score",
        "record": f"/api/games/{row.id}/record",
    }


def _check_table(body: TableIn, settings: ServerSettings) -> tuple[Rules, list[str]]:
    """The resolved rules and the bot of each seat, or HTTP 422 naming what is wrong."""
    try:
        rules = resolve_rules(body.rules)
    except RaspisnoyError as error:
        raise HTTPException(422, f"rules: {error}") from None
    if body.players not in rules.player_counts:
        raise HTTPException(
            422,
            f"players: {rules.preset} is played by {rules.min_players} to {rules.max_players}, "
            f"not {body.players}",
        )
    bots = [body.bots] * body.players if isinstance(body.bots, str) else list(body.bots)
    if len(bots) != body.players:
        raise HTTPException(422, f"bots: one level per seat ({body.players}), not {len(bots)}")
    for level in [*bots, body.stand_in]:
        if level not in BOTS:
            raise HTTPException(422, f"unknown bot {level!r}; bots: {', '.join(BOTS)}")
    low, high = settings.min_turn_seconds, settings.max_turn_seconds
    if body.turn_seconds != 0 and not low <= body.turn_seconds <= high:
        raise HTTPException(
            422, f"turn_seconds: 0 (no timer) or {low} to {high}, not {body.turn_seconds}"
        )
    if not 0 <= body.bot_delay_ms <= settings.max_bot_delay_ms:
        raise HTTPException(
            422, f"bot_delay_ms: 0 to {settings.max_bot_delay_ms}, not {body.bot_delay_ms}"
        )
    return rules, bots
