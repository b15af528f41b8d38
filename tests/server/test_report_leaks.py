"""Leak tests for reports from a seat (``place: "table"``): a report answers whether the
person named sits at the table, so to anyone the table is hidden from (a club's table
to those outside the club, a table of a tournament round being played to all but its
players) it answers exactly as for a table that does not exist, whoever it names.
Those who see the table report from it as before."""

from __future__ import annotations

import httpx
from server_helpers import Api, Server
from test_clubs import account, bots_game, new_club
from test_tournaments import add_bots, create, start_now, until_page
from test_tournaments import tournament_server as tournament_server


def report_at(reporter: Api, table_id: str, user_id: str) -> httpx.Response:
    """``reporter`` reports ``user_id`` from a seat of the table."""
    return reporter.post(
        "/api/reports", user_id=user_id, place="table", table_id=table_id, reason="cheating"
    )


def assert_told_nothing(reporter: Api, table_id: str, seated: Api, passer_by: Api) -> None:
    """``reporter``'s reports of a person seated at the table and of one who is not get
    the very answer of a report from a table that does not exist."""
    answers = [
        report_at(reporter, table_id, seated.user["id"]),
        report_at(reporter, table_id, passer_by.user["id"]),
        report_at(reporter, "no-such-table", seated.user["id"]),
    ]
    assert [answer.status_code for answer in answers] == [404] * 3, answers[0].text
    assert len({answer.text for answer in answers}) == 1, [answer.text for answer in answers]


def test_a_club_table_tells_no_one_outside_the_club_who_sits_there(
    tournament_server: Server,
) -> None:
    server = tournament_server
    owner, member = account(server, "owner"), account(server, "member")
    club = new_club(owner)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    answer = bots_game(member, club["id"])
    assert answer.status_code == 201, answer.text
    table_id = answer.json()["id"]
    assert owner.post(f"/api/tables/{table_id}/sit", seat=1).status_code == 200
    outsider, passer_by = account(server, "outsider"), account(server, "passer")
    assert_told_nothing(outsider, table_id, member, passer_by)
    assert report_at(owner, table_id, member.user["id"]).status_code == 201
    assert report_at(owner, table_id, passer_by.user["id"]).status_code == 404


def test_a_table_of_a_round_being_played_tells_no_one_else_who_sits_there(
    tournament_server: Server,
) -> None:
    """Every table of a round holds the same hands, so until the round is over a table
    is its players' only: the director and anyone else learn from a report no more
    than from its routes; once the event has ended the table is everyone's to see."""
    server = tournament_server
    director, anna = account(server, "director"), account(server, "anna")
    made = create(director, table_size=3, rounds=1, turn_seconds=120)
    assert anna.post(f"/api/tournaments/{made['id']}/register").status_code == 200
    add_bots(director, made["id"], 2)
    start_now(server, made["id"])
    page = until_page(anna, made["id"], lambda page: page["table_id"] is not None, "a table")
    table_id = page["table_id"]
    passer_by = account(server, "passer")
    for reporter in (director, account(server, "stranger")):
        assert_told_nothing(reporter, table_id, anna, passer_by)
    assert director.post(f"/api/tournaments/{made['id']}/end").json()["state"] == "finished"
    assert report_at(director, table_id, anna.user["id"]).status_code == 201


def test_a_private_table_is_seen_by_whoever_holds_its_link(tournament_server: Server) -> None:
    """A private table's id is its invite link, and the table's own route shows its
    seats to whoever holds it (a spectator the link was passed to): a report from
    there tells them nothing more, so it is taken as from a public table."""
    server = tournament_server
    anna, boris = account(server, "anna"), account(server, "boris")
    table = anna.create_table(players=3, public=False)
    assert boris.post(f"/api/tables/{table['id']}/sit", seat=1).status_code == 200
    spectator, passer_by = account(server, "spectator"), account(server, "passer")
    seats = spectator.http.get(f"/api/tables/{table['id']}").json()["seats"]
    assert boris.user["id"] in {seat["user_id"] for seat in seats}
    assert report_at(spectator, table["id"], boris.user["id"]).status_code == 201
    assert report_at(spectator, table["id"], passer_by.user["id"]).status_code == 404
    assert report_at(anna, table["id"], boris.user["id"]).status_code == 201
