"""Sessions: a guest's (choose a nickname), see who you are, change the nickname, log
out here or everywhere (``services.session_desk``). ``begin_session`` also serves the account
routes' log-in. These routes read the request and set or clear the session cookie."""

from fastapi import APIRouter, Request, Response

from raspisnoy.server.auth import SESSION_COOKIE
from raspisnoy.server.deps import CurrentUser, RequestToken, Services, ServicesDep, address_of
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
    agent = request.headers.get("user-agent")
    answer = await services.session_desk.guest(body.nickname, address_of(request), agent)
    return _with_cookie(answer, response, services)


async def begin_session(
    user: UserRow,
    request: Request,
    response: Response,
    services: Services,
    password_hash: str | None = None,
) -> SessionOut:
    """A new session of ``user``: its token in the answer and in the session cookie, the
    browser noted for the list of sessions (a log-in's only while ``password_hash`` is
    still the account's: ``SessionDesk.begin``)."""
    agent = request.headers.get("user-agent")
    answer = await services.session_desk.begin(user, agent, password_hash)
    return _with_cookie(answer, response, services)


def _with_cookie(answer: SessionOut, response: Response, services: Services) -> SessionOut:
    """Set the session cookie of ``answer``'s token (HttpOnly, SameSite=Lax: other sites'
    pages cannot read it, and their forms and scripts do not send it with writes)."""
    response.set_cookie(
        SESSION_COOKIE,
        answer.token,
        max_age=services.settings.session_seconds,
        httponly=True,
        samesite="lax",
    )
    return answer


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
    answer = await services.session_desk.end(user, token)
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return answer


@router.delete("/sessions", response_model=LogoutOut)
async def log_out_everywhere(
    user: CurrentUser, response: Response, services: ServicesDep
) -> LogoutOut:
    """Log out everywhere: every token of the caller stops working at once, and every
    table socket of the caller is closed with 4401, on every worker."""
    answer = await services.session_desk.end_all(user)
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return answer


@router.get("/session", response_model=UserAnswer)
async def read_session(user: CurrentUser) -> UserAnswer:
    """Who the session belongs to."""
    return UserAnswer(user=UserOut.of(user))


@router.patch("/session", response_model=UserAnswer)
async def rename(body: NicknameIn, user: CurrentUser, services: ServicesDep) -> UserAnswer:
    """Change the nickname (games already started keep the old one)."""
    return await services.session_desk.rename(user, body.nickname)
