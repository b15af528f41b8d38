"""Clubs (docs/clubs.md): created by accounts, joined by invite or by request, run by
their owner and admins; a banned member cannot come back; a muted member's chat lines at
the club's tables are refused until the mute ends; bad input is refused with its code and
changes nothing; a member who leaves keeps their games in the history."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from server_helpers import Api, Server
from test_accounts import PASSWORD, register
from test_moderation import chat

from raspisnoy.ratings import BOT_RATINGS, DEFAULT_RATING, displayed, rate_game

Message = dict[str, Any]
#: House rules of one short round, so a club game plays itself out in a moment.
ONE_ROUND = {"preset": "raspisnoy.com", "custom_plan": ["1"]}


def unique(name: str) -> str:
    """A name no other test of the session's server uses."""
    return f"{name}{uuid.uuid4().hex[:6]}"


def account(server: Server, name: str) -> Api:
    return register(server, unique(name))


def new_club(owner: Api, **fields: Any) -> Message:
    answer = owner.post("/api/clubs", **{"name": unique("Клуб "), "rules": ONE_ROUND, **fields})
    assert answer.status_code == 201, answer.text
    club: Message = answer.json()
    return club


def page(api: Api, club_id: str) -> httpx.Response:
    return api.http.get(f"/api/clubs/{club_id}")


def refusal(answer: httpx.Response, status: int, code: str) -> Message:
    assert answer.status_code == status, answer.text
    body: Message = answer.json()
    assert body["code"] == code, body
    return body


def act(api: Api, club_id: str, member: Api, what: str) -> httpx.Response:
    return api.post(f"/api/clubs/{club_id}/members/{member.user['id']}/{what}")


def test_a_club_is_made_and_joined_by_its_link(server: Server) -> None:
    owner, anna = account(server, "owner"), account(server, "anna")
    club = new_club(owner, description="По пятницам", language="uk")
    assert (club["role"], club["state"], club["member_count"]) == ("owner", "member", 1)
    assert club["language"] == "uk" and club["rules"]["custom_plan"] == ["1"]
    assert club["invite"] and club["requests"] == [] and club["banned"] == []
    joined = anna.post(f"/api/clubs/join/{club['invite']}")
    assert joined.status_code == 200, joined.text
    seen = joined.json()
    assert (seen["role"], seen["state"], seen["member_count"]) == ("member", "member", 2)
    assert seen["invite"] is None and seen["requests"] is None  # the admins' only
    assert {m["name"] for m in seen["members"]} == {owner.user["nickname"], anna.user["nickname"]}
    assert all(m["games"] == 0 and m["rating"] is None for m in seen["members"])
    assert seen["tables"] == [] and seen["history"] == [] and seen["leaderboard"] == []
    again = anna.post(f"/api/clubs/join/{club['invite']}")  # twice: still one member
    assert again.json()["member_count"] == 2
    directory = httpx.get(f"{server.base}/api/clubs").json()["clubs"]
    card = next(c for c in directory if c["id"] == club["id"])
    assert (card["name"], card["member_count"], card["language"]) == (club["name"], 2, "uk")


def test_a_request_is_accepted_by_an_admin(server: Server) -> None:
    owner, anna, boris = account(server, "owner"), account(server, "anna"), account(server, "boris")
    club = new_club(owner)
    visitor = page(boris, club["id"]).json()
    assert visitor["state"] == "none" and visitor["members"] is None and visitor["tables"] is None
    asked = boris.post(f"/api/clubs/{club['id']}/request").json()
    assert asked["state"] == "requested" and asked["members"] is None
    requests = page(owner, club["id"]).json()["requests"]
    assert [r["user_id"] for r in requests] == [boris.user["id"]]
    refusal(act(anna, club["id"], boris, "accept"), 403, "club_admins_only")  # not in it
    assert act(owner, club["id"], boris, "accept").status_code == 200
    assert page(boris, club["id"]).json()["state"] == "member"
    refusal(act(owner, club["id"], boris, "accept"), 409, "conflict")  # not a request now


