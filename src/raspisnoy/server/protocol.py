"""What WebSocket clients send (docs/PROTOCOL.md): parsing and checking their messages,
and the codes of the ``error`` messages that answer them. What the server sends is
built in ``raspisnoy.server.wire``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import orjson

from raspisnoy.server.wire import error_message

__all__ = [
    "ClientMessage",
    "ErrorCode",
    "ProtocolError",
    "parse_client_message",
    "parse_lobby_message",
]

#: The longest client id accepted for an action.
MAX_CLIENT_ID = 64
#: The longest action text (the longest real one, ``control:no-trump:4``, is 18 characters).
MAX_ACTION = 32


class ErrorCode(StrEnum):
    """The ``code`` of an ``error`` message."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    NOT_SEATED = "not_seated"
    WRONG_SEAT = "wrong_seat"
    NOT_STARTED = "not_started"
    NOT_YOUR_TURN = "not_your_turn"
    INVALID_ACTION = "invalid_action"
    ILLEGAL_ACTION = "illegal_action"
    STORAGE_FAILED = "storage_failed"
    DUPLICATE_ID = "duplicate_id"
    #: Chat and rematch (``raspisnoy.server.services.chat``, ``raspisnoy.server.services.rematch``).
    RATE_LIMITED = "rate_limited"
    CHAT_FORBIDDEN = "chat_forbidden"
    NOT_OVER = "not_over"
    REMATCH_CLOSED = "rematch_closed"


class ProtocolError(Exception):
    """A client message that cannot be carried out; becomes an ``error`` message."""

    def __init__(self, code: ErrorCode, message: str, client_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message that answers the client."""
        return error_message(self.code, self.message, self.client_id)


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A parsed client message: ``type`` and, for ``act``, the action, its id and seat;
    for ``chat``, ``mute`` and ``rematch`` their fields as sent (``data``), which the
    chat and rematch modules check."""

    type: str
    id: str | None = None
    action: str | None = None
    seat: int | None = None
    data: dict[str, Any] | None = None


_FIELDS = {
    "act": {"type", "id", "action", "seat"},
    "sync": {"type"},
    "back": {"type"},
    "ping": {"type"},
    "chat": {"type", "text", "phrase"},
    "mute": {"type", "user_id", "muted"},
    "rematch": {"type", "accept"},
}


#: The lobby socket's messages (``routes.lobby``): ask for the lobby again, or a ping.
_LOBBY_FIELDS = {"sync": {"type"}, "ping": {"type"}}


def parse_lobby_message(text: str) -> str:
    """The type of one lobby socket message (``sync`` or ``ping``), or ``ProtocolError``."""
    return _typed(text, _LOBBY_FIELDS)[0]


def _typed(text: str, fields: dict[str, set[str]]) -> tuple[str, dict[str, Any]]:
    """A JSON object with a ``type`` among ``fields`` and only that type's fields."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise ProtocolError(ErrorCode.BAD_JSON, f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'a message needs a "type" text field')
    if kind not in fields:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"unknown message type {kind[:40]!r}; types: {', '.join(fields)}",
        )
    unknown = sorted(set(data) - fields[kind])
    if unknown:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: unknown field {unknown[0][:40]!r}")
    return kind, data


def parse_client_message(text: str) -> ClientMessage:
    """Parse and check one client message, raising ``ProtocolError`` that names the problem."""
    kind, data = _typed(text, _FIELDS)
    if kind in ("chat", "mute", "rematch"):
        return ClientMessage(kind, data=data)
    if kind != "act":
        return ClientMessage(kind)
    client_id = data.get("id")
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= MAX_CLIENT_ID:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f'act: "id" must be a text of 1 to {MAX_CLIENT_ID} characters'
        )
    action = data.get("action")
    if not isinstance(action, str) or not 1 <= len(action) <= MAX_ACTION:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f'act: "action" must be a text of 1 to {MAX_ACTION} characters '
            '(a bid such as "2", a card such as "KD" or "X:take")',
            client_id,
        )
    seat = data.get("seat")
    if seat is not None and (type(seat) is not int):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'act: "seat" must be a seat number', client_id)
    return ClientMessage(kind, client_id, action, seat)
