"""Nothing hidden leaks: every message each seat (and a spectator) receives over whole
games, blind and forehead rounds included, is checked against the full game state at the
message's version. No card that recipient could not know may appear in it, and no trump
while a blind round («тёмная») is being bid.

The second test stops at every moment of a game played by four people and asks every
REST route as each kind of caller (each seat, a signed-in spectator, an anonymous
client), syncs every socket and reconnects one in each blind and forehead round."""

from __future__ import annotations

from typing import Any

from leak_check import EVERY_KIND, check, check_rest, states_of
from server_helpers import Api, Player, Server, play_in_threads

from raspisnoy.core import RoundKind


def test_no_message_shows_a_card_its_recipient_could_not_know(server: Server) -> None:
    for _game in range(2):
        anna, vera = Api(server.base, "Anna"), Api(server.base, "Vera")
        table = anna.create_table(rules=EVERY_KIND, bots="random", bot_delay_ms=0, turn_seconds=0)
        vera.post(f"/api/tables/{table['id']}/sit", seat=3)
        players = [anna.socket(table["id"]), vera.socket(table["id"])]
        spectator = Api(server.base).socket(table["id"])
        for player in [*players, spectator]:
            player.recv()
        anna.post(f"/api/tables/{table['id']}/start")
        play_in_threads(players)
        spectator.recv_until(lambda m: m.get("game") is not None and m["game"]["phase"] == "over")
        row = server.store.get_table(table["id"])
        events = server.store.events_of(table["id"])
        states = states_of(row, events)
        kinds = {state.round.kind for state in states}
        assert {RoundKind.BLIND, RoundKind.FOREHEAD} <= kinds
        recipients: list[tuple[Player, int | None]] = [
            (players[0], 0),
            (players[1], 3),
            (spectator, None),
        ]
        for player, seat in recipients:
            assert player.messages
            for message in player.messages:
                if "version" in message and message["type"] != "ack":
                    check(message, seat, states, events)
            player.close()


#: A short game with a forehead round, two blind rounds (one where the dealer shows the
#: trump from their own hand) and a normal one, for four people.
MOMENT_RULES = {"preset": "raspisnoy.com", "custom_plan": ["1:forehead", "2:blind", "2", "9:blind"]}


def test_no_rest_answer_or_socket_message_at_any_moment_shows_a_hidden_card(
    server: Server,
) -> None:
    people = [Api(server.base, name) for name in ("Anna", "Boris", "Vera", "Gleb")]
    watcher, stranger = Api(server.base, "Watcher"), Api(server.base)
    table = people[0].create_table(rules=MOMENT_RULES, players=4, turn_seconds=600)
    table_id = table["id"]
    for number, person in enumerate(people[1:], 1):
        assert person.post(f"/api/tables/{table_id}/sit", seat=number).status_code == 200
    sockets: list[Player] = [person.socket(table_id) for person in people]
    watching = [watcher.socket(table_id), stranger.socket(table_id)]
    every_socket = [*sockets, *watching]
    seats_of = {id(p): seat for p, seat in zip(every_socket, [0, 1, 2, 3, None, None], strict=True)}
    received: list[tuple[Player, int | None]] = []
    for player in every_socket:
        player.recv()
    assert people[0].post(f"/api/tables/{table_id}/start").status_code == 200
    callers = [*zip(people, range(4), strict=True), (watcher, None), (stranger, None)]
    routes = [f"/api/games/{table_id}/score", f"/api/games/{table_id}/record"]
    routes += [f"/api/tables/{table_id}", "/api/tables", "/api/me/games", "/api/me/tables"]
    answers: list[tuple[int, str, Any, int | None]] = []
    reconnected: set[tuple[int, int]] = set()
    version = 0
    while True:
        for player in every_socket:
            while player.game is None or player.version < version:
                player.recv()
        view = sockets[0].game
        assert view is not None
        for person, seat in callers:
            for path in routes:
                got = person.http.get(path)
                if got.status_code != 401:  # /api/me/... needs a session
                    assert got.status_code == 200, (path, got.text)
                    answers.append((version, path, got.json(), seat))
        for player in every_socket:
            player.send({"type": "sync"})
            player.recv_until(lambda m: m["type"] == "state")
        hidden_round = view["kind"] in ("blind", "forehead") and view["phase"] == "bid"
        bids_made = sum(bid is not None for bid in view["bids"] or [])
        if hidden_round and (view["round"], bids_made) not in reconnected and bids_made < 2:
            reconnected.add((view["round"], bids_made))
            turn = (view["dealer"] + 1 + bids_made) % 4  # the seat to act, then the next
            received.append((sockets[turn], turn))
            sockets[turn].close()
            sockets[turn] = people[turn].socket(table_id)
            assert sockets[turn].recv()["type"] == "state"
            every_socket = [*sockets, *watching]
            seats_of[id(sockets[turn])] = turn
        if view["phase"] == "over":
            break
        mover = sockets[view["to_act"]]
        assert mover.game is not None and mover.game["legal"]
        mover.send({"type": "act", "id": f"v{version}", "action": mover.game["legal"][-1]})
        assert mover.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        version += 1
    row = server.store.get_table(table_id)
    events = server.store.events_of(table_id)
    states = states_of(row, events)
    assert {RoundKind.BLIND, RoundKind.FOREHEAD} <= {state.round.kind for state in states}
    assert len(reconnected) == 6  # two reconnects in each blind and forehead round
    for at, path, answer, seat in answers:
        check_rest(path, answer, seat, states[at])
    for player, seat in [*received, *((p, seats_of[id(p)]) for p in every_socket)]:
        for message in player.messages:
            if "version" in message and message["type"] not in ("ack", "pong"):
                check(message, seat, states, events)
        player.close()