def test_the_owner_names_admins_and_admins_remove_and_ban(server: Server) -> None:
    owner = account(server, "owner")
    admin, anna, boris = (account(server, n) for n in ("admin", "anna", "boris"))
    club = new_club(owner)
    for person in (admin, anna, boris):
        assert person.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    refusal(act(anna, club["id"], boris, "remove"), 403, "club_admins_only")
    assert act(owner, club["id"], admin, "admin").json()["role"] == "owner"
    assert page(admin, club["id"]).json()["role"] == "admin"
    refusal(act(admin, club["id"], anna, "admin"), 403, "club_owner_only")
    refusal(act(admin, club["id"], owner, "ban"), 409, "club_owner_stays")
    refusal(owner.post(f"/api/clubs/{club['id']}/leave"), 409, "club_owner_stays")

    assert act(admin, club["id"], anna, "remove").json()["member_count"] == 3
    assert page(anna, club["id"]).json()["state"] == "left"
    assert anna.post(f"/api/clubs/join/{club['invite']}").json()["state"] == "member"

    banned = act(admin, club["id"], boris, "ban").json()
    assert [b["user_id"] for b in banned["banned"]] == [boris.user["id"]]
    refusal(boris.post(f"/api/clubs/join/{club['invite']}"), 403, "club_banned")
    refusal(boris.post(f"/api/clubs/{club['id']}/request"), 403, "club_banned")
    assert page(boris, club["id"]).json()["state"] == "banned"
    assert page(owner, club["id"]).json()["member_count"] == 3  # nothing changed
    assert act(admin, club["id"], boris, "unban").status_code == 200
    assert boris.post(f"/api/clubs/join/{club['invite']}").json()["state"] == "member"


def test_an_admin_of_one_club_has_no_say_in_another(server: Server) -> None:
    first_owner, second_owner, anna = (account(server, n) for n in ("one", "two", "anna"))
    first, second = new_club(first_owner), new_club(second_owner)
    assert anna.post(f"/api/clubs/join/{second['invite']}").status_code == 200
    refusal(act(first_owner, second["id"], anna, "ban"), 403, "club_admins_only")
    assert page(anna, second["id"]).json()["state"] == "member"
    assert first["id"] != second["id"]


def test_bad_input_is_refused_and_changes_nothing(server: Server) -> None:
    guest = Api(server.base, unique("guest"))
    refusal(guest.post("/api/clubs", name="Гостевой клуб"), 403, "club_account")
    owner = account(server, "owner")
    refusal(owner.post("/api/clubs", name=" x "), 422, "club_name_length")
    refusal(owner.post("/api/clubs", name="y" * 65), 422, "club_name_length")
    refusal(owner.post("/api/clubs", name="Клуб", rules={"preset": "nope"}), 422, "bad_rules")
    refusal(owner.post("/api/clubs", name="Клуб", language="de"), 422, "bad_field")
    refusal(owner.post("/api/clubs", name="Клуб", colour="red"), 422, "bad_field")
    club = new_club(owner)
    taken = refusal(owner.post("/api/clubs", name=club["name"].upper()), 409, "club_name_taken")
    assert taken["params"] == {"name": club["name"].upper()}
    refusal(owner.post("/api/clubs/join/not-an-invite"), 404, "not_found")
    refusal(page(owner, "no-such-club"), 404, "not_found")
    refusal(guest.post(f"/api/clubs/join/{club['invite']}"), 403, "club_account")
    assert directory_names(server, club["name"]) == [club["name"]]
    assert directory_names(server, "Гостевой клуб") == []


def directory_names(server: Server, search: str) -> list[str]:
    """The clubs the directory finds by ``search``: a search, not its first page, which
    the clubs of every other test on this server may fill."""
    answer = httpx.get(f"{server.base}/api/clubs", params={"search": search})
    return [c["name"] for c in answer.json()["clubs"]]


def test_a_private_club_is_hidden_from_everyone_not_in_it(server: Server) -> None:
    owner, anna = account(server, "owner"), account(server, "anna")
    club = new_club(owner, private=True)
    refusal(page(anna, club["id"]), 404, "not_found")
    refusal(httpx.get(f"{server.base}/api/clubs/{club['id']}"), 404, "not_found")
    refusal(anna.post(f"/api/clubs/{club['id']}/request"), 404, "not_found")
    directory = httpx.get(f"{server.base}/api/clubs").json()["clubs"]
    assert club["id"] not in {c["id"] for c in directory}
    # Its name claims nothing: refusing it would tell that the club exists.
    namesake = anna.post("/api/clubs", name=club["name"].upper(), rules=ONE_ROUND)
    assert namesake.status_code == 201, namesake.text
    assert anna.post(f"/api/clubs/join/{club['invite']}").json()["state"] == "member"
    assert page(anna, club["id"]).json()["private"] is True
    # Made public under a name another public club has, it is refused, to its admins.
    refusal(change(owner, club["id"], private=False), 409, "club_name_taken")
    assert page(owner, club["id"]).json()["private"] is True


