"""A deleted account at a running table, as a person at it sees it on a phone in
Russian: the seat's name turns into «Удалённый игрок 2» while the game goes on, and the
page reloaded says the same (issue 27, defect 10); a spectator's chat line of a deleted
account says «Удалённый игрок», not the stored "Anonymous"."""

from __future__ import annotations

import json

import httpx
from e2e_helpers import check_screen, enter
from playwright.sync_api import Page
from websockets.sync.client import connect

PASSWORD = "correct horse battery"
#: Where the page writes the players' names at the table.
SEAT_NAMES = ".seat-name .name"


def test_a_deleted_player_is_named_in_the_readers_language_live_and_after_a_reload(
    phone: Page, server: str
) -> None:
    enter(phone, "Анна")
    # A turn timer, so that Anna is not away while her page reloads: away, a stand-in
    # would play for her at once, and the game could end before the page is back.
    answer = phone.request.post(
        "/api/tables", data={"bots": "random", "bot_delay_ms": 0, "turn_seconds": 120}
    )
    assert answer.status == 201, answer.text()
    table_id = answer.json()["id"]
    with httpx.Client(base_url=server, timeout=30) as boris:
        account = boris.post("/api/account", json={"username": "Борис", "password": PASSWORD})
        assert account.status_code == 200, account.text
        boris.headers["authorization"] = f"Bearer {account.json()['token']}"
        assert boris.post(f"/api/tables/{table_id}/sit", json={"seat": 1}).status_code == 200
        phone.goto(f"/?table={table_id}")
        phone.wait_for_selector(".seating")
        assert phone.request.post(f"/api/tables/{table_id}/start").status == 200
        phone.wait_for_function(
            "s => [...document.querySelectorAll(s)].some(e => e.textContent === 'Борис')",
            arg=SEAT_NAMES,
        )
        gone = boris.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
    named = (
        "s => [...document.querySelectorAll(s)].some(e => e.textContent === 'Удалённый игрок 2')"
    )
    phone.wait_for_function(named, arg=SEAT_NAMES)
    assert "Борис" not in phone.inner_text("main")
    assert check_screen(phone, "table-deleted-player", axe=False) == []
    phone.reload()
    phone.wait_for_function(named, arg=SEAT_NAMES)
    assert "Борис" not in phone.inner_text("main") and "Anonymous" not in phone.inner_text("main")


def test_a_deleted_accounts_profile_offers_no_follow_and_no_report(
    phone: Page, server: str
) -> None:
    """A deleted account's profile says so, and offers nothing to do with nobody: no
    follow, no block, no report (the server refuses them); a living person's does."""
    enter(phone, "Анна")
    ids = {}
    with httpx.Client(base_url=server, timeout=30) as client:
        for name in ("Вера", "Борис"):  # Борис last: his session deletes his account
            client.headers.pop("authorization", None)
            account = client.post("/api/account", json={"username": name, "password": PASSWORD})
            assert account.status_code == 200, account.text
            ids[name] = account.json()["user"]["id"]
            client.headers["authorization"] = f"Bearer {account.json()['token']}"
        gone = client.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
    phone.goto(f"/?player={ids['Вера']}")
    phone.wait_for_selector(".friend-slot button")
    assert phone.locator("button.report").count() == 1
    phone.goto(f"/?player={ids['Борис']}")
    phone.wait_for_selector(".profile h1")
    assert phone.inner_text(".profile h1") == "Аноним"
    assert "аккаунт удалён" in phone.inner_text(".profile")
    assert phone.locator(".friend-slot, .friend-slot button, button.report").count() == 0
    assert check_screen(phone, "profile-deleted", axe=False) == []


def test_a_deleted_spectators_chat_line_is_named_in_the_readers_language(
    phone: Page, server: str
) -> None:
    enter(phone, "Анна")
    answer = phone.request.post(
        "/api/tables",
        data={"bots": "random", "turn_seconds": 120, "spectator_chat": True},
    )
    assert answer.status == 201, answer.text()
    table_id = answer.json()["id"]
    assert phone.request.post(f"/api/tables/{table_id}/start").status == 200
    with httpx.Client(base_url=server, timeout=30) as boris:
        account = boris.post("/api/account", json={"username": "Борис", "password": PASSWORD})
        assert account.status_code == 200, account.text
        token = account.json()["token"]
        boris.headers["authorization"] = f"Bearer {token}"
        url = f"{server.replace('http://', 'ws://')}/ws/tables/{table_id}?token={token}"
        with connect(url, proxy=None, open_timeout=10) as watching:
            watching.send(json.dumps({"type": "chat", "text": "Привет!"}))
            while '"Привет!"' not in str(watching.recv(timeout=10)):
                pass
        gone = boris.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
    phone.goto(f"/?table={table_id}")
    phone.wait_for_selector(".chat-line", state="attached")
    phone.click("button.chat-toggle")
    line = phone.locator(".chat-line .who").first
    line.wait_for()
    assert line.inner_text().startswith("Удалённый игрок")
    assert "Anonymous" not in phone.inner_text("main")
