"""The wire package (issue 26, item 2): every REST answer model and request model is in
the OpenAPI document the app generates from them, and an answer a model builds is the
JSON the dict builders it replaced wrote."""

from __future__ import annotations

import inspect

import httpx
from pydantic import BaseModel
from server_helpers import Api, Server

from raspisnoy.server import wire
from raspisnoy.server.wire import answers, casino, requests


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
    spec = httpx.get(f"{server.base}/api/openapi.json").json()
    schemas = set(spec["components"]["schemas"])
    assert len(models_of(answers)) >= 34 and len(models_of(requests)) >= 10
    assert len(models_of(casino)) >= 14
    # every model under its own name: none is named by its module for a clash of names
    assert not [name for name in schemas if "__" in name]
    for module in (answers, casino, requests):
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
