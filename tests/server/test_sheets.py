"""Score sheets over REST (/api/sheets): kept entry by entry, checked by the scorekeeper
(refusals are its structured problems and change nothing), edited, undone, shared
read-only, exported as CSV, guarded by the owner's session or the edit token, deleted by
the owner alone, safe from racing writers, and kept across a server restart; on SQLite
and PostgreSQL."""

from __future__ import annotations

import csv
import io
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from fresh_databases import BACKENDS, new_database
from server_helpers import FAST, HTTP_SECONDS, Api, Server

from raspisnoy.scorekeeper import PROBLEMS, sheet_from_json, sheet_report
from raspisnoy.store import StaleWriteError, Store

PLAYERS = ["Anna", "Boris", "Vera"]


def new_sheet(api: Api, rules: Any = "raspisnoy.com", players: list[str] = PLAYERS) -> Any:
    sheet = {"format": "raspisnoy-sheet/1", "rules": rules, "players": players, "first_dealer": 0}
    answer = api.post("/api/sheets", **sheet)
    assert answer.status_code == 201, answer.text
    return answer.json()


def enter(api: Api, sheet_id: str, entry: str, seat: int, value: int) -> httpx.Response:
    return api.post(f"/api/sheets/{sheet_id}/entries", entry=entry, seat=seat, value=value)


def entered(api: Api, sheet_id: str, entry: str, seat: int, value: int) -> Any:
    answer = enter(api, sheet_id, entry, seat, value)
    assert answer.status_code == 200, answer.text
    return answer.json()


def play_round(api: Api, sheet_id: str, bids: list[int], taken: list[int]) -> Any:
    """Enter a round's bids and tricks in the order the sheet asks for them."""
    state: Any = None
    for values, kind in ((bids, "bid"), (taken, "taken")):
        for _ in values:
            state = state or api.http.get(f"/api/sheets/{sheet_id}").json()
            expected = state["next"]
            if expected["entry"] != kind:
                break
            seat = expected["seat"]
            state = entered(api, sheet_id, kind, seat, values[seat])
    return state


def test_a_sheet_is_kept_entry_by_entry_and_scored(server: Server) -> None:
    anna = Api(server.base, "Anna")
    created = new_sheet(anna)
    assert created["next"] == {
        "entry": "bid",
        "round": 1,
        "seat": 1,
        "cards": 1,
        "kind": "normal",
        "dealer": 0,
        "choices": [0, 1],
        "forbidden": None,
        "zero_banned": False,
        "kinds": [],
    }
    assert created["report"] == {
        "rounds": [],
        "totals": [0, 0, 0],
        "complete": False,
        "winners": [],
    }
    assert created["sheet"]["rules"]["preset"] == "raspisnoy.com"  # stored fully resolved
    sheet_id = created["id"]
    # Round 1 of docs/sheet-format.md: Boris 1, Vera 0, Anna (dealer) may not bid 0.
    entered(anna, sheet_id, "bid", 1, 1)
    state = entered(anna, sheet_id, "bid", 2, 0)
    assert state["next"]["seat"] == 0 and state["next"]["forbidden"] == 0
    assert state["next"]["choices"] == [1]
    state = play_round(anna, sheet_id, [1, 1, 0], [0, 1, 0])
    assert state["report"]["rounds"] == [
        {"round": 1, "dealer": 0, "cards": 1, "kind": "normal", "points": [-10, 10, 5]}
    ]
    assert state["report"]["totals"] == [-10, 10, 5]
    assert state["next"]["round"] == 2 and state["next"]["dealer"] == 1
    state = play_round(anna, sheet_id, [1, 1, 1], [1, 0, 1])  # Boris deals 2: Vera, Anna, Boris
    assert state["sheet"]["rounds"][1] == {"bids": [1, 1, 1], "taken": [1, 0, 1]}
    assert state["report"]["totals"] == [0, 0, 15]
    # The answer is the scorekeeper's own report of the stored sheet.
    assert state["report"] == sheet_report(sheet_from_json(state["sheet"]))
    assert state["version"] == created["version"] + 12


