"""Chat and rematch messages carry nothing hidden: over a whole game with blind and
forehead rounds, chatted at every turn by both players and a spectator, every ``chat``
and ``rematch`` message names no card at all, holds only its documented fields, and is
the same for every recipient (it is built from no one's view); the replay's chat too.
The bots, which play most of the turns, never write."""

from __future__ import annotations

import threading
from collections.abc import Callable

from leak_check import EVERY_KIND, cards_in
from server_helpers import FAST, Api, Message, Player, Server, game_over, play_until

from raspisnoy.server.config import ServerSettings

CHAT_FIELDS = {"seq", "user_id", "name", "seat", "text", "phrase", "round", "trick", "at_ms"}
HISTORY_FIELDS = {"type", "history", "read", "write", "muted", "messages"}
REMATCH_FIELDS = {"type", "status", "seats", "deadline_ms", "table"}


def test_chat_and_rematch_messages_show_no_card(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(FAST.model_copy(update={"chat_messages_per_user": "100000/minute"}))
    anna, vera = Api(server.base, "Anna"), Api(server.base, "Vera")
    table = anna.create_table(
        rules=EVERY_KIND, bots="random", bot_delay_ms=0, turn_seconds=0, spectator_chat=True
    )
    vera.post(f"/api/tables/{table['id']}/sit", seat=3)
    players = [anna.socket(table["id"]), vera.socket(table["id"])]
    watcher_api = Api(server.base, "Watcher")
    watcher = watcher_api.socket(table["id"])
    for player in [*players, watcher]:
        player.recv()
    anna.post(f"/api/tables/{table['id']}/start")

    def chatty(player: Player) -> Callable[[Message], str]:
        """Play the first legal action, saying something first (the spectator too)."""

        def choose(game: Message) -> str:
            player.send({"type": "chat", "phrase": "oops"})
            if player is players[0]:
                watcher.send({"type": "chat", "text": f"round {game['round']}"})
            return str(game["legal"][0])

        return choose

    threads = [threading.Thread(target=play_until, args=(p, game_over, chatty(p))) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(game_over(player) for player in players)
    for player in players:
        player.send({"type": "rematch", "accept": player is players[0]})
    everyone: list[Player] = [*players, watcher]
    for player in everyone:
        player.recv_until(lambda m: m["type"] == "rematch" and m["status"] == "started")
        player.send({"type": "ping"})
        player.recv_until(lambda m: m["type"] == "pong")

    seen: list[list[Message]] = []
    for player in everyone:
        social = [m for m in player.messages if m["type"] in ("chat", "rematch")]
        for message in social:
            assert not cards_in(message), message
            if message["type"] == "rematch":
                assert set(message) == REMATCH_FIELDS
                continue
            assert set(message) <= HISTORY_FIELDS
            for line in message["messages"]:
                assert set(line) == CHAT_FIELDS
        seen.append([m for m in social if not m.get("history")])
    assert len(seen[0]) > 20
    writers = {line["user_id"] for m in seen[0] if m["type"] == "chat" for line in m["messages"]}
    assert writers == {anna.user["id"], vera.user["id"], watcher_api.user["id"]}  # no bot
    assert seen[0] == seen[1] == seen[2]  # one message for all, whoever reads it
    stored = anna.http.get(f"/api/games/{table['id']}/chat").json()
    assert not cards_in(stored)
    for player in everyone:
        player.close()
