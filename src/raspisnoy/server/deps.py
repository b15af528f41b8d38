"""The FastAPI dependencies every route uses, each with its ``Annotated`` alias: the
server's services (store, settings, hub, sessions, limits), the caller (``OptionalUser``,
``CurrentUser``, with the origin check of cookie writes) and a table's actor (``Actor``);
``count_request`` counts every ``/api`` call against the REST limits.

The services (``services.container.Services``) live on ``app.state`` (``install``), so
the routes are plain module-level ``APIRouter`` functions and a test can build as many
apps as it likes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, cast
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI
from starlette.requests import HTTPConnection

from raspisnoy.server.auth import SESSION_COOKIE
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.services.container import Services
from raspisnoy.server.services.tables.actor import TableActor
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.threads import in_thread
from raspisnoy.store import NotFoundError, Store, UserRow

__all__ = [
    "Actor",
    "CurrentUser",
    "HubDep",
    "LimitsDep",
    "OptionalUser",
    "RequestToken",
    "SameOrigin",
    "Services",
    "ServicesDep",
    "SettingsDep",
    "StoreDep",
    "address_of",
    "count_request",
    "install",
    "origin_allowed",
    "services_of",
    "user_of_token",
]


def install(app: FastAPI, services: Services) -> None:
    """Make ``services`` the app's (``services_of`` finds them from any request)."""
    app.state.services = services


def services_of(connection: HTTPConnection) -> Services:
    """The services of the app serving ``connection`` (a request or a WebSocket)."""
    return cast(Services, connection.app.state.services)


ServicesDep = Annotated[Services, Depends(services_of)]


def _store(services: ServicesDep) -> Store:
    return services.store


def _settings(services: ServicesDep) -> ServerSettings:
    return services.settings


def _hub(services: ServicesDep) -> Hub:
    return services.hub


def _limits(services: ServicesDep) -> Limits:
    return services.limits


StoreDep = Annotated[Store, Depends(_store)]
LimitsDep = Annotated[Limits, Depends(_limits)]
SettingsDep = Annotated[ServerSettings, Depends(_settings)]
HubDep = Annotated[Hub, Depends(_hub)]


#: Methods that change something: with the session cookie they need an allowed origin.
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def origin_allowed(connection: HTTPConnection, settings: ServerSettings) -> bool:
    """Whether the page that sent ``connection`` may use the caller's cookie here: no
    ``Origin`` header (not a browser), the server's own origin (its host and port are
    the request's ``Host``), or one of ``settings.allowed_origins``.

    Browsers send the cookie along with requests that other sites' pages make, so
    without this check such a page could play a visitor's seat (a WebSocket is not
    bound by the same-origin policy) or open tables in their name."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    if origin.rstrip("/") in {allowed.rstrip("/") for allowed in settings.allowed_origins}:
        return True
    own = connection.headers.get("host", "").lower()
    return bool(own) and urlsplit(origin).netloc.lower() == own


async def user_of_token(services: Services, token: str) -> UserRow | None:
    """The user of a session token; ``None`` if it is unknown, ended or expired."""
    return await in_thread(services.store.user_of_session, services.sessions.digest(token))


def _request_token(connection: HTTPConnection, services: ServicesDep) -> str | None:
    """The session token of a request: an ``Authorization: Bearer`` header, else the
    session cookie. A write that relies on the cookie must come from an allowed origin."""
    header = connection.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    token = connection.cookies.get(SESSION_COOKIE)
    method = connection.scope.get("method", "GET")
    writes = token is not None and method not in _SAFE_METHODS
    if writes and not origin_allowed(connection, services.settings):
        raise RequestError(
            Refusal.CROSS_ORIGIN,
            f"{method} from the page of {connection.headers.get('origin', '')[:80]!r} with "
            "this site's session cookie is refused: that origin is not allowed",
        )
    return token


RequestToken = Annotated[str | None, Depends(_request_token)]


def _same_origin(connection: HTTPConnection, services: ServicesDep) -> None:
    """Refuse a browser request from another site's page even without a cookie: logging
    a visitor in (or registering them) from elsewhere would seat them in a stranger's
    account (login CSRF)."""
    if not origin_allowed(connection, services.settings):
        raise RequestError(
            Refusal.CROSS_ORIGIN,
            f"a log-in from the page of {connection.headers.get('origin', '')[:80]!r} is "
            "refused: that origin is not allowed",
        )


SameOrigin = Depends(_same_origin)


async def _optional_user(token: RequestToken, services: ServicesDep) -> UserRow | None:
    """The caller, if the request carries a valid session token."""
    return None if token is None else await user_of_token(services, token)


OptionalUser = Annotated[UserRow | None, Depends(_optional_user)]


async def _current_user(user: OptionalUser) -> UserRow:
    if user is None:
        raise RequestError(
            Refusal.NO_SESSION, "no valid session: choose a nickname first (POST /api/session)"
        )
    return user


CurrentUser = Annotated[UserRow, Depends(_current_user)]


async def _table_actor(
    table_id: str, hub: HubDep, user: OptionalUser, services: ServicesDep
) -> AsyncIterator[TableActor]:
    """The actor of the table in the path while the request runs (a club's table: for
    its members only, ``services.clubs``)."""
    await services.clubs.guard(table_id, user)
    try:
        async with hub.using(table_id) as actor:
            yield actor
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no table {table_id!r}") from None


Actor = Annotated[TableActor, Depends(_table_actor)]


def address_of(connection: HTTPConnection) -> str:
    """The caller's address (as the server sees it: behind a proxy, the proxy's unless
    Uvicorn is told to trust its forwarded headers)."""
    return connection.client.host if connection.client is not None else "unknown"


async def count_request(connection: HTTPConnection, user: OptionalUser, limits: LimitsDep) -> None:
    """Count a REST call against its address's and its user's limits (a dependency of
    every ``/api`` router)."""
    limits.hit(limits.requests_per_address, "requests from this address", address_of(connection))
    if user is not None:
        limits.hit(limits.requests_per_user, "requests of this user", user.id)