def test_refused_entries_are_the_models_problems_and_change_nothing(server: Server) -> None:
    anna = Api(server.base, "Anna")
    sheet_id = new_sheet(anna)["id"]
    entered(anna, sheet_id, "bid", 1, 1)
    before = entered(anna, sheet_id, "bid", 2, 0)
    refused = enter(anna, sheet_id, "bid", 0, 0)
    assert refused.status_code == 422
    assert refused.json()["detail"] == {
        "round": 1,
        "seat": 0,
        "player": "Anna",
        "problem": "dealer_bid",
        "params": {"bid": 0, "cards": 1},
        "message": "round 1, Anna: the dealer may not bid 0: "
        "the bids would add up to the number of cards dealt (1)",
    }
    out_of_turn = enter(anna, sheet_id, "taken", 1, 1)
    assert out_of_turn.json()["detail"]["problem"] == "taken_early"
    assert enter(anna, sheet_id, "bid", 0, 5).json()["detail"]["problem"] == "bid_range"
    after = anna.http.get(f"/api/sheets/{sheet_id}").json()
    assert after["version"] == before["version"] and after["sheet"] == before["sheet"]
    # Requests of the wrong shape are refused before the model sees them.
    assert anna.post(f"/api/sheets/{sheet_id}/entries", entry="bid", seat=0).status_code == 422
    assert (
        anna.post(f"/api/sheets/{sheet_id}/entries", entry="bid", seat=0, value="1").status_code
        == 422
    )
    no_kind = anna.post(f"/api/sheets/{sheet_id}/entries", entry="control", dealer=0)
    assert no_kind.status_code == 422 and "kind and dealer" in no_kind.json()["detail"]


def test_a_new_sheet_is_checked_by_the_model(server: Server) -> None:
    anna = Api(server.base, "Anna")
    two = anna.post(
        "/api/sheets",
        format="raspisnoy-sheet/1",
        rules="raspisnoy.com",
        players=["A", "B"],
        first_dealer=0,
    )
    assert two.status_code == 422 and two.json()["detail"]["problem"] == "format"
    assert "players" in two.json()["detail"]["message"]
    bad_round = anna.post(
        "/api/sheets",
        format="raspisnoy-sheet/1",
        rules="raspisnoy.com",
        players=PLAYERS,
        first_dealer=0,
        rounds=[{"bids": [1, 1, 0], "taken": [1, 1, 0]}],
    )
    detail = bad_round.json()["detail"]
    assert (detail["round"], detail["problem"], detail["params"]) == (
        1,
        "taken_sum",
        {"total": 2, "cards": 1},
    )
    assert (
        anna.post("/api/sheets", format="raspisnoy-sheet/2").json()["detail"]["problem"] == "format"
    )
    too_big = anna.post(  # 13 cards each to three players: a 36-card deck gives at most 12
        "/api/sheets",
        format="raspisnoy-sheet/1",
        rules={"preset": "raspisnoy.com", "custom_plan": ["1", "13"]},
        players=PLAYERS,
        first_dealer=0,
    )
    assert too_big.status_code == 422 and too_big.json()["detail"]["problem"] == "format"
    assert "custom_plan" in too_big.json()["detail"]["message"]
    assert too_big.json()["detail"]["cause"] == {  # for wording it in the reader's language
        "code": "plan_cards",
        "params": {"number": 2, "entry": "13", "players": 3, "count": 12},
    }
    assert anna.http.get("/api/sheets").json() == {"sheets": []}  # nothing was stored


