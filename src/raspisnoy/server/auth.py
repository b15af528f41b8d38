"""Guest identity: nickname rules and signed session tokens.

A session token is the user id signed with the server's secret (itsdangerous), so the
server keeps no session table and a token survives restarts; it is sent as a cookie to
browsers and in the JSON answer for other clients (``Authorization: Bearer`` or the
WebSocket's ``token`` query parameter). Registered accounts will issue the same tokens.
"""

from __future__ import annotations

import unicodedata

from itsdangerous import BadSignature, URLSafeTimedSerializer

__all__ = [
    "MAX_NICKNAME",
    "MIN_NICKNAME",
    "SESSION_COOKIE",
    "SESSION_MAX_AGE",
    "InvalidNicknameError",
    "Sessions",
    "check_nickname",
]

MIN_NICKNAME, MAX_NICKNAME = 2, 24
#: Punctuation allowed inside a nickname besides letters, digits and single spaces.
_PUNCTUATION = "-_.'"
SESSION_COOKIE = "raspisnoy_session"
#: A guest session lasts a year from its last renewal.
SESSION_MAX_AGE = 365 * 24 * 3600


class InvalidNicknameError(ValueError):
    """A nickname that breaks the rules; the message says which rule."""


def check_nickname(raw: str) -> str:
    """The nickname cleaned (NFC, trimmed, inner spaces collapsed) or ``InvalidNicknameError``.

    2 to 24 characters: letters of any script, digits, single spaces and ``- _ . '``,
    starting with a letter or digit.
    """
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not MIN_NICKNAME <= len(name) <= MAX_NICKNAME:
        raise InvalidNicknameError(
            f"a nickname has {MIN_NICKNAME} to {MAX_NICKNAME} characters, not {len(name)}"
        )
    for char in name:
        if not (char.isalnum() or char == " " or char in _PUNCTUATION):
            raise InvalidNicknameError(
                f"a nickname may hold letters, digits, spaces and {' '.join(_PUNCTUATION)}, "
                f"not {char!r}"
            )
    if not name[0].isalnum():
        raise InvalidNicknameError("a nickname starts with a letter or a digit")
    return name


class Sessions:
    """Signs user ids into session tokens and reads them back."""

    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="raspisnoy-session")

    def token(self, user_id: str) -> str:
        return self._serializer.dumps(user_id)

    def user_id(self, token: str) -> str | None:
        """The user id a token was signed for; ``None`` if forged, damaged or expired."""
        try:
            value = self._serializer.loads(token, max_age=SESSION_MAX_AGE)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None
