"""Friends (docs/friends.md): follow and unfollow, block and unblock, the friends list
with presence, invitations; each bad request refused with its worded code and nothing
changed; a block keeps the chat apart both ways. Presence and invitations across two
workers are in test_friends_cluster.py."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable

import pytest
from leak_check import cards_in
from server_helpers import FAST, Api, Message, Player, Server, at_most
from test_accounts import register
from test_lobby_feed import lobby_socket

from raspisnoy.server.config import ServerSettings

INVITATION_FIELDS = {"type", "from", "table", "at_ms"}


@pytest.fixture(scope="module")
def friendly(start_server: Callable[[ServerSettings], Server]) -> Server:
    """A server whose invitation limit is small enough to reach."""
    return start_server(FAST.model_copy(update={"invitations_per_user": at_most(3)}))


def refused(answer: object, status: int, code: str) -> None:
    """``answer`` (an httpx response) is the refusal ``code`` with ``status``."""
    assert getattr(answer, "status_code", None) == status, getattr(answer, "text", answer)
    body = answer.json()  # type: ignore[attr-defined]
    assert body["code"] == code, body


def listing(api: Api) -> Message:
    answer = api.http.get("/api/friends")
    assert answer.status_code == 200, answer.text
    found: Message = answer.json()
    return found


def line(api: Api, other: Api) -> Message:
    """The other's line in the caller's friends list (which must have it)."""
    found: Message = next(f for f in listing(api)["following"] if f["user_id"] == other.user["id"])
    return found


def friends(server: Server, *names: str) -> list[Api]:
    """Guests who all follow each other."""
    people = [Api(server.base, name) for name in names]
    for one in people:
        for other in people:
            if one is not other:
                assert one.http.put(f"/api/friends/{other.user['id']}").status_code == 200
    return people


def test_a_follow_is_one_way_until_returned(friendly: Server) -> None:
    anna, boris = Api(friendly.base, "Anna"), Api(friendly.base, "Boris")
    assert listing(anna) == {"following": [], "blocked": []}
    answer = anna.http.put(f"/api/friends/{boris.user['id']}")
    assert answer.status_code == 200
    assert answer.json()["following"] == [
        {
            "user_id": boris.user["id"],
            "nickname": "Boris",
            "friend": False,
            "online": False,
            "table": None,
        }
    ]
    assert anna.http.put(f"/api/friends/{boris.user['id']}").json() == answer.json()  # again
    assert listing(boris)["following"] == []
    boris.http.put(f"/api/friends/{anna.user['id']}")
    assert line(anna, boris) == {**answer.json()["following"][0], "friend": True}
    assert anna.http.delete(f"/api/friends/{boris.user['id']}").json()["following"] == []
    assert not line(boris, anna)["friend"]


def test_bad_follows_are_refused_with_their_code_and_change_nothing(friendly: Server) -> None:
    anna = Api(friendly.base, "Anna")
    before = listing(anna)
    refused(anna.http.put(f"/api/friends/{anna.user['id']}"), 422, "friend_self")
    refused(anna.http.put(f"/api/blocks/{anna.user['id']}"), 422, "friend_self")
    refused(anna.http.put("/api/friends/nobody"), 404, "not_found")
    refused(anna.http.put("/api/blocks/nobody"), 404, "not_found")
    refused(anna.http.put(f"/api/friends/{'x' * 65}"), 422, "bad_field")
    refused(Api(friendly.base).http.get("/api/friends"), 401, "no_session")
    refused(Api(friendly.base).http.put(f"/api/friends/{anna.user['id']}"), 401, "no_session")
    assert listing(anna) == before


def test_a_block_ends_the_follows_and_refuses_them_both_ways(friendly: Server) -> None:
    anna, boris = friends(friendly, "Anna", "Boris")
    blocked = anna.http.put(f"/api/blocks/{boris.user['id']}").json()
    assert blocked == {
        "following": [],
        "blocked": [{"user_id": boris.user["id"], "nickname": "Boris"}],
    }
    assert listing(boris) == {"following": [], "blocked": []}  # a block is not shown to them
    refused(anna.http.put(f"/api/friends/{boris.user['id']}"), 403, "blocked")
    refused(boris.http.put(f"/api/friends/{anna.user['id']}"), 403, "blocked")
    assert listing(boris)["following"] == listing(anna)["following"] == []
    assert anna.http.delete(f"/api/blocks/{boris.user['id']}").json()["blocked"] == []
    assert boris.http.put(f"/api/friends/{anna.user['id']}").status_code == 200


def test_presence_shows_a_friends_public_table_and_never_a_private_one(friendly: Server) -> None:
    anna, boris = friends(friendly, "Anna", "Boris")
    stalker = Api(friendly.base, "Stalker")  # follows Boris, not followed back
    stalker.http.put(f"/api/friends/{boris.user['id']}")
    assert line(anna, boris)["online"] is False
    public = boris.create_table(players=3)
    private = boris.create_table(players=3, public=False)
    lobby = lobby_socket(friendly.base, boris.token)
    lobby.recv()
    expected = {"user_id": boris.user["id"], "nickname": "Boris", "friend": True}
    assert line(anna, boris) == {**expected, "online": True, "table": None}
    at_private = boris.socket(private["id"])
    at_private.recv()
    assert line(anna, boris)["table"] is None
    at_public = boris.socket(public["id"])
    at_public.recv()
    assert line(anna, boris)["table"] == public["id"]
    for answer in (anna.http.get("/api/friends"), stalker.http.get("/api/friends")):
        assert private["id"] not in answer.text
    # A one-way follower learns neither that Boris is online nor where.
    assert line(stalker, boris) == {
        **line(anna, boris),
        "friend": False,
        "online": False,
        "table": None,
    }
    for socket in (lobby, at_private, at_public):
        socket.close()
    until_offline(anna, boris)


def until_offline(api: Api, other: Api) -> None:
    """The other's sockets are closed: they go offline as soon as the server sees it."""
    for _ in range(200):
        if not line(api, other)["online"]:
            return
        time.sleep(0.05)
    raise AssertionError("still online")


