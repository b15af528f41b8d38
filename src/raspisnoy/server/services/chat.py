"""The table chat (docs/PROTOCOL.md, "Chat"): short texts and quick phrases written by
the people at a table, and by its spectators if the host allowed it at creation.

Each message is stored with the game (``store.Together``) before anyone is sent it, with
the round and the tricks finished at that moment, so the replay shows it in its place.
A text is kept as written (after trimming and folding whitespace) and never interpreted:
the client shows it as text. A phrase is an id of ``PHRASES``, which each reader's client
shows in its own language. Each viewer may mute a person: the server then sends them none
of that person's messages (kept in memory per table, and re-sent by the browser, which
remembers its mutes, after each ``state``). Bots never chat.

What a message tells (who wrote it, from which seat, when in the game) is public at the
table; a spectator of a table without spectator chat gets none of it.
"""

from __future__ import annotations

import re
import unicodedata
import weakref
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from raspisnoy.server.errors import RequestError
from raspisnoy.server.protocol import ClientMessage, ErrorCode, ProtocolError
from raspisnoy.server.wire import chat_json, encode
from raspisnoy.store import ChatRow, StoreError, TableRow

if TYPE_CHECKING:
    from raspisnoy.server.connection import Connection
    from raspisnoy.server.limits import Limits
    from raspisnoy.server.services.tables.actor import TableActor

__all__ = [
    "MAX_TEXT",
    "PHRASES",
    "ChatOut",
    "ChatRoom",
    "check_text",
    "count_chat",
    "may_read",
]

#: The longest text, in characters after trimming.
MAX_TEXT = 200
#: The quick phrases and reactions, by id; the client translates them (``web.chat.phrase.*``).
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
#: The most messages a ``chat`` history carries (the latest ones).
HISTORY = 100
#: Characters that would reorder the text around them on screen (bidirectional overrides
#: and isolates) or are invisible controls: refused, so a message shows what it says.
_REFUSED = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SPACES = re.compile(r"\s+")


def check_text(text: str) -> str:
    """``text`` as stored: NFC, whitespace runs (newlines too) as one space, trimmed; a
    ``ProtocolError`` naming the problem if it is empty, too long or has control
    characters."""
    cleaned = _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()
    if not cleaned:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'chat: "text" is empty')
    if len(cleaned) > MAX_TEXT:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f'chat: "text" has {len(cleaned)} characters, at most {MAX_TEXT}',
        )
    if _REFUSED.search(cleaned) or any(unicodedata.category(c) == "Cc" for c in cleaned):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, 'chat: "text" holds control or direction-changing characters'
        )
    return cleaned


def may_read(table: TableRow, user_id: str | None) -> bool:
    """Whether a caller may read the table's chat: a person seated at it, or anyone if
    the host allowed spectators to chat."""
    seated = user_id is not None and any(s.user_id == user_id for s in table.seats)
    return seated or table.spectator_chat


def count_chat(limits: Limits, connection: Connection, message: ClientMessage) -> None:
    """Count a well-formed ``chat`` message against its writer's limit
    (``chat_messages_per_user``); over it, the ``rate_limited`` error naming the limit.
    A malformed one is refused first, uncounted."""
    if message.type != "chat" or connection.user is None:
        return
    _content(message.data or {})
    try:
        limits.hit(limits.chat_per_user, "chat messages", connection.user.id)
    except RequestError as error:
        raise ProtocolError(ErrorCode.RATE_LIMITED, error.message) from None


class ChatOut(BaseModel):
    """``GET /api/games/{id}/chat``: the table's chat in order."""

    model_config = ConfigDict(extra="forbid")

    messages: list[dict[str, Any]]


