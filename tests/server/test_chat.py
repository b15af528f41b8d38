"""The table chat over the WebSocket (docs/PROTOCOL.md, "Chat"): both ways between
players, kept with the game and shown to its replay, texts never changed into markup,
bad input named and never stored, the chat limit, spectators only where the host
allowed them, and mutes (a viewer's; which of a moderator's and a club's refuses a line).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import FAST, Api, Message, Player, Server, at_most

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal
from raspisnoy.server.protocol import MAX_TEXT, PHRASES, ProtocolError, check_text
from raspisnoy.server.services.chat import chat_mute
from raspisnoy.store import ChatRow, Together

#: A text a browser would run or draw if it were ever put into the page as markup.
HTML = '<img src=x onerror="alert(1)"><script>alert(2)</script> & <b>bold</b>'


def chat_of(player: Player) -> Message:
    """The next ``chat`` message (a new message or a history)."""
    return player.recv_until(lambda m: m["type"] == "chat")


def error_of(player: Player, message: Message) -> Message:
    player.send(message)
    return player.recv_until(lambda m: m["type"] == "error")


def joined(api: Api, table_id: str) -> tuple[Player, Message]:
    """A socket to the table and the chat history it gets after its ``state``."""
    player = api.socket(table_id)
    assert player.recv()["type"] == "state"
    return player, chat_of(player)


@pytest.fixture
def table(server: Server) -> Iterator[tuple[Api, Api, Message]]:
    """A started game of two people (seats 0 and 1) and two bots, with a long turn
    timer: the game waits for the first person to act. No spectator chat."""
    anna, boris = Api(server.base, "Anna"), Api(server.base, "Boris")
    table = anna.create_table(bots="random", bot_delay_ms=0, turn_seconds=600)
    assert boris.post(f"/api/tables/{table['id']}/sit", seat=1).status_code == 200
    assert anna.post(f"/api/tables/{table['id']}/start").status_code == 200
    yield anna, boris, anna.http.get(f"/api/tables/{table['id']}").json()


def test_players_chat_both_ways_and_the_chat_is_kept_for_the_replay(
    server: Server, table: tuple[Api, Api, Message]
) -> None:
    anna, boris, row = table
    (a, history), (b, _) = joined(anna, row["id"]), joined(boris, row["id"])
    assert history == {
        "type": "chat",
        "history": True,
        "read": True,
        "write": True,
        "muted": [],
        "messages": [],
    }
    a.send({"type": "chat", "text": "  Привет,\n  Борис!  "})
    for player in (a, b):
        [message] = chat_of(player)["messages"]
        assert message["text"] == "Привет, Борис!"  # whitespace folded, trimmed
        assert (message["user_id"], message["name"], message["seat"]) == (
            anna.user["id"],
            "Anna",
            0,
        )
        assert (message["phrase"], message["round"], message["trick"]) == (None, 1, 0)
    b.send({"type": "chat", "phrase": "well_played"})
    for player in (a, b):
        [message] = chat_of(player)["messages"]
        assert (message["phrase"], message["text"], message["seat"]) == ("well_played", None, 1)
    a.send({"type": "chat", "text": HTML})
    assert chat_of(b)["messages"][0]["text"] == HTML  # kept exactly; the page shows it as text
    again, history = joined(boris, row["id"])
    assert [m["text"] or m["phrase"] for m in history["messages"]] == [
        "Привет, Борис!",
        "well_played",
        HTML,
    ]
    assert [m["seq"] for m in history["messages"]] == [1, 2, 3]
    replay = anna.http.get(f"/api/games/{row['id']}/chat")
    assert replay.status_code == 200
    assert replay.json()["messages"] == history["messages"]
    stranger = httpx.get(f"{server.base}/api/games/{row['id']}/chat")
    assert stranger.status_code == 403
    for player in (a, b, again):
        player.close()


def test_bad_chat_messages_are_named_and_nothing_is_stored(
    server: Server, table: tuple[Api, Api, Message]
) -> None:
    anna, _, row = table
    a, _ = joined(anna, row["id"])
    cases: list[tuple[dict[str, Any], Refusal, str]] = [
        ({"type": "chat"}, Refusal.BAD_MESSAGE, '"text" or "phrase"'),
        ({"type": "chat", "text": "a", "phrase": "oops"}, Refusal.BAD_MESSAGE, "either"),
        ({"type": "chat", "text": 5}, Refusal.BAD_MESSAGE, "must be a text"),
        ({"type": "chat", "text": ["hi"]}, Refusal.BAD_MESSAGE, "must be a text"),
        ({"type": "chat", "text": "   \n "}, Refusal.BAD_MESSAGE, "empty"),
        ({"type": "chat", "text": "я" * (MAX_TEXT + 1)}, Refusal.BAD_MESSAGE, "at most 200"),
        ({"type": "chat", "text": "a\x00b"}, Refusal.BAD_MESSAGE, "control"),
        ({"type": "chat", "text": "abc\u202edcba"}, Refusal.BAD_MESSAGE, "direction"),
        ({"type": "chat", "phrase": "<b>gg</b>"}, Refusal.BAD_MESSAGE, "unknown phrase"),
        ({"type": "chat", "phrase": 3}, Refusal.BAD_MESSAGE, "unknown phrase"),
        ({"type": "chat", "text": "hi", "to": 1}, Refusal.BAD_MESSAGE, "'to'"),
        ({"type": "mute", "user_id": 7, "muted": True}, Refusal.BAD_MESSAGE, '"user_id"'),
        ({"type": "mute", "user_id": "x", "muted": "yes"}, Refusal.BAD_MESSAGE, '"muted"'),
        (
            {"type": "mute", "user_id": anna.user["id"], "muted": True},
            Refusal.BAD_MESSAGE,
            "yourself",
        ),
    ]
    for message, code, words in cases:
        error = error_of(a, message)
        assert (error["code"], words in error["message"]) == (code, True), (message, error)
    a.send({"type": "chat", "text": "я" * MAX_TEXT})  # the longest text is fine
    assert chat_of(a)["messages"][0]["seq"] == 1  # nothing before it was stored
    assert set(PHRASES) >= {"well_played", "oops"}
    a.close()


def test_the_chat_limit_is_answered_with_rate_limited(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(FAST.model_copy(update={"chat_messages_per_user": at_most(3)}))
    anna = Api(server.base, "Chatty")
    table = anna.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    a, _ = joined(anna, table["id"])
    for n in range(3):
        a.send({"type": "chat", "text": f"message {n}"})
        assert chat_of(a)["messages"][0]["text"] == f"message {n}"
    error = error_of(a, {"type": "chat", "phrase": "oops"})
    assert error["code"] == Refusal.RATE_LIMITED
    assert "at most 3 per year" in error["message"]
    # When to try again, for the client's words: within the limit's window of a year.
    assert 1 <= error["params"]["seconds"] <= 366 * 86_400
    assert error_of(a, {"type": "chat", "text": ""})["code"] == Refusal.BAD_MESSAGE
    a.send({"type": "ping"})  # still connected
    assert a.recv_until(lambda m: m["type"] in ("pong", "chat"))["type"] == "pong"
    a.close()


def test_spectators_get_the_chat_only_where_the_host_allowed_it(
    server: Server, table: tuple[Api, Api, Message]
) -> None:
    anna, _, closed = table
    watcher = Api(server.base, "Watcher")
    w, history = joined(watcher, closed["id"])
    assert (history["read"], history["write"], history["messages"]) == (False, False, [])
    a, _ = joined(anna, closed["id"])
    a.send({"type": "chat", "text": "between us"})
    chat_of(a)
    assert error_of(w, {"type": "chat", "text": "hello?"})["code"] == Refusal.CHAT_FORBIDDEN
    w.send({"type": "ping"})
    assert w.recv_until(lambda m: m["type"] in ("pong", "chat"))["type"] == "pong"
    assert watcher.http.get(f"/api/games/{closed['id']}/chat").status_code == 403

    host = Api(server.base, "Open")
    opened = host.create_table(bots="random", turn_seconds=0, spectator_chat=True)
    assert opened["spectator_chat"] is True
    h, _ = joined(host, opened["id"])
    w2, history = joined(watcher, opened["id"])
    assert (history["read"], history["write"]) == (True, True)
    w2.send({"type": "chat", "phrase": "hello"})
    message = chat_of(h)["messages"][0]
    assert (message["seat"], message["name"], message["phrase"]) == (None, "Watcher", "hello")
    anonymous, history = joined(Api(server.base), opened["id"])
    assert (history["read"], history["write"]) == (True, False)
    assert history["messages"] == [message]
    assert error_of(anonymous, {"type": "chat", "text": "hi"})["code"] == Refusal.CHAT_FORBIDDEN
    assert httpx.get(f"{server.base}/api/games/{opened['id']}/chat").json()["messages"] == [message]
    for player in (w, a, h, w2, anonymous):
        player.close()


def test_a_muted_person_is_not_heard_by_who_muted_them(
    server: Server, table: tuple[Api, Api, Message]
) -> None:
    anna, boris, row = table
    (a, _), (b, _) = joined(anna, row["id"]), joined(boris, row["id"])
    b.send({"type": "mute", "user_id": anna.user["id"], "muted": True})
    assert chat_of(b)["muted"] == [anna.user["id"]]
    a.send({"type": "chat", "text": "can you hear me?"})
    chat_of(a)
    b.send({"type": "chat", "phrase": "oops"})
    assert chat_of(b)["messages"][0]["phrase"] == "oops"  # Anna's message never came
    assert chat_of(a)["messages"][0]["phrase"] == "oops"  # she still hears Boris
    again, history = joined(boris, row["id"])  # the mute holds for a new connection too
    assert [m["phrase"] for m in history["messages"]] == ["oops"]
    again.send({"type": "mute", "user_id": anna.user["id"], "muted": False})
    history = chat_of(again)
    assert history["muted"] == []
    assert [m["text"] or m["phrase"] for m in history["messages"]] == ["can you hear me?", "oops"]
    for player in (a, b, again):
        player.close()


def test_after_a_line_stored_by_a_worker_that_held_the_table_the_chat_goes_on(
    server: Server, table: tuple[Api, Api, Message]
) -> None:
    """A line stored behind the room's back (by a worker that held the table before,
    docs/cluster.md) takes the number the room would give its next line: that line is
    refused as not stored, and the room reads the chat again, so the lines after it are
    numbered on from the store instead of each being refused."""
    anna, boris, row = table
    (a, _), (b, _) = joined(anna, row["id"]), joined(boris, row["id"])
    a.send({"type": "chat", "text": "first"})
    assert chat_of(b)["messages"][0]["seq"] == 1
    moment = datetime.now(UTC)
    elsewhere = ChatRow(row["id"], 2, boris.user["id"], "Boris", 1, "late", None, 1, 0, moment)
    Together(server.store).add_chat(elsewhere)
    assert error_of(a, {"type": "chat", "text": "lost"})["code"] == Refusal.STORAGE_FAILED
    a.send({"type": "chat", "text": "again"})
    answer = a.recv_until(lambda m: m["type"] in ("chat", "error"))
    assert answer["type"] == "chat", answer
    for message in (answer["messages"][0], chat_of(b)["messages"][0]):
        assert (message["seq"], message["text"]) == (3, "again")
    stored = anna.http.get(f"/api/games/{row['id']}/chat").json()["messages"]
    assert [m["text"] for m in stored] == ["first", "late", "again"]
    for player in (a, b):
        player.close()


@pytest.mark.parametrize(
    "hidden",
    ["\u200b", "\ufeff", "\u00ad", "\u2060", "\U000e0041\U000e007f", "\u180e", "\ufe0f"],
)
def test_a_text_keeps_no_invisible_character(hidden: str) -> None:
    """Issue 27 defect 11: default-ignorable code points (zero-width spaces, the
    byte-order mark, tag characters…) are taken out, so a text holds what readers see."""
    assert check_text(f"wo{hidden}rd {hidden}") == "word"
    with pytest.raises(ProtocolError, match="empty"):
        check_text(hidden * 3)


@pytest.mark.parametrize("control", ["\u200f", "\u200e", "\u061c", "\u2067", "\u202e", "\ufff9"])
def test_a_text_with_a_direction_or_format_control_is_refused(control: str) -> None:
    with pytest.raises(ProtocolError, match="direction-changing"):
        check_text(f"abc{control}def")


moments = st.none() | st.datetimes(timezones=st.just(UTC))


@given(moderator=moments, club=moments)
def test_of_two_mutes_the_later_one_refuses_the_line(
    moderator: datetime | None, club: datetime | None
) -> None:
    mute = chat_mute(moderator, club)
    ends = [until for until in (moderator, club) if until is not None]
    assert (mute is None) == (not ends)
    if mute is not None:
        assert mute.until == max(ends)
        assert mute.code == (Refusal.MUTED if mute.until == moderator else Refusal.CLUB_MUTED)