def test_an_invitation_reaches_every_open_page_of_a_friend_and_nobody_else(
    friendly: Server,
) -> None:
    anna, boris, vera = friends(friendly, "Anna", "Boris", "Vera")
    table = anna.create_table(players=3, public=False)
    lobby = lobby_socket(friendly.base, boris.token)
    elsewhere = boris.socket(boris.create_table(players=3)["id"])
    others = [lobby_socket(friendly.base, who.token) for who in (anna, vera)]
    for socket in (lobby, elsewhere, *others):
        socket.recv()
    answer = anna.post(f"/api/friends/{boris.user['id']}/invite", table_id=table["id"])
    assert answer.status_code == 200 and answer.json() == {"sent": True}
    for socket in (lobby, elsewhere):
        notice = socket.recv_until(lambda m: m["type"] == "invitation")
        assert set(notice) == INVITATION_FIELDS
        assert notice["from"] == {"user_id": anna.user["id"], "nickname": "Anna"}
        assert notice["table"] == table["id"]
    settle(*others)
    for socket in others:  # the private table's id reached the invitee alone
        assert not [m for m in socket.messages if table["id"] in json.dumps(m)]
    for socket in (lobby, elsewhere, *others):
        socket.close()


def test_bad_invitations_are_refused_with_their_code_and_send_nothing(friendly: Server) -> None:
    anna, boris = friends(friendly, "Anna", "Boris")
    stranger, fan = Api(friendly.base, "Stranger"), Api(friendly.base, "Fan")
    fan.http.put(f"/api/friends/{anna.user['id']}")  # follows Anna, not followed back
    table = anna.create_table(players=3)
    not_hers = boris.create_table(players=3)
    sockets = {
        who.user["id"]: lobby_socket(friendly.base, who.token) for who in (boris, stranger, fan)
    }
    for socket in sockets.values():
        socket.recv()

    def invite(who: Api, table_id: str = table["id"], by: Api = anna) -> object:
        return by.post(f"/api/friends/{who.user['id']}/invite", table_id=table_id)

    refused(invite(anna), 422, "friend_self")
    refused(invite(stranger), 403, "not_friends")
    refused(invite(fan), 403, "not_friends")  # following the inviter is not enough
    refused(invite(boris, not_hers["id"]), 409, "not_seated")
    refused(invite(boris, "no-such-table"), 404, "not_found")
    refused(anna.post(f"/api/friends/{boris.user['id']}/invite"), 422, "bad_field")
    refused(anna.post(f"/api/friends/{boris.user['id']}/invite", table_id=7), 422, "bad_field")
    refused(invite(boris, by=Api(friendly.base)), 401, "no_session")
    sockets[boris.user["id"]].close()
    until_offline(anna, boris)
    refused(invite(boris), 409, "friend_offline")
    boris_lobby = sockets[boris.user["id"]] = lobby_socket(friendly.base, boris.token)
    boris_lobby.recv()
    boris.http.put(f"/api/blocks/{anna.user['id']}")  # the invitee blocks: not told as such
    refused(invite(boris), 403, "not_friends")
    boris.http.delete(f"/api/blocks/{anna.user['id']}")
    friends_again = [boris.http.put(f"/api/friends/{anna.user['id']}")]
    friends_again.append(anna.http.put(f"/api/blocks/{boris.user['id']}"))
    refused(invite(boris), 403, "blocked")  # the inviter blocked them
    assert all(answer.status_code == 200 for answer in friends_again)
    for socket in sockets.values():
        socket.send({"type": "ping"})
        replies = [socket.recv_until(lambda m: m["type"] == "pong")]
        assert not [m for m in socket.messages if m["type"] == "invitation"], replies
        socket.close()