def test_rules_options_and_control_rounds(server: Server) -> None:
    anna = Api(server.base, "Anna")
    # One one-card round; nobody bids a trick and Boris takes it: Anna and Vera tie for
    # first with 5, so a control round («контрольная») is due, chosen by Boris (last).
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1"], "control_game": True}
    created = new_sheet(anna, rules)
    assert created["sheet"]["rules"]["control_game"] is True
    state = play_round(anna, created["id"], [0, 0, 0], [0, 1, 0])
    assert state["report"]["totals"] == [5, 1, 5]
    assert state["next"]["entry"] == "control" and state["next"]["seat"] == 1
    assert "blind" in state["next"]["kinds"] and "forehead" not in state["next"]["kinds"]
    control = {"entry": "control", "kind": "forehead", "dealer": 2}
    refused = anna.post(f"/api/sheets/{created['id']}/entries", **control)
    assert refused.json()["detail"]["problem"] == "control_kind"
    chosen = anna.post(f"/api/sheets/{created['id']}/entries", **{**control, "kind": "misere"})
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["sheet"]["rounds"][-1] == {
        "kind": "misere",
        "dealer": 2,
        "bids": None,
        "taken": [None, None, None],
    }
    assert chosen.json()["next"]["entry"] == "taken" and chosen.json()["next"]["cards"] == 12
    again = anna.post(f"/api/sheets/{created['id']}/entries", **{**control, "kind": "misere"})
    assert again.json()["detail"]["problem"] == "control_not_expected"


