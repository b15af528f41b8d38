"""The table actor over a fake ``TablePort`` (no database, no sockets): joining, acting,
a resent action, a bot's turn, the turn timer, the end of the game handed to the results
(retried when storing it fails), an actor rebuilt from stored events, including one
whose game is over but whose table still says playing, a table renamed mid-game, and
every event's text as each reader gets it.
The hub over a real store: an unknown table leaves nothing behind, and a game whose end
was never stored is finished when the hub starts."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest
from fastapi import WebSocket
from fresh_databases import BACKENDS, new_store
from test_ratings import engine_game, store_game

from raspisnoy.core import Game, resolve_rules
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.connection import Connection
from raspisnoy.server.errors import Refusal
from raspisnoy.server.protocol import ProtocolError, RematchAnswer, parse_client_message
from raspisnoy.server.services.chat import ChatMute
from raspisnoy.server.services.tables import Hub, TableActor, seat_names
from raspisnoy.server.services.tables import actor as actor_module
from raspisnoy.server.wire import encode, trick_json, view_json
from raspisnoy.store import (
    ChatRow,
    EventRow,
    GameEnds,
    NotFoundError,
    Players,
    SeatRow,
    Store,
    StoreError,
    TableRow,
    UserRow,
)

_T = TypeVar("_T")
#: Two short rounds: a whole game is a few dozen actions.
RULES = resolve_rules({"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}).to_json()
ANNA = UserRow("anna", "Anna", "guest")
Message = dict[str, Any]


def table_row(people: Sequence[str | None], **settings: Any) -> TableRow:
    """An open table of ``people`` (``None``: a random bot's seat), hosted by the first."""
    seats = tuple(
        SeatRow(n, user, None if user is None else user.title(), "random", False)
        for n, user in enumerate(people)
    )
    options: dict[str, Any] = {"turn_seconds": 0, "bot_delay_ms": 0, "stand_in": "random"}
    return TableRow(
        id="t1",
        host_id=people[0] or "host",
        status="open",
        public=True,
        rules=RULES,
        seats=seats,
        seed="seed",
        names=None,
        first_dealer=None,
        created_at=datetime.now(UTC),
        started_at=None,
        finished_at=None,
        **{**options, **settings},
    )


class FakePort:
    """A ``TablePort`` in memory: the table, its events, the ends it was handed (the
    first ``failing_finishes`` of them fail as a database would)."""

    def __init__(self, table: TableRow, failing_finishes: int = 0) -> None:
        self.table = table
        self.events: list[EventRow] = []
        self.finished: list[Game] = []
        self.failing_finishes = failing_finishes
        self.dropped = 0
        #: The rematch the table started, as stored.
        self.rematch: str | None = None
        #: The levels of the bots that failed to choose a move, one entry a failure.
        self.bot_failures: list[str] = []

    async def append(self, row: EventRow) -> None:
        self.events.append(row)

    async def finish(self, table: TableRow, game: Game) -> TableRow:
        self.finished.append(game)
        if len(self.finished) <= self.failing_finishes:
            raise StoreError("database error: the lock wait timed out")
        self.table = dataclasses.replace(self.table, status="over")
        return self.table

    async def set_seat(self, table_id: str, seat: int, user_id: str | None) -> None:
        seats = list(self.table.seats)
        seats[seat] = dataclasses.replace(seats[seat], user_id=user_id)
        self.table = dataclasses.replace(self.table, seats=tuple(seats))

    async def leave_open_table(self, table_id: str, seat: int, user_id: str) -> None:
        raise AssertionError("nobody leaves before the start here")

    async def start(
        self,
        table_id: str,
        names: Sequence[str],
        first_dealer: int,
        games_cap: int | None = None,
        seated: Sequence[str | None] = (),
    ) -> TableRow:
        self.table = dataclasses.replace(
            self.table, status="playing", names=tuple(names), first_dealer=first_dealer
        )
        return self.table

    async def set_away(self, table_id: str, seat: int, away: bool) -> None:
        seats = list(self.table.seats)
        seats[seat] = dataclasses.replace(seats[seat], away=away)
        self.table = dataclasses.replace(self.table, seats=tuple(seats))

    async def reload(self, table_id: str) -> TableRow:
        return self.table

    async def events_of(self, table_id: str) -> list[EventRow]:
        return list(self.events)

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        return function(*args)

    def drop_later(self, table_id: str) -> None:
        self.dropped += 1

    async def add_chat(self, row: ChatRow) -> None:
        raise AssertionError("nobody chats here")

    async def chat_of(self, table_id: str) -> list[ChatRow]:
        return []

    async def blocked_with(self, user_id: str) -> frozenset[str]:
        return frozenset()

    async def mute_of(self, table_id: str, user_id: str) -> ChatMute | None:
        raise AssertionError("nobody chats here")

    async def open_rematch(
        self, old: TableRow, people: dict[int, str], host_id: str, first_dealer: int
    ) -> str:
        raise AssertionError("nobody asks for a rematch here")

    async def rematch_of(self, table_id: str) -> str | None:
        return self.rematch

    def bot_failed(self, level: str) -> None:
        self.bot_failures.append(level)


class Client(Connection):
    """A connection that keeps what it is sent, decoded."""

    def __init__(self, user: UserRow | None) -> None:
        super().__init__(cast(WebSocket, None), user, 1000)
        self.messages: list[Message] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.messages.append(json.loads(message) if isinstance(message, str) else message)

    def last(self, kind: str) -> Message:
        return next(m for m in reversed(self.messages) if m["type"] == kind)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 30))


