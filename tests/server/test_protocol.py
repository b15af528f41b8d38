"""Bad input on the WebSocket: each answered with an error naming the problem, state
unchanged and the connection kept, or closed with a proper code for abuse; a resent
action is applied once; a Hypothesis fuzz of the whole protocol."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import FAST, Api, Message, Player, Server, play_until
from websockets.exceptions import ConnectionClosed

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import SOCKET_ERRORS, Refusal
from raspisnoy.server.protocol import (
    Act,
    Back,
    Chat,
    Mute,
    Ping,
    ProtocolError,
    RematchAnswer,
    Sync,
    parse_client_message,
    parse_lobby_message,
)


def error_of(player: Player, message: Message | str) -> Message:
    """Send ``message``; the ``error`` it gets back."""
    player.send(message)
    answer = player.recv_until(lambda m: m["type"] in ("error", "ack"))
    assert answer["type"] == "error", answer
    return answer


def still_open(player: Player) -> int:
    """The connection still answers; returns the table's version from the ``pong``."""
    player.send({"type": "ping"})
    version: int = player.recv_until(lambda m: m["type"] == "pong")["version"]
    return version


def close_of(player: Player) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        player.recv_until(lambda _m: False)
    frame = closed.value.rcvd
    assert frame is not None
    return frame.code, frame.reason


@pytest.fixture
def blocked_table(server: Server) -> Iterator[tuple[Player, Player, Api]]:
    """A game waiting for seat 1 (a person who never acts, no timer); seat 0 is the client
    under test. Seats 2 and 3 are bots."""
    host, other = Api(server.base, "Host"), Api(server.base, "Other")
    table = host.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    other.post(f"/api/tables/{table['id']}/sit", seat=1)
    me, blocker = host.socket(table["id"]), other.socket(table["id"])
    me.recv(), blocker.recv()
    host.post(f"/api/tables/{table['id']}/start")
    play_until(me, lambda p: bool(p.game) and p.game["to_act"] == 1)  # type: ignore[index]
    while blocker.version < me.version or blocker.game is None:
        blocker.recv()
    yield me, blocker, host
    me.close()
    blocker.close()


def test_malformed_and_unknown_messages_are_named(
    blocked_table: tuple[Player, Player, Api],
) -> None:
    me, _, _ = blocked_table
    version = still_open(me)
    cases: list[tuple[Any, Refusal, str]] = [
        ("{not json", Refusal.BAD_JSON, "not valid JSON"),
        ("[1, 2]", Refusal.BAD_MESSAGE, "JSON object"),
        ({"kind": "act"}, Refusal.BAD_MESSAGE, '"type"'),
        ({"type": "shout"}, Refusal.UNKNOWN_TYPE, "'shout'"),
        ({"type": "ping", "extra": 1}, Refusal.BAD_MESSAGE, "'extra'"),
        ({"type": "act", "action": "KD"}, Refusal.BAD_MESSAGE, '"id"'),
        ({"type": "act", "id": "a", "action": 7}, Refusal.BAD_MESSAGE, '"action"'),
        ({"type": "act", "id": "a", "action": "ZZ"}, Refusal.INVALID_ACTION, "'ZZ'"),
        ({"type": "act", "id": "d", "action": " 1"}, Refusal.INVALID_ACTION, "send '1'"),
        ({"type": "act", "id": "e", "action": "01"}, Refusal.INVALID_ACTION, "send '1'"),
        ({"type": "act", "id": "f", "action": "kd"}, Refusal.INVALID_ACTION, "send 'KD'"),
        ({"type": "act", "id": "b", "action": "1"}, Refusal.NOT_YOUR_TURN, "Other's turn"),
        ({"type": "act", "id": "c", "action": "1", "seat": 1}, Refusal.WRONG_SEAT, "seat 0"),
    ]
    for message, code, words in cases:
        text = message if isinstance(message, str) else json.dumps(message)
        error = error_of(me, text)
        assert error["code"] == code, (message, error)
        assert words in error["message"], (message, error)
    me.ws.send(b"\x00binary")
    assert me.recv_until(lambda m: m["type"] == "error")["code"] == Refusal.BAD_MESSAGE
    assert still_open(me) == version


