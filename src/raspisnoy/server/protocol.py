"""What WebSocket clients send (docs/PROTOCOL.md): each message type as a frozen
dataclass, parsed and checked here, so the actor, the chat and the rematch receive only
well-formed messages and dispatch on their class (``match``). The codes of the ``error``
messages that answer them are refusals (``errors.Refusal``); what the server sends is
built in ``raspisnoy.server.wire``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from raspisnoy.server.errors import Refusal
from raspisnoy.server.wire import error_message

__all__ = [
    "MAX_TEXT",
    "PHRASES",
    "Act",
    "Back",
    "Chat",
    "ClientMessage",
    "LobbyMessage",
    "Mute",
    "Ping",
    "ProtocolError",
    "RematchAnswer",
    "Sync",
    "check_text",
    "parse_client_message",
    "parse_lobby_message",
]

#: The longest client id accepted for an action.
MAX_CLIENT_ID = 64
#: The longest action text (the longest real one, ``control:no-trump:4``, is 18 characters).
MAX_ACTION = 32
#: The longest chat text, in characters after trimming.
MAX_TEXT = 200
#: The chat's quick phrases and reactions, by id; the client translates them
#: (``web.chat.phrase.*``).
PHRASES = (
    "hello",
    "well_played",
    "oops",
    "thanks",
    "sorry",
    "wow",
    "hurry",
    "bye",
    "like",
    "laugh",
    "surprise",
    "sad",
)
#: Characters that would reorder the text around them on screen (Unicode's Bidi_Control:
#: marks, embeddings, overrides and isolates): refused, so a message shows what it says.
_REFUSED = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: Unicode's default-ignorable code points (Default_Ignorable_Code_Point,
#: DerivedCoreProperties.txt, Unicode 15.1): drawn as nothing (soft hyphens, zero-width
#: spaces and joiners, the byte-order mark, fillers, variation selectors, tag
#: characters). Taken out of a text, so what it holds is what a reader sees.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_SPACES = re.compile(r"\s+")


class ProtocolError(Exception):
    """A client message that cannot be carried out; becomes an ``error`` message (with the
    ``params`` a client words it with, where its code has any)."""

    def __init__(
        self,
        code: Refusal,
        message: str,
        client_id: str | None = None,
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id
        self.params = dict(params or {})

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message that answers the client."""
        return error_message(self.code, self.message, self.client_id, self.params)


@dataclass(frozen=True, slots=True)
class Act:
    """``act``: an action (as the view's ``legal`` strings write it) under the client's
    ``id``, for the sender's own seat (``seat``, if sent, must be it)."""

    id: str
    action: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Sync:
    """``sync``: send the full state again."""


@dataclass(frozen=True, slots=True)
class Back:
    """``back``: the player is back at the table (a stand-in played for them)."""


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping``: answered with ``pong`` and the table's version."""


@dataclass(frozen=True, slots=True)
class Chat:
    """``chat``: a text (as stored: ``check_text``) or one of ``PHRASES``, never both."""

    text: str | None
    phrase: str | None


@dataclass(frozen=True, slots=True)
class Mute:
    """``mute``: stop (``muted``) or start again sending the sender ``user_id``'s chat."""

    user_id: str
    muted: bool


@dataclass(frozen=True, slots=True)
class RematchAnswer:
    """``rematch``: the sender accepts or declines the rematch."""

    accept: bool


ClientMessage = Act | Sync | Back | Ping | Chat | Mute | RematchAnswer
#: The lobby socket's messages (``routes.lobby``): ask for the lobby again, or a ping.
LobbyMessage = Sync | Ping


def check_text(text: str) -> str:
    """``text`` as stored: NFC, without invisible characters, whitespace runs (newlines
    too) as one space, trimmed; a ``ProtocolError`` naming the problem if it is empty, too
    long, or has control, format or direction-changing characters."""
    normal = unicodedata.normalize("NFC", text)
    cleaned = _SPACES.sub(" ", _INVISIBLE.sub("", normal)).strip()
    if not cleaned:
        raise ProtocolError(Refusal.BAD_MESSAGE, 'chat: "text" is empty')
    if len(cleaned) > MAX_TEXT:
        raise ProtocolError(
            Refusal.BAD_MESSAGE,
            f'chat: "text" has {len(cleaned)} characters, at most {MAX_TEXT}',
        )
    if _REFUSED.search(normal) or any(unicodedata.category(c) in ("Cc", "Cf") for c in cleaned):
        raise ProtocolError(
            Refusal.BAD_MESSAGE, 'chat: "text" holds control or direction-changing characters'
        )
    return cleaned


