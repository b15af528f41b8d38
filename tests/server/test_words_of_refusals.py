"""Refusals a person meets, each with its own code rather than a catch-all: a rated table
whose rules are not its preset's own (``rated_rules_changed``, naming the preset) and a
socket beyond a full table's connections (its own close code, 4409, not the 4429 of a
user with too many tabs)."""

from __future__ import annotations

from collections.abc import Callable

from server_helpers import FAST, Api, Server
from test_protocol import close_of

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import HTTP_STATUS, Refusal

Start = Callable[[ServerSettings], Server]


def test_a_rated_table_with_changed_rules_is_refused_with_its_own_code(server: Server) -> None:
    host = Api(server.base, "Rated Rules")
    changed = {"preset": "classic", "dealer_constraint": False}
    refused = host.post("/api/tables", rules=changed, rated=True)
    assert refused.status_code == HTTP_STATUS[Refusal.RATED_RULES_CHANGED] == 422
    assert refused.json()["code"] == "rated_rules_changed"
    assert refused.json()["params"] == {"preset": "classic"}
    assert "only a preset's own rules are rated" in refused.json()["detail"]  # as before
    assert host.create_table(rules="classic", rated=True)["rated"] is True


def test_a_full_table_closes_with_its_own_code(start_server: Start) -> None:
    server = start_server(FAST.model_copy(update={"max_sockets_per_table": 2}))
    host = Api(server.base, "Full Host")
    table = host.create_table()
    first, second = host.socket(table["id"]), Api(server.base, "Watcher").socket(table["id"])
    assert first.recv()["type"] == "state" and second.recv()["type"] == "state"
    code, reason = close_of(Api(server.base, "Late").socket(table["id"]))
    assert code == 4409, (code, reason)
    assert "to this table: at most 2" in reason