def test_past_rounds_are_edited_and_undone(server: Server) -> None:
    anna = Api(server.base, "Anna")
    sheet_id = new_sheet(anna)["id"]
    play_round(anna, sheet_id, [1, 1, 0], [0, 1, 0])
    play_round(anna, sheet_id, [1, 1, 1], [1, 0, 1])
    edited = anna.http.put(
        f"/api/sheets/{sheet_id}/rounds/1", json={"bids": [1, 1, 0], "taken": [1, 0, 0]}
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["report"]["rounds"][0]["points"] == [10, -10, 5]
    assert edited.json()["report"]["totals"] == [20, -20, 15]
    refused = anna.http.put(
        f"/api/sheets/{sheet_id}/rounds/1", json={"bids": [0, 1, 0], "taken": [1, 0, 0]}
    )
    detail = refused.json()["detail"]
    assert refused.status_code == 422
    assert (detail["round"], detail["player"], detail["problem"]) == (1, "Anna", "dealer_bid")
    missing = anna.http.put(
        f"/api/sheets/{sheet_id}/rounds/9", json={"bids": None, "taken": [0, 0, 0]}
    )
    assert missing.json()["detail"]["problem"] == "no_round"
    undone = anna.post(f"/api/sheets/{sheet_id}/undo").json()
    assert undone["sheet"]["rounds"][1]["taken"] == [1, None, 1]
    assert undone["report"]["totals"] == [10, -10, 5]
    assert undone["next"] == {**undone["next"], "entry": "taken", "seat": 1}


def assert_as_missing(
    caller: httpx.Client, method: str, sheet_id: str, suffix: str = "", **options: Any
) -> None:
    """``caller``'s request on the sheet's path answers exactly as on the path of a sheet
    that does not exist: it tells one who may not change the sheet nothing of it."""
    missing_id = "0" * len(sheet_id)
    answer = caller.request(method, f"/api/sheets/{sheet_id}{suffix}", **options)
    missing = caller.request(method, f"/api/sheets/{missing_id}{suffix}", **options)
    assert answer.status_code == missing.status_code == 404, answer.text
    assert answer.text == missing.text.replace(missing_id, sheet_id)


def test_only_the_owner_or_the_edit_token_may_change_a_sheet(server: Server) -> None:
    anna, boris = Api(server.base, "Anna"), Api(server.base, "Boris")
    created = new_sheet(anna)
    sheet_id, token, share_id = created["id"], created["edit_token"], created["share_id"]
    assert share_id != sheet_id and len(share_id) >= 16 and len(token) >= 32
    nobody = httpx.Client(base_url=server.base)
    assert nobody.get(f"/api/sheets/{sheet_id}").status_code == 401
    assert nobody.get(f"/api/sheets/{'0' * len(sheet_id)}").status_code == 401
    wrong = {"X-Sheet-Token": "x" * 32}
    for caller, headers in ((boris.http, {}), (boris.http, wrong), (nobody, wrong)):
        assert_as_missing(caller, "GET", sheet_id, headers=headers)
        assert_as_missing(caller, "POST", sheet_id, "/undo", headers=headers)
        bid = {"entry": "bid", "seat": 1, "value": 1}
        assert_as_missing(caller, "POST", sheet_id, "/entries", headers=headers, json=bid)
    # The edit token lets anyone change it, signed in or not.
    with_token = nobody.post(
        f"/api/sheets/{sheet_id}/entries",
        json={"entry": "bid", "seat": 1, "value": 1},
        headers={"X-Sheet-Token": token},
    )
    assert with_token.status_code == 200 and with_token.json()["sheet"]["rounds"][0]["bids"][1] == 1
    # The share link reads, without the id or the token, and changes nothing.
    shared = nobody.get(f"/api/sheets/shared/{share_id}").json()
    assert "id" not in shared and "edit_token" not in shared and shared["editable"] is False
    assert shared["sheet"] == with_token.json()["sheet"] and shared["owner"] == "Anna"
    assert enter(boris, share_id, "bid", 2, 0).status_code == 404
    assert nobody.get("/api/sheets/shared/unknown").status_code == 404
    assert nobody.get("/api/sheets").status_code == 401
    assert nobody.post("/api/sheets", json={}).status_code == 401
    listed = anna.http.get("/api/sheets").json()["sheets"]
    assert [(s["id"], s["players"], s["rounds"], s["planned"]) for s in listed] == [
        (sheet_id, PLAYERS, 0, 26)
    ]
    assert boris.http.get("/api/sheets").json() == {"sheets": []}


def test_only_the_owner_deletes_a_sheet_and_its_links_lead_nowhere(server: Server) -> None:
    anna, boris = Api(server.base, "Anna"), Api(server.base, "Boris")
    kept, created, his = new_sheet(anna), new_sheet(anna), new_sheet(boris)
    path, token = f"/api/sheets/{created['id']}", {"X-Sheet-Token": created["edit_token"]}
    shared = f"/api/sheets/shared/{created['share_id']}"
    nobody = httpx.Client(base_url=server.base)
    assert nobody.delete(path, headers=token).status_code == 401  # the token enters, no more
    assert_as_missing(boris.http, "DELETE", created["id"])
    assert boris.http.delete(path, headers=token).status_code == 403
    assert anna.http.get(path).status_code == nobody.get(shared).status_code == 200
    left = anna.http.delete(path)
    assert left.status_code == 200 and [s["id"] for s in left.json()["sheets"]] == [kept["id"]]
    for gone in (anna.http.get(path), nobody.get(shared), nobody.get(path, headers=token)):
        assert gone.status_code == 404
    assert anna.http.delete(path).status_code == 404
    assert anna.http.get(f"/api/sheets/{kept['id']}").status_code == 200
    # Each answer lists the caller's own sheets only.
    assert boris.http.delete(f"/api/sheets/{his['id']}").json() == {"sheets": []}


def test_racing_writers_lose_nothing(server: Server) -> None:
    anna = Api(server.base, "Anna")
    sheet_id = new_sheet(anna)["id"]
    play_round(anna, sheet_id, [1, 1, 0], [0, 1, 0])
    play_round(anna, sheet_id, [1, 1, 1], [1, 0, 1])
    play_round(anna, sheet_id, [1, 0, 1], [1, 1, 1])
    edits = {1: {"bids": [1, 1, 0], "taken": [1, 0, 0]}, 2: {"bids": [1, 0, 2], "taken": [0, 0, 2]}}
    edits[3] = {"bids": [0, 0, 1], "taken": [1, 1, 1]}
    answers: list[int] = []

    def edit(number: int) -> None:
        client = httpx.Client(base_url=server.base, headers=anna.http.headers, timeout=HTTP_SECONDS)
        answers.append(
            client.put(f"/api/sheets/{sheet_id}/rounds/{number}", json=edits[number]).status_code
        )

    threads = [threading.Thread(target=edit, args=(number,)) for number in edits]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200, 200, 200]
    rounds = anna.http.get(f"/api/sheets/{sheet_id}").json()["sheet"]["rounds"]
    assert rounds == [edits[1], edits[2], edits[3]]


