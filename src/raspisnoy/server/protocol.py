"""The WebSocket protocol's messages (docs/PROTOCOL.md): views and tables as JSON, parsing
of what clients send, and the error codes.

Everything a seat is sent about the game is built here from ``game.view(seat)`` and from
public facts (the tricks and results of finished rounds, which every player saw), never
from the full game state. A spectator's view is ``game.view(None)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import orjson

from raspisnoy.core import RoundResult, Trick, View

__all__ = [
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ErrorCode",
    "ProtocolError",
    "encode",
    "error_message",
    "parse_client_message",
    "round_summary",
    "trick_json",
    "view_json",
]

#: Sent in every ``state`` message; bumped when a message changes incompatibly.
PROTOCOL_VERSION = 1
#: The longest client id accepted for an action.
MAX_CLIENT_ID = 64
#: The longest action text (the longest real one, ``control:no-trump:4``, is 18 characters).
MAX_ACTION = 32


def encode(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (names and nicknames kept as written).

    orjson, because encoding a view for every seat after every action is a large share
    of the server's work, and orjson does it several times faster than ``json``."""
    return orjson.dumps(message).decode()


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


class ProtocolError(Exception):
    """A client message that cannot be carried out; becomes an ``error`` message."""

    def __init__(self, code: ErrorCode, message: str, client_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A parsed client message: ``type`` and, for ``act``, the action, its id and seat."""

    type: str
    id: str | None = None
    action: str | None = None
    seat: int | None = None


_TYPES = ("act", "sync", "back", "ping")
_FIELDS = {
    "act": {"type", "id", "action", "seat"},
    "sync": {"type"},
    "back": {"type"},
    "ping": {"type"},
}


def parse_client_message(text: str) -> ClientMessage:
    """Parse and check one client message, raising ``ProtocolError`` that names the problem."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise ProtocolError(ErrorCode.BAD_JSON, f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'a message needs a "type" text field')
    if kind not in _TYPES:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"unknown message type {kind[:40]!r}; types: {', '.join(_TYPES)}",
        )
    unknown = sorted(set(data) - _FIELDS[kind])
    if unknown:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: unknown field {unknown[0][:40]!r}")
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


def error_message(error: ProtocolError) -> dict[str, Any]:
    """The ``error`` message for ``error``."""
    message: dict[str, Any] = {"type": "error", "code": str(error.code), "message": error.message}
    if error.client_id is not None:
        message["id"] = error.client_id
    return message


def _cards(cards: tuple[Any, ...] | None) -> list[str] | None:
    return None if cards is None else [str(card) for card in cards]


def trick_json(trick: Trick) -> dict[str, Any]:
    """A trick: leader, the cards in order from the leader, winner (``null`` while open)."""
    return {"leader": trick.leader, "cards": [str(p) for p in trick.plays], "winner": trick.winner}


def view_json(view: View) -> dict[str, Any]:
    """One seat's ``View`` as JSON: everything that seat may know, nothing more."""
    return {
        "seat": view.seat,
        "phase": str(view.phase),
        "round": view.round,
        "cards": view.cards,
        "kind": str(view.kind),
        "dealer": view.dealer,
        "to_act": view.to_act,
        "hand": _cards(view.hand),
        "shown_hands": [_cards(hand) for hand in view.shown_hands],
        "trump_card": None if view.trump_card is None else str(view.trump_card),
        "trump": None if view.trump is None else view.trump.letter,
        "trump_hidden": view.trump_hidden,
        "bids": None if view.bids is None else list(view.bids),
        "taken": list(view.taken),
        "hand_sizes": list(view.hand_sizes),
        "trick": trick_json(view.trick),
        "tricks": [trick_json(trick) for trick in view.tricks],
        "scores": [list(points) for points in view.scores],
        "totals": list(view.totals),
        "legal": [str(action) for action in view.legal_actions],
    }


def round_summary(result: RoundResult) -> dict[str, Any]:
    """A finished round as everyone saw it: bids, tricks, points. The dealt hands are left
    out (every card was played anyway) and so is the undealt rest."""
    return {
        "round": result.number,
        "dealer": result.dealer,
        "cards": result.cards,
        "kind": str(result.kind),
        "trump_card": None if result.trump_card is None else str(result.trump_card),
        "trump": None if result.trump is None else result.trump.letter,
        "bids": None if result.bids is None else list(result.bids),
        "taken": list(result.taken),
        "tricks": [trick_json(trick) for trick in result.tricks],
        "points": None if result.points is None else list(result.points),
    }
