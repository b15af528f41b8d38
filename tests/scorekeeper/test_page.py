"""The scorekeeper as the /score page runs it with no network (scorekeeper.page, in
Pyodide): entries, corrections and undo given as the page sends them reach the same
sheet and the same scores as the model's own calls, and a refusal is the model's problem."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.scorekeeper import Sheet, sheet_report, sheet_to_json
from raspisnoy.scorekeeper.page import page_change, page_view

from .helpers import played_game, sheet_of

PLAYERS = ("Anna", "Boris", "Vera")


def _entry(view: dict[str, Any], sheet: Sheet) -> dict[str, Any]:
    """The change the page sends for the view's next entry, with the value ``sheet`` has."""
    expected = view["next"]
    entered = sheet.rounds[expected["round"] - 1]
    if expected["entry"] == "control":
        return {"entry": "control", "kind": str(entered.kind), "dealer": entered.dealer}
    values = entered.bids if expected["entry"] == "bid" else entered.taken
    assert values is not None
    return {"entry": expected["entry"], "seat": expected["seat"], "value": values[expected["seat"]]}


@settings(max_examples=25, deadline=None)
@given(
    rules=st.sampled_from(["raspisnoy.com", "classic"]),
    players=st.integers(3, 4),
    seed=st.integers(0, 10**6),
)
def test_a_whole_game_entered_through_the_page(rules: str, players: int, seed: int) -> None:
    game = sheet_of(played_game(rules, players, seed))
    view = page_view(sheet_to_json(Sheet.start(game.rules, game.players, game.first_dealer)))
    while view["next"] is not None:
        view = page_change(view["sheet"], _entry(view, game))
        assert "problem" not in view, view
    assert view["sheet"] == sheet_to_json(game)
    assert view["report"] == sheet_report(game) and view["report"]["complete"]
    assert view["planned"] == len(game.plan)


def test_a_correction_and_an_undo_through_the_page() -> None:
    sheet = Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0).bid(1, 1).bid(2, 0).bid(0, 1)
    sheet = sheet.take(1, 1).take(2, 0).take(0, 0)
    edited = page_change(
        sheet_to_json(sheet), {"entry": "round", "number": 1, "bids": [1, 1, 0], "taken": [1, 0, 0]}
    )
    assert edited["report"]["totals"] == list(sheet.edit_round(1, (1, 1, 0), (1, 0, 0)).totals)
    undone = page_change(edited["sheet"], {"entry": "undo"})
    assert undone["sheet"] == sheet_to_json(sheet.edit_round(1, (1, 1, 0), (1, 0, 0)).undo())


def test_a_refused_entry_is_the_models_problem() -> None:
    sheet = Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0).bid(1, 1).bid(2, 0)
    answer = page_change(sheet_to_json(sheet), {"entry": "bid", "seat": 0, "value": 0})
    assert answer == {"problem": answer["problem"]}
    assert (answer["problem"]["problem"], answer["problem"]["player"]) == ("dealer_bid", "Anna")


def test_a_damaged_kept_sheet_is_said() -> None:
    answer = page_view(
        {"format": "raspisnoy-sheet/1", "rules": "classic", "players": ["Anna"], "rounds": []}
    )
    assert set(answer) == {"problem"}