def test_illegal_action_changes_nothing(blocked_table: tuple[Player, Player, Api]) -> None:
    me, blocker, _ = blocked_table
    game = blocker.game
    assert game is not None and game["to_act"] == 1
    version = still_open(blocker)
    # A bid above the cards dealt, or a card not in the hand: never legal.
    wrong = (
        str(game["cards"] + 1)
        if game["phase"] == "bid"
        else next(card for card in ("AS", "AC", "AD", "AH", "KS") if card not in game["hand"])
    )
    error = error_of(blocker, {"type": "act", "id": "w1", "action": wrong})
    assert error["code"] == Refusal.ILLEGAL_ACTION
    assert error["id"] == "w1" and wrong in error["message"]
    assert still_open(blocker) == version
    blocker.send({"type": "sync"})
    assert blocker.recv_until(lambda m: m["type"] == "state")["game"] == game
    assert still_open(me) == version


def test_a_resent_action_is_applied_once(blocked_table: tuple[Player, Player, Api]) -> None:
    _, blocker, _ = blocked_table
    assert blocker.game is not None
    action = blocker.game["legal"][0]
    blocker.send({"type": "act", "id": "same", "action": action})
    first = blocker.recv_until(lambda m: m["type"] in ("ack", "error"))
    assert first == {"type": "ack", "id": "same", "version": first["version"], "duplicate": False}
    blocker.send({"type": "act", "id": "same", "action": action})
    again = blocker.recv_until(lambda m: m["type"] in ("ack", "error"))
    assert again == {**first, "duplicate": True}
    events = [m for m in blocker.messages if m["type"] == "event" and m["action"]["seat"] == 1]
    assert len(events) == 1


def test_an_id_reused_for_another_action_is_refused(
    blocked_table: tuple[Player, Player, Api],
) -> None:
    _, blocker, _ = blocked_table
    assert blocker.game is not None
    action = blocker.game["legal"][0]
    blocker.send({"type": "act", "id": "once", "action": action})
    first = blocker.recv_until(lambda m: m["type"] in ("ack", "error"))
    assert first["type"] == "ack" and not first["duplicate"]
    other = next(text for text in ("0", "1", "2", "AS", "KD") if text != action)
    error = error_of(blocker, {"type": "act", "id": "once", "action": other})
    assert error["code"] == Refusal.DUPLICATE_ID and error["id"] == "once"
    assert repr(action) in error["message"] and repr(other) in error["message"]
    still_open(blocker)
    events = [m for m in blocker.messages if m["type"] == "event" and m["action"]["seat"] == 1]
    assert [m["action"]["action"] for m in events] == [action]


def test_spectators_and_unstarted_games_cannot_act(server: Server) -> None:
    host = Api(server.base, "Host")
    table = host.create_table(bots="random")
    seated = host.socket(table["id"])
    seated.recv()
    error = error_of(seated, {"type": "act", "id": "x", "action": "1"})
    assert error["code"] == Refusal.NOT_STARTED
    watcher = Api(server.base).socket(table["id"])
    watcher.recv()
    assert (
        error_of(watcher, {"type": "act", "id": "x", "action": "1"})["code"] == Refusal.NOT_SEATED
    )
    assert error_of(watcher, {"type": "back"})["code"] == Refusal.NOT_SEATED
    seated.close()
    watcher.close()


def test_bad_tokens_and_tables_close_the_socket(server: Server) -> None:
    host = Api(server.base, "Host")
    table = host.create_table(bots="random")
    forged = Player(server.base, table["id"], host.token[:-2] + "xx")  # type: ignore[index]
    assert close_of(forged)[0] == 4401
    missing = Player(server.base, "no-such-table", host.token)
    code, reason = close_of(missing)
    assert code == 4404 and "no-such-table" in reason


def test_oversized_message_closes_with_1009(server: Server) -> None:
    host = Api(server.base, "Host")
    player = host.socket(host.create_table(bots="random")["id"])
    player.recv()
    player.send({"type": "ping", "padding": "x" * 5000})
    code, reason = close_of(player)
    assert code == 1009 and "at most 4096" in reason


