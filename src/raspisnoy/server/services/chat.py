"""The table chat (docs/PROTOCOL.md, "Chat"): short texts and quick phrases written by
the people at a table, and by its spectators if the host allowed it at creation.

Each message is stored with the game (``store.Together``) before anyone is sent it, with
the round and the tricks finished at that moment, so the replay shows it in its place.
It is numbered after the history the room read from the store, and stored under the
table's ownership token (docs/cluster.md), so a worker that lost the table stores no
line; a line that could not be stored makes the room read the history again.
A text is kept as written (after trimming and folding whitespace) and never interpreted:
the client shows it as text. A phrase is an id of ``PHRASES``, which each reader's client
shows in its own language. Each viewer may mute a person: the server then sends them none
of that person's messages (kept in memory per table, and re-sent by the browser, which
remembers its mutes, after each ``state``). Between two people where either blocked the
other (docs/friends.md) no message goes either way, live or in the history: the blocks
are read from the store at each message and each history, so a new block holds at once.
A person muted by a moderator (everywhere) or by the club a table belongs to (at its
tables, docs/clubs.md) is refused each line until the later mute ends (``ChatMute``).
Bots never chat.

What a message tells (who wrote it, from which seat, when in the game) is public at the
table; a spectator of a table without spectator chat gets none of it.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from raspisnoy.core import Game
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.protocol import Chat, ClientMessage, Mute, ProtocolError
from raspisnoy.server.wire import chat_json, encode
from raspisnoy.store import ChatRow, StoreError, TableRow

if TYPE_CHECKING:
    from raspisnoy.server.connection import Connection
    from raspisnoy.server.limits import Limits

__all__ = ["ChatMute", "ChatRoom", "ChatTable", "chat_mute", "count_chat", "may_read"]

#: The most messages a ``chat`` history carries (the latest ones).
HISTORY = 100


class ChatStore(Protocol):
    """Where a table's chat is stored (the actor's port)."""

    async def add_chat(self, row: ChatRow) -> None:
        """Store a message under the table's ownership token (``Together.add_chat``);
        raises ``StoreError`` if it could not be stored (``FencedError``: another
        worker owns the table now)."""

    async def chat_of(self, table_id: str) -> list[ChatRow]:
        """The table's chat as stored."""

    async def blocked_with(self, user_id: str) -> frozenset[str]:
        """The people kept apart from ``user_id`` (either blocked the other)."""

    async def mute_of(self, table_id: str, user_id: str) -> ChatMute | None:
        """Why and until when the person may not write at the table (``None``: they may)."""


@dataclass(frozen=True, slots=True)
class ChatMute:
    """A mute that refuses a person's lines: its refusal (``muted``: a moderator's, at
    every table; ``club_muted``: the club's admins', at the club's tables) and its end."""

    code: Refusal
    until: datetime


#: Who mutes, in the English text of each refusal.
_MUTERS = {Refusal.MUTED: "a moderator", Refusal.CLUB_MUTED: "the club's admins"}


def chat_mute(moderator: datetime | None, club: datetime | None) -> ChatMute | None:
    """The mute that holds a person's lines at a table: of a moderator's mute (until
    ``moderator``) and their club's (until ``club``), the one that ends later, since
    they may write only when both are over; ``None`` if neither holds."""
    mutes = [ChatMute(Refusal.MUTED, moderator)] if moderator is not None else []
    if club is not None:
        mutes.append(ChatMute(Refusal.CLUB_MUTED, club))
    return max(mutes, key=lambda mute: mute.until, default=None)


class ChatTable(Protocol):
    """What the chat sees of its table (the actor): no more, so the chat needs nothing
    else of the actor and the actor can be tested without it."""

    @property
    def port(self) -> ChatStore:
        """Where the chat is stored."""

    @property
    def table(self) -> TableRow:
        """The table as it is now (its id, names and whether spectators chat)."""

    @property
    def game(self) -> Game | None:
        """The game being played (``None`` before the start)."""

    @property
    def connections(self) -> frozenset[Connection]:
        """The clients connected now."""


def may_read(table: TableRow, user_id: str | None) -> bool:
    """Whether a caller may read the table's chat: a person seated at it, or anyone if
    the host allowed spectators to chat."""
    seated = user_id is not None and any(s.user_id == user_id for s in table.seats)
    return seated or table.spectator_chat


