"""Moderation (docs/moderation.md): reports from a chat line, a table and a profile;
only moderators read them or act, on REST and never through a socket; what a report
shows a moderator of a game in progress holds no hidden card; a mute stops the chat
and a ban the sessions, the sockets and the log-in; every action is logged and shown to
its person once."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from leak_check import check_rest, states_of
from server_helpers import FAST, HTTP_SECONDS, Api, Message, Player, Server, at_most
from test_accounts import log_in, register
from test_lobby_feed import lobby_socket
from test_protocol import close_of

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.routes import moderation

_names = itertools.count(1)


def account(server: Server, stem: str) -> Api:
    """A new registered account (user names are unique in the shared server)."""
    return register(server, f"{stem}{next(_names)}")


def moderator(server: Server) -> Api:
    """A new account given the moderator role (as ``raspisnoy moderators grant`` does)."""
    client = account(server, "Mod")
    username = client.user["nickname"]
    server.services.moderation_store.grant(username)
    return client


@dataclass
class Game:
    """A started game of two registered people (seats 0 and 1) and two bots that waits
    for a person to act, with a line of chat by each person."""

    anna: Api
    boris: Api
    table: Message
    sockets: tuple[Player, Player]

    @property
    def id(self) -> str:
        return str(self.table["id"])


def chat(player: Player, text: str) -> Message:
    """Send a chat text; its writer's copy of it as stored, or the error refusing it."""
    player.send({"type": "chat", "text": text})

    def answer(message: Message) -> bool:
        if message["type"] == "error":
            return True
        lines = message.get("messages", []) if message["type"] == "chat" else []
        return not message.get("history") and any(line["text"] == text for line in lines)

    return player.recv_until(answer)


@pytest.fixture(scope="module")
def server(start_server: Callable[[ServerSettings], Server]) -> Server:
    """A server of this module's own, whose chat limit lets a test write many lines."""
    return start_server(FAST.model_copy(update={"chat_messages_per_user": "100000/minute"}))


@pytest.fixture
def game(server: Server) -> Iterator[Game]:
    anna, boris = account(server, "Anna"), account(server, "Boris")
    table = anna.create_table(bots="random", bot_delay_ms=0, turn_seconds=600)
    assert boris.post(f"/api/tables/{table['id']}/sit", seat=1).status_code == 200
    assert anna.post(f"/api/tables/{table['id']}/start").status_code == 200
    a, b = anna.socket(table["id"]), boris.socket(table["id"])
    for player in (a, b):
        player.recv_until(lambda m: m["type"] == "chat" and m["history"])
    yield Game(anna, boris, table, (a, b))
    for player in (a, b):
        player.close()


def report_line(game: Game, text: str = "ты дурак") -> Message:
    """Boris writes ``text``; Anna reports that line for abuse. The report as answered."""
    line = chat(game.sockets[1], text)["messages"][0]
    answer = game.anna.post(
        "/api/reports",
        user_id=game.boris.user["id"],
        place="chat",
        table_id=game.id,
        chat_seq=line["seq"],
        reason="abuse",
        note="  грубит  ",
    )
    assert answer.status_code == 201, answer.text
    report: Message = answer.json()
    return report


# ------------------------------------------------------------------------- permissions


def moderators_requests() -> list[tuple[str, str, dict[str, Any] | None]]:
    """A request to every route of ``routes.moderation`` only moderators may use, read
    from the router itself so that a new route cannot be forgotten here."""
    body = {"user_id": "x", "kind": "warn", "reason": "spam"}
    found = []
    for route in moderation.router.routes:
        path = getattr(route, "path", "")
        if not path.startswith("/api/moderation/") or path.startswith("/api/moderation/me"):
            continue
        for method in sorted(getattr(route, "methods", ())):
            concrete = path.replace("{report_id}", "some-report")
            found.append((method, concrete, body if method == "POST" else None))
    return found


def test_every_moderators_route_refuses_everyone_else(server: Server) -> None:
    requests = moderators_requests()
    assert len(requests) == 5  # list, detail, resolve, act, log
    anonymous = httpx.Client(base_url=server.base, timeout=HTTP_SECONDS)
    callers = [anonymous, Api(server.base, "Guest").http]
    callers.append(account(server, "Plain").http)
    for client, (method, path, body) in itertools.product(callers, requests):
        answer = client.request(method, path, json=body)
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["code"] == "not_moderator"


def test_a_player_cannot_moderate_through_the_table_socket(server: Server, game: Game) -> None:
    anna = game.sockets[0]
    for kind in ("moderate", "ban", "mute_user", "report"):
        anna.send({"type": kind, "user_id": game.boris.user["id"], "minutes": 60})
        error = anna.recv_until(lambda m: m["type"] == "error")
        assert error["code"] == "unknown_type"
    assert chat(game.sockets[1], "всё ещё пишу")["type"] == "chat"
    assert server.services.moderation_store.actions(game.boris.user["id"], 10) == []


# ------------------------------------------------------------------------- reports


