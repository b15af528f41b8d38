"""``POST /api/sheets/uploads``: a score sheet kept on a device (docs/offline.md, "The
scorekeeper offline") is stored as a new sheet of the caller's, once per device id and
version; a sheet continued offline names its original only to those who may change both,
and the original stays as it was."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from server_helpers import Api, Server
from sqlalchemy import delete

from raspisnoy.store.models import ScoreSheet

SHEET = {
    "format": "raspisnoy-sheet/1",
    "rules": "raspisnoy.com",
    "players": ["Anna", "Boris", "Vera"],
    "first_dealer": 0,
    "rounds": [{"bids": [0, 1, 1], "taken": [0, 1, 0]}],
}


def upload(api: Api, device_id: str = "device-1", version: int = 1, **more: Any) -> httpx.Response:
    return api.post("/api/sheets/uploads", id=device_id, version=version, sheet=SHEET, **more)


def uploaded(api: Api, device_id: str = "device-1", version: int = 1, **more: Any) -> Any:
    answer = upload(api, device_id, version, **more)
    assert answer.status_code == 201, answer.text
    return answer.json()


def listed(api: Api) -> list[str]:
    return [sheet["id"] for sheet in api.http.get("/api/sheets").json()["sheets"]]


def test_a_device_sheet_uploaded_twice_is_stored_once(server: Server) -> None:
    anna = Api(server.base, "Anna")
    first = uploaded(anna)
    assert first["sheet"]["rounds"][0]["taken"] == [0, 1, 0]
    assert first["report"]["rounds"][0]["points"]  # scored by the model
    assert "continues" not in first
    assert uploaded(anna)["id"] == first["id"]  # its answer was lost: sent again
    assert listed(anna) == [first["id"]]
    later = uploaded(anna, version=2)  # changed on the device after the lost answer
    assert later["id"] != first["id"] and set(listed(anna)) == {first["id"], later["id"]}


def test_simultaneous_uploads_store_one_sheet(server: Server) -> None:
    anna = Api(server.base, "Anna")
    start = threading.Barrier(4)
    answers: list[httpx.Response] = []

    def send() -> None:
        start.wait()
        answers.append(upload(anna, "device-race"))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [201] * 4
    assert len({answer.json()["id"] for answer in answers}) == 1
    assert len(listed(anna)) == 1


def test_a_continued_sheet_names_its_original_which_stays(server: Server) -> None:
    anna = Api(server.base, "Anna")
    original = anna.post("/api/sheets", **{**SHEET, "rounds": []}).json()
    continued = uploaded(anna, continues={"id": original["id"]})
    assert continued["continues"] == original["id"] and continued["id"] != original["id"]
    assert anna.http.get(f"/api/sheets/{continued['id']}").json()["continues"] == original["id"]
    assert anna.http.get(f"/api/sheets/{original['id']}").json() == original
    shared = httpx.get(f"{server.base}/api/sheets/shared/{continued['share_id']}").json()
    assert "continues" not in shared  # the read-only link tells nothing else


def test_the_original_is_named_only_to_who_may_change_it(server: Server) -> None:
    anna, boris = Api(server.base, "Anna"), Api(server.base, "Boris")
    original = anna.post("/api/sheets", **{**SHEET, "rounds": []}).json()
    guessed = uploaded(boris, "device-b", continues={"id": original["id"]})
    assert "continues" not in guessed  # stored as a sheet of its own, the original untold
    wrong = uploaded(boris, "device-c", continues={"id": original["id"], "token": "x" * 32})
    assert "continues" not in wrong
    handed = {"id": original["id"], "token": original["edit_token"]}
    assert uploaded(boris, "device-d", continues=handed)["continues"] == original["id"]
    assert anna.http.get(f"/api/sheets/{original['id']}").json() == original


def test_an_original_deleted_meanwhile(server: Server) -> None:
    """The continuation is stored as a sheet of its own; nothing is refused or lost."""
    anna = Api(server.base, "Anna")
    original = anna.post("/api/sheets", **{**SHEET, "rounds": []}).json()
    with server.store.engine.begin() as connection:
        connection.execute(delete(ScoreSheet).where(ScoreSheet.id == original["id"]))
    continued = uploaded(anna, continues={"id": original["id"]})
    assert "continues" not in continued and continued["sheet"]["rounds"] == SHEET["rounds"]


def test_bad_uploads_store_nothing(server: Server) -> None:
    anna = Api(server.base, "Anna")
    body = httpx.Request("POST", "/", json={"id": "device-cut", "version": 1, "sheet": SHEET})
    cut = anna.http.post(
        "/api/sheets/uploads",
        content=body.content[: len(body.content) // 2],
        headers={"content-type": "application/json"},
    )
    assert cut.status_code == 422
    refused = anna.post(
        "/api/sheets/uploads", id="device-bad", version=1, sheet={**SHEET, "players": ["Anna"]}
    )
    assert refused.status_code == 422 and refused.json()["detail"]["problem"]
    assert upload(anna, "x" * 65).status_code == 422
    assert upload(anna, version=0).status_code == 422
    assert httpx.post(f"{server.base}/api/sheets/uploads", json={}).status_code == 422
    nobody = httpx.post(
        f"{server.base}/api/sheets/uploads", json={"id": "device-1", "version": 1, "sheet": SHEET}
    )
    assert nobody.status_code == 401
    assert listed(anna) == []
