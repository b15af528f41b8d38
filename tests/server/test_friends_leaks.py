"""Leak tests for invitations (docs/friends.md): a club's table is asked about, by its id,
only by those who may see it, so to anyone else an invitation to it answers exactly as
one to a table that does not exist; and a club's table is never sent to a friend outside
the club."""

from __future__ import annotations

from server_helpers import Api, Server
from test_club_leaks import club_table
from test_clubs import account, bots_game, new_club, refusal
from test_friends import settle
from test_lobby_feed import lobby_socket


def befriend(one: Api, other: Api) -> None:
    """The two follow each other: friends."""
    for follower, followed in ((one, other), (other, one)):
        assert follower.http.put(f"/api/friends/{followed.user['id']}").status_code == 200


def invite(by: Api, friend: Api, table_id: str) -> tuple[int, str]:
    """``by`` invites ``friend`` to the table: the answer's status and text."""
    answer = by.post(f"/api/friends/{friend.user['id']}/invite", table_id=table_id)
    return answer.status_code, answer.text


def test_an_invitation_to_a_club_table_tells_an_outsider_nothing(server: Server) -> None:
    """An outsider holding a club table's id, and a member who left the club though
    still seated at its finished game, get the answer of a table that does not exist,
    in the same words: neither learns that the table exists, nor whether it is over."""
    _, member, club, table_id = club_table(server)
    outsider, friend = account(server, "outsider"), account(server, "friend")
    befriend(outsider, friend)
    befriend(member, friend)
    assert member.post(f"/api/clubs/{club['id']}/leave").status_code == 200
    for caller in (outsider, member):
        status, text = invite(caller, friend, table_id)
        missing_status, missing = invite(caller, friend, "no-such-table")
        assert status == missing_status == 404, text
        assert text == missing.replace("no-such-table", table_id)


def test_a_club_table_is_sent_to_the_clubs_friends_only(server: Server) -> None:
    owner, member, outsider = (account(server, name) for name in ("owner", "member", "out"))
    club = new_club(owner)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    table_id = bots_game(owner, club["id"]).json()["id"]
    befriend(owner, member)
    befriend(owner, outsider)
    inside, outside = (lobby_socket(server.base, friend.token) for friend in (member, outsider))
    for page in (inside, outside):
        page.recv()
    refusal(
        owner.post(f"/api/friends/{outsider.user['id']}/invite", table_id=table_id),
        403,
        "forbidden",
    )
    assert invite(owner, member, table_id)[0] == 200
    assert inside.recv_until(lambda m: m["type"] == "invitation")["table"] == table_id
    settle(outside)
    assert not [m for m in outside.messages if m["type"] == "invitation"]
    for page in (inside, outside):
        page.close()
