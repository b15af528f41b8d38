"""The wire package (issue 26, item 2): every REST answer model and request model is in
the OpenAPI document the app generates from them, and an answer a model builds is the
JSON the dict builders it replaced wrote."""

from __future__ import annotations

import inspect

import httpx
from pydantic import BaseModel
from server_helpers import Api, Server

from raspisnoy.server import wire
from raspisnoy.server.wire import answers, casino, puzzles, requests


def models_of(module: object) -> set[str]:
    """The public Pydantic models a module of the wire package declares."""
    return {
        name
        for name, value in inspect.getmembers(module, inspect.isclass)
        if issubclass(value, BaseModel)
        and not name.startswith("_")
        and value.__module__ == getattr(module, "__name__", "")
    }


def test_the_openapi_document_lists_every_answer_and_request_model(server: Server) -> None:
    spec = httpx.get(f"{server.base}/api/openapi.json", timeout=60).json()  # slow under load
    schemas = set(spec["components"]["schemas"])
    assert len(models_of(answers)) >= 34 and len(models_of(requests)) >= 10
    assert len(models_of(casino)) >= 14
    # every model under its own name: none is named by its module for a clash of names
    assert not [name for name in schemas if "__" in name]
    for module in (answers, casino, requests, puzzles):
        missing = {n for n in models_of(module) if n not in schemas}
        assert not missing, f"models no route answers or reads: {sorted(missing)}"
        assert all(hasattr(wire, name) for name in models_of(module))  # exported


def test_answers_keep_their_shape(server: Server) -> None:
    """The JSON keys of answers now built by their models, in the order clients got them."""
    guest = Api(server.base, "Shape")
    me = guest.http.get("/api/session").json()
    assert list(me) == ["user"] and list(me["user"]) == ["id", "nickname", "kind"]
    (line,) = guest.http.get("/api/sessions").json()["sessions"]
    assert list(line) == ["id", "created_at", "expires_at", "user_agent", "current"]
    board = guest.http.get("/api/leaderboard").json()
    assert list(board) == [
        "preset", "period", "page", "size", "total", "lines", "me", "previous", "next",
    ]  # fmt: skip
    rules = httpx.get(f"{server.base}/api/rules").json()
    assert list(rules) == ["presets", "options"]
    assert list(rules["options"][0]) == [
        "name", "type", "default", "en", "ru", "low", "high", "choices", "max_items",
    ]  # fmt: skip
    profile = httpx.get(f"{server.base}/api/players/{guest.user['id']}").json()
    assert list(profile) == [
        "user", "username", "provisional_games", "ratings", "history", "stats", "presets",
        "recent",
    ]  # fmt: skip


def test_casino_answers_keep_their_shape(server: Server) -> None:
    """The casino's answers, built by their models, keep the keys (and their order) of
    the dict builders they replaced."""
    http = Api(server.base, "Casino shape").http
    state = http.get("/api/casino").json()
    assert list(state) == [
        "balance", "refills", "hands", "next_commitment", "can_refill", "hand", "limits",
    ]  # fmt: skip
    assert list(state["limits"]) == [
        "min_ante", "max_ante", "boxes", "start_balance", "refill_below",
    ]  # fmt: skip
    hand = http.post("/api/casino/hands", json={"antes": [5]}).json()
    assert list(hand) == [
        "id", "number", "phase", "balance", "commitment", "seed", "to_act", "legal", "up_card",
        "dealer", "dealer_hand", "dealer_bought", "dealer_draw", "boxes", "results", "net",
    ]  # fmt: skip
    assert list(hand["boxes"][0]) == [
        "number", "ante", "cards", "combination", "closed", "bet", "folded", "exchanged",
        "bought_dealer",
    ]  # fmt: skip
    while hand["to_act"] is not None:
        action = "fold" if "fold" in hand["legal"] else hand["legal"][0]
        decision = {"box": hand["to_act"], "action": action}
        hand = http.post("/api/casino/hand/decision", json=decision).json()
    assert list(hand["results"][0]) == [
        "box", "outcome", "net", "pays", "costs", "cards", "combination", "combination_pays",
        "second", "second_pays",
    ]  # fmt: skip
    (line,) = http.get("/api/casino/history").json()["hands"]
    assert list(line) == [
        "id", "number", "antes", "balance", "final_balance", "net", "commitment", "seed",
        "boxes", "dealer", "dealer_draw", "results", "finished_at", "record_url", "file",
        "verify",
    ]  # fmt: skip
    assert line["verify"] == f"raspisnoy casino verify {line['file']}"