async def until(done: Callable[[], bool]) -> None:
    while not done():
        await asyncio.sleep(0.01)


async def started(port: FakePort, user: str = "anna") -> TableActor:
    actor = TableActor(port, port.table, [])
    await actor.call(lambda: actor.start(user))
    return actor


def act(text: str, action: str) -> Any:
    return parse_client_message(json.dumps({"type": "act", "id": text, "action": action}))


def test_a_person_joins_and_a_spectator_watches() -> None:
    async def scenario() -> None:
        port = FakePort(table_row(["anna", None, None, None]))
        actor = TableActor(port, port.table, [])
        anna, watcher = Client(ANNA), Client(None)
        await actor.call(lambda: actor.join(anna))
        await actor.call(lambda: actor.join(watcher))
        state = anna.messages[0]
        assert state["type"] == "state" and state["you"]["seat"] == 0 and state["game"] is None
        assert watcher.messages[0]["you"]["seat"] is None
        assert anna.last("table")["table"]["seats"][0]["away"] is False
        await actor.close()

    run(scenario)


def test_an_action_is_stored_acknowledged_and_a_resent_one_is_a_duplicate() -> None:
    async def scenario() -> None:
        port = FakePort(table_row(["anna", None, None, None], bot_delay_ms=0))
        actor = await started(port)
        anna = Client(ANNA)
        await actor.call(lambda: actor.join(anna))
        await until(lambda: actor.game is not None and actor.game.to_act == 0)
        assert actor.game is not None
        legal = str(actor.game.legal_actions()[0])
        await actor.call(lambda: actor.receive(anna, act("a1", legal)))
        ack = anna.last("ack")
        assert ack == {"type": "ack", "id": "a1", "version": ack["version"], "duplicate": False}
        mine = [e for e in port.events if e.client_id == "a1"]
        assert [(e.seat, e.action, e.seq) for e in mine] == [(0, legal, ack["version"])]
        await actor.call(lambda: actor.receive(anna, act("a1", legal)))
        assert anna.last("ack")["duplicate"] is True
        assert len([e for e in port.events if e.client_id == "a1"]) == 1
        await actor.call(lambda: actor.receive(anna, act("a1", "XX")))
        assert anna.last("error")["code"] == "duplicate_id"
        await actor.close()

    run(scenario)


def test_bots_play_a_whole_game_and_its_end_is_handed_over_once() -> None:
    async def scenario() -> None:
        port = FakePort(table_row(["anna", None, None, None]))
        actor = await started(port)  # nobody connected, no timer: a stand-in plays Anna
        await until(lambda: actor.table.status == "over")
        assert port.finished == [actor.game] and actor.game is not None and actor.game.is_over
        assert {e.seat for e in port.events} == {0, 1, 2, 3} and port.dropped == 1
        assert actor.version == len(port.events)
        await actor.close()

    run(scenario)