def test_a_report_of_a_chat_line_shows_its_context_and_no_hidden_card(
    server: Server, game: Game
) -> None:
    before = [chat(game.sockets[n % 2], f"строка {n}")["messages"][0] for n in range(7)]
    report = report_line(game)
    assert report["reporter"]["id"] == game.anna.user["id"]
    assert report["reported"]["id"] == game.boris.user["id"]
    assert (report["place"], report["reason"], report["note"]) == ("chat", "abuse", "грубит")
    assert report["status"] == "open"
    after = [chat(game.sockets[n % 2], f"после {n}")["messages"][0] for n in range(7)]
    mod = moderator(server)

    listed = mod.http.get("/api/moderation/reports").json()["reports"]
    assert report["id"] in [line["id"] for line in listed]
    path = f"/api/moderation/reports/{report['id']}"
    detail = mod.http.get(path).json()
    reported_seq = report["chat_seq"]
    seqs = [line["seq"] for line in detail["chat"]]
    assert seqs == list(range(reported_seq - 5, reported_seq + 6))  # five each side
    assert {line["text"] for line in detail["chat"]} <= {
        line["text"] for line in [*before, *after]
    } | {"ты дурак"}
    row = server.store.get_table(game.id)
    assert detail["table"] == {"id": game.id, "status": "playing", "names": list(row.names or ())}
    assert (detail["muted_until"], detail["banned"], detail["actions"]) == (None, False, [])

    # What the moderator reads of the game in progress: no hidden card anywhere.
    events = server.store.events_of(game.id)
    now = states_of(row, events)[-1]
    assert now.phase.value != "over"
    check_rest(path, detail, None, now)
    for route in ("score", "record"):
        answer = mod.http.get(f"/api/games/{game.id}/{route}")
        assert answer.status_code == 200
        check_rest(f"/api/games/{game.id}/{route}", answer.json(), None, now)


def test_reports_from_a_table_and_a_profile(server: Server, game: Game) -> None:
    boris_id = game.boris.user["id"]
    table = game.anna.post(
        "/api/reports", user_id=boris_id, place="table", table_id=game.id, reason="cheating"
    )
    assert table.status_code == 201 and table.json()["table_id"] == game.id
    profile = game.anna.post("/api/reports", user_id=boris_id, place="profile", reason="name")
    assert profile.status_code == 201
    assert (profile.json()["table_id"], profile.json()["chat_seq"]) == (None, None)
    detail = moderator(server).http.get(f"/api/moderation/reports/{profile.json()['id']}")
    assert (detail.json()["chat"], detail.json()["table"]) == ([], None)


def test_reports_that_are_refused(server: Server, game: Game) -> None:
    boris_id, anna_id = game.boris.user["id"], game.anna.user["id"]
    guest = Api(server.base, "Гость")
    answer = guest.post("/api/reports", user_id=boris_id, place="profile", reason="spam")
    assert (answer.status_code, answer.json()["code"]) == (403, "guest_cannot_report")
    answer = game.anna.post("/api/reports", user_id=anna_id, place="profile", reason="spam")
    assert (answer.status_code, answer.json()["code"]) == (422, "report_self")
    line = chat(game.sockets[0], "моя строка")["messages"][0]
    wrong_writer = game.anna.post(
        "/api/reports",
        user_id=boris_id,
        place="chat",
        table_id=game.id,
        chat_seq=line["seq"],
        reason="abuse",
    )
    assert (wrong_writer.status_code, wrong_writer.json()["code"]) == (404, "not_found")
    stranger = account(server, "Stranger")
    not_seated = game.anna.post(
        "/api/reports", user_id=stranger.user["id"], place="table", table_id=game.id, reason="spam"
    )
    assert not_seated.status_code == 404
    unknown = game.anna.post("/api/reports", user_id="nobody", place="profile", reason="spam")
    assert unknown.status_code == 404
    long_note = game.anna.post(
        "/api/reports", user_id=boris_id, place="profile", reason="other", note="x" * 501
    )
    assert (long_note.status_code, long_note.json()["code"]) == (422, "bad_field")
    bad_reason = game.anna.post("/api/reports", user_id=boris_id, place="profile", reason="ugly")
    assert bad_reason.status_code == 422


