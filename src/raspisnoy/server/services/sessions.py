"""Sessions (docs/accounts.md): a guest's, begun with a nickname; a session begun for a
user (a guest's, or a log-in's); the nickname changed; a session ended, or every one of
a user's, with their table sockets closed on every worker. The routes only read the
request and set or clear the cookie.
"""

from __future__ import annotations

from raspisnoy.server.auth import InvalidNicknameError, Sessions, check_nickname
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import LogoutOut, SessionOut, UserAnswer, UserOut
from raspisnoy.store import Moderation, NotFoundError, StaleWriteError, Store, UserRow

__all__ = ["SessionDesk"]


class SessionDesk:
    """The session operations of one app."""

    def __init__(
        self, store: Store, tokens: Sessions, limits: Limits, hub: Hub, moderation: Moderation
    ) -> None:
        self._store = store
        self._tokens = tokens
        self._limits = limits
        self._hub = hub
        self._moderation = moderation

    async def guest(self, nickname: str, address: str, agent: str | None) -> SessionOut:
        """A new guest named ``nickname`` and their first session; new sessions are
        counted per address (``TOO_MANY`` past the limit)."""
        checked = _nickname(nickname)
        limits = self._limits
        limits.hit(limits.sessions_per_address, "new sessions from this address", address)
        user = await in_thread(self._store.create_user, checked)
        return await self.begin(user, agent)

    async def begin(
        self, user: UserRow, agent: str | None, password_hash: str | None = None
    ) -> SessionOut:
        """A new session of ``user``: its token (to send back, and to set as the cookie),
        stored by its hash with the browser ``agent`` for the list of sessions. A banned
        account gets none (``banned``, with when the ban ends): checked after the session
        is stored, so a ban stored meanwhile (which ends the sessions it finds) ends this
        one too. A log-in's session (``password_hash``: the hash its password was checked
        against) is stored only while that is still the account's password, and no
        session for an account deleted meanwhile: both are refused as a wrong log-in."""
        token, digest, expires = self._tokens.new_token()
        try:
            await in_thread(
                self._store.create_session, user.id, digest, expires, agent, password_hash
            )
        except (NotFoundError, StaleWriteError):
            raise RequestError(Refusal.WRONG_LOGIN, "wrong user name or password") from None
        standing = await in_thread(self._moderation.standing, user.id)
        if standing.banned:
            await in_thread(self._store.end_session, digest)
            until = standing.banned_until
            if until is None:
                raise RequestError(Refusal.BANNED_FOR_GOOD, "a moderator banned this account")
            raise RequestError(
                Refusal.BANNED,
                f"a moderator banned this account until {until.isoformat()}",
                params={"until": until.isoformat()},
            )
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
        """Change the nickname (games already started keep the old one); 404 if the
        account was deleted meanwhile (its sessions with it)."""
        try:
            renamed = await in_thread(self._store.rename_user, user.id, _nickname(nickname))
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no user {user.id!r}") from None
        return UserAnswer(user=UserOut.of(renamed))


def _nickname(raw: str) -> str:
    """The checked nickname, or a refusal naming the rule it breaks."""
    try:
        return check_nickname(raw)
    except InvalidNicknameError as error:
        raise RequestError(error.code, str(error), params=error.params) from None