def test_the_turn_timer_puts_a_stand_in_in_the_seat() -> None:
    async def scenario() -> None:
        port = FakePort(table_row(["anna", "boris", None, None], turn_seconds=1))
        actor = await started(port)
        anna, boris = Client(ANNA), Client(UserRow("boris", "Boris", "guest"))
        for client in (anna, boris):
            await actor.call(lambda client=client: actor.join(client))  # type: ignore[misc]
        await until(lambda: any(e.seat in (0, 1) for e in port.events))
        first = next(m for m in anna.messages if m["type"] == "event" and m["action"]["seat"] < 2)
        assert first["action"]["by"] == "stand-in"
        seat = first["action"]["seat"]
        assert anna.last("table")["table"]["seats"][seat]["away"] is True
        await actor.close()

    run(scenario)


def test_a_failed_end_is_tried_again_until_it_is_stored() -> None:
    async def scenario() -> None:
        port = FakePort(table_row(["anna", None, None, None]), failing_finishes=2)
        actor = await started(port)
        await until(lambda: actor.table.status == "over")
        assert len(port.finished) == 3 and all(game is actor.game for game in port.finished)
        assert port.dropped == 1
        await actor.close()

    run(scenario)


def test_an_actor_rebuilt_from_its_events_goes_on_where_it_was() -> None:
    async def scenario() -> None:
        port = FakePort(table_row(["anna", "boris", None, None], bot_delay_ms=20))
        actor = await started(port)
        await until(lambda: len(port.events) >= 3)
        await actor.close()
        again = TableActor(port, port.table, port.events)
        assert again.version == len(port.events) and again.game is not None
        assert actor.game is not None
        assert again.game.view(None) == actor.game.view(None)
        await again.close()

    run(scenario)