def test_reports_are_limited_per_reporter(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(FAST.model_copy(update={"reports_per_user": at_most(2)}))
    anna, boris = account(server, "Anna"), account(server, "Boris")
    report = {"user_id": boris.user["id"], "place": "profile", "reason": "spam"}
    assert [anna.post("/api/reports", **report).status_code for _ in range(3)] == [201, 201, 429]
    assert anna.post("/api/reports", **report).json()["code"] == "too_many"


# ------------------------------------------------------------------------- actions


def act(mod: Api, user: Api, kind: str, **more: Any) -> Message:
    answer = mod.post("/api/moderation/actions", user_id=user.user["id"], kind=kind, **more)
    assert answer.status_code == 201, answer.text
    action: Message = answer.json()
    return action


def test_a_mute_stops_the_chat_and_is_shown_to_its_person_once(server: Server, game: Game) -> None:
    report = report_line(game)
    mod = moderator(server)
    muted = act(mod, game.boris, "mute", minutes=30, reason="abuse", report_id=report["id"])
    until = datetime.fromisoformat(muted["until"])
    assert timedelta(minutes=29) < until - datetime.now(UTC) <= timedelta(minutes=30)
    assert muted["moderator"]["id"] == mod.user["id"] and muted["report_id"] == report["id"]

    refused = chat(game.sockets[1], "а теперь?")
    assert refused["type"] == "error" and refused["code"] == "muted"
    assert datetime.fromisoformat(refused["params"]["until"]) == until
    assert chat(game.sockets[0], "Анна пишет")["type"] == "chat"  # only Boris is muted

    standing = game.boris.http.get("/api/moderation/me").json()
    assert standing["moderator"] is False
    assert datetime.fromisoformat(standing["muted_until"]) == until
    [notice] = standing["notices"]
    assert (notice["kind"], notice["reason"], notice["id"]) == ("mute", "abuse", muted["id"])
    assert "moderator" not in notice  # the person is not told who
    seen = game.boris.post("/api/moderation/me/seen", ids=[notice["id"]]).json()
    assert seen == {"marked": 1}
    assert game.boris.http.get("/api/moderation/me").json()["notices"] == []
    # Another person cannot mark Boris's notices.
    assert game.anna.post("/api/moderation/me/seen", ids=[notice["id"]]).json() == {"marked": 0}

    resolved = mod.http.get("/api/moderation/reports", params={"status": "resolved"}).json()
    assert report["id"] in [line["id"] for line in resolved["reports"]]
    assert report["id"] not in [
        line["id"] for line in mod.http.get("/api/moderation/reports").json()["reports"]
    ]

    act(mod, game.boris, "unmute", reason="other")
    assert chat(game.sockets[1], "спасибо")["type"] == "chat"
    log = mod.http.get("/api/moderation/actions", params={"user_id": game.boris.user["id"]})
    assert [line["kind"] for line in log.json()["actions"]] == ["unmute", "mute"]


def test_a_ban_ends_sessions_and_sockets_and_refuses_the_log_in(server: Server, game: Game) -> None:
    mod = moderator(server)
    username = game.boris.user["nickname"]
    lobby = lobby_socket(server.base, game.boris.token)
    assert lobby.recv()["type"] == "lobby"
    banned = act(mod, game.boris, "ban", minutes=60, reason="cheating", note="нечестно")
    assert close_of(game.sockets[1])[0] == 4401
    assert close_of(lobby)[0] == 4401  # no more invitations on the lobby socket either
    assert game.boris.http.get("/api/session").status_code == 401
    again = log_in(server, username)
    assert (again.status_code, again.json()["code"]) == (403, "banned")
    assert again.json()["params"] == {"until": banned["until"]}
    assert Api(server.base).socket(game.id, token=game.boris.token) is not None  # anonymous
    act(mod, game.boris, "ban", reason="cheating")  # for good
    assert log_in(server, username).json()["code"] == "banned_for_good"
    act(mod, game.boris, "unban", reason="other")
    back = log_in(server, username)
    assert back.status_code == 200
    token = back.json()["token"]
    notices = httpx.get(
        f"{server.base}/api/moderation/me",
        headers={"authorization": f"Bearer {token}"},
        timeout=HTTP_SECONDS,
    ).json()["notices"]
    assert [(n["kind"], n["note"]) for n in notices] == [
        ("ban", "нечестно"),
        ("ban", None),
        ("unban", None),
    ]


def test_actions_a_moderator_cannot_take(server: Server, game: Game) -> None:
    mod = moderator(server)
    own = mod.post("/api/moderation/actions", user_id=mod.user["id"], kind="warn", reason="spam")
    assert own.status_code == 422
    untimed = mod.post(
        "/api/moderation/actions", user_id=game.boris.user["id"], kind="mute", reason="spam"
    )
    assert untimed.status_code == 422
    timed_warning = mod.post(
        "/api/moderation/actions",
        user_id=game.boris.user["id"],
        kind="warn",
        minutes=5,
        reason="spam",
    )
    assert timed_warning.status_code == 422
    nobody = mod.post("/api/moderation/actions", user_id="nobody", kind="warn", reason="spam")
    assert nobody.status_code == 404
    warned = act(mod, game.boris, "warn", reason="spam")
    assert warned["until"] is None
    log = mod.http.get("/api/moderation/actions").json()["actions"]
    assert log[0]["id"] == warned["id"]  # newest first
    assert mod.http.get("/api/moderation/me").json()["moderator"] is True


def test_a_moderator_who_loses_the_role_cannot_moderate(server: Server) -> None:
    mod = moderator(server)
    username = mod.user["nickname"]
    assert mod.http.get("/api/moderation/reports").status_code == 200
    assert server.services.moderation_store.revoke(username) is True
    assert mod.http.get("/api/moderation/reports").json()["code"] == "not_moderator"
