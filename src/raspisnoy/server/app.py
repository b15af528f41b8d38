"""The FastAPI application: REST under ``/api/``, the table WebSocket at ``/ws/tables/{id}``,
``/healthz``, OpenAPI docs at ``/api/docs``, and the browser client at ``/`` when
``raspisnoy/web/`` exists. ``create_app`` only wires: the routes are in ``routes``, their
dependencies in ``deps``, the helpers they reach in ``services``, the JSON they send in ``wire``.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.deps import count_request, install
from raspisnoy.server.errors import (
    RequestError,
    fenced_answer,
    request_error_answer,
    validation_error_answer,
)
from raspisnoy.server.headers import SecurityHeaders
from raspisnoy.server.limits import BodyLimit
from raspisnoy.server.logs import RequestIdMiddleware
from raspisnoy.server.metrics import install_metrics
from raspisnoy.server.routes import API_ROUTERS, OTHER_ROUTERS
from raspisnoy.server.routes.pages import add_docs, score_page_router
from raspisnoy.server.services.container import Services
from raspisnoy.store import FencedError, Store

__all__ = ["WEB_DIR", "create_app"]

#: The API reference (Swagger UI).
DOCS_PATH = "/api/docs"
#: The browser client's static files, served at ``/`` when the folder exists.
WEB_DIR = Path(__file__).resolve().parents[1] / "web"


def create_app(
    store: Store, settings: ServerSettings | None = None, web_dir: Path = WEB_DIR
) -> FastAPI:
    """The ASGI application over ``store`` (already migrated); ``web_dir``, if it exists,
    is served at ``/``. Raises ``SecretKeyError`` if the server's secret cannot be had."""
    settings = settings or ServerSettings()
    services = Services.create(store, settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await services.start()
        yield
        await services.stop()

    app = FastAPI(
        title="raspisnoy",
        summary="Raspisnoy poker («расписной покер») online: lobby, tables, game history.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    install(app, services)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders, docs_path=DOCS_PATH)
    app.add_exception_handler(RequestError, request_error_answer)
    app.add_exception_handler(FencedError, fenced_answer)
    app.add_exception_handler(RequestValidationError, validation_error_answer)
    add_docs(app, DOCS_PATH)
    for router in API_ROUTERS:
        app.include_router(router, dependencies=[Depends(count_request)])
    for router in OTHER_ROUTERS:
        app.include_router(router)
    install_metrics(app, store, services.hub.bot_failures)  # /metrics, guarded (docs/operations.md)
    app.add_middleware(RequestIdMiddleware)  # outermost: every request has its id
    if web_dir.is_dir():  # mounted last: the routes above take precedence
        app.include_router(score_page_router(web_dir))
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
    return app
