"""Guest sessions: choose a nickname, see who you are, change the nickname."""

from typing import Any

from fastapi import APIRouter, Response

from raspisnoy.server.auth import (
    SESSION_COOKIE,
    SESSION_MAX_AGE,
    InvalidNicknameError,
    check_nickname,
)
from raspisnoy.server.deps import CurrentUser, HubDep, SessionsDep, StoreDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.schemas import NicknameIn
from raspisnoy.server.wire import SessionOut, UserAnswer, user_json

router = APIRouter(prefix="/api/session", tags=["players"])


@router.post("", response_model=SessionOut)
async def create_session(
    body: NicknameIn, response: Response, store: StoreDep, hub: HubDep, sessions: SessionsDep
) -> dict[str, Any]:
    """Start a guest session with a nickname: a signed token, also set as a cookie."""
    user = await hub.run(store.create_user, _nickname(body))
    token = sessions.token(user.id)
    response.set_cookie(
        SESSION_COOKIE, token, max_age=SESSION_MAX_AGE, httponly=True, samesite="lax"
    )
    return {"user": user_json(user), "token": token}


@router.get("", response_model=UserAnswer)
async def read_session(user: CurrentUser) -> dict[str, Any]:
    """Who the session belongs to."""
    return {"user": user_json(user)}


@router.patch("", response_model=UserAnswer)
async def rename(
    body: NicknameIn, user: CurrentUser, store: StoreDep, hub: HubDep
) -> dict[str, Any]:
    """Change the nickname (games already started keep the old one)."""
    renamed = await hub.run(store.rename_user, user.id, _nickname(body))
    return {"user": user_json(renamed)}


def _nickname(body: NicknameIn) -> str:
    """The checked nickname, or a refusal naming the rule it breaks."""
    try:
        return check_nickname(body.nickname)
    except InvalidNicknameError as error:
        raise RequestError(Refusal.INVALID, str(error)) from None
