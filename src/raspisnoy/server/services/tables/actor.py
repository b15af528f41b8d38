"""One actor per table: an asyncio task with a queue that runs the table's commands one
at a time, so nothing about a table ever races.

Commands come from WebSocket clients (actions, returning from away), from REST routes
(take a seat, leave, start) and from the actor's own turn task: a bot's move after the
table's bot delay, or the turn timer running out, after which a stand-in bot plays the
seat and the player is marked away until they act again (docs/rules.md §3.5); the store
keeps that mark, so a worker that loads the table next keeps the stand-in playing. An
action is applied to a copy of the game, stored, and only then made the table's state and
sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from raspisnoy.bots import Bot, make_bot
from raspisnoy.core import (
    Action,
    Game,
    IllegalActionError,
    InvalidInputError,
    NotYourTurnError,
    View,
    parse_action,
    resolve_rules,
)
from raspisnoy.ratings import rebuild_game
from raspisnoy.server.connection import CloseCode, Connection
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.protocol import (
    Act,
    Back,
    Chat,
    ClientMessage,
    Mute,
    Ping,
    ProtocolError,
    RematchAnswer,
    Sync,
)
from raspisnoy.server.services.chat import ChatMute, ChatRoom
from raspisnoy.server.services.rematch import Rematch
from raspisnoy.server.services.results import retry_delay
from raspisnoy.server.wire import (
    Json,
    ack_message,
    action_event,
    action_text,
    encode,
    pong_message,
    seat_view_json,
    spectators_message,
    state_message,
    table_json,
    table_message,
    view_json,
)
from raspisnoy.store import (
    ChatRow,
    EventRow,
    FencedError,
    StaleWriteError,
    StoreError,
    TableRow,
)

__all__ = ["TableActor", "TablePort", "seat_names"]

_log = logging.getLogger(__name__)
#: How long a bot waits before trying again when its move could not be stored.
_RETRY_SECONDS = 1.0
#: How long the people a game expects (a rematch's, or a game's that moved to this worker)
#: count as present without a connection, at a table without a turn timer, before they
#: are marked away.
_ARRIVAL_SECONDS = 15.0
_CLOSED = "the table is moving to another server worker: try again in a moment"
_T = TypeVar("_T")


class TablePort(Protocol):
    """What an actor needs from the server around it: the store of its table and a way
    to be dropped. The hub provides it; the actor knows nothing else of the hub."""

    async def append(self, row: EventRow) -> None:
        """Store an action; returns once it is committed, raises ``StoreError`` if not."""

    async def finish(self, table: TableRow, game: Game) -> TableRow:
        """Store the end of ``table``'s finished ``game`` (its results and ratings, once:
        ``services.results``); the table as stored now. Raises ``StoreError`` if it could
        not be stored; trying again is safe."""

    async def set_seat(self, table_id: str, seat: int, user_id: str | None) -> None:
        """Seat ``user_id`` before the start, moving them from any other seat of theirs
        (``None``: free the seat); at a table whose host left it, they become its host
        (``Store.set_seat``)."""

    async def leave_open_table(self, table_id: str, seat: int, user_id: str) -> None:
        """``user_id`` leaves ``seat`` before the start; a host's part passes on
        (``Store.leave_open_table``)."""

    async def start(
        self,
        table_id: str,
        names: Sequence[str],
        first_dealer: int,
        games_cap: int | None,
        seated: Sequence[str | None],
    ) -> TableRow:
        """Store that the game started with these names and first dealer; the table now.
        With a ``games_cap``, ``SeatCapError`` and nothing stored where the host plays
        that many games already; ``StaleWriteError`` and nothing stored if the seats no
        longer hold ``seated``, whom the names were made from (``Store.start_table``)."""

    async def set_away(self, table_id: str, seat: int, away: bool) -> None:
        """Keep whether a stand-in plays ``seat`` for its away person (``Store.set_away``),
        for a worker that loads the table later; raises ``StoreError`` if not stored."""

    async def reload(self, table_id: str) -> TableRow:
        """The table as stored now."""

    async def events_of(self, table_id: str) -> list[EventRow]:
        """The table's stored actions in order."""

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        """Run a blocking call (a bot's search) in a worker thread."""

    def drop_later(self, table_id: str) -> None:
        """Drop the table's actor once its command is done, if nothing uses it any more."""

    async def add_chat(self, row: ChatRow) -> None:
        """Store a chat message; raises ``StoreError`` if it could not be stored."""

    async def chat_of(self, table_id: str) -> list[ChatRow]:
        """The table's chat as stored."""

    async def blocked_with(self, user_id: str) -> frozenset[str]:
        """The people kept apart from ``user_id`` (either blocked the other: no chat)."""

    async def mute_of(self, table_id: str, user_id: str) -> ChatMute | None:
        """Why and until when the person may not write at the table (``chat.ChatMute``:
        a moderator's mute or the table's club's; ``None``: they may write)."""

    async def open_rematch(
        self, old: TableRow, people: dict[int, str], host_id: str, first_dealer: int
    ) -> str:
        """Open and start the rematch of ``old`` for ``people`` (``rematch``), or the one
        it started already (a worker that held the table before opened it); its id. A
        rematch table found still open is started (``RematchOpener``)."""

    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch the table started, if any (as stored); its game is
        started now if it was not (``RematchOpener``)."""

    def bot_failed(self, level: str) -> None:
        """A bot of ``level`` failed to choose a move (its first legal one was played
        instead): counted for the operators (``raspisnoy_bot_failures_total``)."""


def seat_names(table: TableRow) -> tuple[str, ...]:
    """The game's player names: nicknames, bots as ``Bot N (level)``; repeats get the seat."""
    names: list[str] = []
    for seat in table.seats:
        name = seat.nickname if seat.nickname is not None else f"Bot {seat.seat + 1} ({seat.bot})"
        names.append(f"{name} ({seat.seat + 1})" if name in names else name)
    return tuple(names)


