"""Sessions (docs/accounts.md): a guest's, begun with a nickname; a session begun for a
user (a guest's, or a log-in's); the nickname changed; a session ended, or every one of
a user's, with their table sockets closed on every worker. The routes only read the
request and set or clear the cookie.
"""

from __future__ import annotations

from raspisnoy.server.auth import InvalidNicknameError, Sessions, check_nickname
from raspisnoy.server.errors import RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import LogoutOut, SessionOut, UserAnswer, UserOut
from raspisnoy.store import Store, UserRow

__all__ = ["SessionDesk"]


class SessionDesk:
    """The session operations of one app."""

    def __init__(self, store: Store, tokens: Sessions, limits: Limits, hub: Hub) -> None:
        self._store = store
        self._tokens = tokens
        self._limits = limits
        self._hub = hub

    async def guest(self, nickname: str, address: str, agent: str | None) -> SessionOut:
        """A new guest named ``nickname`` and their first session; new sessions are
        counted per address (``TOO_MANY`` past the limit)."""
        checked = _nickname(nickname)
        limits = self._limits
        limits.hit(limits.sessions_per_address, "new sessions from this address", address)
        user = await in_thread(self._store.create_user, checked)
        return await self.begin(user, agent)

    async def begin(self, user: UserRow, agent: str | None) -> SessionOut:
        """A new session of ``user``: its token (to send back, and to set as the cookie),
        stored by its hash with the browser ``agent`` for the list of sessions."""
        token, digest, expires = self._tokens.new_token()
        await in_thread(self._store.create_session, user.id, digest, expires, agent)
        return SessionOut(user=UserOut.of(user), token=token)

    async def end(self, user: UserRow, token: str) -> LogoutOut:
        """End the session of ``token``: it stops working at once, and its table sockets
        are closed (4401) on every worker."""
        digest = self._tokens.digest(token)
        ended = await in_thread(self._store.end_session, digest)
        await self._hub.close_sessions(EndedSessions((digest,)))
        return LogoutOut(user=UserOut.of(user), sessions_ended=ended)

    async def end_all(self, user: UserRow) -> LogoutOut:
        """End every session of ``user``, their table sockets closed on every worker."""
        ended = await in_thread(self._store.end_sessions_of, user.id)
        await self._hub.close_sessions(EndedSessions(user=user.id))
        return LogoutOut(user=UserOut.of(user), sessions_ended=ended)

    async def rename(self, user: UserRow, nickname: str) -> UserAnswer:
        """Change the nickname (games already started keep the old one)."""
        renamed = await in_thread(self._store.rename_user, user.id, _nickname(nickname))
        return UserAnswer(user=UserOut.of(renamed))


def _nickname(raw: str) -> str:
    """The checked nickname, or a refusal naming the rule it breaks."""
    try:
        return check_nickname(raw)
    except InvalidNicknameError as error:
        raise RequestError(error.code, str(error), params=error.params) from None
