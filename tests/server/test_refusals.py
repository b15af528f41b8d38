"""Refusals carry a stable code and its parameters (issue 28): every code a REST answer
can carry has a translation for the page in ru, uk and en (with CLDR plural forms where it
counts), and the refusals players met in English carry theirs."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from server_helpers import HTTP_SECONDS, Api, Server

from raspisnoy.i18n import plural_tags
from raspisnoy.ratings import RATED_STAND_IN
from raspisnoy.server.errors import REST_REFUSALS, Refusal
from raspisnoy.server.services.casino import REFILL_BELOW

WEB_CATALOGS = Path(__file__).resolve().parents[2] / "src" / "raspisnoy" / "web" / "i18n"
#: The refusals whose message counts a parameter (``count`` or ``seconds``).
COUNTING = {
    Refusal.TOO_MANY,
    Refusal.PASSWORD_LENGTH,
    Refusal.NICKNAME_LENGTH,
    Refusal.CUSTOM_PLAN,
    Refusal.REVIEWS_PENDING,
    Refusal.REVIEWS_FROM_ADDRESS,
    Refusal.REVIEW_QUEUE_FULL,
    Refusal.WAITING_TABLES_HELD,
    Refusal.GAMES_HELD,
}


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_every_rest_refusal_has_a_translation(lang: str) -> None:
    messages = json.loads((WEB_CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    forms = plural_tags(lang)
    assert messages.get("web.refusal.generic")
    for code in REST_REFUSALS:
        key = f"web.refusal.{code.value}"
        if code in COUNTING:
            assert {form for form in forms if messages.get(f"{key}.{form}")} == forms, key
        else:
            assert messages.get(key), key


def test_the_refusals_players_met_carry_their_codes(server: Server) -> None:
    wrong = httpx.post(
        f"{server.base}/api/login",
        json={"username": "Nobody", "password": "not this one"},
        timeout=HTTP_SECONDS,
    )
    assert wrong.status_code == 401
    assert wrong.json() == {
        "detail": "wrong user name or password",
        "code": "wrong_login",
        "params": {},
    }

    first = Api(server.base).post("/api/account", username="Ольга_К", password="long enough 1")
    assert first.status_code == 200, first.text
    taken = Api(server.base).post("/api/account", username="ольга_к", password="long enough 2")
    assert taken.status_code == 409
    assert taken.json()["code"] == "name_taken" and taken.json()["params"] == {"name": "ольга_к"}

    bad = httpx.post(f"{server.base}/api/session", json={"nickname": "Ann<a"})
    assert bad.status_code == 422
    assert bad.json()["code"] == "nickname_char"
    assert bad.json()["params"] == {"char": "<", "allowed": "- _ . '"}
    assert "not '<'" in bad.json()["detail"]  # the English text stays, for old clients


def test_a_body_that_does_not_fit_names_its_field(server: Server) -> None:
    answer = httpx.post(f"{server.base}/api/login", json={"username": "Anna"})
    assert answer.status_code == 422
    assert answer.json()["code"] == "bad_field"
    assert answer.json()["params"] == {"field": "password"}
    assert isinstance(answer.json()["detail"], list)  # FastAPI's problems, as before


def test_a_new_tables_settings_are_refused_with_their_own_codes(server: Server) -> None:
    host = Api(server.base, "Settler")
    plan = {"preset": "raspisnoy.com", "custom_plan": ["5", "9"]}
    undealable = host.post("/api/tables", players=5, rules=plan)
    assert undealable.status_code == 422
    assert undealable.json()["code"] == "custom_plan"
    assert undealable.json()["params"] == {"plan": "5,9", "count": 5}
    assert undealable.json()["detail"].startswith("custom_plan: ")

    unknown = host.post("/api/tables", rules={"preset": "raspisnoy.com", "no_such": 1})
    assert (unknown.status_code, unknown.json()["code"]) == (422, "bad_rules")
    assert unknown.json()["params"] == {"option": "no_such"}
    assert unknown.json()["detail"].startswith("rules: ")
    preset = host.post("/api/tables", rules="no such preset")
    assert (preset.json()["code"], preset.json()["params"]) == ("bad_rules", {"option": "preset"})
    wrong_type = {"preset": "raspisnoy.com", "dealer_constraint": True, "custom_plan": 7}
    typed = host.post("/api/tables", rules=wrong_type)
    assert typed.json()["params"] == {"option": "custom_plan"}

    strong = host.post("/api/tables", stand_in="expert", rated=True)
    assert (strong.status_code, strong.json()["code"]) == (422, "stand_in_too_strong")
    assert strong.json()["params"] == {"level": "expert", "strongest": RATED_STAND_IN}
    assert strong.json()["detail"].startswith("stand_in: ")


def test_the_casinos_refusals_carry_their_own_codes(server: Server) -> None:
    player = Api(server.base, "Gambler")
    none = player.post("/api/casino/hand/decision", box=1, action="bet")
    assert (none.status_code, none.json()["code"]) == (409, "no_hand")
    hand = player.post("/api/casino/hands", antes=[5])
    assert hand.status_code == 201, hand.text
    again = player.post("/api/casino/hands", antes=[5])
    assert (again.status_code, again.json()["code"]) == (409, "hand_in_progress")
    refill = player.post("/api/casino/refill")
    assert (refill.status_code, refill.json()["code"]) == (409, "refill_not_due")
    assert refill.json()["params"] == {"below": REFILL_BELOW}
    record = player.http.get(f"/api/casino/hands/{hand.json()['id']}/record")
    assert (record.status_code, record.json()["code"]) == (409, "hand_not_over")
