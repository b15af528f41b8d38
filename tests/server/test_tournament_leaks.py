"""Leak tests for tournaments: a club's tournament, its entrants, standings and tables are
nothing to anyone outside the club, at every route, exactly as a tournament that does not
exist (as the club's tables are); a tournament's page, while a round is played, names
no card, no seed and no score of the round; and each table of a round being played is
its own players' only (every table of a round holds the same hands)."""

from __future__ import annotations

from typing import Any

import httpx
from leak_check import cards_in
from server_helpers import Api, Server, game_over, play_until
from test_club_leaks import assert_as_missing
from test_clubs import account, new_club
from test_tournaments import (
    add_bots,
    create,
    start_now,
    until_page,
    until_state,
)
from test_tournaments import (
    tournament_server as tournament_server,
)

Message = dict[str, Any]


def tournament_routes(tournament_id: str) -> list[tuple[str, str, Message | None]]:
    """Every route that answers about one tournament."""
    path = f"/api/tournaments/{tournament_id}"
    return [
        ("GET", path, None),
        ("POST", f"{path}/register", None),
        ("POST", f"{path}/unregister", None),
        ("POST", f"{path}/bots", {"name": "Бот"}),
        ("POST", f"{path}/start", None),
        ("POST", f"{path}/pause", None),
        ("POST", f"{path}/resume", None),
        ("POST", f"{path}/end", None),
        ("POST", f"{path}/withdraw/someone", None),
    ]


def test_a_club_tournament_is_nothing_to_anyone_outside_the_club(
    tournament_server: Server,
) -> None:
    owner, member = account(tournament_server, "owner"), account(tournament_server, "member")
    club = new_club(owner)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    made = create(owner, club_id=club["id"], table_size=3, rounds=1)
    assert member.post(f"/api/tournaments/{made['id']}/register").status_code == 200
    add_bots(owner, made["id"], 2)
    start_now(tournament_server, made["id"])
    final = until_state(member, made["id"], "finished")
    (table,) = final["round_list"][0]["tables"]
    assert member.http.get(f"/api/games/{table['table_id']}/record").status_code == 200

    outsider, guest = account(tournament_server, "outsider"), Api(tournament_server.base, "Гость")
    anonymous = Api(tournament_server.base)
    for caller in (outsider, guest, anonymous):
        for (method, path, body), (_, nowhere, _) in zip(
            tournament_routes(made["id"]), tournament_routes("no-such-thing"), strict=True
        ):
            answer = caller.http.request(method, path, json=body)
            missing = caller.http.request(method, nowhere, json=body)
            assert answer.status_code == missing.status_code, (path, answer.text)
            assert answer.text == missing.text.replace("no-such-thing", made["id"]), path
        listed = caller.http.get(f"/api/clubs/{club['id']}/tournaments")
        missing = caller.http.get("/api/clubs/no-such-club/tournaments")
        assert listed.status_code == missing.status_code == 404
        assert listed.text == missing.text.replace("no-such-club", club["id"])
        record = caller.http.get(f"/api/games/{table['table_id']}/record")
        assert record.status_code == 404
    public = httpx.get(f"{tournament_server.base}/api/tournaments").json()["tournaments"]
    assert made["id"] not in {t["id"] for t in public}
    lobby = httpx.get(f"{tournament_server.base}/api/tables").json()["tables"]
    assert table["table_id"] not in {t["id"] for t in lobby}


def test_the_page_tells_no_card_no_seed_and_no_game_not_over(tournament_server: Server) -> None:
    director = Api(tournament_server.base, "Директор")
    anna = Api(tournament_server.base, "Анна")
    made = create(director, table_size=3, rounds=1, turn_seconds=120)
    assert anna.post(f"/api/tournaments/{made['id']}/register").status_code == 200
    add_bots(director, made["id"], 2)
    start_now(tournament_server, made["id"])
    page = until_page(anna, made["id"], lambda page: bool(page["round_list"]), "a round listed")
    assert page["table_id"] is not None  # Anna's own table, where she is to play
    for caller in (anna, director, Api(tournament_server.base)):
        text = caller.http.get(f"/api/tournaments/{made['id']}").json()
        assert cards_in(text) == set()
        assert "seed" not in str(text) and text.get("table_id") in (None, page["table_id"])
        (table,) = text["round_list"][0]["tables"]
        assert table["status"] != "over"
        assert all(seat["points"] is None for seat in table["seats"])
        assert all(line["games"] == 0 for line in text["standings"])
    assert director.post(f"/api/tournaments/{made['id']}/end").json()["state"] == "finished"