def bots_game(member: Api, club_id: str, **fields: Any) -> httpx.Response:
    """``member`` makes a club table of three seats filled by random bots that play with
    no delay and no turn clock, so a started game ends in seconds; ``fields`` add to it."""
    return member.post(
        f"/api/clubs/{club_id}/tables",
        players=3,
        bots="random",
        stand_in="random",
        bot_delay_ms=0,
        turn_seconds=0,
        **fields,
    )


def finished(api: Api, table_id: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while api.http.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the club game did not end"
        time.sleep(0.2)


def test_club_games_make_the_leaderboard_and_stay_after_leaving_and_a_ban(server: Server) -> None:
    owner, anna = account(server, "owner"), account(server, "anna")
    club = new_club(owner)
    assert anna.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    made = bots_game(anna, club["id"])
    assert made.status_code == 201, made.text
    table = made.json()
    assert table["public"] is False and table["rules"]["custom_plan"] == ["1"]  # house rules
    assert [t["id"] for t in page(owner, club["id"]).json()["tables"]] == [table["id"]]
    assert anna.post(f"/api/tables/{table['id']}/start").status_code == 200
    finished(anna, table["id"])

    seen = page(owner, club["id"]).json()
    (game,) = seen["history"]
    assert game["table_id"] == table["id"] and len(game["seats"]) == 3
    assert game["seats"][0]["name"] == anna.user["nickname"] and not game["seats"][0]["bot"]
    (line,) = seen["leaderboard"]
    assert (line["user_id"], line["games"]) == (anna.user["id"], 1)
    bots = [BOT_RATINGS[seat["name"]] for seat in game["seats"][1:]]  # random bots
    totals = [seat["points"] for seat in game["seats"]]
    expected = rate_game([DEFAULT_RATING, *bots], totals, [False, True, True])[0]
    assert line["rating"] == displayed(expected)  # OpenSkill over the club's one game
    assert seen["tables"] == []

    assert anna.post(f"/api/clubs/{club['id']}/leave").json()["state"] == "left"
    after = page(owner, club["id"]).json()
    assert anna.user["id"] not in {m["user_id"] for m in after["members"]}
    assert after["history"][0]["seats"][0]["name"] == anna.user["nickname"]
    refusal(anna.http.get(f"/api/tables/{table['id']}"), 404, "not_found")  # not hers now
    # Banned now: her games still stay, and she cannot come back by link or by asking.
    assert act(owner, club["id"], anna, "ban").status_code == 200
    banned = page(owner, club["id"]).json()
    assert banned["history"] == after["history"]
    refusal(anna.post(f"/api/clubs/join/{club['invite']}"), 403, "club_banned")
    refusal(anna.post(f"/api/clubs/{club['id']}/request"), 403, "club_banned")


def seated_club_table(owner: Api, anna: Api, boris: Api) -> tuple[Message, Message]:
    """A club of ``owner`` that Anna and Boris joined, and a club table Anna opened where
    Boris sat: the club and the table."""
    club = new_club(owner)
    for person in (anna, boris):
        assert person.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    made = anna.post(f"/api/clubs/{club['id']}/tables", players=3, turn_seconds=0)
    assert made.status_code == 201, made.text
    table: Message = made.json()
    assert boris.post(f"/api/tables/{table['id']}/sit", seat=1).status_code == 200
    return club, table


def mute(admin: Api, club_id: str, member: Api, minutes: Any = 30) -> httpx.Response:
    return admin.post(f"/api/clubs/{club_id}/members/{member.user['id']}/mute", minutes=minutes)


def test_an_admin_mutes_a_member_in_the_club_tables_chat(server: Server) -> None:
    owner, anna, boris = (account(server, n) for n in ("owner", "anna", "boris"))
    club, table = seated_club_table(owner, anna, boris)
    sockets = [person.socket(table["id"]) for person in (anna, boris)]
    try:
        for player in sockets:
            player.recv_until(lambda m: m["type"] == "chat" and m["history"])
        refusal(mute(boris, club["id"], anna), 403, "club_admins_only")
        muted = mute(owner, club["id"], anna)
        assert muted.status_code == 200, muted.text
        (line,) = muted.json()["muted"]
        until = datetime.fromisoformat(line["until"])
        assert (line["user_id"], line["name"]) == (anna.user["id"], anna.user["nickname"])
        assert timedelta(minutes=29) < until - datetime.now(UTC) <= timedelta(minutes=30)

        refused = chat(sockets[0], "можно?")
        assert (refused["type"], refused["code"]) == ("error", "club_muted"), refused
        assert datetime.fromisoformat(refused["params"]["until"]) == until
        assert chat(sockets[1], "Борис пишет")["type"] == "chat"  # only Anna is muted
        elsewhere = anna.create_table(players=3)  # the club's mute holds at its tables only
        outside = anna.socket(elsewhere["id"])
        outside.recv_until(lambda m: m["type"] == "chat" and m["history"])
        assert chat(outside, "а здесь можно")["type"] == "chat"
        outside.close()

        unmuted = owner.http.delete(f"/api/clubs/{club['id']}/members/{anna.user['id']}/mute")
        assert unmuted.status_code == 200 and unmuted.json()["muted"] == []
        assert chat(sockets[0], "спасибо")["type"] == "chat"
    finally:
        for player in sockets:
            player.close()


def club_with_admin(server: Server) -> tuple[Api, Api, Api, Message]:
    """A club of the owner's where one member was named admin and Anna is a member."""
    owner, admin, anna = (account(server, n) for n in ("owner", "admin", "anna"))
    club = new_club(owner)
    for person in (admin, anna):
        assert person.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    assert act(owner, club["id"], admin, "admin").status_code == 200
    return owner, admin, anna, club


def test_mutes_that_are_refused_change_nothing(server: Server) -> None:
    owner, admin, anna, club = club_with_admin(server)
    before = page(owner, club["id"]).text
    for minutes in (0, -5, 366 * 24 * 60 + 1, "30", 1.5, None):
        refusal(mute(owner, club["id"], anna, minutes), 422, "bad_field")
    refusal(mute(admin, club["id"], owner), 409, "club_owner_stays")
    refusal(mute(admin, club["id"], admin), 403, "club_owner_only")  # an admin: the owner's
    refusal(mute(anna, club["id"], admin), 403, "club_admins_only")
    refusal(owner.post(f"/api/clubs/{club['id']}/members/nobody/mute", minutes=5), 404, "not_found")
    assert anna.post(f"/api/clubs/{club['id']}/leave").status_code == 200
    left = page(owner, club["id"]).text
    refusal(mute(owner, club["id"], anna), 409, "conflict")  # not a member now
    assert page(owner, club["id"]).text == left != before
    other = new_club(anna)  # an admin of one club has no say in another
    refusal(mute(owner, other["id"], anna), 403, "club_admins_only")


def change(api: Api, club_id: str, **fields: Any) -> httpx.Response:
    return api.http.patch(f"/api/clubs/{club_id}", json=fields)


def test_admins_change_the_club_settings_and_its_tables_follow(server: Server) -> None:
    owner, admin, anna, club = club_with_admin(server)
    refusal(change(anna, club["id"], description="захват"), 403, "club_admins_only")
    name = unique("Новое имя ")
    rules = {"preset": "classic", "custom_plan": ["2"]}
    changed = change(admin, club["id"], name=f"  {name} ", description=" Вторники ", rules=rules)
    assert changed.status_code == 200, changed.text
    seen = changed.json()
    assert (seen["name"], seen["description"], seen["language"]) == (name, "Вторники", "ru")
    assert seen["rules"]["preset"] == "classic" and seen["rules"]["custom_plan"] == ["2"]
    table = anna.post(f"/api/clubs/{club['id']}/tables", players=3).json()
    assert table["rules"] == seen["rules"]  # a club table opens with the new house rules
    assert change(owner, club["id"], name=name.upper()).json()["name"] == name.upper()

    hidden = change(owner, club["id"], private=True, language="en").json()
    assert (hidden["private"], hidden["language"], hidden["name"]) == (True, "en", name.upper())
    directory = httpx.get(f"{server.base}/api/clubs").json()["clubs"]
    assert club["id"] not in {c["id"] for c in directory}
    assert page(anna, club["id"]).json()["name"] == name.upper()


def test_bad_settings_are_refused_and_change_nothing(server: Server) -> None:
    owner, outsider = account(server, "owner"), account(server, "outsider")
    club, other = new_club(owner), new_club(owner)
    before = page(owner, club["id"]).text
    refusal(change(owner, club["id"], name=" y "), 422, "club_name_length")
    refusal(change(owner, club["id"], name="z" * 65, description="ok"), 422, "club_name_length")
    taken = refusal(change(owner, club["id"], name=other["name"].lower()), 409, "club_name_taken")
    assert taken["params"] == {"name": other["name"].lower()}
    refusal(change(owner, club["id"], rules={"preset": "nope"}, name="Годное"), 422, "bad_rules")
    refusal(change(owner, club["id"], rules={"preset": "classic", "jokers": 5}), 422, "bad_rules")
    refusal(change(owner, club["id"], language="de"), 422, "bad_field")
    refusal(change(owner, club["id"], private="yes"), 422, "bad_field")
    refusal(change(owner, club["id"], colour="red"), 422, "bad_field")
    refusal(change(owner, club["id"], description="d" * 501), 422, "bad_field")
    refusal(change(outsider, club["id"], description="чужой"), 403, "club_admins_only")
    refusal(change(owner, "no-such-club", description="нет"), 404, "not_found")
    assert page(owner, club["id"]).text == before
    secret = new_club(owner, private=True)  # to an outsider a private club does not exist
    refusal(change(outsider, secret["id"], name="Моё"), 404, "not_found")


def directory(server: Server, **params: Any) -> httpx.Response:
    return httpx.get(f"{server.base}/api/clubs", params=params)


def test_the_directory_is_searched_by_name_and_paged_by_cursor(server: Server) -> None:
    tag = uuid.uuid4().hex[:8]
    owner, anna, boris = (account(server, n) for n in ("owner", "anna", "boris"))
    names = [f"{word} {tag}" for word in ("Альфа", "Бета", "Гамма", "Дельта", "Эпсилон")]
    clubs = {name: new_club(owner, name=name) for name in names}
    new_club(owner, name=f"Тайный {tag}", private=True)
    for person in (anna, boris):  # Гамма: three members; Бета: two
        assert person.post(f"/api/clubs/join/{clubs[names[2]]['invite']}").status_code == 200
    assert anna.post(f"/api/clubs/join/{clubs[names[1]]['invite']}").status_code == 200
    expected = [names[2], names[1], names[0], names[3], names[4]]

    seen: list[str] = []
    cursor: str | None = None
    for _ in range(3):  # pages of two: 2 + 2 + 1
        answer = directory(
            server, search=tag.upper(), size=2, **({"after": cursor} if cursor else {})
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        seen += [club["name"] for club in body["clubs"]]
        cursor = body["next"]
    assert seen == expected and cursor is None
    counts = {c["name"]: c["member_count"] for c in directory(server, search=tag).json()["clubs"]}
    assert counts == {names[0]: 1, names[1]: 2, names[2]: 3, names[3]: 1, names[4]: 1}
    only = directory(server, search=f"гамма {tag}").json()
    assert ([c["name"] for c in only["clubs"]], only["next"]) == ([names[2]], None)
    assert directory(server, search=f"%{tag}").json()["clubs"] == []  # no wildcard


def test_bad_directory_requests_are_refused(server: Server) -> None:
    refusal(directory(server, after="not a cursor"), 422, "invalid")
    refusal(directory(server, after="x:name"), 422, "invalid")
    refusal(directory(server, size=0), 422, "bad_field")
    refusal(directory(server, size=101), 422, "bad_field")
    refusal(directory(server, search="x" * 65), 422, "bad_field")


def test_a_deleted_owners_club_passes_to_its_admin_and_the_owner_leaves_every_list(
    server: Server,
) -> None:
    """The admin becomes the owner (and may name admins, which only the owner may); the
    deleted account is in no club's members, requests or count any more."""
    owner, admin, anna, club = club_with_admin(server)
    gone = owner.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    seen = page(admin, club["id"]).json()
    assert (seen["role"], seen["member_count"]) == ("owner", 2)
    assert {m["user_id"] for m in seen["members"]} == {admin.user["id"], anna.user["id"]}
    assert act(admin, club["id"], anna, "admin").status_code == 200  # the owner's right
    assert page(anna, club["id"]).json()["role"] == "admin"


def test_a_club_whose_only_member_deleted_the_account_is_closed_to_everyone(
    server: Server,
) -> None:
    """Nobody to pass it to: it answers as a club that does not exist, old link included."""
    owner, anna = account(server, "alone"), account(server, "anna")
    club = new_club(owner)
    gone = owner.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    refusal(page(anna, club["id"]), 404, "not_found")
    refusal(anna.post(f"/api/clubs/join/{club['invite']}"), 404, "not_found")
    assert club["id"] not in {
        c["id"] for c in httpx.get(f"{server.base}/api/clubs").json()["clubs"]
    }
