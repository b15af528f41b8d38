"""Guest identity: nickname rules, session tokens and the server's secret.

A session token is random; the store keeps a keyed hash of it with its user and expiry,
so a session ends when it expires or is ended (log out), and survives restarts. It is
sent as a cookie to browsers and in the JSON answer for other clients
(``Authorization: Bearer`` or the WebSocket's ``token`` query parameter). Registered
accounts will issue the same tokens.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

from raspisnoy.server.errors import Params, Refusal
from raspisnoy.store import ANONYMOUS, clean_name

__all__ = [
    "KEY_FILE",
    "MAX_NICKNAME",
    "MIN_NICKNAME",
    "SESSION_COOKIE",
    "InvalidNicknameError",
    "SecretKeyError",
    "Sessions",
    "check_nickname",
    "load_secret",
]

MIN_NICKNAME, MAX_NICKNAME = 2, 24
#: Punctuation allowed inside a nickname besides letters, digits and single spaces.
_PUNCTUATION = "-_.'"
SESSION_COOKIE = "raspisnoy_session"


class InvalidNicknameError(ValueError):
    """A nickname that breaks the rules; the message says which rule (in English), the
    ``code`` and ``params`` say it for a client to word (``errors.RequestError``)."""

    def __init__(self, code: Refusal, message: str, params: Params | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: Params = params or {}


def check_nickname(raw: str) -> str:
    """The nickname cleaned (NFC, trimmed, inner spaces collapsed) or ``InvalidNicknameError``.

    2 to 24 characters: letters of any script, digits, single spaces and ``- _ . '``,
    starting with a letter or digit; never ``Anonymous``, the name deleted accounts leave
    (``store.players.ANONYMOUS``: the pages word it as a deleted player).
    """
    name = clean_name(raw)
    if not MIN_NICKNAME <= len(name) <= MAX_NICKNAME:
        raise InvalidNicknameError(
            Refusal.NICKNAME_LENGTH,
            f"a nickname has {MIN_NICKNAME} to {MAX_NICKNAME} characters, not {len(name)}",
            {"min": MIN_NICKNAME, "max": MAX_NICKNAME, "count": len(name)},
        )
    for char in name:
        if not (char.isalnum() or char == " " or char in _PUNCTUATION):
            raise InvalidNicknameError(
                Refusal.NICKNAME_CHAR,
                f"a nickname may hold letters, digits, spaces and {' '.join(_PUNCTUATION)}, "
                f"not {char!r}",
                {"char": char, "allowed": " ".join(_PUNCTUATION)},
            )
    if not name[0].isalnum():
        raise InvalidNicknameError(
            Refusal.NICKNAME_START, "a nickname starts with a letter or a digit"
        )
    if name.casefold() == ANONYMOUS.casefold():
        raise InvalidNicknameError(
            Refusal.NICKNAME_RESERVED, f"{ANONYMOUS!r} is the name of deleted accounts"
        )
    return name


class Sessions:
    """Makes session tokens and the keyed hashes they are stored under.

    A token is 256 random bits; the store keeps only ``HMAC(key, token)`` with its user and
    expiry. The key is derived from the server's secret, which lives outside the database
    (``load_secret``), so neither the tokens nor new sessions can be had from a copy of it."""

    def __init__(self, secret: bytes, lifetime_seconds: int) -> None:
        self._key = hmac.new(secret, b"raspisnoy session tokens", hashlib.sha256).digest()
        self.lifetime = timedelta(seconds=lifetime_seconds)

    def new_token(self) -> tuple[str, str, datetime]:
        """A fresh token, the hash to store it under and when it expires."""
        token = secrets.token_urlsafe(32)
        return token, self.digest(token), datetime.now(UTC) + self.lifetime

    def digest(self, token: str) -> str:
        """The hash a token is stored under (64 hex digits)."""
        return hmac.new(self._key, token.encode(), hashlib.sha256).hexdigest()


class SecretKeyError(Exception):
    """The server's secret cannot be read or made; the message says what to do."""


#: Name of the key file made in the data directory when no key is given.
KEY_FILE = "secret.key"
#: The fewest characters a secret given in the environment may have.
MIN_SECRET = 32


def load_secret(given: str | None, data_dir: Path) -> bytes:
    """The server's secret: ``given`` (``RASPISNOY_SECRET_KEY``), else the key file in
    ``data_dir``, made (256 random bits, readable by its owner only) on first start.

    A key file that others may read is refused rather than used: whoever reads it can
    make sessions."""
    if given is not None:
        if len(given) < MIN_SECRET:
            raise SecretKeyError(
                f"RASPISNOY_SECRET_KEY has {len(given)} characters; use at least {MIN_SECRET} "
                "random ones (e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return given.encode()
    path = data_dir / KEY_FILE
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            raise SecretKeyError(
                f"{path} may be read by others (mode {mode:04o}): chmod 600 {path}"
            ) from None
        key = path.read_bytes().strip()
        if len(key) < MIN_SECRET:
            raise SecretKeyError(f"{path} holds no key: delete it to make a new one") from None
        return key
    except OSError as error:
        raise SecretKeyError(f"cannot make the key file {path}: {error.strerror}") from None
    key = secrets.token_urlsafe(32).encode()
    with os.fdopen(descriptor, "wb") as file:
        file.write(key + b"\n")
    return key