def test_a_game_loaded_mid_play_gives_its_people_a_moment_to_reconnect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table moved to this worker (a restart, a hand-over): at a table without a turn
    timer nobody is played for while their client reconnects; who has not come back
    within the arrival time is away, and a stand-in plays for them."""
    monkeypatch.setattr(actor_module, "_ARRIVAL_SECONDS", 0.5)

    async def scenario() -> None:
        port = FakePort(table_row(["anna", "boris", None, None]))
        first = TableActor(port, port.table, [])
        anna, boris = Client(ANNA), Client(UserRow("boris", "Boris", "guest"))
        await first.call(lambda: first.join(anna))
        await first.call(lambda: first.join(boris))
        await first.call(lambda: first.start("anna"))
        await until(lambda: first.game is not None and first.game.to_act in (0, 1))
        await first.close()  # the worker lets the table go, mid-game
        moved = TableActor(port, port.table, port.events)
        assert moved.game is not None and moved.game.to_act is not None
        gone = moved.game.to_act  # to act, and does not come back
        back = 1 - gone
        played = len(port.events)
        await asyncio.sleep(0.25)
        assert len(port.events) == played  # nobody played for them while they might return
        await moved.call(lambda: moved.join(Client([anna, boris][back].user)))
        await until(lambda: any(e.seat == gone for e in port.events[played:]))  # a stand-in
        await until(lambda: moved.game is not None and moved.game.to_act == back)
        waited = len(port.events)
        await asyncio.sleep(0.75)  # past the arrival time: who came back is not played for
        assert len(port.events) == waited
        await moved.close()

    run(scenario)


def test_an_actor_loaded_for_a_game_over_but_not_ended_ends_it() -> None:
    async def scenario() -> None:
        port = FakePort(table_row(["anna", None, None, None]))
        actor = await started(port)
        await until(lambda: actor.table.status == "over")
        await actor.close()
        port.table = dataclasses.replace(port.table, status="playing")  # its end was lost
        port.finished.clear()
        again = TableActor(port, port.table, port.events)
        await until(lambda: again.table.status == "over")
        assert len(port.finished) == 1 and port.finished[0].totals == actor.game.totals  # type: ignore[union-attr]
        await again.close()

    run(scenario)


def test_an_actor_loaded_for_a_game_over_knows_the_rematch_it_started() -> None:
    """Another worker held the table and started its rematch (or this one, before a
    restart): the actor loaded now tells a client where it went and opens no other."""

    async def scenario() -> None:
        port = FakePort(table_row(["anna", None, None, None]))
        actor = await started(port)
        await until(lambda: actor.table.status == "over")
        await actor.close()
        port.rematch = "t2"
        again = TableActor(port, port.table, port.events)
        anna = Client(ANNA)
        await again.call(lambda: again.join(anna))
        assert anna.last("rematch")["status"] == "started" and anna.last("rematch")["table"] == "t2"
        with pytest.raises(ProtocolError) as closed:
            await again.call(lambda: again.rematch.receive(anna, RematchAnswer(accept=True)))
        assert closed.value.code == Refusal.REMATCH_CLOSED
        await again.close()

    run(scenario)


def test_a_renamed_table_sends_its_new_names_and_plays_on() -> None:
    """An account deleted mid-game (``Hub.renamed``): the actor takes the stored names,
    rebuilds the game under them and tells every client, and the game goes on."""

    async def scenario() -> None:
        port = FakePort(table_row(["anna", "boris", None, None], bot_delay_ms=20))
        actor = await started(port)
        watcher = Client(None)  # the people are away: stand-ins play for them
        await actor.call(lambda: actor.join(watcher))
        await until(lambda: len(port.events) >= 3)
        names = ("Anna", "Anonymous #2", "Bot 3 (random)", "Bot 4 (random)")
        seats = list(port.table.seats)  # as ``Players.delete_account`` leaves them
        seats[1] = dataclasses.replace(seats[1], nickname="Anonymous")
        port.table = dataclasses.replace(port.table, names=names, seats=tuple(seats))
        before = len(port.events)
        await actor.call(actor.reload)
        assert actor.game is not None and actor.game.names == names
        assert actor.version == len(port.events)
        assert watcher.last("table")["table"]["names"] == list(names)
        assert "Boris" not in json.dumps(actor.table_json())
        await until(lambda: len(port.events) > before + 2)  # the bots play on
        await actor.close()

    run(scenario)


def test_the_names_of_a_game_tell_repeated_names_apart() -> None:
    table = table_row(["anna", None, None, None])
    assert seat_names(table) == ("Anna", "Bot 2 (random)", "Bot 3 (random)", "Bot 4 (random)")


# ----------------------------------------------------------------- the hub


def hub_of(store: Store) -> Hub:
    return Hub(store, ServerSettings(data_dir=Path()))


def stored_table(
    store: Store,
    host: UserRow,
    *,
    players: int = 4,
    turn_seconds: int = 0,
    bot_delay_ms: int = 0,
    seed: str = "seed",
) -> TableRow:
    """A public table of ``host`` and random bots in the store, not started."""
    return store.create_table(
        host_id=host.id,
        public=True,
        rules=RULES,
        bots=["random"] * players,
        turn_seconds=turn_seconds,
        bot_delay_ms=bot_delay_ms,
        stand_in="random",
        seed=seed,
    )


def test_an_unknown_table_leaves_nothing_behind(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'hub.sqlite3'}")

    async def scenario() -> None:
        hub = hub_of(store)
        for number in range(3):
            with pytest.raises(NotFoundError):
                async with hub.using(f"no-such-table-{number}"):
                    pass
        assert hub._loading == {} and hub._actors == {} and hub.fences == {}
        await hub.stop()

    run(scenario)
    store.close()


def test_the_hub_ends_at_start_a_game_whose_end_was_lost_once_its_store_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    person = store.create_user("Lost End")
    table_id = store_game(store, person.id, engine_game(2), rated=True)  # over, still playing
    finish = GameEnds.finish
    tries: list[str] = []

    def failing_once(self: GameEnds, table: str, *args: Any, **kwargs: Any) -> bool:
        # Only this test's table: the servers of other tests in this process (session
        # fixtures) may end their own games meanwhile, through the same class.
        if table == table_id:
            tries.append(table)
            if len(tries) == 1:
                raise StoreError("database error: the server closed the connection")
        return finish(self, table, *args, **kwargs)

    monkeypatch.setattr(GameEnds, "finish", failing_once)

    async def scenario() -> None:
        hub = hub_of(store)
        await hub.start()
        await until(lambda: store.get_table(table_id).status == "over")
        await hub.stop()

    run(scenario)
    assert tries == [table_id, table_id]
    profile = Players(store).profile(person.id)
    assert profile.figures.games == 1 and [r.games for r in profile.ratings] == [1, 1]
    store.close()


def test_a_seat_away_after_its_timer_lapsed_stays_away_on_the_next_worker(
    tmp_path: Path,
) -> None:
    """Anna's turn timer lapsed and a stand-in plays her seat when her worker goes (a
    crash, a hand-over): the worker that loads the table next finds her away, so the
    stand-in plays on at once instead of giving her a whole turn again; she is present
    again, there and in the store, once she connects."""
    store = Store.open(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    anna = store.create_user("Anna")
    # the stand-in has not played when the first worker goes
    table = stored_table(store, anna, turn_seconds=1, bot_delay_ms=500)

    def stored_away() -> bool:
        return store.get_table(table.id).seats[0].away

    async def scenario() -> None:
        first = hub_of(store)
        await first.start()
        async with first.using(table.id) as actor:
            await actor.call(lambda: actor.start(anna.id))
        await until(stored_away)
        await first.stop()
        second = hub_of(store)
        await second.start()  # loads the games being played
        async with second.using(table.id) as moved:
            assert moved.game is not None and moved.game.to_act == 0
            seat = moved.table_json()["seats"][0]
            assert seat["away"] and moved.table_json()["deadline_ms"] is None  # no timer
            played = store.events_of(table.id)
            await until(lambda: len(store.events_of(table.id)) > len(played))
            assert store.events_of(table.id)[len(played)].seat == 0  # the stand-in's move
            await moved.call(lambda: moved.join(Client(anna)))
            assert not moved.table_json()["seats"][0]["away"] and not stored_away()
        await second.stop()

    run(scenario)
    store.close()


class Texts(Connection):
    """A connection that keeps the texts it is sent, as the socket would write them."""

    def __init__(self, user: UserRow | None) -> None:
        super().__init__(cast(WebSocket, None), user, 1000)
        self.texts: list[str] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.texts.append(message if isinstance(message, str) else encode(message))


def test_every_event_text_is_the_encoded_event_with_each_readers_own_view() -> None:
    """The actor encodes an event's shared part once and splices each seat's view into
    it, on one public view per action: every seat and the spectator still get exactly
    ``encode`` of the event with their own ``view_json`` as ``game`` (its last member),
    and the closed trick as the public view has it."""

    async def scenario() -> None:
        people = ["anna", "boris", "vera", "gleb"]
        port = FakePort(table_row(people))
        actor = TableActor(port, port.table, [])
        seats = [Texts(UserRow(user, user.title(), "guest")) for user in people]
        watcher = Texts(None)
        for connection in [*seats, watcher]:
            await actor.call(partial(actor.join, connection))
        await actor.call(lambda: actor.start("anna"))
        rng, closed = random.Random(7), 0
        while (game := actor.game) is not None and game.to_act is not None:
            seat = game.to_act
            action = rng.choice(game.legal_actions())
            message = act(f"a{actor.version}", str(action))
            await actor.call(partial(actor.receive, seats[seat], message))
            after = actor.game
            assert after is not None
            for reader, connection in [*enumerate(seats), (None, watcher)]:
                text = next(t for t in reversed(connection.texts) if '"type":"event"' in t)
                event = json.loads(text)
                assert text == encode(event)
                assert list(event)[-1] == "game"
                assert event["version"] == actor.version
                assert event["game"] == view_json(after.view(reader))
                if event["trick"] is not None and event["round"] is None:
                    assert event["trick"] == trick_json(after.view(None).tricks[-1])
                    closed += 1
        assert closed > 0
        await actor.close()

    run(scenario)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("freed", ["a guest", "the host"])
def test_a_seat_freed_behind_the_actor_starts_as_a_bot(
    backend: str, tmp_path: Path, freed: str
) -> None:
    """An account deleted (its seat at Anna's open table freed in the store) without a
    word yet to the table's actor when the game starts: the start is refused by the
    store, the actor takes the seats as stored and starts again, so the game has a bot
    in that seat, never the name. A guest's: Anna starts it. The host's own: the table
    starts for its people (as the pool, a tournament and a rematch start theirs), with
    Vera, its host now."""
    with new_store(backend, tmp_path) as store:
        anna, vera = store.create_user("Anna"), store.create_user("Vera")
        table = stored_table(store, anna, players=3)
        store.set_seat(table.id, 1, vera.id)
        seat, gone, host = (1, vera, anna) if freed == "a guest" else (0, anna, vera)

        async def scenario() -> None:
            worker = hub_of(store)
            await worker.start()
            async with worker.using(table.id) as actor:
                assert actor.table.seats[seat].user_id == gone.id
                Players(store).delete_account(gone.id)  # no word to the actor
                if gone is vera:
                    await actor.call(lambda: actor.start(anna.id))
                else:
                    await worker.start_if_open(table.id)
            await worker.stop()

        run(scenario)
        started = store.get_table(table.id)
        assert (started.status, started.host_id) == ("playing", host.id)
        assert started.names is not None and started.names[seat] == f"Bot {seat + 1} (random)"
        assert started.seats[seat].user_id is None