def refused_as_changed(answer: httpx.Response, stored: int) -> None:
    """``answer`` is the 409 of a change made on a version the sheet has left behind."""
    assert answer.status_code == 409, answer.text
    assert answer.json()["code"] == "sheet_changed"
    assert answer.json()["params"] == {"version": stored}


def test_an_entry_sent_twice_from_one_version_is_entered_once(server: Server) -> None:
    """A retry (or a second phone) sending the entry again with the version it was made
    on is refused with 409, not applied to whatever the sheet expects next; so is an undo
    sent twice. Without ``version`` an entry is applied to the sheet as it is, as before."""
    anna = Api(server.base, "Anna")
    created = new_sheet(anna)
    sheet_id, version = created["id"], created["version"]
    entry = {"entry": "bid", "seat": 1, "value": 0, "version": version}
    first = anna.post(f"/api/sheets/{sheet_id}/entries", **entry)
    assert first.status_code == 200, first.text
    refused_as_changed(anna.post(f"/api/sheets/{sheet_id}/entries", **entry), version + 1)
    stored = anna.http.get(f"/api/sheets/{sheet_id}").json()
    assert stored["sheet"]["rounds"] == [{"bids": [None, 0, None], "taken": [None, None, None]}]
    assert stored["version"] == version + 1
    state = entered(anna, sheet_id, "bid", 2, 0)  # an old client's, with no version
    undo = {"version": state["version"]}
    assert anna.post(f"/api/sheets/{sheet_id}/undo", **undo).status_code == 200
    refused_as_changed(anna.post(f"/api/sheets/{sheet_id}/undo", **undo), state["version"] + 1)
    rounds = anna.http.get(f"/api/sheets/{sheet_id}").json()["sheet"]["rounds"]
    assert rounds == [{"bids": [None, 0, None], "taken": [None, None, None]}]


def test_the_second_of_two_corrections_from_one_version_is_refused(server: Server) -> None:
    """Two phones correct round 1 from the sheet they both show: the first correction is
    kept, the second refused with 409 (it rewrote the whole round over the first)."""
    anna = Api(server.base, "Anna")
    sheet_id = new_sheet(anna)["id"]
    version = play_round(anna, sheet_id, [1, 1, 0], [0, 1, 0])["version"]
    path = f"/api/sheets/{sheet_id}/rounds/1"
    first = {"bids": [1, 1, 0], "taken": [1, 0, 0]}
    second = {"bids": [0, 1, 1], "taken": [0, 0, 1]}
    kept = anna.http.put(path, json={**first, "version": version})
    assert kept.status_code == 200, kept.text
    refused_as_changed(anna.http.put(path, json={**second, "version": version}), version + 1)
    stored = anna.http.get(f"/api/sheets/{sheet_id}").json()
    assert stored["sheet"]["rounds"] == [first] and stored["version"] == version + 1


