"""Leak tests for clubs: a club's table (its rematch too), its chat, its game's score,
record and reviews, and a club's people are hidden from everyone not in it, at every
route and on the table socket, exactly as a table that does not exist; a private club is
not found at all. One whose place in the club ends loses the sockets of its tables at
once; the club page tells no game of a club tournament's round still being played."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest
from server_helpers import Api, Player, Server
from test_clubs import account, act, bots_game, finished, mute, new_club, page, refusal
from test_moderation import chat
from test_protocol import close_of
from test_tournaments import add_bots, create, start_now, until_page, until_state
from test_tournaments import tournament_server as tournament_server

Message = dict[str, Any]


def club_table(server: Server) -> tuple[Api, Api, dict[str, str], str]:
    """A club (owner and one member) with a finished club game; the outsider's view."""
    owner, member = account(server, "owner"), account(server, "member")
    club = new_club(owner)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    table = bots_game(member, club["id"], spectator_chat=True).json()
    assert member.post(f"/api/tables/{table['id']}/start").status_code == 200
    finished(member, table["id"])
    return owner, member, club, table["id"]


def table_routes(table_id: str) -> list[tuple[str, str]]:
    """Every REST route that answers about one table or its game."""
    return [
        ("GET", f"/api/tables/{table_id}"),
        ("POST", f"/api/tables/{table_id}/sit"),
        ("POST", f"/api/tables/{table_id}/leave"),
        ("POST", f"/api/tables/{table_id}/start"),
        ("POST", f"/api/tables/{table_id}/hint"),
        ("GET", f"/api/games/{table_id}/chat"),
        ("GET", f"/api/games/{table_id}/score"),
        ("GET", f"/api/games/{table_id}/record"),
        ("GET", f"/api/games/{table_id}/reviews/0"),
        ("POST", f"/api/games/{table_id}/reviews/0"),
    ]


def assert_as_missing(caller: Api, base: str, table_id: str) -> None:
    """Every route (``table_routes``) and the table socket answer ``caller`` about the
    table exactly as about a table that does not exist."""
    for (method, path), (_, nowhere) in zip(
        table_routes(table_id), table_routes("no-such-table"), strict=True
    ):
        body = {"seat": 1} if path.endswith("/sit") else None
        answer = caller.http.request(method, path, json=body)
        missing = caller.http.request(method, nowhere, json=body)
        assert answer.status_code == missing.status_code, (path, answer.text)
        assert answer.text == missing.text.replace("no-such-table", table_id), path
    if caller.token is not None:
        code, _ = close_of(Player(base, table_id, caller.token))
        assert code == 4404


def test_a_club_table_is_nothing_to_anyone_outside_the_club(server: Server) -> None:
    owner, member, club, table_id = club_table(server)
    outsider, guest = account(server, "outsider"), Api(server.base, "Guest")
    anonymous = Api(server.base)
    # The club's own see the game (the finished game's reports are cached from now on).
    for path in ("score", "record", "chat"):
        assert member.http.get(f"/api/games/{table_id}/{path}").status_code == 200, path
    assert owner.http.get(f"/api/games/{table_id}/record").status_code == 200
    for caller in (outsider, guest, anonymous):
        assert_as_missing(caller, server.base, table_id)
    # The club page tells a visitor of a public club nothing but its card.
    seen = page(outsider, club["id"]).json()
    text = json.dumps(seen, ensure_ascii=False)
    assert table_id not in text and member.user["id"] not in text
    assert member.user["nickname"] not in text and club["invite"] not in text
    lobby = httpx.get(f"{server.base}/api/tables").json()["tables"]
    assert table_id not in {t["id"] for t in lobby}


def test_the_rematch_of_a_club_table_is_the_clubs(server: Server) -> None:
    owner, member, club, table_id = club_table(server)
    player = member.socket(table_id)
    player.recv_until(lambda m: m["type"] == "state")
    player.send({"type": "rematch", "accept": True})
    started = player.recv_until(lambda m: m["type"] == "rematch" and m["status"] == "started")
    player.close()
    rematch = started["table"]
    paths = [f"/api/tables/{rematch}", f"/api/games/{rematch}/record", f"/api/games/{rematch}/chat"]
    for person in (owner, member):
        assert [person.http.get(path).status_code for path in paths] == [200] * 3
    for caller in (account(server, "outsider"), Api(server.base)):
        for path in paths:
            answer = caller.http.get(path)
            missing = caller.http.get(path.replace(rematch, "no-such-table"))
            assert answer.status_code == missing.status_code == 404, (path, answer.text)
            assert answer.text == missing.text.replace("no-such-table", rematch), path
    seen = page(member, club["id"]).json()  # the club's page lists it as the club's
    listed = [t["id"] for t in seen["tables"]] + [g["table_id"] for g in seen["history"]]
    assert rematch in listed


