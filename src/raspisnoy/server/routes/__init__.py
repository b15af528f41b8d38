"""The server's routes by area, each an ``APIRouter``. ``create_app`` includes them: the
``/api`` ones under the REST limits (``deps.count_request``), the others as they are."""

from fastapi import APIRouter

from raspisnoy.server.routes import (
    accounts,
    casino,
    catalogue,
    chat,
    clubs,
    friends,
    health,
    history,
    lobby,
    moderation,
    offline,
    offline_games,
    players,
    pool,
    puzzles,
    reviews,
    session,
    share,
    sheets,
    socket,
    tables,
    tournaments,
)

__all__ = ["API_ROUTERS", "OTHER_ROUTERS"]

API_ROUTERS: tuple[APIRouter, ...] = tuple(
    module.router
    for module in (
        session,
        accounts,
        players,
        catalogue,
        tables,
        history,
        chat,
        sheets,
        share,
        casino,
        reviews,
        friends,
        offline_games,
        pool,
        moderation,
        clubs,
        puzzles,
        tournaments,
    )
)
#: The liveness probe (never limited), the table and the lobby WebSockets (limited by
#: their own rules).
OTHER_ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    socket.router,
    lobby.router,
    offline.router,
)
