"""Sessions: a guest's (choose a nickname), see who you are, change the nickname, log
out here or everywhere. ``begin_session`` also serves the account routes' log-in."""

from fastapi import APIRouter, Request, Response

from raspisnoy.server.auth import SESSION_COOKIE, InvalidNicknameError, check_nickname
from raspisnoy.server.deps import CurrentUser, RequestToken, Services, ServicesDep, address_of
from raspisnoy.server.errors import RequestError
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import LogoutOut, NicknameIn, SessionOut, UserAnswer, UserOut
from raspisnoy.store import UserRow

router = APIRouter(prefix="/api", tags=["players"])


@router.post("/session", response_model=SessionOut)
async def create_session(
    body: NicknameIn,
    request: Request,
    response: Response,
    services: ServicesDep,
) -> SessionOut:
    """Start a guest session with a nickname: a token, also set as a cookie, valid for
    ``RASPISNOY_SESSION_SECONDS`` (30 days) unless ended sooner."""
    nickname = _nickname(body)
    limits = services.limits
    limits.hit(limits.sessions_per_address, "new sessions from this address", address_of(request))
    user = await in_thread(services.store.create_user, nickname)
    return await begin_session(user, request, response, services)


async def begin_session(
    user: UserRow, request: Request, response: Response, services: Services
) -> SessionOut:
    """A new session of ``user``: its token in the answer and in the session cookie
    (HttpOnly, SameSite=Lax: other sites' pages cannot read it, and their forms and
    scripts do not send it with writes), the browser noted for the list of sessions."""
    token, digest, expires = services.sessions.new_token()
    agent = request.headers.get("user-agent")
    await in_thread(services.store.create_session, user.id, digest, expires, agent)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=services.settings.session_seconds,
        httponly=True,
        samesite="lax",
    )
    return SessionOut(user=UserOut.of(user), token=token)


@router.delete("/session", response_model=LogoutOut)
async def log_out(
    user: CurrentUser,
    token: RequestToken,
    response: Response,
    services: ServicesDep,
) -> LogoutOut:
    """Log out: this session's token stops working at once (its table sockets are closed
    with 4401 on every worker, and the cookie is cleared)."""
    assert token is not None  # there is a user, so there was a token
    digest = services.sessions.digest(token)
    ended = await in_thread(services.store.end_session, digest)
    await services.hub.close_sessions(EndedSessions((digest,)))
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return LogoutOut(user=UserOut.of(user), sessions_ended=ended)


@router.delete("/sessions", response_model=LogoutOut)
async def log_out_everywhere(
    user: CurrentUser, response: Response, services: ServicesDep
) -> LogoutOut:
    """Log out everywhere: every token of the caller stops working at once, and every
    table socket of the caller is closed with 4401, on every worker."""
    ended = await in_thread(services.store.end_sessions_of, user.id)
    await services.hub.close_sessions(EndedSessions(user=user.id))
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return LogoutOut(user=UserOut.of(user), sessions_ended=ended)


@router.get("/session", response_model=UserAnswer)
async def read_session(user: CurrentUser) -> UserAnswer:
    """Who the session belongs to."""
    return UserAnswer(user=UserOut.of(user))


@router.patch("/session", response_model=UserAnswer)
async def rename(body: NicknameIn, user: CurrentUser, services: ServicesDep) -> UserAnswer:
    """Change the nickname (games already started keep the old one)."""
    renamed = await in_thread(services.store.rename_user, user.id, _nickname(body))
    return UserAnswer(user=UserOut.of(renamed))


def _nickname(body: NicknameIn) -> str:
    """The checked nickname, or a refusal naming the rule it breaks."""
    try:
        return check_nickname(body.nickname)
    except InvalidNicknameError as error:
        raise RequestError(error.code, str(error), params=error.params) from None