def _act(data: dict[str, Any]) -> Act:
    client_id = data.get("id")
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= MAX_CLIENT_ID:
        raise ProtocolError(
            Refusal.BAD_MESSAGE, f'act: "id" must be a text of 1 to {MAX_CLIENT_ID} characters'
        )
    action = data.get("action")
    if not isinstance(action, str) or not 1 <= len(action) <= MAX_ACTION:
        raise ProtocolError(
            Refusal.BAD_MESSAGE,
            f'act: "action" must be a text of 1 to {MAX_ACTION} characters '
            '(a bid such as "2", a card such as "KD" or "X:take")',
            client_id,
        )
    seat = data.get("seat")
    if seat is not None and (type(seat) is not int):
        raise ProtocolError(Refusal.BAD_MESSAGE, 'act: "seat" must be a seat number', client_id)
    return Act(client_id, action, seat)


def _chat(data: dict[str, Any]) -> Chat:
    """The text or the phrase of a ``chat`` message: exactly one of them, checked."""
    text, phrase = data.get("text"), data.get("phrase")
    if (text is None) == (phrase is None):
        raise ProtocolError(Refusal.BAD_MESSAGE, 'chat: send either "text" or "phrase"')
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            shown = phrase[:40] if isinstance(phrase, str) else phrase
            raise ProtocolError(
                Refusal.BAD_MESSAGE,
                f"chat: unknown phrase {shown!r}; phrases: {', '.join(PHRASES)}",
            )
        return Chat(None, phrase)
    if not isinstance(text, str):
        raise ProtocolError(Refusal.BAD_MESSAGE, 'chat: "text" must be a text')
    return Chat(check_text(text), None)


def _mute(data: dict[str, Any]) -> Mute:
    user_id, muted = data.get("user_id"), data.get("muted")
    if not isinstance(user_id, str) or not 1 <= len(user_id) <= 64:
        raise ProtocolError(Refusal.BAD_MESSAGE, 'mute: "user_id" must be a user id')
    if type(muted) is not bool:
        raise ProtocolError(Refusal.BAD_MESSAGE, 'mute: "muted" must be true or false')
    return Mute(user_id, muted)


def _rematch(data: dict[str, Any]) -> RematchAnswer:
    accept = data.get("accept")
    if type(accept) is not bool:
        raise ProtocolError(Refusal.BAD_MESSAGE, 'rematch: "accept" must be true or false')
    return RematchAnswer(accept)


_Message = TypeVar("_Message")
#: Each message type: its fields, and how its message is read from them.
_Readers = Mapping[str, tuple[frozenset[str], Callable[[dict[str, Any]], _Message]]]
_ONLY_TYPE = frozenset({"type"})
_TABLE: _Readers[ClientMessage] = {
    "act": (frozenset({"type", "id", "action", "seat"}), _act),
    "sync": (_ONLY_TYPE, lambda _data: Sync()),
    "back": (_ONLY_TYPE, lambda _data: Back()),
    "ping": (_ONLY_TYPE, lambda _data: Ping()),
    "chat": (frozenset({"type", "text", "phrase"}), _chat),
    "mute": (frozenset({"type", "user_id", "muted"}), _mute),
    "rematch": (frozenset({"type", "accept"}), _rematch),
}
_LOBBY: _Readers[LobbyMessage] = {
    "sync": (_ONLY_TYPE, lambda _data: Sync()),
    "ping": (_ONLY_TYPE, lambda _data: Ping()),
}


def parse_client_message(text: str) -> ClientMessage:
    """Parse and check one table socket message, raising ``ProtocolError`` that names the
    problem."""
    return _parse(text, _TABLE)


def parse_lobby_message(text: str) -> LobbyMessage:
    """One lobby socket message (``sync`` or ``ping``), or ``ProtocolError``."""
    return _parse(text, _LOBBY)


def _parse(text: str, readers: _Readers[_Message]) -> _Message:
    """A JSON object with a ``type`` among ``readers`` and only that type's fields, read."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise ProtocolError(Refusal.BAD_JSON, f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError(Refusal.BAD_MESSAGE, "a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(Refusal.BAD_MESSAGE, 'a message needs a "type" text field')
    if kind not in readers:
        raise ProtocolError(
            Refusal.UNKNOWN_TYPE,
            f"unknown message type {kind[:40]!r}; types: {', '.join(readers)}",
        )
    fields, read = readers[kind]
    unknown = sorted(set(data) - fields)
    if unknown:
        raise ProtocolError(Refusal.BAD_MESSAGE, f"{kind}: unknown field {unknown[0][:40]!r}")
    return read(data)
