"""The table WebSocket ``/ws/tables/{id}``: the live protocol of docs/PROTOCOL.md.

This module reads what a client sends, enforces the per-connection limits (message
size, flood) and hands each parsed message to the table's actor; the actor answers. The
lobby socket (``routes.lobby``) shares its checks (``open_socket``, ``receive_text``).
"""

import asyncio
from contextlib import suppress
from datetime import UTC, datetime
from functools import partial

from fastapi import APIRouter, WebSocket

from raspisnoy.server.auth import SESSION_COOKIE
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.connection import CloseCode, Connection, TokenBucket
from raspisnoy.server.deps import (
    Services,
    address_of,
    origin_allowed,
    services_of,
    user_of_token,
)
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.metrics import observe_action
from raspisnoy.server.protocol import Act, ProtocolError, parse_client_message
from raspisnoy.server.services.chat import count_chat
from raspisnoy.server.services.tables.actor import TableActor
from raspisnoy.server.services.threads import in_thread
from raspisnoy.store import NotFoundError, UserRow

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """The table's live protocol (docs/PROTOCOL.md)."""
    services = services_of(websocket)
    opened = await open_socket(websocket, services)
    if opened is None:
        return
    user, token, holder = opened
    settings = services.settings
    try:
        if not await services.clubs.admits(table_id, user):  # a club's table, not theirs
            raise NotFoundError(table_id)
        async with services.hub.using(table_id) as actor:
            session = None if token is None else services.sessions.digest(token)
            ends = None if user is None or session is None else await _ends(services, user, session)
            connection = Connection(websocket, user, settings.outbox_limit, session, ends)
            async with services.presence.online(connection, actor.table):  # docs/friends.md
                await _connected(websocket, actor, connection, settings, services.limits)
    except NotFoundError:
        await websocket.close(CloseCode.NOT_FOUND, f"no table {table_id[:40]!r}")
    except RequestError as error:  # the table is moving between workers: come back soon
        with suppress(RuntimeError):  # unless the socket is closed already
            await websocket.close(CloseCode.RESTART, error.message[:120])
    finally:
        await services.sockets.release(holder)


async def _ends(services: Services, user: UserRow, session: str) -> datetime | None:
    """When the user's session ``session`` (its token's hash) expires."""
    lines = await in_thread(services.players.sessions_of, user.id, session)
    ends = next((line.expires_at for line in lines if line.current), None)
    # SQLite gives back the moment without its zone: it was stored in UTC.
    return ends if ends is None or ends.tzinfo is not None else ends.replace(tzinfo=UTC)


async def open_socket(
    websocket: WebSocket, services: Services
) -> tuple[UserRow | None, str | None, str] | None:
    """Accept a socket and apply the checks every socket of the server shares: the page's
    origin (4403), the session token if one is sent (4401) and the number of sockets its
    holder has open (4429). The user (``None``: no session), the token and the holder
    counted in ``services.sockets`` (release it when the socket ends), or ``None`` if the
    socket was closed."""
    await websocket.accept()
    if not origin_allowed(websocket, services.settings):
        origin = websocket.headers.get("origin", "")[:60]
        await websocket.close(CloseCode.FORBIDDEN_ORIGIN, f"origin {origin!r} is not allowed")
        return None
    token = websocket.query_params.get("token") or websocket.cookies.get(SESSION_COOKIE)
    user = None
    if token is not None:
        user = await user_of_token(services, token)
        if user is None:
            await websocket.close(CloseCode.UNAUTHORIZED, "invalid or expired session token")
            return None
    holder = user.id if user is not None else f"address {address_of(websocket)}"
    if not await services.sockets.acquire(holder):
        limit = services.sockets.limit
        await websocket.close(CloseCode.TOO_MANY, f"too many connections: at most {limit} at once")
        return None
    return user, token, holder


async def _connected(
    websocket: WebSocket,
    actor: TableActor,
    connection: Connection,
    settings: ServerSettings,
    limits: Limits,
) -> None:
    """Join the table, serve the client until it leaves, then part."""
    pump = asyncio.create_task(connection.pump())
    await actor.call(partial(actor.join, connection))
    try:
        if not connection.closing:  # refused by the table (full)
            await _serve(websocket, actor, connection, settings, limits)
    finally:
        with suppress(RequestError):  # the table moved away: nothing to part from
            await actor.call(partial(actor.part, connection))
        if connection.closing:
            with suppress(TimeoutError):
                await asyncio.wait_for(pump, 5)
        pump.cancel()


async def _serve(
    websocket: WebSocket,
    actor: TableActor,
    connection: Connection,
    settings: ServerSettings,
    limits: Limits,
) -> None:
    """Read client messages until the client leaves, breaks the limits (chat messages
    also count against their writer's chat limit) or its session expires (4401)."""
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    while (text := await receive_text(websocket, connection, bucket, settings)) is not None:
        if connection.session_expired():  # checked at connect, and again for each message
            connection.close(CloseCode.UNAUTHORIZED, "the session expired: sign in again")
            return
        try:
            parsed = parse_client_message(text)
            count_chat(limits, connection, parsed)
        except ProtocolError as error:
            connection.send(error.to_message())
            continue
        with observe_action(websocket, isinstance(parsed, Act)):  # actions/s, act→ack time
            await actor.call(partial(actor.receive, connection, parsed))


async def receive_text(
    websocket: WebSocket, connection: Connection, bucket: TokenBucket, settings: ServerSettings
) -> str | None:
    """The client's next text message; ``None`` once it left or was closed for breaking a
    limit (size: 1009, flood: 1008). A binary frame is answered with ``bad_message``."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text: str | None = message.get("text")
        size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
        if size > settings.max_message_bytes:
            connection.close(
                CloseCode.TOO_BIG,
                f"message too big: {size} bytes, at most {settings.max_message_bytes}",
            )
            return None
        if not bucket.take():
            connection.close(
                CloseCode.POLICY,
                f"flooding: more than {settings.messages_per_second:g} messages a second",
            )
            return None
        if text is not None:
            return text
        binary = ProtocolError(
            Refusal.BAD_MESSAGE, "send messages as JSON in text frames, not binary"
        )
        connection.send(binary.to_message())
