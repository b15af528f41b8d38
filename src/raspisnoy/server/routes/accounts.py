"""Accounts: register (a guest upgrades in place), log in, change the password, delete
the account, and the sessions of the caller on every device (docs/accounts.md). The
checks of names and passwords, and their limits, are the accounts service's
(``services.accounts``).
"""

from fastapi import APIRouter, Request, Response

from raspisnoy.server.auth import SESSION_COOKIE
from raspisnoy.server.deps import (
    CurrentUser,
    OptionalUser,
    RequestToken,
    SameOrigin,
    Services,
    ServicesDep,
    address_of,
)
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.routes.session import begin_session
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    CredentialsIn,
    LogoutOut,
    NewPasswordIn,
    PasswordIn,
    SessionLineOut,
    SessionOut,
    SessionsOut,
    UserOut,
)
from raspisnoy.store import ANONYMOUS, UserRow

router = APIRouter(prefix="/api", tags=["accounts"])


@router.post("/account", response_model=SessionOut, dependencies=[SameOrigin])
async def register(
    body: CredentialsIn,
    request: Request,
    response: Response,
    user: OptionalUser,
    token: RequestToken,
    services: ServicesDep,
) -> SessionOut:
    """Register a user name and password. A guest's session registers the guest itself
    (same id: every game, seat and sheet stays theirs); the session is then replaced by
    a new one, so a token from before the upgrade cannot be used for new requests."""
    guest = user.id if user is not None and user.kind == "guest" else None
    registered = await services.accounts.register(
        body.username, body.password, guest, address_of(request)
    )
    if guest is not None and token is not None:
        # The guest's token stops working, but their open table sockets play on: they
        # are the same person, now registered, and the page reconnects with the new
        # cookie whenever it must.
        await _end_session(token, services, close_sockets=False)
    return await begin_session(registered, request, response, services)


@router.post("/login", response_model=SessionOut, dependencies=[SameOrigin])
async def log_in(
    body: CredentialsIn,
    request: Request,
    response: Response,
    token: RequestToken,
    services: ServicesDep,
) -> SessionOut:
    """Log in with a user name and password: a new session on this device (others stay).
    Too many attempts from one address, or for one user name, answer 429."""
    found, checked = await services.accounts.log_in(
        body.username, body.password, address_of(request)
    )
    answer = await begin_session(found, request, response, services, checked)
    if token is not None:  # once the new session is stored: a refused one keeps the old
        await _end_session(token, services)
    return answer


@router.put("/account/password", response_model=LogoutOut)
async def change_password(
    body: NewPasswordIn,
    request: Request,
    user: CurrentUser,
    token: RequestToken,
    services: ServicesDep,
) -> LogoutOut:
    """Change the password (the current one is asked for); every other session ends."""
    assert token is not None  # there is a user, so there was a token
    keep, address = services.sessions.digest(token), address_of(request)
    ended = await services.accounts.change_password(
        user, body.password, body.new_password, keep, address
    )
    return LogoutOut(user=UserOut.of(user), sessions_ended=ended)


@router.delete("/account", response_model=LogoutOut)
async def delete_account(
    body: PasswordIn,
    request: Request,
    response: Response,
    user: CurrentUser,
    services: ServicesDep,
) -> LogoutOut:
    """Delete the account: its games stay, under the name ``Anonymous``; its name,
    password, ratings and every session go."""
    ended = await services.accounts.delete(user, body.password, address_of(request))
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    deleted = UserRow(user.id, ANONYMOUS, "deleted")
    return LogoutOut(user=UserOut.of(deleted), sessions_ended=ended)


@router.get("/sessions", response_model=SessionsOut)
async def list_sessions(
    user: CurrentUser, token: RequestToken, services: ServicesDep
) -> SessionsOut:
    """The caller's sessions on every device, newest first; ``current`` marks this one."""
    assert token is not None
    lines = await in_thread(services.players.sessions_of, user.id, services.sessions.digest(token))
    return SessionsOut(sessions=[SessionLineOut.of(line) for line in lines])


@router.delete("/sessions/{session_id}", response_model=LogoutOut)
async def end_session(session_id: str, user: CurrentUser, services: ServicesDep) -> LogoutOut:
    """End one of the caller's sessions (another device): its sockets close with 4401,
    on every worker."""
    ended = await in_thread(services.players.end_session_of, user.id, session_id)
    if ended is None:
        raise RequestError(Refusal.NOT_FOUND, f"you have no session {session_id!r}")
    await services.hub.close_sessions(EndedSessions((ended,)))
    return LogoutOut(user=UserOut.of(user), sessions_ended=1)


async def _end_session(token: str, services: Services, *, close_sockets: bool = True) -> None:
    """End the session of ``token``; its table sockets close with 4401 if asked."""
    digest = services.sessions.digest(token)
    await in_thread(services.store.end_session, digest)
    if close_sockets:
        await services.hub.close_sessions(EndedSessions((digest,)))
