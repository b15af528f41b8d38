"""«Ещё партию» (docs/PROTOCOL.md, "Rematch"): answered by the people of a finished game,
it opens a new table with the same rules, the people who accepted in their seats, bots in
the others and the next first dealer, and tells everyone at the old table where it is;
silence counts as declining; bad answers are named."""

from __future__ import annotations

from collections.abc import Callable

from server_helpers import FAST, Api, Message, Player, Server, play_in_threads

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal

RULES = {"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}


def rematch_of(player: Player, status: str) -> Message:
    return player.recv_until(lambda m: m["type"] == "rematch" and m["status"] == status)


def error_of(player: Player, message: Message) -> Message:
    player.send(message)
    return player.recv_until(lambda m: m["type"] == "error")


def finished(
    server: Server, names: tuple[str, ...], turn_seconds: int = 30
) -> tuple[list[Api], list[Player], Message]:
    """A game of these people (seats 0, 1, …) and bots, played to its end."""
    people = [Api(server.base, name) for name in names]
    bots = ["random", "beginner", "heuristic", "random"]
    table = people[0].create_table(
        rules=RULES, players=4, bots=bots, bot_delay_ms=0, turn_seconds=turn_seconds
    )
    for seat, api in enumerate(people[1:], 1):
        assert api.post(f"/api/tables/{table['id']}/sit", seat=seat).status_code == 200
    sockets = [api.socket(table["id"]) for api in people]
    for player in sockets:
        player.recv()
    early = error_of(sockets[0], {"type": "rematch", "accept": True})
    assert early["code"] == Refusal.NOT_OVER
    assert people[0].post(f"/api/tables/{table['id']}/start").status_code == 200
    play_in_threads(sockets)
    return people, sockets, table


def test_one_accepts_one_declines_and_the_accepter_plays_the_next_game(server: Server) -> None:
    (anna, boris), (a, b), old = finished(server, ("Anna", "Boris"))
    watcher = Api(server.base, "Watcher").socket(old["id"])
    watcher.recv()
    assert error_of(watcher, {"type": "rematch", "accept": True})["code"] == Refusal.NOT_SEATED
    assert error_of(a, {"type": "rematch", "accept": "yes"})["code"] == Refusal.BAD_MESSAGE
    assert error_of(a, {"type": "rematch"})["code"] == Refusal.BAD_MESSAGE
    a.send({"type": "rematch", "accept": True})
    for player in (a, b, watcher):
        offer = rematch_of(player, "open")
        assert [s["answer"] for s in offer["seats"]] == ["accepted", "waiting", "bot", "bot"]
        assert offer["deadline_ms"] is not None and offer["table"] is None
    b.send({"type": "rematch", "accept": False})
    for player in (a, b, watcher):
        started = rematch_of(player, "started")
        assert [s["answer"] for s in started["seats"]] == ["accepted", "declined", "bot", "bot"]
    new_id = started["table"]
    new = anna.http.get(f"/api/tables/{new_id}").json()
    assert new["status"] == "playing" and new["host_id"] == anna.user["id"]
    assert [s["user_id"] for s in new["seats"]] == [anna.user["id"], None, None, None]
    assert [s["bot"] for s in new["seats"]] == ["random", "beginner", "heuristic", "random"]
    assert new["rules"] == old["rules"]
    before, after = server.store.get_table(old["id"]), server.store.get_table(new_id)
    assert before.first_dealer is not None
    assert after.first_dealer == (before.first_dealer + 1) % 4
    game = anna.socket(new_id)
    state = game.recv()
    assert state["you"]["seat"] == 0 and state["game"]["dealer"] == after.first_dealer
    again = error_of(a, {"type": "rematch", "accept": True})
    assert again["code"] == Refusal.REMATCH_CLOSED and new_id in again["message"]
    late = boris.socket(old["id"])  # who comes back to the old table learns where it went
    assert late.recv()["type"] == "state"
    assert rematch_of(late, "started")["table"] == new_id
    for player in (a, b, watcher, game, late):
        player.close()


def test_silence_declines_and_nobody_accepting_cancels(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(FAST.model_copy(update={"rematch_seconds": 1.0}))
    (anna, _), (a, b), _ = finished(server, ("Anna", "Boris"))
    a.send({"type": "rematch", "accept": True})
    rematch_of(b, "open")
    started = rematch_of(b, "started")  # Boris never answered
    assert [s["answer"] for s in started["seats"]][:2] == ["accepted", "declined"]
    new = anna.http.get(f"/api/tables/{started['table']}").json()
    assert [s["user_id"] for s in new["seats"]][:2] == [anna.user["id"], None]

    (_,), (alone,), _ = finished(server, ("Solo",))
    alone.send({"type": "rematch", "accept": False})
    cancelled = rematch_of(alone, "cancelled")
    assert cancelled["table"] is None and cancelled["seats"][0]["answer"] == "declined"
    for player in (a, b, alone):
        player.close()


def test_at_a_table_without_timer_the_rematch_waits_for_who_accepted(server: Server) -> None:
    """Nobody marks a person away at a table without a turn timer, so people start there
    away until they connect; those a rematch expects do not (else the bots and stand-ins
    would play the whole new game before their page gets there)."""
    (anna,), (a,), _ = finished(server, ("Anna",), turn_seconds=0)
    a.send({"type": "rematch", "accept": True})
    started = rematch_of(a, "started")
    new = anna.http.get(f"/api/tables/{started['table']}").json()
    assert new["status"] == "playing" and new["seats"][0]["away"] is False
    game = anna.socket(started["table"])
    state = game.recv()
    assert state["game"]["phase"] != "over" and state["table"]["seats"][0]["away"] is False
    for player in (a, game):
        player.close()
