"""Turn timers, away players and stand-in bots, disconnecting and coming back (RULES 3.5)."""

from __future__ import annotations

from collections.abc import Callable

from server_helpers import FAST, Api, Message, Player, Server, game_over, play_in_threads

from raspisnoy.server.config import ServerSettings


def seat_state(message: Message, seat: int) -> Message:
    seats: list[Message] = message["table"]["seats"]
    return seats[seat]


def my_turn_event(player: Player) -> Callable[[Message], bool]:
    return lambda m: m.get("game") is not None and m["game"]["to_act"] == player.seat


def test_timeout_marks_away_a_stand_in_plays_until_back(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    quick = start_server(FAST.model_copy(update={"min_turn_seconds": 1}))
    host = Api(quick.base, "Sleepy")
    rules = {"preset": "raspisnoy.com", "custom_plan": ["3", "3", "3"]}
    table = host.create_table(rules=rules, bots="random", bot_delay_ms=0, turn_seconds=1)
    me = host.socket(table["id"])
    me.recv()
    host.post(f"/api/tables/{table['id']}/start")
    turn = me.recv_until(my_turn_event(me))
    assert (turn.get("deadline_ms") or turn["table"]["deadline_ms"]) > 0  # the clock is shown
    waiting = me.recv_until(lambda m: m["type"] == "table" and seat_state(m, 0)["away"])
    assert waiting["table"]["deadline_ms"] is None  # the stand-in needs no timer
    played = me.recv_until(lambda m: m["type"] == "event" and m["action"]["seat"] == 0)
    assert played["action"]["by"] == "stand-in"
    # Away: the stand-in keeps the seat at bot speed, without waiting for the timer.
    again = me.recv_until(lambda m: m["type"] == "event" and m["action"]["seat"] == 0)
    assert again["action"]["by"] == "stand-in"
    me.send({"type": "back"})
    me.recv_until(lambda m: m["type"] == "table" and not seat_state(m, 0)["away"])
    play_in_threads([me])
    mine = [
        m["action"]["by"] for m in me.messages if m["type"] == "event" and m["action"]["seat"] == 0
    ]
    assert mine[-1] == "player"
    me.close()


def test_disconnect_a_stand_in_plays_and_the_player_comes_back(server: Server) -> None:
    host, guest = Api(server.base, "Host"), Api(server.base, "Guest")
    rules = {"preset": "raspisnoy.com", "custom_plan": ["2", "3", "3:blind", "3"]}
    table = host.create_table(rules=rules, bots="random", bot_delay_ms=0, turn_seconds=0)
    guest.post(f"/api/tables/{table['id']}/sit", seat=1)
    me, them = host.socket(table["id"]), guest.socket(table["id"])
    me.recv(), them.recv()
    host.post(f"/api/tables/{table['id']}/start")
    them.close()
    gone = me.recv_until(lambda m: m["type"] == "table" and not seat_state(m, 1)["connected"])
    assert seat_state(gone, 1)["away"]  # no timer: away at once
    # The host plays on; the stand-in plays the guest's seat.
    stand_in = [0]

    def guest_played_by_stand_in(player: Player) -> bool:
        stand_in[0] = sum(
            1
            for m in player.messages
            if m["type"] == "event" and m["action"] == {**m["action"], "seat": 1, "by": "stand-in"}
        )
        return stand_in[0] >= 2

    play_in_threads([me], guest_played_by_stand_in)
    back = guest.socket(table["id"])
    state = back.recv()
    assert state["type"] == "state" and state["you"]["seat"] == 1
    assert state["version"] >= me.version and state["game"]["seat"] == 1
    assert state["game"]["hand"] is not None or state["game"]["kind"] == "blind"
    me.recv_until(lambda m: m["type"] == "table" and seat_state(m, 1)["connected"])
    play_in_threads([me, back])
    assert game_over(me) and game_over(back)
    after = [m for m in back.messages if m["type"] == "event" and m["action"]["seat"] == 1]
    assert after and all(m["action"]["by"] == "player" for m in after)
    me.close()
    back.close()


def test_a_connected_player_who_changes_seats_is_not_away(server: Server) -> None:
    host, guest = Api(server.base, "Host"), Api(server.base, "Mover")
    rules = {"preset": "raspisnoy.com", "custom_plan": ["2", "3"]}
    table = host.create_table(rules=rules, bots="random", bot_delay_ms=0, turn_seconds=0)
    guest.post(f"/api/tables/{table['id']}/sit", seat=2)
    me, them = host.socket(table["id"]), guest.socket(table["id"])
    me.recv(), them.recv()
    moved = guest.post(f"/api/tables/{table['id']}/sit", seat=1).json()
    assert moved["seats"][1]["connected"] and not moved["seats"][1]["away"]
    host.post(f"/api/tables/{table['id']}/start")
    play_in_threads([me, them])
    assert them.seat == 1
    by = {
        m["action"]["by"]
        for m in them.messages
        if m["type"] == "event" and m["action"]["seat"] == 1
    }
    assert by == {"player"}
    me.close()
    them.close()


def test_leaving_a_game_hands_the_seat_to_a_stand_in(server: Server) -> None:
    host = Api(server.base, "Leaver")
    table = host.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    me = host.socket(table["id"])
    me.recv()
    host.post(f"/api/tables/{table['id']}/start")
    left = host.post(f"/api/tables/{table['id']}/leave").json()
    assert left["seats"][0]["away"] and left["seats"][0]["user_id"] == host.user["id"]
    played = me.recv_until(lambda m: m["type"] == "event" and m["action"]["seat"] == 0)
    assert played["action"]["by"] == "stand-in"
    me.send({"type": "back"})
    me.recv_until(lambda m: m["type"] == "table" and not seat_state(m, 0)["away"])
    me.close()
