"""Accounts: register, log in and out on several devices, change the password, delete
the account; a guest who registers mid-game keeps their seat; wrong passwords and the
log-in rate limit; cross-site writes refused (docs/accounts.md)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from server_helpers import (
    FAST,
    HTTP_SECONDS,
    Api,
    Server,
    at_most,
    game_over,
    play_until,
    until,
)

from raspisnoy.server.config import ServerSettings

ELSEWHERE = "https://evil.example"
PASSWORD = "correct horse battery"


def register(
    server: Server, username: str, password: str = PASSWORD, api: Api | None = None
) -> Api:
    """A client with a registered session: a new account, or ``api``'s guest upgraded."""
    client = api or Api(server.base)
    answer = client.post("/api/account", username=username, password=password)
    assert answer.status_code == 200, answer.text
    client.token, client.user = answer.json()["token"], answer.json()["user"]
    client.http.headers["authorization"] = f"Bearer {client.token}"
    return client


def log_in(server: Server, username: str, password: str = PASSWORD) -> httpx.Response:
    return httpx.post(
        f"{server.base}/api/login",
        json={"username": username, "password": password},
        timeout=HTTP_SECONDS,
    )


def test_register_log_in_on_two_devices_and_end_one(server: Server) -> None:
    first = register(server, "Marta")
    assert first.user["kind"] == "registered" and first.user["nickname"] == "Marta"
    assert first.post("/api/account", username="marta", password=PASSWORD).status_code == 409
    second = log_in(server, "MARTA")  # user names are compared case-insensitively
    assert second.status_code == 200 and second.json()["user"]["id"] == first.user["id"]
    token = second.json()["token"]
    sessions = first.http.get("/api/sessions").json()["sessions"]
    assert len(sessions) == 2 and sum(s["current"] for s in sessions) == 1
    other = next(s for s in sessions if not s["current"])
    assert first.http.delete(f"/api/sessions/{other['id']}").status_code == 200
    me = httpx.get(f"{server.base}/api/session", headers={"authorization": f"Bearer {token}"})
    assert me.status_code == 401
    assert first.http.get("/api/session").status_code == 200
    assert first.http.delete(f"/api/sessions/{other['id']}").status_code == 404


