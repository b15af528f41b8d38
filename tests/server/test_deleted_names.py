"""A deleted account's name leaves every game at once (issue 27, defect 10): the other
people at a running table see the seat renamed ``Anonymous #N`` live (a ``table``
message, the chat history again), those at an open table see ``Anonymous``, and nothing
they or anyone else load afterwards (a new socket, the REST answers, the game rebuilt
from the store as a restart does, the reports kept of a finished game) names the person
any more."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import FAST, Api, Player, Server, game_over, play_until
from test_accounts import PASSWORD, register

from raspisnoy.ratings import rebuild_game
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services import reviews as review_service
from raspisnoy.server.wire import table_json
from raspisnoy.store import Reviews

Message = dict[str, Any]
#: Reviews queued but run by the test itself (``run_claim`` in its own process), with
#: the least budget the search accepts.
REVIEWED_BY_THE_TEST = FAST.model_copy(update={"review_workers": 0, "review_iterations": 64})


def _history(message: Message) -> bool:
    return message["type"] == "chat" and message["history"] is True


def _delete(api: Api) -> None:
    answer = api.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert answer.status_code == 200, answer.text


def test_a_deleted_player_is_renamed_at_a_running_table_live_and_after_a_reload(
    server: Server,
) -> None:
    anna, boris = register(server, "Anna Stays"), register(server, "Boris Leaves")
    table = anna.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    table_id = table["id"]
    assert boris.post(f"/api/tables/{table_id}/sit", seat=1).status_code == 200
    assert anna.post(f"/api/tables/{table_id}/start").status_code == 200
    hers, his = anna.socket(table_id), boris.socket(table_id)
    for socket in (hers, his):
        socket.recv_until(_history)
    his.send({"type": "chat", "text": "bye all"})
    line = hers.recv_until(lambda m: m["type"] == "chat" and not m["history"])
    assert line["messages"][0]["name"] == "Boris Leaves"

    _delete(boris)
    renamed = hers.recv_until(
        lambda m: m["type"] == "table" and m["table"]["names"][1] != "Boris Leaves"
    )
    assert renamed["table"]["names"][1] == "Anonymous #2"
    assert renamed["table"]["seats"][1]["nickname"] == "Anonymous"
    chat = hers.recv_until(_history)
    assert [(m["name"], m["text"]) for m in chat["messages"]] == [("Anonymous #2", "bye all")]

    again = anna.socket(table_id)  # a reload of the page
    again.recv_until(_history)
    assert again.messages[0]["type"] == "state"
    assert "Boris Leaves" not in json.dumps(again.messages)
    for path in ("/api/tables/" + table_id, f"/api/games/{table_id}/score", "/api/tables"):
        answer = anna.http.get(path)
        assert answer.status_code == 200 and "Boris Leaves" not in answer.text, path
    assert "Boris Leaves" not in anna.http.get(f"/api/games/{table_id}/chat").text
    stored = server.store.get_table(table_id)  # what a restarted server loads
    assert "Boris Leaves" not in json.dumps(table_json(stored))
    game = rebuild_game(stored, server.store.events_of(table_id))
    assert game.names[1] == "Anonymous #2"
    for socket in (hers, again):
        socket.close()


def one_round_game(person: Api) -> str:
    """A one-round game of ``person`` (seat 0) against instant bots, played to its end;
    its id."""
    table = person.create_table(
        bots="random",
        bot_delay_ms=0,
        turn_seconds=0,
        rules={"preset": "raspisnoy.com", "custom_plan": ["1"]},
    )
    table_id = str(table["id"])
    assert person.post(f"/api/tables/{table_id}/start").status_code == 200
    socket: Player = person.socket(table_id)
    play_until(socket, game_over)
    socket.close()
    return table_id


def test_the_kept_reports_of_a_finished_game_forget_a_deleted_player(server: Server) -> None:
    carol = register(server, "Carol Done")
    table_id = one_round_game(carol)
    paths = [f"/api/games/{table_id}/score", f"/api/games/{table_id}/record"]
    for path in paths:  # each is kept once the game is over
        assert "Carol Done" in carol.http.get(path).text
    _delete(carol)
    for path in paths:
        answer = Api(server.base).http.get(path)
        assert answer.status_code == 200 and "Carol Done" not in answer.text, path
        assert "Anonymous #1" in answer.text


def test_a_review_made_before_the_deletion_names_the_seat_as_the_table_does_now(
    start_server: Callable[[ServerSettings], Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored review keeps the names it was made with (its ``players``, its summary's
    ``name``); its answer shows the table's names as they are now, so the deleted
    person's nickname is gone from it and the seat reads ``Anonymous #1``."""
    server = start_server(REVIEWED_BY_THE_TEST)
    dora = register(server, "Dora Reviewed")
    table_id = one_round_game(dora)
    path = f"/api/games/{table_id}/reviews/0"
    assert dora.post(path).status_code == 202
    claim = Reviews(server.store).claim_next("this test")
    assert claim is not None
    monkeypatch.setattr(review_service, "_PROCESS_STORE", server.store)
    assert review_service.run_claim(claim) == "done"
    assert "Dora Reviewed" in dora.http.get(path).text  # the review as it was made
    _delete(dora)
    answer = Api(server.base).http.get(path)
    assert answer.status_code == 200 and "Dora Reviewed" not in answer.text, answer.text
    review = answer.json()["review"]
    names = server.store.get_table(table_id).names
    assert names is not None and names[0] == "Anonymous #1"
    assert review["players"] == list(names)
    assert [line["name"] for line in review["summary"]] == ["Anonymous #1"]


def test_a_deleted_player_leaves_an_open_tables_seat_empty(server: Server) -> None:
    """Before the start the seat is freed: the people waiting at the table see it empty
    at once, and nobody named ``Anonymous`` sits there."""
    anna, boris = register(server, "Anna Waits"), register(server, "Boris Quits")
    table_id = anna.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)["id"]
    assert boris.post(f"/api/tables/{table_id}/sit", seat=1).status_code == 200
    hers = anna.socket(table_id)
    hers.recv_until(_history)
    _delete(boris)
    freed = hers.recv_until(
        lambda m: m["type"] == "table" and m["table"]["seats"][1]["nickname"] != "Boris Quits"
    )
    assert (freed["table"]["seats"][1]["user_id"], freed["table"]["seats"][1]["nickname"]) == (
        None,
        None,
    )
    assert "Boris Quits" not in anna.http.get(f"/api/tables/{table_id}").text
    hers.close()


def test_a_deleted_player_leaves_every_friends_list_and_cannot_be_followed(
    server: Server,
) -> None:
    """The follows and blocks to and from the account end with it, and a follow or a block
    of it is refused as of nobody: no list shows ``Anonymous``."""
    anna, boris = register(server, "Anna Keeps"), register(server, "Boris Goes")
    vera = register(server, "Vera Blocks")
    for one, other in ((anna, boris), (boris, anna)):
        assert one.http.put(f"/api/friends/{other.user['id']}").status_code == 200
    assert vera.http.put(f"/api/blocks/{boris.user['id']}").status_code == 200
    _delete(boris)
    assert anna.http.get("/api/friends").json() == {"following": [], "blocked": []}
    assert vera.http.get("/api/friends").json() == {"following": [], "blocked": []}
    for path in (f"/api/friends/{boris.user['id']}", f"/api/blocks/{boris.user['id']}"):
        answer = anna.http.put(path)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", answer.text
    profile = anna.http.get(f"/api/players/{boris.user['id']}").json()
    assert profile["user"] == {"id": boris.user["id"], "nickname": "Anonymous", "kind": "deleted"}
