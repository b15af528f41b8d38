"""Tables for the load benchmarks (``server_load``, ``chaos``): four guests seated at a
new table, through the REST API as browsers do it."""

from __future__ import annotations

from typing import Any

import httpx

#: People at each benchmark table.
SEATS = 4


async def seated_table(http: httpx.AsyncClient, options: dict[str, Any]) -> tuple[str, list[str]]:
    """Four new guests; the first opens a table with ``options`` and the others take
    seats 1 to 3. The table's id and the guests' session tokens in seat order."""
    tokens = []
    for seat in range(SEATS):
        answer = await http.post("/api/session", json={"nickname": f"Player {seat + 1}"})
        answer.raise_for_status()
        tokens.append(answer.json()["token"])
    auth = [{"authorization": f"Bearer {token}"} for token in tokens]
    created = await http.post("/api/tables", json=options, headers=auth[0])
    created.raise_for_status()
    table_id: str = created.json()["id"]
    for seat in range(1, SEATS):
        path = f"/api/tables/{table_id}/sit"
        (await http.post(path, json={"seat": seat}, headers=auth[seat])).raise_for_status()
    return table_id, tokens