def test_a_member_who_leaves_or_is_banned_loses_the_club_table(server: Server) -> None:
    owner, member, club, table_id = club_table(server)
    second = account(server, "second")
    assert second.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    assert second.http.get(f"/api/games/{table_id}/record").status_code == 200
    assert owner.post(f"/api/clubs/{club['id']}/members/{second.user['id']}/ban").status_code == 200
    refusal(second.http.get(f"/api/games/{table_id}/record"), 404, "not_found")
    assert member.post(f"/api/clubs/{club['id']}/leave").status_code == 200
    refusal(member.http.get(f"/api/games/{table_id}/chat"), 404, "not_found")


def test_a_private_club_and_its_tables_are_not_found(server: Server) -> None:
    owner, outsider = account(server, "owner"), account(server, "outsider")
    club = new_club(owner, private=True)
    table = owner.post(f"/api/clubs/{club['id']}/tables", players=3, bots="random").json()
    for path in (f"/api/clubs/{club['id']}", f"/api/tables/{table['id']}"):
        body = refusal(outsider.http.get(path), 404, "not_found")
        assert club["name"] not in json.dumps(body, ensure_ascii=False)
    refusal(outsider.post(f"/api/clubs/{club['id']}/tables", players=3), 404, "not_found")
    refusal(outsider.post(f"/api/clubs/{club['id']}/leave"), 404, "not_found")
    code, _ = close_of(Player(server.base, table["id"], outsider.token))
    assert code == 4404


def test_who_is_muted_is_the_admins_only(server: Server) -> None:
    owner, member = account(server, "owner"), account(server, "member")
    muted, outsider = account(server, "muted"), account(server, "outsider")
    club = new_club(owner, private=True)
    for person in (member, muted):
        assert person.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    before = {person: page(person, club["id"]).text for person in (member, muted)}
    assert mute(owner, club["id"], muted).status_code == 200
    for person, seen in before.items():  # a member (the muted one too) sees no difference
        assert page(person, club["id"]).text == seen
        assert page(person, club["id"]).json()["muted"] is None
    assert [m["user_id"] for m in page(owner, club["id"]).json()["muted"]] == [muted.user["id"]]
    # To someone outside a private club, its mute routes answer as for no club at all.

    def answers(club_id: str) -> list[tuple[int, str]]:
        path = f"/api/clubs/{club_id}/members/{muted.user['id']}/mute"
        sent = (outsider.post(path, minutes=5), outsider.http.delete(path))
        return [(answer.status_code, answer.text.replace(club_id, "ID")) for answer in sent]

    assert answers(club["id"]) == answers("no-such-club")
    assert {status for status, _ in answers(club["id"])} == {404}


def test_a_private_club_is_never_in_the_directory(server: Server) -> None:
    owner, member = account(server, "owner"), account(server, "member")
    tag = uuid.uuid4().hex[:8]
    club = new_club(owner, name=f"Скрытый {tag}", private=True)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    for caller in (httpx.Client(base_url=server.base), owner.http, member.http):
        found = caller.get("/api/clubs", params={"search": club["name"]})
        nothing = caller.get("/api/clubs", params={"search": f"Нет такого {tag}"})
        assert found.status_code == nothing.status_code == 200
        assert found.text == nothing.text == '{"clubs":[],"next":null}'
        cursor, pages = None, []
        while True:  # every page of the whole directory
            params = {"size": 100} | ({"after": cursor} if cursor else {})
            body = caller.get("/api/clubs", params=params).json()
            pages.append(json.dumps(body, ensure_ascii=False))
            cursor = body["next"]
            if cursor is None:
                break
        assert all(club["id"] not in text and tag not in text for text in pages)


