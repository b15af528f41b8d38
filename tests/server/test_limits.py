"""Limits on abuse, each hit with small limits from the settings: REST calls per address
and per user, new sessions per address, new tables per user, open tables and games per
user, sockets per user and per table (429 with ``Retry-After``, or close code 4429; a full
table's own 4409); a client acting at bot speed is not taken for a flood; finished games'
reports are kept."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from server_helpers import FAST, Api, Message, Player, Server, at_most, play_in_threads
from sqlalchemy import text
from test_protocol import close_of
from websockets.exceptions import ConnectionClosed

from raspisnoy.server.config import ServerSettings

Start = Callable[[ServerSettings], Server]


def limited(start_server: Start, **limits: Any) -> Server:
    return start_server(FAST.model_copy(update=limits))


def assert_too_many(answer: httpx.Response, words: str) -> None:
    assert answer.status_code == 429, answer.text
    assert words in answer.json()["detail"], answer.json()
    assert int(answer.headers["retry-after"]) >= 1


def assert_held(answer: httpx.Response, code: str, held: int) -> None:
    """A refusal for seats at the user's bound: its own code, not ``too_many`` (whose
    words ask to wait), with the seats held as its count."""
    assert_too_many(answer, f"you hold seats at {held}, at most {held};")
    assert answer.json()["code"] == code
    assert answer.json()["params"] == {"count": held, "limit": held, "seconds": 60}


def test_rest_calls_per_address_and_per_user(start_server: Start) -> None:
    server = limited(start_server, requests_per_address=at_most(12), requests_per_user=at_most(4))
    guest = Api(server.base, "Busy")  # one call
    for _ in range(4):
        assert guest.http.get("/api/bots").status_code == 200
    assert_too_many(guest.http.get("/api/bots"), "at most 4 per year")
    anonymous = httpx.Client(base_url=server.base)
    for _ in range(12 - 6):
        assert anonymous.get("/api/rules").status_code == 200
    assert_too_many(anonymous.get("/api/rules"), "requests from this address")
    assert httpx.get(f"{server.base}/healthz").status_code == 200  # never limited


def test_new_sessions_per_address(start_server: Start) -> None:
    server = limited(start_server, sessions_per_address=at_most(3))
    for number in range(3):
        Api(server.base, f"Guest {number}")
    again = httpx.post(f"{server.base}/api/session", json={"nickname": "One more"})
    assert_too_many(again, "new sessions from this address: at most 3 per year")


def test_new_tables_per_user_and_open_tables_per_user(start_server: Start) -> None:
    server = limited(start_server, tables_per_user=at_most(3), max_open_tables_per_user=2)
    host, other = Api(server.base, "Many"), Api(server.base, "Other")
    theirs = other.create_table()
    first, second = host.create_table(), host.create_table()
    assert_held(host.post("/api/tables"), "waiting_tables_held", 2)
    assert host.post(f"/api/tables/{first['id']}/leave").status_code == 200
    host.create_table()  # a seat was freed
    assert host.post(f"/api/tables/{second['id']}/leave").status_code == 200
    assert_too_many(host.post("/api/tables"), "new tables of this user: at most 3 per year")
    lobby = [table["id"] for table in httpx.get(f"{server.base}/api/tables").json()["tables"]]
    assert theirs["id"] in lobby


def test_the_tables_a_user_waits_at_are_theirs_to_find(start_server: Start) -> None:
    """``GET /api/me/tables``: the tables waiting for players where the caller holds a
    seat and that count against their cap, newest first, private ones too, so that one
    at the cap can go back to them; nobody else's, no started game, nothing without a
    session."""
    server = limited(start_server, max_open_tables_per_user=4)
    host, other = Api(server.base, "Waits a lot"), Api(server.base, "Someone else")
    public, private = host.create_table(), host.create_table(public=False)
    theirs = other.create_table(public=False)
    assert host.post(f"/api/tables/{theirs['id']}/sit", seat=1).status_code == 200
    started = host.create_table(bots="random", bot_delay_ms=10_000)
    assert host.post(f"/api/tables/{started['id']}/start").status_code == 200

    def waiting(api: Api) -> list[str]:
        answer = api.http.get("/api/me/tables")
        assert answer.status_code == 200, answer.text
        return [table["id"] for table in answer.json()["tables"]]

    assert waiting(host) == [theirs["id"], private["id"], public["id"]]
    assert waiting(other) == [theirs["id"]]
    assert httpx.get(f"{server.base}/api/me/tables").status_code == 401
    server.open_for(public["id"], hours=24.02)  # counts no more, so not listed
    assert host.post(f"/api/tables/{theirs['id']}/leave").status_code == 200
    assert waiting(host) == [private["id"]]


def test_a_table_the_lobby_no_longer_lists_leaves_the_open_tables_cap(
    start_server: Start,
) -> None:
    """A table that waited past ``lobby_open_table_hours`` is found by nobody in the
    lobby, so it no longer counts as waiting: its host may open another."""
    server = limited(start_server, max_open_tables_per_user=1)
    host = Api(server.base, "Forgot one")
    forgotten = host.create_table()
    assert_held(host.post("/api/tables"), "waiting_tables_held", 1)
    server.open_for(forgotten["id"], hours=24.02)
    assert host.post("/api/tables").status_code == 201


def test_games_per_user(start_server: Start) -> None:
    server = limited(start_server, max_games_per_user=1)
    host = Api(server.base, "Player")
    slow = {"bots": "random", "bot_delay_ms": 10_000, "turn_seconds": 0}
    playing, waiting = host.create_table(**slow), host.create_table(**slow)
    assert host.post(f"/api/tables/{playing['id']}/start").status_code == 200
    assert_held(host.post(f"/api/tables/{waiting['id']}/start"), "games_held", 1)


def accepted_once_released(connect: Callable[[], Player]) -> Message:
    """The first message of a socket ``connect`` opens once the server has let go of one
    just closed: the
    server counts a socket until its handler has ended (leaving its table, telling the
    others who watches), which comes after the client's close returns; until then a new
    one is refused with 4429, as the limit says."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return connect().recv()
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4429, closed
            assert time.monotonic() < deadline, "the closed socket was never released"
            time.sleep(0.1)


