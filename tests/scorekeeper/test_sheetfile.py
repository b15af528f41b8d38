"""The ``raspisnoy-sheet/1`` file: reading, writing atomically, and shape errors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from raspisnoy.core import resolve_rules
from raspisnoy.scorekeeper import (
    Sheet,
    SheetError,
    dumps_sheet,
    loads_sheet,
    read_sheet,
    sheet_from_json,
    sheet_to_json,
    write_sheet,
)

from .helpers import fill

PLAYERS = ("Anna", "Boris", "Vera")


def _data() -> dict[str, Any]:
    return sheet_to_json(fill(Sheet.start("raspisnoy.com", PLAYERS, first_dealer=1), 2))


def test_a_sheet_is_written_with_its_resolved_rules_and_read_back() -> None:
    sheet = fill(Sheet.start({"preset": "classic", "descending": True}, PLAYERS), 3).bid(1, 0)
    text = dumps_sheet(sheet)
    data = json.loads(text)
    assert data["rules"] == resolve_rules("classic", descending=True).to_json()
    assert data["rounds"][-1] == {"bids": [None, 0, None], "taken": [None, None, None]}
    assert len(text.splitlines()) == 6 + len(sheet.rounds) + 2  # one round a line
    assert loads_sheet("\ufeff" + text) == sheet


def test_rounds_without_bids_write_null_and_control_rounds_their_choice() -> None:
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1:misere"], "control_game": True}
    sheet = Sheet.start(rules, PLAYERS).take(1, 1).take(2, 0).take(0, 0)
    assert sheet.totals == (100, -20, 100)
    sheet = sheet.choose_control("blind", 2)
    rounds = sheet_to_json(sheet)["rounds"]
    assert rounds == [
        {"bids": None, "taken": [0, 1, 0]},
        {"kind": "blind", "dealer": 2, "bids": None, "taken": [None, None, None]},
    ]
    assert sheet_from_json(sheet_to_json(sheet)) == sheet


def test_a_preset_name_and_absent_fields_are_accepted() -> None:
    sheet = sheet_from_json(
        {
            "format": "raspisnoy-sheet/1",
            "players": list(PLAYERS),
            "first_dealer": 0,
            "rounds": [{"bids": [None, 1, None]}],
        }
    )
    assert sheet.rules == resolve_rules("raspisnoy.com")
    assert sheet.rounds[0].taken == (None, None, None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": None}, "format: expected 'raspisnoy-sheet/1', got None"),
        ({"rules": "whist"}, "unknown rules preset 'whist'"),
        ({"rules": {"preset": "classic", "jokers": 3}}, "rules option jokers"),
        ({"players": "Anna, Boris"}, 'players: expected a list of names, got "Anna, Boris"'),
        ({"players": ["Anna", "Boris"], "rounds": []}, "played by 3 to 5 players, not 2"),
        ({"first_dealer": None}, "first_dealer: expected a seat number, got null"),
        ({"first_dealer": 3}, "3 is not a seat from 0 to 2"),
        ({"rounds": {}}, "rounds: expected a list, got {}"),
        ({"extra": 1}, "unknown field 'extra'"),
    ],
)
def test_shape_errors_say_what_is_wrong(change: dict[str, Any], message: str) -> None:
    with pytest.raises(SheetError, match=message.replace("(", r"\(").replace(")", r"\)")):
        sheet_from_json({**_data(), **change})


@pytest.mark.parametrize(
    ("round_", "message"),
    [
        ([], "round 2: expected an object, got []"),
        ({"bids": [1, 1]}, "round 2: bids: expected a list of 3 numbers or nulls, got [1, 1]"),
        ({"bids": [0, 0, 0], "taken": [0, "2", 0]}, 'round 2: taken: "2" is not a whole number'),
        ({"bids": [0, 0, 0], "taken": [0, True, 0]}, "round 2: taken: true is not a whole number"),
        ({"kind": "tea", "bids": None}, "round 2: kind 'tea' is not one of normal"),
        ({"dealer": "Boris", "bids": None}, 'round 2: dealer: expected a seat number, got "Boris"'),
    ],
)
def test_round_shape_errors_name_the_round(round_: Any, message: str) -> None:
    data = _data()
    data["rounds"][1] = round_
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert str(error.value).startswith(message)
    assert error.value.round == 2 and error.value.code == "format"


@pytest.mark.parametrize(
    ("text", "message"),
    [("{", "not valid JSON: Expecting property name"), ("[1]", "a sheet must be a JSON object")],
)
def test_text_that_is_no_sheet(text: str, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        loads_sheet(text)


def test_writing_replaces_the_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    first = Sheet.start("raspisnoy.com", PLAYERS)
    write_sheet(first, path)
    assert path.stat().st_mode & 0o777 == 0o644
    os.chmod(path, 0o600)
    second = first.bid(1, 0)
    write_sheet(second, path)
    assert read_sheet(path) == second
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.json"]


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    blocked = tmp_path / "sheet.json"
    blocked.mkdir()  # a directory where the file should go: the final rename fails
    with pytest.raises(OSError):
        write_sheet(Sheet.start("raspisnoy.com", PLAYERS), blocked)
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.json"]
    assert list(blocked.iterdir()) == []