def _exact_action(text: str, client_id: str) -> Action:
    """The action ``text`` names, written exactly as the view's ``legal`` strings write it
    (``" 1"`` or ``"01"`` for ``"1"`` are refused), or an ``invalid_action`` error."""
    try:
        action = parse_action(text)
    except InvalidInputError as error:
        raise ProtocolError(Refusal.INVALID_ACTION, str(error), client_id) from None
    exact = action_text(action)
    if text != exact:
        raise ProtocolError(
            Refusal.INVALID_ACTION,
            f"{text!r} is not written as the protocol writes it: send {exact!r}, "
            "one of your view's legal actions",
            client_id,
        )
    return action


@dataclass(slots=True)
class _Presence:
    connections: int = 0
    away: bool = False
    #: The store keeps the seat away (``TablePort.set_away``): a stand-in plays it since
    #: its turn timer lapsed or its person left the game.
    kept: bool = False


class TableActor:
    """The live state of one table and the only code that changes it."""

    def __init__(
        self,
        port: TablePort,
        table: TableRow,
        events: Sequence[EventRow],
        max_connections: int = 64,
        rematch_seconds: float = 60.0,
        club_id: str | None = None,
    ) -> None:
        self.port = port
        #: The club the table was opened in (``None``: none): its clients are the club's
        #: members, each closed once their place in it ends (``Hub.close_club_sockets``).
        self.club_id = club_id
        self.max_connections = max_connections
        self.table = table
        self.game = rebuild_game(table, events) if table.status != "open" else None
        self.version = len(events)
        #: The version and action made under each ``(seat, client id)``, so a resent action
        #: is applied once and an id reused for another action is refused.
        self._applied = {
            (e.seat, e.client_id): (e.seq, e.action) for e in events if e.client_id is not None
        }
        self._connections: set[Connection] = set()
        #: The ``spectators`` message last sent to everyone (encoded).
        self._spectators_sent = ""
        # Without a turn timer nobody would ever mark an absent player away: they start so
        # (a game loaded mid-play gives them a moment to reconnect first: ``_expect``).
        self._presence = [_Presence(away=table.turn_seconds == 0) for _ in table.seats]
        self._bots: dict[tuple[int, str], Bot] = {}
        self._turn: asyncio.Task[None] | None = None
        self._turn_number = 0
        self._deadline: float | None = None
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = asyncio.create_task(
            self._run(), name=f"table {table.id}"
        )
        self.chat = ChatRoom(self)
        self.rematch = Rematch(self, rematch_seconds)
        if table.status == "over":  # its rematch may have been started by another worker
            self.submit(self.rematch.restore)
        #: Failed tries to store the game's end, and the timer of the next one.
        self._finish_failures = 0
        self._finish_retry: asyncio.TimerHandle | None = None
        if self.game is not None and not self.game.is_over:  # loaded mid-game
            people = [seat for seat in table.seats if seat.user_id is not None]
            for seat in people:  # away as the last owner left them: the stand-in plays on
                if seat.away:
                    self._presence[seat.seat] = _Presence(away=True, kept=True)
            self._expect(seat.seat for seat in people if not seat.away)  # the others return
        self._schedule_turn()
        if self.game is not None and self.game.is_over and table.status == "playing":
            self.submit(self._finish)  # the last action was stored, the end was not

    @property
    def connections(self) -> frozenset[Connection]:
        """The clients connected now (for the chat and the rematch to send to)."""
        return frozenset(self._connections)

    # ----------------------------------------------------------------- the mailbox

    async def call(self, command: Callable[[], Awaitable[_T]]) -> _T:
        """Run ``command`` in the actor, after the commands queued before it; its result."""
        if self._task is None:
            raise RequestError(Refusal.BUSY, _CLOSED, retry_after=1)
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future))
        return await future

    def submit(self, command: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``command`` without waiting for it."""
        self._queue.put_nowait((command, None))

    async def _run(self) -> None:
        while True:
            command, future = await self._queue.get()
            try:
                result = await command()
            except asyncio.CancelledError:  # closed mid-command: its caller is refused too
                if future is not None and not future.done():
                    future.set_exception(RequestError(Refusal.BUSY, _CLOSED, retry_after=1))
                raise
            except Exception as error:
                if future is None:
                    _log.exception("table %s: command failed", self.table.id)
                elif not future.done():
                    future.set_exception(error)
            else:
                if future is not None and not future.done():
                    future.set_result(result)

    async def close(
        self, code: int = CloseCode.GOING_AWAY, reason: str = "the server is restarting"
    ) -> None:
        """Stop the actor and its turn task (the server is shutting down, the actor is
        dropped, or the table moved to another worker) and close its clients with
        ``code``. Commands still queued fail with a ``busy`` refusal, as later ones do."""
        for task in (self._turn, self._task):
            if task is not None:
                task.cancel()
        self.rematch.close()
        if self._finish_retry is not None:
            self._finish_retry.cancel()
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            if future is not None and not future.done():
                future.set_exception(RequestError(Refusal.BUSY, _CLOSED, retry_after=1))
        # A cancelled task keeps its exception, whose traceback holds the task's frames and
        # so this actor: a cycle (actor, task, exception, frame) that only a full garbage
        # collection would free, which the server makes rare (``command.tune_gc``). Without
        # the references the task and the actor, its game included, go as soon as done.
        self._turn = self._task = None
        for connection in self._connections:
            connection.close(code, reason)

    def close_sessions(self, ended: Callable[[Connection], bool]) -> None:
        """Close the clients whose session has ended (4401), as a logged-out token must
        stop playing at once."""
        self.close_clients(ended, CloseCode.UNAUTHORIZED, "the session was ended (logged out)")

    def close_clients(self, which: Callable[[Connection], bool], code: int, reason: str) -> None:
        """Close the clients ``which`` picks with ``code`` and ``reason``; the others stay.
        A closed client gets nothing more (``Connection.send``), and parts as it goes."""
        for connection in self._connections:
            if which(connection):
                connection.close(code, reason)

    @property
    def idle(self) -> bool:
        """Nobody is watching and no game is running: the actor may be dropped."""
        return not self._connections and self.table.status != "playing"

    # ----------------------------------------------------------------- clients

    async def join(self, connection: Connection) -> None:
        """A client connects: it gets the full state; its seat is present again. A client
        beyond the table's ``max_connections`` is closed instead (``CloseCode.TABLE_FULL``)."""
        if len(self._connections) >= self.max_connections:
            connection.close(
                CloseCode.TABLE_FULL,
                f"too many connections to this table: at most {self.max_connections}",
            )
            return
        user = connection.user
        connection.seat = self._seat_of(user.id) if user is not None else None
        self._connections.add(connection)
        if connection.seat is not None:
            presence = self._presence[connection.seat]
            presence.connections += 1
            presence.away = False
            self._schedule_turn()
            await self._keep_away(connection.seat, False)
        connection.send(self._state(connection))
        await self.chat.send_history(connection)
        self.rematch.send_to(connection)
        self._spectators_changed(connection)
        if connection.seat is not None:
            self._broadcast_table()

    async def part(self, connection: Connection) -> None:
        """A client disconnects. Without a turn timer its seat is away at once."""
        self._connections.discard(connection)
        if connection.seat is None:
            self._spectators_changed()
            return
        presence = self._presence[connection.seat]
        presence.connections -= 1
        if presence.connections == 0 and self.table.turn_seconds == 0:
            presence.away = True
            self._schedule_turn()
        self._broadcast_table()

    async def receive(self, connection: Connection, message: ClientMessage) -> None:
        """Carry out one parsed client message; problems are sent back as ``error``."""
        try:
            match message:
                case Ping():
                    connection.send(pong_message(self.version))
                case Sync():
                    connection.send(self._state(connection))
                case Back():
                    await self._back(self._seat_for(connection, None))
                case Chat() | Mute():
                    await self.chat.receive(connection, message)
                case RematchAnswer():
                    await self.rematch.receive(connection, message)
                case Act():
                    await self._act(connection, message)
        except ProtocolError as error:
            connection.send(error.to_message())

    def _seat_for(
        self, connection: Connection, seat: int | None, client_id: str | None = None
    ) -> int:
        if connection.seat is None:
            raise ProtocolError(
                Refusal.NOT_SEATED,
                "you have no seat at this table (spectators only watch)",
                client_id,
            )
        if seat is not None and seat != connection.seat:
            raise ProtocolError(
                Refusal.WRONG_SEAT,
                f"you sit in seat {connection.seat}, not {seat}: act only for your own seat",
                client_id,
            )
        return connection.seat

    async def _back(self, seat: int) -> None:
        if self._presence[seat].away:
            self._presence[seat].away = False
            self._schedule_turn()
            self._broadcast_table()
            await self._keep_away(seat, False)

    async def _act(self, connection: Connection, message: Act) -> None:
        client_id, text = message.id, message.action
        seat = self._seat_for(connection, message.seat, client_id)
        applied = self._applied.get((seat, client_id))
        if applied is not None:
            self._resent(connection, client_id, text, *applied)
            return
        game = self.game
        if game is None:
            raise ProtocolError(Refusal.NOT_STARTED, "the game has not started yet", client_id)
        action = _exact_action(text, client_id)
        presence = self._presence[seat]
        was_away, presence.away = presence.away, False  # acting is coming back
        try:
            await self._apply(seat, action, client_id, "player")
        except ProtocolError:
            presence.away = was_away
            raise
        connection.send(ack_message(client_id, self.version, duplicate=False))
        if was_away:
            self._broadcast_table()
            await self._keep_away(seat, False)

    @staticmethod
    def _resent(
        connection: Connection, client_id: str, text: str, version: int, action: str
    ) -> None:
        """An ``act`` under an id already used: the same action again is acknowledged as
        a duplicate; another action is refused, since acknowledging it would tell the
        client that an action it did not make was applied."""
        if text != action:
            raise ProtocolError(
                Refusal.DUPLICATE_ID,
                f"id {client_id!r} was used for {action!r} (version {version}), not for "
                f"{text!r}: send a new action under a new id",
                client_id,
            )
        connection.send(ack_message(client_id, version, duplicate=True))

    # ----------------------------------------------------------------- the game

    async def _apply(self, seat: int, action: Action, client_id: str | None, by: str) -> None:
        """Apply ``action`` for ``seat``: on a copy, then stored, then the state, then sent."""
        game = self.game
        assert game is not None
        trial = game.clone()
        try:
            trial.apply(action, seat)
        except NotYourTurnError as error:
            raise ProtocolError(Refusal.NOT_YOUR_TURN, str(error), client_id) from None
        except (IllegalActionError, InvalidInputError) as error:
            raise ProtocolError(Refusal.ILLEGAL_ACTION, str(error), client_id) from None
        row = EventRow(self.table.id, self.version + 1, seat, str(action), client_id)
        try:
            await self.port.append(row)
        except StoreError as error:
            raise ProtocolError(
                Refusal.STORAGE_FAILED,
                f"the action was not stored, nothing changed: {error}",
                client_id,
            ) from None
        self.game, self.version = trial, row.seq
        if client_id is not None:
            self._applied[seat, client_id] = (row.seq, row.action)
        if trial.is_over:
            await self._finish()
        self._schedule_turn()
        self._broadcast_event(game, trial, seat, action, by)

    async def _finish(self) -> None:
        """Store the end of the finished game; if that fails, try again later (with a
        longer wait after each failure) until it is stored, or another worker owns the
        table (and finishes it when it loads it)."""
        game = self.game
        assert game is not None and game.is_over
        self._finish_retry = None
        try:
            self.table = await self.port.finish(self.table, game)
        except FencedError:
            return
        except StoreError as error:
            self._finish_failures += 1
            delay = retry_delay(self._finish_failures)
            _log.warning(
                "table %s: the end of the game was not stored (%s): retry in %.1f s",
                self.table.id,
                error,
                delay,
            )
            loop = asyncio.get_running_loop()
            self._finish_retry = loop.call_later(delay, lambda: self.submit(self._finished_later))
            return
        self.port.drop_later(self.table.id)  # if nobody is watching the end

    async def _finished_later(self) -> None:
        """A retry of the game's end; the clients learn that the table is over."""
        await self._finish()
        if self.table.status == "over":
            self._broadcast_table()

    def _broadcast_event(
        self, before: Game, after: Game, seat: int, action: Action, by: str
    ) -> None:
        """Send every client the action and its own view after it (see ``protocol``).

        The public view of the moment after is made once: the event takes a closed
        trick from it, and every seat's view is built on its JSON (``_send_views``)."""
        public = after.view(None)
        shared = action_event(self.version, before, after, seat, action, by, self._deadline, public)
        self._send_views(after, public, shared)
        if after.is_over:
            self._broadcast_table()

    def _send_views(self, game: Game, public: View, shared: Json) -> None:
        """Send each client ``shared`` with its seat's view (``public`` is the spectators').

        Each seat's message is made once, on one JSON of the public view
        (``seat_view_json``), and ``shared`` is encoded once for all of them: a message is
        its text with the seat's view spliced in as its last member, ``game``, the same
        text as ``encode({**shared, "game": view})``."""
        if not self._connections:
            return
        head = encode(shared)[:-1] + ',"game":'
        public_json = view_json(public)
        encoded: dict[int | None, str] = {}
        for connection in self._connections:
            seat = connection.seat
            if seat not in encoded:
                own = (
                    public_json
                    if seat is None
                    else seat_view_json(seat, game.own_view(seat), public_json)
                )
                encoded[seat] = head + encode(own) + "}"
            connection.send(encoded[seat])

    def _schedule_turn(self, *, retry: bool = False) -> None:
        """(Re)start the task that waits for whoever is to act: a bot, or the turn timer.

        Every call starts a new turn number; a bot move or a timeout of an older number
        is dropped, so nothing decided for a turn that has changed (someone acted, came
        back, reconnected) is ever applied. A ``retry`` after a failed store waits at
        least ``_RETRY_SECONDS``."""
        if self._turn is not None:
            self._turn.cancel()
        self._turn, self._deadline = None, None
        self._turn_number += 1
        game = self.game
        if game is None or game.to_act is None:
            return
        seat, number = game.to_act, self._turn_number
        seat_row = self.table.seats[seat]
        delay = self.table.bot_delay_ms / 1000
        if retry:
            delay = max(delay, _RETRY_SECONDS)
        if seat_row.user_id is None:
            turn = self._bot_turn(number, seat, seat_row.bot, delay, "bot")
        elif self._presence[seat].away:
            turn = self._bot_turn(number, seat, self.table.stand_in, delay, "stand-in")
        elif self.table.turn_seconds:
            self._deadline = time.time() + self.table.turn_seconds
            turn = self._turn_timer(number, seat, self.table.turn_seconds)
        else:
            return
        self._turn = asyncio.create_task(turn)

    async def _bot_turn(self, number: int, seat: int, level: str, delay: float, by: str) -> None:
        await asyncio.sleep(delay)
        assert self.game is not None
        view = self.game.view(seat)
        bot = self._bots.get((seat, level))
        if bot is None:
            bot = self._bots[seat, level] = make_bot(level, seed=f"{self.table.seed}/{seat}")
        try:
            action = await self.port.run(bot.act, view)
        except Exception:  # a broken bot must not stop the game: play the first legal action
            _log.exception("table %s: %s bot failed at seat %d", self.table.id, level, seat)
            self.port.bot_failed(level)
            action = view.legal_actions[0]
        self.submit(lambda: self._bot_move(number, seat, action, by))

    async def _bot_move(self, number: int, seat: int, action: Action, by: str) -> None:
        if number != self._turn_number:
            return  # the turn changed meanwhile: the move is stale
        try:
            await self._apply(seat, action, None, by)
        except ProtocolError as error:  # storage failed: try again a little later
            _log.warning("table %s: bot move failed: %s", self.table.id, error.message)
            self._schedule_turn(retry=True)

    async def _turn_timer(self, number: int, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.submit(lambda: self._time_out(number, seat))

    async def _time_out(self, number: int, seat: int) -> None:
        """The player ran out of time: away from now on, and a stand-in plays at once."""
        if number != self._turn_number:
            return
        self._presence[seat].away = True
        self._schedule_turn()
        self._broadcast_table()
        await self._keep_away(seat, True)

    async def _keep_away(self, seat: int, away: bool) -> None:
        """Store that ``seat`` is away after a lapse or a leave, or back from it (only
        when that changes, which is rare), so that a worker loading the table after a
        hand-over or a crash lets the stand-in play on at once. Not stored, the cost is
        only that: the player gets a turn of their own there (logged)."""
        presence = self._presence[seat]
        if presence.kept == away:
            return
        try:
            await self.port.set_away(self.table.id, seat, away)
        except StoreError as error:
            _log.warning(
                "table %s: seat %d away=%s not stored: %s", self.table.id, seat, away, error
            )
            return
        presence.kept = away

    # ----------------------------------------------------------------- lobby (REST)

    def _seat_of(self, user_id: str) -> int | None:
        return next((s.seat for s in self.table.seats if s.user_id == user_id), None)

    async def sit(self, user_id: str, seat: int) -> Json:
        """Take an empty seat (moving from another one at this table); at a table whose
        host has left it, the first to sit becomes its host (``Store.set_seat``)."""
        self._require_open()
        if not 0 <= seat < len(self.table.seats):
            raise RequestError(
                Refusal.INVALID,
                f"seat {seat} does not exist: seats are 0 to {len(self.table.seats) - 1}",
            )
        holder = self.table.seats[seat].user_id
        if holder == user_id:
            return self.table_json()
        if holder is not None:
            raise RequestError(
                Refusal.SEAT_TAKEN, f"seat {seat} is taken by {self.table.seats[seat].nickname}"
            )
        await self.port.set_seat(self.table.id, seat, user_id)  # (moving from their seat)
        await self._reseat()
        return self.table_json()

    async def leave(self, user_id: str) -> Json:
        """Leave the table: before the start the seat is freed (a host's part passes to
        the person in the lowest seat, or with nobody seated the table leaves the lobby);
        during the game a stand-in plays it (the seat and its score stay the player's)
        until they come back."""
        seat = self._seat_of(user_id)
        if seat is None:
            raise RequestError(Refusal.NOT_SEATED, "you have no seat at this table")
        if self.table.status == "open":
            await self.port.leave_open_table(self.table.id, seat, user_id)
            await self._reseat()
        elif not self._presence[seat].away:
            self._presence[seat].away = True
            self._schedule_turn()
            self._broadcast_table()
            await self._keep_away(seat, True)
        return self.table_json()

    async def start(
        self, user_id: str, arriving: Sequence[int] = (), games_cap: int | None = None
    ) -> Json:
        """The host starts the game; every empty seat gets its bot. The people in the
        ``arriving`` seats (a rematch's, on their way) are not away at a table without
        a turn timer unless they have not connected within ``_ARRIVAL_SECONDS``. With a
        ``games_cap``, a host who plays that many games already is refused
        (``SeatCapError``: ``TablePort.start``) and the table stays open."""
        self._require_host_of_open(user_id)
        await self._begin(arriving, games_cap, user_id)
        return self.table_json()

    async def _begin(
        self, arriving: Sequence[int], games_cap: int | None, host: str | None
    ) -> None:
        """Store the start and begin the game. A seat freed behind this actor (an account
        deleted, a place in a club ended: ``StaleWriteError``) makes it take the seats as
        stored and try once more, still for ``host`` if named (``None``: for whoever
        hosts the table now, as a table started for its people is)."""
        try:
            game = await self._store_start(games_cap)
        except StaleWriteError:
            await self.reload()
            if host is None:
                self._require_open()
            else:
                self._require_host_of_open(host)
            try:
                game = await self._store_start(games_cap)
            except StaleWriteError:
                raise RequestError(
                    Refusal.CONFLICT, "the seats changed meanwhile: look again"
                ) from None
        self.game, self.version = game, 0
        self._expect(arriving)
        self._schedule_turn()
        for connection in self._connections:
            connection.send(self._state(connection))

    def _require_host_of_open(self, user_id: str) -> None:
        """Refuse a start unless the table is open and ``user_id`` is its host."""
        self._require_open()
        if user_id != self.table.host_id:
            raise RequestError(Refusal.FORBIDDEN, "only the host of the table can start the game")

    async def _store_start(self, games_cap: int | None) -> Game:
        """The game of the table's seats as this actor knows them, stored as started
        (``TablePort.start``: refused if the stored seats are no longer those)."""
        names = seat_names(self.table)
        # A rematch table fixes its first dealer at creation (``rematch``); others draw one.
        game = Game(
            resolve_rules(self.table.rules),
            names,
            seed=self.table.seed,
            first_dealer=self.table.first_dealer,
        )
        seated = tuple(seat.user_id for seat in self.table.seats)
        self.table = await self.port.start(self.table.id, names, game.dealer, games_cap, seated)
        return game

    async def start_if_open(self) -> None:
        """Start the game of a table opened for the people seated at it, who are on their
        way (a pool's, a tournament's or a rematch's: ``start``'s ``arriving``), as its
        host, unless it started already (``Hub.start_if_open``). So starting it is
        harmless for whoever finds it open, whichever worker started it meanwhile: a
        worker reads the table after claiming it (``Hub``), and a worker that lost it is
        refused the start by its fence."""
        if self.table.status == "open":
            arriving = tuple(s.seat for s in self.table.seats if s.user_id is not None)
            await self._begin(arriving, None, host=None)

    def _expect(self, seats: Iterable[int]) -> None:
        """The people in ``seats`` are on their way: a rematch's, or those of a game loaded
        mid-play (the table moved to this worker, whose clients reconnect in a moment).
        Without a turn timer they are present until ``_ARRIVAL_SECONDS`` pass without a
        connection, so that no stand-in plays for someone reconnecting; with one, the
        timer tells who is away."""
        expected = list(seats)
        for seat in expected:
            self._presence[seat].away = False
        if expected and self.table.turn_seconds == 0:
            loop = asyncio.get_running_loop()
            loop.call_later(_ARRIVAL_SECONDS, lambda: self.submit(self._absent_are_away))

    async def _absent_are_away(self) -> None:
        """Who is expected but has not connected is away (a stand-in plays for them)."""
        people = [p for s, p in zip(self.table.seats, self._presence, strict=True) if s.user_id]
        changed = [p for p in people if p.connections == 0 and not p.away]
        for presence in changed:
            presence.away = True
        if changed:
            self._schedule_turn()
            self._broadcast_table()

    def _require_open(self) -> None:
        if self.table.status != "open":
            raise RequestError(
                Refusal.ALREADY_STARTED, "the game at this table has already started"
            )

    async def _reseat(self) -> None:
        """Reload the seats after a change; every client learns its (new) seat."""
        self.table = await self.port.reload(self.table.id)
        for connection in self._connections:
            if connection.user is not None:
                connection.seat = self._seat_of(connection.user.id)
        counts = [0] * len(self.table.seats)
        for connection in self._connections:
            if connection.seat is not None:
                counts[connection.seat] += 1
        for presence, count in zip(self._presence, counts, strict=True):
            presence.connections = count
            presence.away = count == 0 and self.table.turn_seconds == 0
        for connection in self._connections:
            connection.send(self._state(connection))
            await self.chat.send_history(connection)  # the seat may change who reads it
        self._spectators_changed()  # someone who watched may sit now, or the other way

    async def reload(self) -> None:
        """The table changed in the store behind the actor (an account was deleted, and
        its names with it; a seat freed when its person's place in the table's club
        ended): take the table and the game as stored now, the game rebuilt under the
        names stored, so every client sees what a restart would show, and send each the
        table and the chat."""
        table = await self.port.reload(self.table.id)
        if self.game is not None:
            events = await self.port.events_of(table.id)
            self.game = await self.port.run(rebuild_game, table, events)
        self.table = table
        self.chat.forget()
        self._broadcast_table()
        for connection in self._connections:
            await self.chat.send_history(connection)

    # ----------------------------------------------------------------- messages

    def table_json(self) -> Json:
        """The table as clients see it: settings, seats with presence, the turn deadline."""
        return table_json(self.table, self._presence, self._deadline)

    def _spectators_changed(self, joining: Connection | None = None) -> None:
        """Send everyone the ``spectators`` message if who watches changed, else only
        the ``joining`` client (which has not had it yet)."""
        text = encode(spectators_message(c.user for c in self._connections if c.seat is None))
        if text != self._spectators_sent:
            self._spectators_sent = text
            for connection in self._connections:
                connection.send(text)
        elif joining is not None:
            joining.send(text)

    def _broadcast_table(self) -> None:
        text = encode(table_message(self.version, self.table_json()))
        for connection in self._connections:
            connection.send(text)

    def _state(self, connection: Connection) -> Json:
        """The full resync: who you are, the table, your view of the game, the last round."""
        game = self.game
        last_round = None
        if game is not None:
            finished = [r for r in game.rounds() if r.points is not None]
            last_round = finished[-1] if finished else None
        user = connection.user
        you = {
            "user_id": None if user is None else user.id,
            "nickname": None if user is None else user.nickname,
            "seat": connection.seat,
        }
        view = None if game is None else game.view(connection.seat)
        return state_message(self.version, you, self.table_json(), view, last_round)
