"""The caps on one user's seats under requests made at the same moment (several tabs,
several workers): tables waiting for players (``max_open_tables_per_user``) under opens,
games being played (``max_games_per_user``) under starts. Each count is the store's,
made in the transaction that adds the table or marks it started, so exactly the cap is
reached."""

from __future__ import annotations

from collections.abc import Callable

from racing import at_the_same_moment
from server_helpers import FAST, Api, Server

from raspisnoy.server.config import ServerSettings


def test_tables_opened_at_once_reach_the_cap_exactly(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(FAST.model_copy(update={"max_open_tables_per_user": 2}))
    host = Api(server.base, "Hurried")
    answers = at_the_same_moment(5, lambda: host.http.post("/api/tables", json={}))
    assert sorted(answer.status_code for answer in answers) == [201] * 2 + [429] * 3
    for answer in answers:
        if answer.status_code == 429:
            assert answer.json()["code"] == "waiting_tables_held", answer.text
            assert answer.json()["params"]["limit"] == 2
    assert len(host.http.get("/api/me/tables").json()["tables"]) == 2


def test_games_started_at_once_reach_the_cap_exactly(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """A host presses «Начать игру» at five of their waiting tables at once, under a cap
    of two games: two start, three are refused as ``games_held`` and stay waiting."""
    server = start_server(FAST.model_copy(update={"max_games_per_user": 2}))
    host = Api(server.base, "Eager")
    slow = {"bots": "random", "bot_delay_ms": 10_000, "turn_seconds": 0}
    waiting = [host.create_table(**slow)["id"] for _ in range(5)]
    answers = at_the_same_moment(5, lambda: host.post(f"/api/tables/{waiting.pop()}/start"))
    assert sorted(answer.status_code for answer in answers) == [200] * 2 + [429] * 3
    for answer in answers:
        if answer.status_code == 429:
            assert answer.json()["code"] == "games_held", answer.text
            assert answer.json()["params"] == {"count": 2, "limit": 2, "seconds": 60}
    assert len(host.http.get("/api/me/tables").json()["tables"]) == 3  # still waiting
