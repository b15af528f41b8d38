"""The lobby socket ``/ws/lobby``: the live lobby of ``services.lobby`` (docs/PROTOCOL.md, "The
lobby socket"). Anyone may listen (the lobby is public); it shares the table socket's
checks: origin, session token, sockets per holder, message size and flood limits."""

import asyncio
from contextlib import suppress

from fastapi import APIRouter, WebSocket

from raspisnoy.server.connection import Connection, TokenBucket
from raspisnoy.server.deps import Services, services_of
from raspisnoy.server.protocol import Ping, ProtocolError, Sync, parse_lobby_message
from raspisnoy.server.routes.socket import open_socket, receive_text

router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """Sends the lobby at once and again whenever it changes; answers ``sync`` and ``ping``.
    Its person is online (``services.presence``) while it is open, and gets their notices
    (invitations) on it."""
    services = services_of(websocket)
    opened = await open_socket(websocket, services)
    if opened is None:
        return
    user, token, holder = opened
    settings, feed = services.settings, services.hub.lobby
    session = None if token is None else services.sessions.digest(token)  # closed when it ends
    connection = Connection(websocket, user, settings.outbox_limit, session)
    pump = asyncio.create_task(connection.pump())
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    try:
        await feed.join(connection)
        async with services.presence.online(connection, None):  # docs/friends.md
            await _serve(websocket, connection, bucket, services)
    finally:
        feed.part(connection)
        await services.sockets.release(holder)
        if connection.closing:
            with suppress(TimeoutError):
                await asyncio.wait_for(pump, 5)
        pump.cancel()


async def _serve(
    websocket: WebSocket, connection: Connection, bucket: TokenBucket, services: Services
) -> None:
    """Answer the client's messages until it leaves."""
    settings, feed = services.settings, services.hub.lobby
    while (text := await receive_text(websocket, connection, bucket, settings)) is not None:
        try:
            message = parse_lobby_message(text)
        except ProtocolError as error:
            connection.send(error.to_message())
            continue
        match message:
            case Ping():
                connection.send({"type": "pong"})
            case Sync():
                await feed.resend(connection)