def test_racing_corrections_from_one_version_keep_exactly_one(server: Server) -> None:
    """The version is checked in the write itself (a conditional update), so two
    corrections from one version sent at once are one kept and one refused."""
    anna = Api(server.base, "Anna")
    sheet_id = new_sheet(anna)["id"]
    version = play_round(anna, sheet_id, [1, 1, 0], [0, 1, 0])["version"]
    corrections = [{"bids": [1, 1, 0], "taken": [1, 0, 0]}, {"bids": [0, 1, 1], "taken": [0, 0, 1]}]
    answers: dict[int, int] = {}

    def correct(index: int) -> None:
        client = httpx.Client(base_url=server.base, headers=anna.http.headers, timeout=HTTP_SECONDS)
        body = {**corrections[index], "version": version}
        answers[index] = client.put(f"/api/sheets/{sheet_id}/rounds/1", json=body).status_code

    threads = [threading.Thread(target=correct, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers.values()) == [200, 409]
    stored = anna.http.get(f"/api/sheets/{sheet_id}").json()
    kept = next(index for index, status in answers.items() if status == 200)
    assert stored["sheet"]["rounds"] == [corrections[kept]] and stored["version"] == version + 1


def test_csv_export_in_the_pages_language(server: Server) -> None:
    anna = Api(server.base, "Anna")
    created = new_sheet(anna, players=["Анна", "=cmd", "Vera"])
    play_round(anna, created["id"], [1, 1, 0], [0, 1, 0])
    answer = httpx.get(f"{server.base}/api/sheets/shared/{created['share_id']}/csv?lang=ru")
    assert answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    assert answer.text.startswith("\ufeff")  # UTF-8 for spreadsheets
    rows = list(csv.reader(io.StringIO(answer.text.removeprefix("\ufeff"))))
    assert rows[0][:4] == ["Раздача", "Карт", "Вид", "Сдаёт"]
    assert rows[0][4:8] == ["Анна: заказ", "Анна: взятки", "Анна: очки", "Анна: итого"]
    assert rows[0][8] == "'=cmd: заказ"  # a spreadsheet never runs a name as a formula
    assert rows[1] == [
        "1",
        "1",
        "обычная",
        "Анна",
        "1",
        "0",
        "-10",
        "-10",
        "1",
        "1",
        "10",
        "10",
        "0",
        "0",
        "5",
        "5",
    ]
    assert rows[-1][0] == "Итого" and rows[-1][7::4] == ["-10", "10", "5"]
    english = httpx.get(f"{server.base}/api/sheets/shared/{created['share_id']}/csv").text
    assert english.startswith("\ufeffRound,Cards,Kind,Dealer,Анна: bid")


def test_problems_read_in_each_language(server: Server) -> None:
    for lang in ("ru", "uk", "en"):
        messages = httpx.get(f"{server.base}/api/sheets/problems/{lang}").json()
        assert set(messages["problems"]) == set(PROBLEMS)
        assert "{problem}" in messages["where_player"] and "{player}" in messages["where_player"]
    english = httpx.get(f"{server.base}/api/sheets/problems/en").json()
    russian = httpx.get(f"{server.base}/api/sheets/problems/ru").json()
    assert english["problems"]["dealer_bid"] == PROBLEMS["dealer_bid"]
    assert russian["problems"]["dealer_bid"].startswith("сдающему нельзя")
    # the engine's errors, for a format problem's cause: by code, counting ones by plural form
    assert {"plan_cards.one", "plan_cards.few", "plan_cards.many"} <= set(russian["errors"])
    assert "{count} карт" in russian["errors"]["plan_cards.many"]
    assert english["errors"]["unknown_option"] == "unknown rules option '{option}' (known: {known})"
    assert httpx.get(f"{server.base}/api/sheets/problems/de").status_code == 404


def test_the_page_is_served_at_score(server: Server) -> None:
    page = httpx.get(f"{server.base}/score?share=x")
    assert page.status_code == 200 and '<script type="module" src="/js/main.js">' in page.text


@pytest.mark.parametrize("backend", BACKENDS)
def test_sheets_survive_a_server_restart(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        first = Server(store, FAST)
        anna = Api(first.base, "Anna")
        created = new_sheet(anna)
        state = play_round(anna, created["id"], [1, 1, 0], [0, 1, 0])
        first.stop()
        store.close()
        store = Store.open(url)
        second = Server(store, FAST)
        anna.http.base_url = httpx.URL(second.base)
        again = anna.http.get(f"/api/sheets/{created['id']}").json()
        assert again["sheet"] == state["sheet"] and again["version"] == state["version"]
        shared = httpx.get(f"{second.base}/api/sheets/shared/{created['share_id']}").json()
        assert shared["report"] == state["report"]
        # A write based on an old version is refused by the store, not applied over.
        with pytest.raises(StaleWriteError):
            store.update_sheet(created["id"], state["sheet"], created["version"])
        second.stop()
        store.close()
