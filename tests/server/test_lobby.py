"""Players, the lobby and tables over REST; history, score sheets and records."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fresh_databases import new_database
from server_helpers import FAST, Api, Server, play_in_threads, until

from raspisnoy.core.record import loads_record, replay
from raspisnoy.server.config import ServerSettings
from raspisnoy.store import Store


def test_health_and_docs(server: Server) -> None:
    assert httpx.get(f"{server.base}/healthz").json() == {"status": "ok"}
    spec = httpx.get(f"{server.base}/api/openapi.json").json()
    assert "/api/tables" in spec["paths"]
    assert httpx.get(f"{server.base}/api/docs").status_code == 200


@pytest.mark.parametrize(
    ("nickname", "words"),
    [
        ("A", "2 to 24"),
        ("x" * 25, "2 to 24"),
        ("Anna<script>", "'<'"),
        ("-anna", "starts with"),
        (" ANONYMOUS ", "deleted accounts"),  # a deleted account's name: nobody else's
    ],
)
def test_nicknames_are_checked(server: Server, nickname: str, words: str) -> None:
    answer = httpx.post(f"{server.base}/api/session", json={"nickname": nickname})
    assert answer.status_code == 422 and words in answer.json()["detail"]


def test_a_guest_session_persists_and_is_signed(server: Server) -> None:
    guest = Api(server.base, "  Анна   Мария ")
    assert guest.user["nickname"] == "Анна Мария" and guest.user["kind"] == "guest"
    assert guest.http.get("/api/session").json()["user"] == guest.user
    # The cookie works as well as the bearer token.
    browser = httpx.Client(base_url=server.base)
    browser.post("/api/session", json={"nickname": "Vera"})
    assert browser.get("/api/session").json()["user"]["nickname"] == "Vera"
    forged = httpx.get(f"{server.base}/api/session", headers={"authorization": "Bearer x.y.z"})
    assert forged.status_code == 401 and "nickname" in forged.json()["detail"]
    renamed = guest.http.patch("/api/session", json={"nickname": "Аня"})
    assert renamed.json()["user"]["nickname"] == "Аня"


def test_table_options_are_validated(server: Server) -> None:
    host = Api(server.base, "Host")
    cases = [
        ({"rules": "no-such"}, "unknown rules preset"),
        ({"rules": {"preset": "classic", "trump_when_void": 3}}, "trump_when_void"),
        ({"players": 6}, "3 to 5"),
        ({"bots": "genius"}, "unknown bot 'genius'"),
        # The analysis level is no table seat (docs/bots.md): too costly a decision.
        ({"bots": "master"}, "unknown bot 'master'"),
        ({"bots": ["random", "random"]}, "one level per seat"),
        ({"stand_in": "nobody"}, "unknown bot 'nobody'"),
        ({"turn_seconds": 2}, "turn_seconds"),
        ({"bot_delay_ms": -1}, "bot_delay_ms"),
        # The audit's table: accepted before, its start answered 500 and it stayed listed.
        ({"rules": {"preset": "raspisnoy.com", "exact_per_trick": 10**30}}, "exact_per_trick"),
        ({"rules": {"preset": "raspisnoy.com", "custom_plan": ["1"] * 101}}, "custom_plan"),
    ]
    for options, words in cases:
        answer = host.http.post("/api/tables", json=options)
        assert answer.status_code == 422 and words in answer.json()["detail"], (
            options,
            answer.text,
        )
    assert httpx.post(f"{server.base}/api/tables", json={}).status_code == 401
    assert not [
        t for t in host.http.get("/api/tables").json()["tables"] if t["host_id"] == host.user["id"]
    ]


def test_public_and_private_tables_seating_and_start(server: Server) -> None:
    host, guest, third = (
        Api(server.base, "Host"),
        Api(server.base, "Guest"),
        Api(server.base, "Third"),
    )
    public = host.create_table(rules="classic", players=3, bots=["random"] * 3)
    private = host.create_table(public=False, bots="random")
    listed = {t["id"] for t in httpx.get(f"{server.base}/api/tables").json()["tables"]}
    assert public["id"] in listed and private["id"] not in listed
    assert len(private["id"]) >= 16 and private["invite"].endswith(private["id"])
    # The invite link is enough to find and join the private table.
    assert (
        guest.http.get(f"/api/tables/{private['id']}").json()["rules"]["preset"] == "raspisnoy.com"
    )
    path = f"/api/tables/{private['id']}"
    assert guest.post(f"{path}/sit", seat=0).status_code == 409  # the host's seat
    assert guest.post(f"{path}/sit", seat=9).status_code == 422
    assert guest.post(f"{path}/sit", seat=1).json()["seats"][1]["nickname"] == "Guest"
    assert guest.post(f"{path}/sit", seat=2).json()["seats"][1]["user_id"] is None  # moved
    assert third.post(f"{path}/leave").status_code == 409
    assert guest.post(f"{path}/start").status_code == 403
    started = host.post(f"{path}/start").json()
    assert started["status"] == "playing"
    assert started["names"] == ["Host", "Bot 2 (random)", "Guest", "Bot 4 (random)"]
    assert host.post(f"{path}/start").status_code == 409
    assert third.post(f"{path}/sit", seat=1).status_code == 409
    assert httpx.get(f"{server.base}/api/tables/nothing-here").status_code == 404


def test_a_host_who_leaves_before_the_start_hands_the_table_on(server: Server) -> None:
    """The host's part passes to the person in the lowest seat; a table its last person
    leaves goes out of the lobby, and the first to sit there by its link becomes its
    host and may start it."""
    host, guest = Api(server.base, "Leaving host"), Api(server.base, "Heir")

    def lobby() -> set[str]:
        return {t["id"] for t in httpx.get(f"{server.base}/api/tables").json()["tables"]}

    table = host.create_table(bots="random")
    path = f"/api/tables/{table['id']}"
    guest.post(f"{path}/sit", seat=2)
    left = host.post(f"{path}/leave").json()
    assert left["host_id"] == guest.user["id"] and left["public"]
    assert table["id"] in lobby()
    assert host.post(f"{path}/start").status_code == 403
    assert guest.post(f"{path}/start").json()["status"] == "playing"

    alone = host.create_table(bots="random")
    assert host.post(f"/api/tables/{alone['id']}/leave").json()["public"] is False
    assert alone["id"] not in lobby()
    friend = Api(server.base, "Has the link")
    assert (
        friend.post(f"/api/tables/{alone['id']}/sit", seat=1).json()["host_id"]
        == (friend.user["id"])
    )
    assert friend.post(f"/api/tables/{alone['id']}/start").json()["status"] == "playing"


def test_an_old_table_nobody_sits_at_is_deleted_and_its_link_says_so(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """The sweep (docs/operations.md, "Tables nobody plays at"): a table not started that
    its last person left, once older than the lobby lists tables for, is deleted (its
    link answers 404 ``not_found``); an old one where someone still sits, and a new empty
    one, stay."""
    server = start_server(FAST.model_copy(update={"empty_table_sweep_seconds": 0.2}))
    host, keeper = Api(server.base, "Gone host"), Api(server.base, "Still here")
    empty, young = host.create_table(public=False), host.create_table(public=False)
    seated = keeper.create_table(public=False)
    for table in (empty, young):
        assert host.post(f"/api/tables/{table['id']}/leave").status_code == 200
    for table in (empty, seated):
        server.open_for(table["id"], hours=24.02)
    gone = until(
        lambda: host.http.get(f"/api/tables/{empty['id']}"), lambda a: a.status_code == 404
    )
    assert gone.json()["code"] == "not_found"
    time.sleep(1.0)  # passes enough to have dropped the others, had they been due
    for table in (young, seated):
        assert host.http.get(f"/api/tables/{table['id']}").status_code == 200


def test_history_score_sheet_and_record(server: Server) -> None:
    host = Api(server.base, "Historian")
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}
    unfinished = host.create_table(rules=rules, bots="random", bot_delay_ms=10_000)
    host.post(f"/api/tables/{unfinished['id']}/start")
    finished = host.create_table(rules=rules, bots="random", bot_delay_ms=0, turn_seconds=0)
    player = host.socket(finished["id"])
    player.recv()
    host.post(f"/api/tables/{finished['id']}/start")
    play_in_threads([player])
    games = {g["id"]: g for g in host.http.get("/api/me/games").json()["games"]}
    assert games[finished["id"]]["status"] == "over" and games[finished["id"]]["finished_at"]
    assert games[unfinished["id"]]["status"] == "playing"
    sheet = host.http.get(games[finished["id"]]["score"]).json()
    assert sheet["complete"] and sheet["totals"] == player.game["totals"]  # type: ignore[index]
    assert len(sheet["rounds"]) == 2
    record = replay(loads_record(host.http.get(games[finished["id"]]["record"]).text))
    assert record.is_over and list(record.totals) == sheet["totals"]
    # A game in progress exports only its finished rounds: the hands in play stay secret.
    running = loads_record(host.http.get(games[unfinished["id"]]["record"]).text)
    assert running.rounds == ()
    assert host.http.get(f"/api/games/{host.create_table()['id']}/score").status_code == 409
    assert host.http.get("/api/games/nothing/record").status_code == 404


def test_catalogue(server: Server) -> None:
    bots = httpx.get(f"{server.base}/api/bots").json()["bots"]
    assert "random" in bots and "master" not in bots
    rules = httpx.get(f"{server.base}/api/rules").json()
    assert {p["name"] for p in rules["presets"]} >= {"raspisnoy.com", "classic", "oh-hell"}
    assert any(o["name"] == "descending" and o["type"] == "bool" for o in rules["options"])
    for option in rules["options"]:  # every bound is declared, for the form to show
        if option["type"] == "int":
            assert option["low"] <= option["default"] <= option["high"], option
        if option["type"] == "list":
            assert len(option["default"]) <= option["max_items"], option


def test_the_browser_client_is_served_at_the_root(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>raspisnoy</title>")
    (web / "app.js").write_text("export const ok = true;")
    with new_database("sqlite", tmp_path) as url:
        server = Server(Store.open(url), FAST, web)
        try:
            assert "<title>raspisnoy</title>" in httpx.get(f"{server.base}/").text
            script = httpx.get(f"{server.base}/app.js")
            assert script.headers["content-type"].startswith("text/javascript")
            assert httpx.get(f"{server.base}/healthz").json() == {"status": "ok"}
            assert httpx.get(f"{server.base}/api/bots").status_code == 200
        finally:
            server.stop()