def test_wrong_passwords_and_the_log_in_limit(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    strict = start_server(FAST.model_copy(update={"logins_per_account": at_most(3)}))
    register(strict, "Guarded")
    wrong = log_in(strict, "Guarded", "not the password")
    assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong user name or password"
    assert log_in(strict, "Nobody here", PASSWORD).status_code == 401
    assert log_in(strict, "guarded").status_code == 200
    log_in(strict, "guarded", "wrong again")
    limited = log_in(strict, "Guarded")  # the right password, but one attempt too many
    assert limited.status_code == 429
    assert "too many log-in attempts for this user name" in limited.json()["detail"]
    assert int(limited.headers["retry-after"]) >= 1


def test_passwords_and_user_names_are_checked(server: Server) -> None:
    guest = Api(server.base)
    short = guest.post("/api/account", username="Shorty", password="1234567")
    assert short.status_code == 422 and "password: 8 to 128 characters" in short.json()["detail"]
    bad = guest.post("/api/account", username="<script>", password=PASSWORD)
    assert bad.status_code == 422 and bad.json()["detail"].startswith("username:")


def test_change_password_ends_the_other_sessions(server: Server) -> None:
    client = register(server, "Changer")
    other = log_in(server, "Changer").json()["token"]
    wrong = client.http.put(
        "/api/account/password", json={"password": "nope nope", "new_password": "n" * 10}
    )
    assert wrong.status_code == 403
    changed = client.http.put(
        "/api/account/password", json={"password": PASSWORD, "new_password": "new password 2"}
    )
    assert changed.status_code == 200 and changed.json()["sessions_ended"] == 1
    assert (
        httpx.get(
            f"{server.base}/api/session", headers={"authorization": f"Bearer {other}"}
        ).status_code
        == 401
    )
    assert client.http.get("/api/session").status_code == 200
    assert log_in(server, "Changer").status_code == 401
    assert log_in(server, "Changer", "new password 2").status_code == 200


def test_a_guest_registering_mid_game_keeps_seat_games_and_sheets(server: Server) -> None:
    guest = Api(server.base, "Traveller")
    table = guest.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    assert guest.post(f"/api/tables/{table['id']}/start").status_code == 200
    sheet = guest.post(
        "/api/sheets",
        format="raspisnoy-sheet/1",
        rules="raspisnoy.com",
        players=["A", "B", "C"],
        first_dealer=0,
    )
    assert sheet.status_code == 201, sheet.text
    old_token = guest.token
    player = guest.socket(table["id"])
    play_until(player, lambda p: p.version >= 8)
    register(server, "Traveller2", api=guest)
    assert guest.user["id"] != "" and guest.user["kind"] == "registered"
    play_until(player, lambda p: p.version >= 16)  # the open socket plays on
    assert (
        httpx.get(
            f"{server.base}/api/session", headers={"authorization": f"Bearer {old_token}"}
        ).status_code
        == 401
    )
    again = guest.socket(table["id"])
    assert again.recv()["you"]["seat"] == 0
    games = guest.http.get("/api/me/games").json()["games"]
    assert [g["id"] for g in games] == [table["id"]]
    assert [s["id"] for s in guest.http.get("/api/sheets").json()["sheets"]] == [sheet.json()["id"]]
    play_until(again, game_over, timeout=120)


def test_delete_account_keeps_games_under_an_anonymous_name(server: Server) -> None:
    client = register(server, "Leaver")
    table = client.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    client.post(f"/api/tables/{table['id']}/start")
    assert (
        client.http.request("DELETE", "/api/account", json={"password": "wrong one"}).status_code
        == 403
    )
    gone = client.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200 and gone.json()["user"]["nickname"] == "Anonymous"
    assert gone.json()["sessions_ended"] == 1
    assert client.http.get("/api/session").status_code == 401
    assert log_in(server, "Leaver").status_code == 401
    record = httpx.get(f"{server.base}/api/games/{table['id']}/record").json()
    assert record["players"][0] == "Anonymous #1"
    profile = httpx.get(f"{server.base}/api/players/{gone.json()['user']['id']}").json()
    assert profile["user"]["kind"] == "deleted" and profile["username"] is None
    assert register(server, "Leaver").user["id"] != gone.json()["user"]["id"]  # name is free


def test_a_table_not_started_passes_on_from_a_deleted_host(server: Server) -> None:
    """The live table frees the deleted host's seat and takes the next person as its
    host, who can start the game."""
    leaver, friend = register(server, "Host leaving"), Api(server.base, "Friend")
    table = leaver.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    path = f"/api/tables/{table['id']}"
    assert friend.post(f"{path}/sit", seat=2).status_code == 200
    gone = leaver.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200
    leaving = leaver.user["id"]
    passed = until(lambda: friend.http.get(path).json(), lambda t: t["host_id"] != leaving)
    assert passed["host_id"] == friend.user["id"]
    seats = passed["seats"]
    assert [seat["user_id"] for seat in seats] == [None, None, friend.user["id"], None]
    assert friend.post(f"{path}/start").status_code == 200


def test_a_deleted_accounts_score_sheets_go_with_it(server: Server) -> None:
    """Neither the sheet's share link nor its edit token reaches it any more."""
    client = register(server, "Scorer")
    sheet = {"format": "raspisnoy-sheet/1", "rules": "raspisnoy.com", "first_dealer": 0}
    created = client.post("/api/sheets", **sheet, players=["Мама", "Папа", "Лена"]).json()
    nobody = httpx.Client(base_url=server.base, timeout=HTTP_SECONDS)
    shared, edited = f"/api/sheets/shared/{created['share_id']}", f"/api/sheets/{created['id']}"
    token = {"X-Sheet-Token": created["edit_token"]}
    assert nobody.get(shared).status_code == nobody.get(edited, headers=token).status_code == 200
    gone = client.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200
    assert nobody.get(shared).status_code == nobody.get(edited, headers=token).status_code == 404


def test_cross_site_writes_are_refused(server: Server) -> None:
    client = register(server, "Careful")
    cookies = {"raspisnoy_session": client.token or ""}
    refused = httpx.put(
        f"{server.base}/api/account/password",
        json={"password": PASSWORD, "new_password": "hijacked pw"},
        cookies=cookies,
        headers={"origin": ELSEWHERE},
    )
    assert refused.status_code == 403 and "not allowed" in refused.json()["detail"]
    deleted = httpx.request(
        "DELETE",
        f"{server.base}/api/account",
        json={"password": PASSWORD},
        cookies=cookies,
        headers={"origin": ELSEWHERE},
    )
    assert deleted.status_code == 403
    csrf_login = httpx.post(
        f"{server.base}/api/login",
        json={"username": "Careful", "password": PASSWORD},
        headers={"origin": ELSEWHERE},
    )
    assert csrf_login.status_code == 403
    own = httpx.post(
        f"{server.base}/api/login",
        json={"username": "Careful", "password": PASSWORD},
        headers={"origin": server.base},
        timeout=HTTP_SECONDS,
    )
    assert own.status_code == 200
    cookie = own.headers["set-cookie"].lower()
    assert "samesite=lax" in cookie and "httponly" in cookie
    assert log_in(server, "Careful").status_code == 200  # the password did not change


@pytest.mark.parametrize("preset", ["no-such-preset"])
def test_a_leaderboard_of_an_unknown_preset_is_refused(server: Server, preset: str) -> None:
    answer = httpx.get(f"{server.base}/api/leaderboard", params={"preset": preset})
    assert answer.status_code == 422 and "no-such-preset" in answer.json()["detail"]