def test_a_round_being_played_hides_each_table_from_all_but_its_players(
    tournament_server: Server,
) -> None:
    """Every table of a round holds the same hands: while Anna's game is played, the
    other table of her round (its bots' game over already) is nothing to her, to the
    director or to anyone, at every route and on its socket; the page shows none of the
    round's points. Once the event ends, the table is open to all."""
    director, anna = account(tournament_server, "director"), account(tournament_server, "anna")
    made = create(director, table_size=3, rounds=1, turn_seconds=120)
    assert anna.post(f"/api/tournaments/{made['id']}/register").status_code == 200
    add_bots(director, made["id"], 5)
    start_now(tournament_server, made["id"])
    page = until_page(anna, made["id"], _a_table_over, "the bots' table over")
    mine = page["table_id"]
    (other,) = [t for t in page["round_list"][0]["tables"] if t["table_id"] != mine]
    sister = other["table_id"]
    assert anna.http.get(f"/api/tables/{mine}").status_code == 200
    for caller in (anna, director, Api(tournament_server.base)):
        assert_as_missing(caller, tournament_server.base, sister)
        seen_now = caller.http.get(f"/api/tournaments/{made['id']}").json()
        tables = seen_now["round_list"][0]["tables"]
        assert all(seat["points"] is None for table in tables for seat in table["seats"])
        assert all(line["games"] == 0 for line in seen_now["standings"])
    lobby = httpx.get(f"{tournament_server.base}/api/tables").json()["tables"]
    assert not {mine, sister} & {t["id"] for t in lobby}
    assert director.post(f"/api/tournaments/{made['id']}/end").json()["state"] == "finished"
    assert anna.http.get(f"/api/games/{sister}/record").status_code == 200


def test_a_profile_counts_no_game_of_a_round_being_played_for_others(
    tournament_server: Server,
) -> None:
    """Boris's game of the round is over while Anna still plays the same hands at the
    other table: his profile's figures do not count it for Anna (they would tell her his
    points, his place, his bids of 0 on her deals), only for Boris; once the round is
    over they do for everyone."""
    director = account(tournament_server, "director")
    anna, boris = account(tournament_server, "anna"), account(tournament_server, "boris")
    made = create(director, table_size=3, rounds=1, turn_seconds=600)
    for person in (anna, boris):
        assert person.post(f"/api/tournaments/{made['id']}/register").status_code == 200
    for name in ("a-bot 1", "a-bot 2"):  # round 1 seats by name: these, Anna | Boris, Бот…
        bot = director.post(f"/api/tournaments/{made['id']}/bots", level="random", name=name)
        assert bot.status_code == 200, bot.text
    add_bots(director, made["id"], 2)
    start_now(tournament_server, made["id"])
    page = until_page(boris, made["id"], lambda p: p["table_id"] is not None, "Boris seated")
    assert (
        until_page(anna, made["id"], lambda p: p["table_id"] is not None, "")["table_id"]
        != (page["table_id"])
    )
    player = boris.socket(page["table_id"])
    player.recv()
    play_until(player, game_over)
    player.close()
    until_page(anna, made["id"], _a_table_over, "Boris's table over")
    profile = f"/api/players/{boris.user['id']}"
    for caller in (anna, director, Api(tournament_server.base)):
        assert caller.http.get(profile).json()["stats"]["games"] == 0
    assert boris.http.get(profile).json()["stats"]["games"] == 1
    assert director.post(f"/api/tournaments/{made['id']}/end").json()["state"] == "finished"
    assert anna.http.get(profile).json()["stats"]["games"] == 1


def _a_table_over(page: Message) -> bool:
    return any(t["status"] == "over" for r in page["round_list"] for t in r["tables"])