def test_invitations_are_limited_per_inviter(friendly: Server) -> None:
    anna, boris = friends(friendly, "Anna", "Boris")
    table = anna.create_table(players=3)
    lobby = lobby_socket(friendly.base, boris.token)
    lobby.recv()
    path = f"/api/friends/{boris.user['id']}/invite"
    assert [anna.post(path, table_id=table["id"]).status_code for _ in range(3)] == [200] * 3
    answer = anna.post(path, table_id=table["id"])
    refused(answer, 429, "too_many")
    assert answer.json()["params"]["seconds"] >= 1
    lobby.send({"type": "ping"})
    lobby.recv_until(lambda m: m["type"] == "pong")
    assert len([m for m in lobby.messages if m["type"] == "invitation"]) == 3
    lobby.close()


# ------------------------------------------------------------------------- chat and blocks


def chats(player: Player) -> list[str]:
    """Every chat text the player got, live or in a history."""
    return [
        line["text"]
        for m in player.messages
        if m["type"] == "chat"
        for line in m["messages"]
        if line["text"]
    ]


def settle(*players: Player) -> None:
    """Every message sent to them so far has arrived (a ping answered after it)."""
    for player in players:
        player.send({"type": "ping"})
        player.recv_until(lambda m: m["type"] == "pong")


def test_a_block_keeps_the_chat_apart_both_ways(friendly: Server) -> None:
    anna, boris, vera = (
        Api(friendly.base, "Anna"),
        Api(friendly.base, "Boris"),
        Api(friendly.base, "Vera"),
    )
    table = anna.create_table(players=3, spectator_chat=True)
    assert boris.post(f"/api/tables/{table['id']}/sit", seat=1).is_success
    boris.http.put(f"/api/blocks/{anna.user['id']}")
    sockets = [who.socket(table["id"]) for who in (anna, boris, vera)]
    for socket in sockets:
        socket.recv()
    a, b, v = sockets
    a.send({"type": "chat", "text": "from Anna"})
    b.send({"type": "chat", "text": "from Boris"})
    v.send({"type": "chat", "text": "from Vera"})
    settle(a, b, v)
    settle(a, b, v)  # the others' messages sent before the last pings are in
    assert sorted(chats(a)) == ["from Anna", "from Vera"]
    assert sorted(chats(b)) == ["from Boris", "from Vera"]
    assert sorted(chats(v)) == ["from Anna", "from Boris", "from Vera"]
    late = boris.socket(table["id"])  # a history is kept apart too
    late.recv_until(lambda m: m["type"] == "chat" and m["history"])
    assert sorted(chats(late)) == ["from Boris", "from Vera"]
    replay = boris.http.get(f"/api/games/{table['id']}/chat").json()["messages"]
    assert sorted(m["text"] for m in replay) == ["from Boris", "from Vera"]
    assert len(vera.http.get(f"/api/games/{table['id']}/chat").json()["messages"]) == 3
    for socket in [*sockets, late]:
        socket.close()


# ------------------------------------------------------------------------- spectators


def test_the_table_sees_who_watches_and_nothing_else(friendly: Server) -> None:
    host = Api(friendly.base, "Host")
    table = host.create_table(players=3)
    seated = host.socket(table["id"])
    first = seated.recv_until(lambda m: m["type"] == "spectators")
    assert first == {"type": "spectators", "count": 0, "names": []}
    member = register(friendly, f"member{secrets.token_hex(4)}", api=Api(friendly.base, "Member"))
    watchers = [
        member.socket(table["id"]),
        member.socket(table["id"]),  # one person, twice
        Api(friendly.base, "Guest").socket(table["id"]),
        Player(friendly.base, table["id"], None),
    ]
    expected = {"type": "spectators", "count": 3, "names": ["Member"]}
    seated.recv_until(lambda m: m == expected)
    for watcher in watchers:
        assert watcher.recv_until(lambda m: m["type"] == "spectators") is not None
    watchers.pop().close()
    seated.recv_until(lambda m: m == {**expected, "count": 2})
    everything = [m for m in seated.messages if m["type"] == "spectators"]
    assert all(set(m) == {"type", "count", "names"} for m in everything)
    assert not cards_in(everything)
    assert member.user["id"] not in json.dumps(everything)
    for watcher in [*watchers, seated]:
        watcher.close()
