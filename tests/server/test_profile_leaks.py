"""Leak tests for profiles (docs/accounts.md, "Profiles and statistics"): the recent games
a person's profile shows to anyone else, anonymous or not, are only those anyone may know
of: never a private table's game nor a club's, whose id and co-players are hidden
information; the person sees every game of their own."""

from __future__ import annotations

from server_helpers import Api, Server
from test_clubs import ONE_ROUND, account, bots_game, finished, new_club


def test_a_profile_shows_others_no_private_nor_club_game(server: Server) -> None:
    owner, member = account(server, "owner"), account(server, "member")
    club = new_club(owner, private=True)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    games = [bots_game(member, club["id"]).json()["id"]]
    for public in (False, True):
        table = member.create_table(
            rules=ONE_ROUND,
            players=3,
            bots="random",
            stand_in="random",
            bot_delay_ms=0,
            turn_seconds=0,
            public=public,
        )
        games.append(table["id"])
    for table_id in games:
        assert member.post(f"/api/tables/{table_id}/start").status_code == 200
        finished(member, table_id)
    club_game, private_game, public_game = games
    profile = f"/api/players/{member.user['id']}"
    own = member.http.get(profile).json()["recent"]
    assert {game["id"] for game in own} == set(games)
    for caller in (account(server, "outsider"), owner, Api(server.base)):
        answer = caller.http.get(profile)
        assert [game["id"] for game in answer.json()["recent"]] == [public_game]
        assert club_game not in answer.text and private_game not in answer.text