@pytest.mark.parametrize(
    ("how", "private"), [("ban", False), ("remove", False), ("leave", False), ("leave", True)]
)
def test_one_whose_place_ends_loses_the_club_tables_socket_at_once(
    server: Server, how: str, private: bool
) -> None:
    """A member watching a club table, banned, removed or leaving, is closed at once
    (4404, as the table is not theirs to see any more) and gets no later chat line; the
    leaver of a private club too, though their answer is the club's 404 (to them, it is
    no longer there)."""
    owner, member = account(server, "owner"), account(server, "member")
    club = new_club(owner, private=private)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    table = bots_game(owner, club["id"], spectator_chat=True).json()
    host, watcher = owner.socket(table["id"]), member.socket(table["id"])
    for player in (host, watcher):
        player.recv_until(lambda m: m["type"] == "chat" and m["history"])
    if how == "leave":
        ended = member.post(f"/api/clubs/{club['id']}/leave")
    else:
        ended = act(owner, club["id"], member, how)
    assert ended.status_code == (404 if private else 200), ended.text
    assert chat(host, "после")["type"] == "chat"
    code, _ = close_of(watcher)
    assert code == 4404
    lines = [m for m in watcher.messages if m["type"] == "chat" and not m["history"]]
    assert lines == []
    host.close()


def test_the_club_page_tells_no_game_of_a_round_being_played(tournament_server: Server) -> None:
    """Every table of a club tournament's round holds the same hands: while the member
    still plays theirs, the bots' table of the round is over, and its points are not on
    the club page (history, leaderboard, games) for anyone; once the round is over, they
    are."""
    owner, member = account(tournament_server, "owner"), account(tournament_server, "member")
    club = new_club(owner)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    made = create(owner, club_id=club["id"], table_size=3, rounds=1, turn_seconds=120)
    assert member.post(f"/api/tournaments/{made['id']}/register").status_code == 200
    add_bots(owner, made["id"], 5)
    start_now(tournament_server, made["id"])
    seen = until_page(member, made["id"], _a_table_over, "the bots' table over")
    (sister,) = [t["table_id"] for t in _tables(seen) if t["table_id"] != seen["table_id"]]
    for person in (owner, member):
        club_page = page(person, club["id"]).json()
        assert club_page["history"] == [] and club_page["leaderboard"] == []
        assert all(line["games"] == 0 for line in club_page["members"])
        assert sister not in json.dumps(club_page)
    assert owner.post(f"/api/tournaments/{made['id']}/end").json()["state"] == "finished"
    until_state(member, made["id"], "finished")
    history = page(member, club["id"]).json()["history"]
    assert sister in {game["table_id"] for game in history}


def _tables(tournament: dict[str, Any]) -> list[dict[str, Any]]:
    """Every table of every round of a tournament's page."""
    return [table for line in tournament["round_list"] for table in line["tables"]]


def _a_table_over(tournament: dict[str, Any]) -> bool:
    return any(table["status"] == "over" for table in _tables(tournament))


def seat_holder(message: Message, seat: int) -> str | None:
    """Who sits in ``seat`` by a ``state`` or ``table`` message (``""`` for any other)."""
    if message["type"] not in {"state", "table"}:
        return ""
    holder: str | None = message["table"]["seats"][seat]["user_id"]
    return holder


@pytest.mark.parametrize(("how", "private"), [("ban", False), ("remove", True), ("leave", False)])
def test_one_whose_place_ends_leaves_the_club_tables_not_started_and_its_tournaments(
    tournament_server: Server, how: str, private: bool
) -> None:
    """A member seated at a club table not started, and entered in a club tournament,
    whose place ends (banned, removed, leaving) loses both: the seat is free for the
    others at once (the host's socket is told), the table is no longer among the
    person's tables (which would have shown who sits down later), and the entry is gone."""
    owner, member = account(tournament_server, "owner"), account(tournament_server, "member")
    club = new_club(owner, private=private)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    table = bots_game(owner, club["id"]).json()
    host = owner.socket(table["id"])
    assert member.post(f"/api/tables/{table['id']}/sit", seat=1).status_code == 200
    host.recv_until(lambda m: seat_holder(m, 1) == member.user["id"])
    event = create(owner, club_id=club["id"], table_size=3, rounds=1)
    assert member.post(f"/api/tournaments/{event['id']}/register").status_code == 200
    entrants = owner.http.get(f"/api/tournaments/{event['id']}").json()["entrants"]
    assert member.user["nickname"] in [entrant["name"] for entrant in entrants]
    if how == "leave":
        ended = member.post(f"/api/clubs/{club['id']}/leave")
    else:
        ended = act(owner, club["id"], member, how)
    assert ended.status_code == (404 if private and how == "leave" else 200), ended.text
    host.recv_until(lambda m: seat_holder(m, 1) is None)
    mine = member.http.get("/api/me/tables").json()["tables"]
    assert table["id"] not in {t["id"] for t in mine}
    entrants = owner.http.get(f"/api/tournaments/{event['id']}").json()["entrants"]
    assert member.user["nickname"] not in [entrant["name"] for entrant in entrants]
    host.close()
