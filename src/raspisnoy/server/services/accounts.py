"""Accounts: registration (a guest upgrades in place), log-in, changing the password and
deleting the account, with every check of a user name, a password and its limits
(docs/accounts.md). The routes only read the request and begin or end the session.

Every route that checks a password counts the attempt before checking it, per address
and per account, so guessing is as slow for the right password as for a wrong one; the
hashes run on their own pool (``passwords``). A user name is counted, looked up and
registered under one normalization (``store.username_key``), and an unknown one is
checked against a dummy hash, so neither a respelling nor the time taken tells anything.
"""

from __future__ import annotations

from typing import Any

from raspisnoy.server.auth import InvalidNicknameError, check_nickname
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.revocation import EndedSessions
from raspisnoy.server.services.kept_reports import KeptReports
from raspisnoy.server.services.passwords import Passwords
from raspisnoy.server.services.tables.hub import RENAMED, Hub, renamed_tables
from raspisnoy.server.services.threads import in_thread
from raspisnoy.store import Players, UsernameTakenError, UserRow, username_key

__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "Accounts"]

MIN_PASSWORD, MAX_PASSWORD = 8, 128


class Accounts:
    """The account operations of one app."""

    def __init__(
        self,
        players: Players,
        passwords: Passwords,
        limits: Limits,
        hub: Hub,
        reports: KeptReports,
    ) -> None:
        self._players = players
        self._passwords = passwords
        self._limits = limits
        self._hub = hub
        self._reports = reports
        hub.broadcast.subscribe(RENAMED, self._forget_reports)

    async def register(
        self, username: str, password: str, guest_id: str | None, address: str
    ) -> UserRow:
        """A new registered user, or the guest ``guest_id`` registered in place (same id:
        every game, seat and sheet stays theirs)."""
        name, password = _username(username), _password(password)
        self._limits.hit(
            self._limits.sessions_per_address, "new sessions from this address", address
        )
        hashed = await self._passwords.hash(password)
        try:
            return await in_thread(self._players.register, name, hashed, guest_id)
        except UsernameTakenError as error:
            raise RequestError(Refusal.NAME_TAKEN, str(error), params={"name": name}) from None

    async def log_in(self, username: str, password: str, address: str) -> tuple[UserRow, str]:
        """The user with this user name and password, and the password's hash that the
        password was checked against (the session is stored only while it is still the
        account's: ``SessionDesk.begin``). Too many attempts from one address, or for one
        user name however it is spelled, are refused with ``TOO_MANY``."""
        limits = self._limits
        limits.hit(limits.logins_per_address, "log-in attempts from this address", address)
        limits.hit(
            limits.logins_per_account, "log-in attempts for this user name", username_key(username)
        )
        found = await in_thread(self._players.credentials, username)
        matches = await self._passwords.check(None if found is None else found[1], password)
        if found is None or not matches:
            raise RequestError(Refusal.WRONG_LOGIN, "wrong user name or password")
        return found

    async def change_password(
        self, user: UserRow, password: str, new_password: str, keep: str, address: str
    ) -> int:
        """Replace the password (``password`` is the current one); every session but
        ``keep`` (a session's hash) ends, its sockets closed on every worker. How many."""
        new = _password(new_password)
        await self._check_password(user, password, address)
        hashed = await self._passwords.hash(new)
        ended = await in_thread(self._players.set_password, user.id, hashed, keep)
        await self._hub.close_sessions(EndedSessions(user=user.id, keep=keep))
        return ended

    async def delete(self, user: UserRow, password: str, address: str) -> int:
        """Delete the account (its games stay, under ``Anonymous #N``); every session
        ends. The tables whose names changed are told on every worker: their running
        games show the new name at once, and their kept reports are dropped. How many
        sessions ended."""
        await self._check_password(user, password, address)
        renamed, ended = await in_thread(self._players.delete_account, user.id)
        await self._hub.renamed(renamed)
        self._hub.lobby.changed()
        await self._hub.close_sessions(EndedSessions(user=user.id))
        return ended

    def _forget_reports(self, message: dict[str, Any]) -> None:
        """Drop the kept reports of renamed tables (a ``RENAMED`` broadcast): they name
        the deleted player."""
        self._reports.forget(renamed_tables(message))

    async def _check_password(self, user: UserRow, password: str, address: str) -> None:
        """Refuse unless ``password`` is the user's, counting the check first."""
        limits = self._limits
        limits.hit(limits.password_checks_per_address, "password checks from this address", address)
        limits.hit(limits.password_checks_per_account, "password checks of this account", user.id)
        hashed = await in_thread(self._players.password_hash, user.id)
        if hashed is None:
            raise RequestError(Refusal.GUEST_NO_PASSWORD, "a guest has no password: register first")
        if not await self._passwords.check(hashed, password):
            raise RequestError(Refusal.WRONG_PASSWORD, "wrong password")


def _username(raw: str) -> str:
    """A user name follows the nickname rules (it is the account's first nickname)."""
    try:
        return check_nickname(raw)
    except InvalidNicknameError as error:
        message = f"username: {str(error).replace('nickname', 'user name')}"
        raise RequestError(error.code, message, params=error.params) from None


def _password(raw: str) -> str:
    if not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise RequestError(
            Refusal.PASSWORD_LENGTH,
            f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(raw)}",
            params={"min": MIN_PASSWORD, "max": MAX_PASSWORD, "count": len(raw)},
        )
    return raw
