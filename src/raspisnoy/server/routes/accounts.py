"""Accounts: register (a guest upgrades in place), log in, change the password, delete
the account, and the sessions of the caller on every device (docs/accounts.md).

Passwords are hashed with argon2id (``argon2-cffi``, its RFC 9106 low-memory profile)
in a worker thread: a hash takes tens of milliseconds of CPU on purpose. Log-ins are
counted per address and per user name before the password is checked, so guessing is
as slow for the right password as for a wrong one.
"""

from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response

from raspisnoy.server.auth import SESSION_COOKIE, InvalidNicknameError, check_nickname
from raspisnoy.server.deps import (
    CurrentUser,
    LimitsDep,
    OptionalUser,
    PlayersDep,
    RequestToken,
    SameOrigin,
    Services,
    ServicesDep,
    address_of,
)
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.routes.session import begin_session
from raspisnoy.server.schemas import CredentialsIn, NewPasswordIn, PasswordIn
from raspisnoy.server.wire import LogoutOut, SessionOut, SessionsOut, session_line_json, user_json
from raspisnoy.store import ANONYMOUS, Players, UsernameTakenError, UserRow

router = APIRouter(prefix="/api", tags=["accounts"])

_HASHER = PasswordHasher()
MIN_PASSWORD, MAX_PASSWORD = 8, 128


@router.post("/account", response_model=SessionOut, dependencies=[SameOrigin])
async def register(
    body: CredentialsIn,
    request: Request,
    response: Response,
    user: OptionalUser,
    token: RequestToken,
    players: PlayersDep,
    services: ServicesDep,
    limits: LimitsDep,
) -> dict[str, Any]:
    """Register a user name and password. A guest's session registers the guest itself
    (same id: every game, seat and sheet stays theirs); the session is then replaced by
    a new one, so a token from before the upgrade cannot be used for new requests."""
    username, password = _username(body.username), _password(body.password)
    limits.hit(limits.sessions_per_address, "new sessions from this address", address_of(request))
    hashed = await services.hub.run(_HASHER.hash, password)
    guest = user.id if user is not None and user.kind == "guest" else None
    try:
        registered = await services.hub.run(players.register, username, hashed, guest)
    except UsernameTakenError as error:
        raise RequestError(Refusal.CONFLICT, str(error)) from None
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
    players: PlayersDep,
    services: ServicesDep,
    limits: LimitsDep,
) -> dict[str, Any]:
    """Log in with a user name and password: a new session on this device (others stay).
    Too many attempts from one address, or for one user name, answer 429."""
    limits.hit(limits.logins_per_address, "log-in attempts from this address", address_of(request))
    limits.hit(
        limits.logins_per_account, "log-in attempts for this user name", body.username.casefold()
    )
    found = await services.hub.run(players.credentials, body.username.strip())
    if found is None or not await services.hub.run(_verify, found[1], body.password):
        raise RequestError(Refusal.NO_SESSION, "wrong user name or password")
    if token is not None:
        await _end_session(token, services)
    return await begin_session(found[0], request, response, services)


@router.put("/account/password", response_model=LogoutOut)
async def change_password(
    body: NewPasswordIn,
    user: CurrentUser,
    token: RequestToken,
    players: PlayersDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Change the password (the current one is asked for); every other session ends."""
    new = _password(body.new_password)
    await _check_password(user, body.password, players, services)
    hashed = await services.hub.run(_HASHER.hash, new)
    assert token is not None  # there is a user, so there was a token
    keep = services.sessions.digest(token)
    ended = await services.hub.run(players.set_password, user.id, hashed, keep)
    await services.hub.close_sessions(EndedSessions(user=user.id, keep=keep))
    return {"user": user_json(user), "sessions_ended": ended}


@router.delete("/account", response_model=LogoutOut)
async def delete_account(
    body: PasswordIn,
    response: Response,
    user: CurrentUser,
    players: PlayersDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Delete the account: its games stay, under the name ``Anonymous``; its name,
    password, ratings and every session go."""
    await _check_password(user, body.password, players, services)
    renamed, ended = await services.hub.run(players.delete_account, user.id)
    for table_id in renamed:  # their kept reports name the player
        for route in ("score", "record"):
            services.reports.pop((table_id, route), None)
    await services.hub.close_sessions(EndedSessions(user=user.id))
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return {"user": user_json(UserRow(user.id, ANONYMOUS, "deleted")), "sessions_ended": ended}


@router.get("/sessions", response_model=SessionsOut)
async def list_sessions(
    user: CurrentUser, token: RequestToken, players: PlayersDep, services: ServicesDep
) -> dict[str, Any]:
    """The caller's sessions on every device, newest first; ``current`` marks this one."""
    assert token is not None
    lines = await services.hub.run(players.sessions_of, user.id, services.sessions.digest(token))
    return {"sessions": [session_line_json(line) for line in lines]}


@router.delete("/sessions/{session_id}", response_model=LogoutOut)
async def end_session(
    session_id: str, user: CurrentUser, players: PlayersDep, services: ServicesDep
) -> dict[str, Any]:
    """End one of the caller's sessions (another device): its sockets close with 4401,
    on every worker."""
    ended = await services.hub.run(players.end_session_of, user.id, session_id)
    if ended is None:
        raise RequestError(Refusal.NOT_FOUND, f"you have no session {session_id!r}")
    await services.hub.close_sessions(EndedSessions((ended,)))
    return {"user": user_json(user), "sessions_ended": 1}


async def _end_session(token: str, services: Services, *, close_sockets: bool = True) -> None:
    """End the session of ``token``; its table sockets close with 4401 if asked."""
    digest = services.sessions.digest(token)
    await services.hub.run(services.store.end_session, digest)
    if close_sockets:
        await services.hub.close_sessions(EndedSessions((digest,)))


async def _check_password(
    user: UserRow, password: str, players: Players, services: Services
) -> None:
    hashed = await services.hub.run(players.password_hash, user.id)
    if hashed is None:
        raise RequestError(Refusal.FORBIDDEN, "a guest has no password: register first")
    if not await services.hub.run(_verify, hashed, password):
        raise RequestError(Refusal.FORBIDDEN, "wrong password")


def _verify(hashed: str, password: str) -> bool:
    """Whether ``password`` matches the stored argon2 hash."""
    try:
        return _HASHER.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def _username(raw: str) -> str:
    """A user name follows the nickname rules (it is the account's first nickname)."""
    try:
        return check_nickname(raw)
    except InvalidNicknameError as error:
        raise RequestError(
            Refusal.INVALID, f"username: {str(error).replace('nickname', 'user name')}"
        ) from None


def _password(raw: str) -> str:
    if not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise RequestError(
            Refusal.INVALID,
            f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(raw)}",
        )
    return raw
