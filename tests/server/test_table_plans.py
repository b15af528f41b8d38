"""A new table's custom round plan is checked against its number of players when the
table is created (issue 28: ``5,9`` for five players was accepted, its start answered
500 and the dead table stayed listed in the lobby)."""

from __future__ import annotations

from server_helpers import Api, Server


def test_a_plan_that_cannot_be_dealt_is_refused_at_creation(server: Server) -> None:
    host = Api(server.base, "Planner")
    # 36 cards: seven each for five players, nine each for four
    rules = {"preset": "raspisnoy.com", "custom_plan": ["5", "9"]}
    refused = host.http.post("/api/tables", json={"players": 5, "rules": rules})
    assert refused.status_code == 422, refused.text
    assert refused.json()["detail"].startswith("custom_plan:")
    assert "1 to 7" in refused.json()["detail"]
    listed = host.http.get("/api/tables").json()["tables"]
    assert not [table for table in listed if table["host_id"] == host.user["id"]]
    # the same plan deals to four players, and that table starts
    table = host.create_table(players=4, rules=rules)
    assert host.post(f"/api/tables/{table['id']}/start").status_code == 200
