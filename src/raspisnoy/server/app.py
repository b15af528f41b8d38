"""The FastAPI application: REST under ``/api/``, the table WebSocket at ``/ws/tables/{id}``,
``/healthz``, OpenAPI docs at ``/api/docs``, and the browser client at ``/`` when
``raspisnoy/web/`` exists. ``create_app`` only wires: the routes are in ``routes``, their
dependencies in ``deps``, the JSON they send in ``wire``.
"""

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from redis.asyncio import Redis

from raspisnoy.bots.expert import warm_up
from raspisnoy.casino_advisor import warm_up as warm_up_casino
from raspisnoy.server.auth import Sessions, load_secret
from raspisnoy.server.broadcast import RedisBroadcast
from raspisnoy.server.cluster import Ownership
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.deps import Services, count_request, install
from raspisnoy.server.errors import (
    RequestError,
    fenced_answer,
    request_error_answer,
    validation_error_answer,
)
from raspisnoy.server.limits import RedisSocketCounts
from raspisnoy.server.logs import RequestIdMiddleware
from raspisnoy.server.metrics import install_metrics
from raspisnoy.server.reviews import ReviewQueue
from raspisnoy.server.routes import API_ROUTERS, OTHER_ROUTERS
from raspisnoy.server.routes.pages import add_docs, score_page_router
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.store import FencedError, Store

__all__ = ["WEB_DIR", "create_app"]

#: The browser client's static files, served at ``/`` when the folder exists.
WEB_DIR = Path(__file__).resolve().parents[1] / "web"
#: A socket counted in Redis stops counting this many lease periods after its worker
#: last refreshed it: a dead worker's sockets free their users' places within 15 s.
_SOCKET_LEASES = 5


def create_app(
    store: Store, settings: ServerSettings | None = None, web_dir: Path = WEB_DIR
) -> FastAPI:
    """The ASGI application over ``store`` (already migrated); ``web_dir``, if it exists,
    is served at ``/``. Raises ``SecretKeyError`` if the server's secret cannot be had."""
    settings = settings or ServerSettings()
    ownership, broadcast, sockets = None, None, None
    if settings.redis_url is not None:  # one of several workers (docs/cluster.md)
        redis = Redis.from_url(settings.redis_url, decode_responses=True)
        ownership = Ownership(redis, settings.redis_url, settings.lease_seconds)
        broadcast = RedisBroadcast(redis, ownership.name)
        sockets = RedisSocketCounts(
            redis,
            ownership.name,
            settings.max_sockets_per_user,
            _SOCKET_LEASES * settings.lease_seconds,
        )
    hub = Hub(store, settings, ownership, broadcast)
    review_queue = ReviewQueue(store, settings, alone=ownership is None)
    given = None if settings.secret_key is None else settings.secret_key.get_secret_value()
    sessions = Sessions(load_secret(given, settings.data_dir), settings.session_seconds)
    services = Services.of(store, settings, hub, sessions, sockets)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # The expert's compiled search loads (or compiles) once per process: do it now,
        # off the event loop, rather than at the first bot's turn.
        threading.Thread(target=warm_up, name="expert-warm-up", daemon=True).start()
        threading.Thread(target=warm_up_casino, name="casino-warm-up", daemon=True).start()
        await hub.start()
        await services.sockets.start()
        await review_queue.start()
        yield
        await review_queue.stop()
        await services.sockets.stop()
        await hub.stop()

    app = FastAPI(
        title="raspisnoy",
        summary="Raspisnoy poker («расписной покер») online: lobby, tables, game history.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    install(app, services)
    app.state.review_queue = review_queue
    app.add_exception_handler(RequestError, request_error_answer)
    app.add_exception_handler(FencedError, fenced_answer)
    app.add_exception_handler(RequestValidationError, validation_error_answer)
    add_docs(app, "/api/docs")
    for router in API_ROUTERS:
        app.include_router(router, dependencies=[Depends(count_request)])
    for router in OTHER_ROUTERS:
        app.include_router(router)
    install_metrics(app, store)  # /metrics, guarded (docs/operations.md)
    app.add_middleware(RequestIdMiddleware)  # outermost: every request has its id
    if web_dir.is_dir():  # mounted last: the routes above take precedence
        app.include_router(score_page_router(web_dir))
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
    return app