def test_flooding_closes_with_1008(start_server: Callable[[ServerSettings], Server]) -> None:
    strict = start_server(ServerSettings(messages_per_second=2, message_burst=5))
    host = Api(strict.base, "Host")
    player = host.socket(host.create_table(bots="random")["id"])
    player.recv()
    with suppress(ConnectionClosed):  # the server may close before the last one is sent
        for _ in range(10):
            player.send({"type": "ping"})
    code, reason = close_of(player)
    assert code == 1008 and "flooding" in reason


def messages() -> st.SearchStrategy[str]:
    """Client messages from garbage to almost right: texts, JSON of any shape, and
    messages of every type with fields of random names and values."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=20)
    )
    values = st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=8,
    )
    types = st.sampled_from(["act", "sync", "back", "ping", "play", "", "ACT"])
    actions = st.sampled_from(
        ["0", "1", "9", "KD", "X:take", "X:highest:H", "control:blind:1", "-1", "10S"]
    ) | st.text(max_size=40)
    shaped = st.fixed_dictionaries(
        {"type": types},
        optional={
            "id": st.text(max_size=70) | st.integers(),
            "action": actions | values,
            "seat": st.integers(-2, 6) | values,
        },
    )
    return st.text(max_size=200) | values.map(json.dumps) | shaped.map(json.dumps)


def test_fuzzed_messages_get_answers_and_change_nothing(
    blocked_table: tuple[Player, Player, Api],
) -> None:
    me, blocker, _ = blocked_table
    version = still_open(me)
    known = {code.value for code in SOCKET_ERRORS}

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=messages())
    def probe(text: str) -> None:
        if len(text.encode()) > 4096:
            return
        start = len(me.messages)
        assert still_open(me) == version
        me.send(text)
        assert still_open(me) == version  # answered, connection kept, nothing changed
        for answer in me.messages[start:]:
            assert answer["type"] in ("error", "pong", "state", "ack"), answer
            if answer["type"] == "error":
                assert answer["code"] in known and answer["message"]

    probe()
    assert still_open(blocker) == version


def test_each_message_type_is_read_into_its_own_class() -> None:
    """What the actor dispatches on (``match``): one frozen class per message type."""
    read = parse_client_message
    assert read('{"type": "act", "id": "a1", "action": "KD"}') == Act("a1", "KD", None)
    assert read('{"type": "act", "id": "a1", "action": "2", "seat": 1}') == Act("a1", "2", 1)
    assert [read(f'{{"type": "{kind}"}}') for kind in ("sync", "back", "ping")] == [
        Sync(),
        Back(),
        Ping(),
    ]
    assert read('{"type": "chat", "text": "  hi\\n there "}') == Chat("hi there", None)
    assert read('{"type": "chat", "phrase": "oops"}') == Chat(None, "oops")
    assert read('{"type": "mute", "user_id": "u1", "muted": true}') == Mute("u1", True)
    assert read('{"type": "rematch", "accept": false}') == RematchAnswer(False)
    assert parse_lobby_message('{"type": "sync"}') == Sync()
    with pytest.raises(ProtocolError) as refused:
        parse_lobby_message('{"type": "act", "id": "a1", "action": "KD"}')
    assert refused.value.code is Refusal.UNKNOWN_TYPE


#: How long the session of the expiry test lasts.
SESSION_SECONDS = 8


def test_a_socket_whose_session_expired_plays_no_more(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """Issue 27 defect 8: the token was checked only at connect, so a socket opened just
    before its session expired still got its actions acknowledged; now the first
    message after the expiry closes it (4401). The session is long enough for the set-up
    on a loaded machine (at 2 s, CI's closed the socket before its first state)."""
    server = start_server(FAST.model_copy(update={"session_seconds": SESSION_SECONDS}))
    host = Api(server.base, "Brief")
    ends_by = time.monotonic() + SESSION_SECONDS  # issued before the answer came
    table = host.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    player = host.socket(table["id"])
    assert player.recv()["type"] == "state"
    assert still_open(player) == 0
    time.sleep(max(0.0, ends_by - time.monotonic()) + 0.5)  # the session ends meanwhile
    assert host.http.get("/api/session").status_code == 401
    player.send({"type": "ping"})
    assert close_of(player)[0] == 4401