def count_chat(limits: Limits, connection: Connection, message: ClientMessage) -> None:
    """Count a ``chat`` message (well-formed: ``protocol`` refused a malformed one,
    uncounted) against its writer's limit (``chat_messages_per_user``); over it, the
    ``rate_limited`` error naming the limit."""
    if not isinstance(message, Chat) or connection.user is None:
        return
    try:
        limits.hit(limits.chat_per_user, "chat messages", connection.user.id)
    except RequestError as error:
        raise ProtocolError(Refusal.RATE_LIMITED, error.message, params=error.params) from None


class ChatRoom:
    """The chat of one table, inside its actor (every method runs in the actor's task)."""

    def __init__(self, table: ChatTable) -> None:
        # A proxy, not the actor itself: the actor holds this object, and a reference back
        # would make a cycle that keeps a dropped table alive until a collection.
        self._actor: ChatTable = weakref.proxy(table)
        self._rows: list[ChatRow] | None = None
        #: Whom each viewer (user id) muted.
        self._muted: dict[str, set[str]] = {}

    def forget(self) -> None:
        """Read the chat from the store again at its next use (its names changed there)."""
        self._rows = None

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

    async def _blocked_with(self, connection: Connection) -> frozenset[str]:
        user = connection.user
        return frozenset() if user is None else await self._actor.port.blocked_with(user.id)

    async def send_history(self, connection: Connection) -> None:
        """The ``chat`` history (after each ``state``): what this client may read, without
        the people it muted or is kept apart from by a block, and whether it may write."""
        reads = self._reads(connection)
        muted = self._hidden_from(connection)
        rows: list[ChatRow] = []
        if reads:
            hidden = muted | await self._blocked_with(connection)
            rows = [r for r in await self._history() if r.user_id not in hidden]
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

    async def receive(self, connection: Connection, message: Chat | Mute) -> None:
        """A ``chat`` or ``mute`` message from ``connection``."""
        match message:
            case Mute():
                await self._mute(connection, message)
            case Chat():
                await self._write(connection, message)

    async def _mute(self, connection: Connection, message: Mute) -> None:
        user = connection.user
        if user is None:
            raise ProtocolError(Refusal.CHAT_FORBIDDEN, "mute: sign in first")
        if message.user_id == user.id:
            raise ProtocolError(Refusal.BAD_MESSAGE, "mute: you cannot mute yourself")
        mine = self._muted.setdefault(user.id, set())
        (mine.add if message.muted else mine.discard)(message.user_id)
        await self.send_history(connection)

    async def _write(self, connection: Connection, message: Chat) -> None:
        text, phrase = message.text, message.phrase
        user = connection.user
        if user is None or not self._writes(connection):
            raise ProtocolError(
                Refusal.CHAT_FORBIDDEN,
                "chat: sign in first"
                if user is None
                else "chat: only the players write at this table (the host did not open its "
                "chat to spectators)",
            )
        actor = self._actor
        mute = await actor.port.mute_of(actor.table.id, user.id)
        if mute is not None:
            until = mute.until.isoformat()
            raise ProtocolError(
                mute.code,
                f"chat: {_MUTERS[mute.code]} muted you until {until}",
                params={"until": until},
            )
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
        except StoreError:
            # The history read may be behind the store (a line stored by a worker that
            # held the table before): read it again for the next line, whose number
            # would otherwise be taken too, and every line after it.
            self.forget()
            raise ProtocolError(
                Refusal.STORAGE_FAILED, "the message was not stored: write it again"
            ) from None
        rows.append(row)
        shared = encode({"type": "chat", "history": False, "messages": [chat_json(row)]})
        apart = await self._blocked_with(connection)
        for other in actor.connections:
            reader = other.user
            if reader is not None and reader.id in apart:
                continue
            if self._reads(other) and user.id not in self._hidden_from(other):
                other.send(shared)


def _moment(actor: ChatTable) -> tuple[int, int]:
    """Where the game is: its round (0 before the start) and the tricks finished in it."""
    game = actor.game
    if game is None:
        return 0, 0
    view = game.view(None)
    return view.round, len(view.tricks)