def test_sockets_per_user_and_per_table(start_server: Start) -> None:
    server = limited(start_server, max_sockets_per_user=2, max_sockets_per_table=3)
    host = Api(server.base, "Tabs")
    table = host.create_table()
    tabs = [host.socket(table["id"]) for _ in range(2)]
    for tab in tabs:
        assert tab.recv()["type"] == "state"
    code, reason = close_of(host.socket(table["id"]))
    assert code == 4429 and "at most 2" in reason
    tabs.pop().close()
    first = accepted_once_released(lambda: host.socket(table["id"]))
    assert first["type"] == "state"  # the closed one no longer counts
    watcher = Api(server.base, "Watcher").socket(table["id"])
    assert watcher.recv()["type"] == "state"
    code, reason = close_of(Api(server.base, "Late").socket(table["id"]))
    assert code == 4409 and "to this table: at most 3" in reason  # full: its own code


def test_a_client_acting_at_bot_speed_is_not_a_flood(start_server: Start) -> None:
    defaults = ServerSettings()
    server = limited(
        start_server,
        messages_per_second=defaults.messages_per_second,
        message_burst=defaults.message_burst,
    )
    host = Api(server.base, "Quick")
    table = host.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)  # all 28 rounds
    me = host.socket(table["id"])
    me.recv()
    host.post(f"/api/tables/{table['id']}/start")
    play_in_threads([me])
    acts = sum(1 for m in me.messages if m["type"] == "ack")
    assert acts > 2 * 40  # twice the old burst, at full speed
    me.close()


@pytest.mark.parametrize("route", ["score", "record"])
def test_a_finished_games_report_is_kept(server: Server, route: str) -> None:
    host = Api(server.base, "Finisher")
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}
    table = host.create_table(rules=rules, bots="random", bot_delay_ms=0, turn_seconds=0)
    me = host.socket(table["id"])
    me.recv()
    host.post(f"/api/tables/{table['id']}/start")
    play_in_threads([me])
    url = f"/api/games/{table['id']}/{route}"
    first = host.http.get(url).json()
    assert first["rounds"] and len(first["rounds"]) == 2
    with server.store.engine.begin() as connection:  # the actions are gone: no rebuild
        connection.execute(text("DELETE FROM game_events WHERE table_id = :t"), {"t": table["id"]})
    assert host.http.get(url).json() == first
    assert httpx.get(f"{server.base}{url}").json() == first  # anyone gets the same
    me.close()