class ChatRoom:
    """The chat of one table, inside its actor (every method runs in the actor's task)."""

    def __init__(self, actor: TableActor) -> None:
        # A proxy, not the actor itself: the actor holds this object, and a reference back
        # would make a cycle that keeps a dropped table alive until a collection.
        self._actor: TableActor = weakref.proxy(actor)
        self._rows: list[ChatRow] | None = None
        #: Whom each viewer (user id) muted.
        self._muted: dict[str, set[str]] = {}

    async def _history(self) -> list[ChatRow]:
        if self._rows is None:
            self._rows = await self._actor.port.chat_of(self._actor.table.id)
        return self._rows

    def _reads(self, connection: Connection) -> bool:
        return connection.seat is not None or self._actor.table.spectator_chat

    def _writes(self, connection: Connection) -> bool:
        return connection.user is not None and self._reads(connection)

    def _hidden_from(self, connection: Connection) -> set[str]:
        user = connection.user
        return set() if user is None else self._muted.get(user.id, set())

    async def send_history(self, connection: Connection) -> None:
        """The ``chat`` history (after each ``state``): what this client may read, without
        the people it muted, and whether it may write."""
        reads = self._reads(connection)
        muted = self._hidden_from(connection)
        rows = [r for r in await self._history() if r.user_id not in muted] if reads else []
        connection.send(
            {
                "type": "chat",
                "history": True,
                "read": reads,
                "write": self._writes(connection),
                "muted": sorted(muted),
                "messages": [chat_json(row) for row in rows[-HISTORY:]],
            }
        )

    async def receive(self, connection: Connection, message: ClientMessage) -> None:
        """A ``chat`` or ``mute`` message from ``connection``."""
        data = message.data or {}
        if message.type == "mute":
            await self._mute(connection, data)
        else:
            await self._write(connection, data)

    async def _mute(self, connection: Connection, data: Mapping[str, Any]) -> None:
        user_id, muted = data.get("user_id"), data.get("muted")
        if not isinstance(user_id, str) or not 1 <= len(user_id) <= 64:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, 'mute: "user_id" must be a user id')
        if type(muted) is not bool:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, 'mute: "muted" must be true or false')
        user = connection.user
        if user is None:
            raise ProtocolError(ErrorCode.CHAT_FORBIDDEN, "mute: sign in first")
        if user_id == user.id:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "mute: you cannot mute yourself")
        mine = self._muted.setdefault(user.id, set())
        (mine.add if muted else mine.discard)(user_id)
        await self.send_history(connection)

    async def _write(self, connection: Connection, data: Mapping[str, Any]) -> None:
        text, phrase = _content(data)
        user = connection.user
        if user is None or not self._writes(connection):
            raise ProtocolError(
                ErrorCode.CHAT_FORBIDDEN,
                "chat: sign in first"
                if user is None
                else "chat: only the players write at this table (the host did not open its "
                "chat to spectators)",
            )
        actor = self._actor
        rows = await self._history()
        round_number, tricks = _moment(actor)
        seat = connection.seat
        names = actor.table.names
        row = ChatRow(
            actor.table.id,
            len(rows) + 1,
            user.id,
            names[seat] if seat is not None and names is not None else user.nickname,
            seat,
            text,
            phrase,
            round_number,
            tricks,
            datetime.now(UTC),
        )
        try:
            await actor.port.add_chat(row)
        except StoreError as error:
            raise ProtocolError(
                ErrorCode.STORAGE_FAILED, f"the message was not stored: {error}"
            ) from None
        rows.append(row)
        shared = encode({"type": "chat", "history": False, "messages": [chat_json(row)]})
        for other in actor.connections:
            if self._reads(other) and user.id not in self._hidden_from(other):
                other.send(shared)


def _content(data: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The text or the phrase of a ``chat`` message: exactly one of them, checked."""
    text, phrase = data.get("text"), data.get("phrase")
    if (text is None) == (phrase is None):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'chat: send either "text" or "phrase"')
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            shown = phrase[:40] if isinstance(phrase, str) else phrase
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"chat: unknown phrase {shown!r}; phrases: {', '.join(PHRASES)}",
            )
        return None, phrase
    if not isinstance(text, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'chat: "text" must be a text')
    return check_text(text), None


def _moment(actor: TableActor) -> tuple[int, int]:
    """Where the game is: its round (0 before the start) and the tricks finished in it."""
    game = actor.game
    if game is None:
        return 0, 0
    view = game.view(None)
    return view.round, len(view.tricks)
