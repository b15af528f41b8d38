"""Game records and the ``replay --json`` report (docs/record.md)."""

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import play_randomly

from raspisnoy.core import (
    Game,
    RaspisnoyError,
    dumps_record,
    game_to_record,
    loads_record,
    record_to_json,
    replay,
    replay_report,
    resolve_rules,
)

# The example record of docs/record.md, and the ``raspisnoy replay --json`` report docs/record.md
# gives for it (shared with the CLI tests).
DATA = Path(__file__).parents[1] / "data"
EXAMPLE = json.loads((DATA / "record-example.json").read_text())
EXAMPLE_REPORT = json.loads((DATA / "record-example.report.json").read_text())


def report_of(data: dict[str, Any] | str) -> dict[str, Any]:
    text = data if isinstance(data, str) else json.dumps(data)
    return replay_report(replay(loads_record(text)))


def error_of(data: dict[str, Any] | str) -> str:
    with pytest.raises(RaspisnoyError) as info:
        report_of(data)
    return str(info.value)


def edited(
    change: Callable[[dict[str, Any]], None], base: dict[str, Any] = EXAMPLE
) -> dict[str, Any]:
    """A deep copy of ``base`` after ``change(copy)``."""
    data = copy.deepcopy(base)
    change(data)
    return data


def custom(plan: list[str], *rounds: dict[str, Any]) -> dict[str, Any]:
    """A record played under a custom round plan."""
    rules = {"preset": "raspisnoy.com", "custom_plan": plan}
    return {**EXAMPLE, "rules": rules, "rounds": list(rounds)}


def round_one(**fields: Any) -> dict[str, Any]:
    return {**EXAMPLE["rounds"][0], **fields}


def round_trip(game: Game) -> dict[str, Any]:
    """The report of ``game`` after writing its record and reading it back."""
    return report_of(dumps_record(game_to_record(game)))


# ----------------------------------------------------------------------------- the example


def test_example_record_replays_to_the_example_report() -> None:
    assert report_of(EXAMPLE) == EXAMPLE_REPORT


def test_example_round_trip() -> None:
    game = replay(loads_record(json.dumps(EXAMPLE)))
    record = game_to_record(game)
    assert loads_record(dumps_record(record)) == record
    assert round_trip(game) == EXAMPLE_REPORT


def test_written_record_stores_the_resolved_rules_and_the_plan() -> None:
    data = json.loads(dumps_record(game_to_record(replay(loads_record(json.dumps(EXAMPLE))))))
    assert data["format"] == "raspisnoy-record/1"  # the contract, docs/record.md
    assert data["rules"] == resolve_rules().to_json()
    assert data["players"] == EXAMPLE["players"]
    assert [(r["cards"], r["kind"]) for r in data["rounds"]] == [(1, "normal"), (2, "normal")]
    assert [r["tricks"] for r in data["rounds"]] == [r["tricks"] for r in EXAMPLE["rounds"]]


def test_record_keeps_names_as_written() -> None:
    names = ["Аня", "Борис", "Вера"]
    game = replay(loads_record(json.dumps({**EXAMPLE, "players": names})))
    text = dumps_record(game_to_record(game))
    assert "Аня" in text
    assert record_to_json(loads_record(text))["players"] == names


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("steps", [0, 1, 4, 7, 30, 200, 10_000])
def test_round_trip_of_a_played_game(steps: int) -> None:
    game = Game(resolve_rules(), ["Anna", "Boris", "Vera"], seed=5)
    play_randomly(game, steps, seed=steps)
    assert round_trip(game) == replay_report(game)


def test_round_trip_of_special_rounds() -> None:
    rules = resolve_rules(custom_plan=("3:no-trump", "2:blind", "2:misere", "1:golden"))
    game = Game(rules, ["Anna", "Boris", "Vera", "Gleb"], seed=9)
    play_randomly(game, 10_000)
    report = round_trip(game)
    assert report == replay_report(game)
    assert [(r["kind"], r["trump"] is None, r["bids"] is None) for r in report["rounds"]] == [
        ("no-trump", True, False),
        ("blind", False, False),
        ("misere", False, True),
        ("golden", False, True),
    ]
    assert report["complete"] is True


def test_complete_record_names_the_winners() -> None:
    record = custom(["1"], round_one(bids=[0, 0, 0]))
    report = report_of(record)
    assert report["rounds"][0]["points"] == [5, 1, 5]
    assert (report["totals"], report["complete"], report["winners"]) == ([5, 1, 5], True, [0, 2])


# ----------------------------------------------------------------------------- partial records


@pytest.mark.parametrize(
    ("round_two", "last_round"),
    [
        (
            {"dealer": 1, "hands": EXAMPLE["rounds"][1]["hands"], "trump_card": "7C"},
            {"bids": [None, None, None], "taken": [0, 0, 0], "tricks": []},
        ),
        (
            {**EXAMPLE["rounds"][1], "bids": [None, None, 2], "tricks": []},
            {"bids": [None, None, 2], "taken": [0, 0, 0], "tricks": []},
        ),
        (
            {**EXAMPLE["rounds"][1], "bids": [0, None, 2], "tricks": []},
            {"bids": [0, None, 2], "taken": [0, 0, 0], "tricks": []},
        ),
        (
            {**EXAMPLE["rounds"][1], "tricks": [["X:highest:D", "KD"]]},
            {
                "bids": [0, 1, 2],
                "taken": [0, 0, 0],
                "tricks": [{"leader": 2, "cards": ["X:highest:D", "KD"], "winner": None}],
            },
        ),
        (
            {**EXAMPLE["rounds"][1], "tricks": [["X:highest:D", "KD", "QD"], ["AH"]]},
            {
                "bids": [0, 1, 2],
                "taken": [0, 0, 1],
                "tricks": [
                    {"leader": 2, "cards": ["X:highest:D", "KD", "QD"], "winner": 2},
                    {"leader": 2, "cards": ["AH"], "winner": None},
                ],
            },
        ),
    ],
    ids=["dealt", "one-bid", "mid-bidding", "mid-trick", "second-trick"],
)
def test_partial_records_are_valid(round_two: dict[str, Any], last_round: dict[str, Any]) -> None:
    report = report_of({**EXAMPLE, "rounds": [EXAMPLE["rounds"][0], round_two]})
    assert report["rounds"][0] == EXAMPLE_REPORT["rounds"][0]
    expected = {"round": 2, "dealer": 1, "cards": 2, "kind": "normal", "trump": "C"}
    assert report["rounds"][1] == {**expected, **last_round, "points": None}
    assert report["totals"] == [-10, 10, 5]  # only the finished round counts
    assert (report["complete"], report["winners"]) == (False, [])


def test_a_record_without_rounds() -> None:
    report = report_of({**EXAMPLE, "rounds": []})
    assert report == {
        "players": ["Anna", "Boris", "Vera"],
        "rounds": [],
        "totals": [0, 0, 0],
        "complete": False,
        "winners": [],
    }


def test_a_record_without_rules_uses_the_default() -> None:
    data = {key: value for key, value in EXAMPLE.items() if key != "rules"}
    assert report_of(data) == EXAMPLE_REPORT


# ----------------------------------------------------------------------------- malformed


def illegal_round_two() -> dict[str, Any]:
    """Round 2 of three cards, where Boris holds a heart but plays 9C to a heart lead."""
    second = {
        "dealer": 1,
        "hands": [["KD", "8C", "6S"], ["QD", "9C", "6H"], ["X", "AH", "8S"]],
        "trump_card": "7C",
        "bids": [0, 0, 2],
        "tricks": [["X:highest:D", "KD", "QD"], ["AH", "8C", "9C"]],
    }
    return custom(["1", "3"], EXAMPLE["rounds"][0], second)


def set_in(path: tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    """An edit that sets ``data[path...] = value``."""

    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ('{"format": ', "not valid JSON: Expecting value at line 1 column 12"),
        ("[]", "a record must be a JSON object"),
        (
            edited(set_in(("format",), "raspisnoy-record/2")),
            "format: expected 'raspisnoy-record/1', got 'raspisnoy-record/2'",
        ),
        (edited(set_in(("moves",), [])), "record: unknown field 'moves'"),
        (edited(set_in(("rounds", 1, "trump"), "C")), "round 2: unknown field 'trump'"),
        (
            edited(set_in(("rounds", 1, "hands", 0, 1), "9Z")),
            "round 2: Anna's hand: '9Z' is not a card",
        ),
        (
            edited(set_in(("rounds", 0, "trump_card"), "7")),
            "round 1: trump_card: '7' is not a card",
        ),
        (
            edited(set_in(("rounds", 1, "tricks", 1, 2), "6Q")),
            "round 2, trick 2: Boris's card: '6Q' is not a card",
        ),
        (
            edited(set_in(("rounds", 1, "tricks", 0, 0), "X")),
            "round 2, trick 1: Vera's card: 'X': a joker play needs a mode, "
            "e.g. X:take or X:discard:D",
        ),
        (  # an unreadable card after an illegal one: the first error in play order
            edited(
                set_in(("rounds", 1, "tricks"), [["X:highest:D", "9C", "QD"], ["AH", "6Q", "KD"]])
            ),
            "round 2, trick 1: Anna must play the highest ♦ (KD) and may not play 9C",
        ),
        (
            edited(set_in(("rounds", 1, "dealer"), 2)),
            "round 2: the deal passes clockwise, so the dealer is Boris (seat 1), not seat 2",
        ),
        (
            edited(set_in(("rounds", 1, "dealer"), 3)),
            "round 2: dealer 3 is not a seat (0 to 2)",
        ),
        (
            edited(set_in(("rounds", 1, "hands", 0), ["KD", "9C", "6H"])),
            "round 2: Anna's hand has 3 cards, expected 2",
        ),
        (
            custom(["1:misere"], round_one(bids=[0, 1, 0], tricks=[])),
            "round 1: a misere round has no bids",
        ),
        (
            edited(set_in(("rounds", 0, "bids"), [1, None, 0])),
            "round 1: Vera has a bid, but Boris, who bids first, has none",
        ),
        (
            edited(set_in(("rounds", 0, "bids"), [None, 1, 0])),
            "round 1: cards are played before Anna has bid",
        ),
        (
            edited(set_in(("rounds", 0, "bids"), [0, 1, 0])),
            "round 1: Anna (dealer) may not bid 0: the bids would sum to the 1 card dealt",
        ),
        (
            edited(set_in(("rounds", 0, "tricks"), [["KD", "AH", "QD", "AS"]])),
            "round 1, trick 1: 4 cards for 3 players",
        ),
        (
            edited(set_in(("rounds", 1, "tricks", 0), ["X:highest:D", "KD"])),
            "round 2, trick 1: only 2 cards, but another trick follows",
        ),
        (illegal_round_two(), "round 2, trick 2: Boris must follow ♥ and may not play 9C"),
        (
            edited(set_in(("rounds", 1, "tricks", 0, 1), "9C")),
            "round 2, trick 1: Anna must play the highest ♦ (KD) and may not play 9C",
        ),
        (edited(set_in(("rounds", 0, "cards"), 2)), "round 1: the plan deals 1 card, not 2"),
        (
            edited(set_in(("rounds", 1, "kind"), "blind")),
            "round 2: the plan makes it a normal round, not blind",
        ),
        (
            custom(["1"], round_one(), {**EXAMPLE["rounds"][1], "hands": [["9C"], ["6S"], ["AH"]]}),
            "round 2: the game is over after 1 round",
        ),
        (
            edited(set_in(("rounds", 0, "tricks"), [])),
            "round 1 is not finished, but round 2 follows",
        ),
    ],
)
def test_malformed_record_message(record: dict[str, Any] | str, expected: str) -> None:
    assert error_of(record) == expected


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (edited(set_in(("rounds", 1, "kind"), "weird")), "round 2: kind 'weird' is not one of"),
        (
            edited(set_in(("players",), ["Anna", "Boris"])),
            "raspisnoy.com is played by 3 to 5 players, not 2",
        ),
        (
            edited(set_in(("players",), ["Anna", "Anna", "Vera"])),
            "players: names must be different",
        ),
        (edited(set_in(("rules",), "no-such-preset")), "unknown rules preset 'no-such-preset'"),
        (
            edited(set_in(("rules",), {"no_such_option": 1})),
            "unknown rules option 'no_such_option'",
        ),
        (
            edited(set_in(("rounds", 0, "bids"), [1, 1, 0, 0])),
            "round 1: bids: 4 bids for 3 players",
        ),
        (
            edited(set_in(("rounds", 0, "bids"), [1, "1", 0])),
            "round 1: Boris's bid: '1' is not a bid",
        ),
        (edited(set_in(("rounds", 0, "dealer"), "0")), "round 1: dealer: expected a seat number"),
        (edited(set_in(("rounds", 0, "trump_card"), None)), "round 1: the trump card is missing"),
        (
            edited(set_in(("rounds", 0, "hands"), [["QD"], ["KD"]])),
            "round 1: 2 hands dealt for 3 players",
        ),
        (
            edited(set_in(("rounds", 0, "hands", 2), ["QD"])),
            "round 1: Vera's hand: QD is dealt twice",
        ),
        (
            edited(set_in(("rounds", 0, "trump_card"), "7S")),
            "round 1: trump card: 7S is not in this deck",
        ),
        (
            edited(set_in(("rounds", 0, "tricks", 0, 0), "QD")),
            "round 1, trick 1: Boris does not hold QD",
        ),
    ],
)
def test_malformed_record_names_the_place(record: dict[str, Any], expected: str) -> None:
    assert error_of(record).startswith(expected)


def test_extra_trick_is_reported_in_its_own_round() -> None:
    record = edited(set_in(("rounds", 0, "tricks"), [["KD", "AH", "QD"], ["AS"]]))
    assert error_of(record).startswith("round 1, trick 2:")


def test_extra_trick_after_the_last_round_names_the_round() -> None:
    record = custom(["1"], round_one(tricks=[["KD", "AH", "QD"], ["AS"]]))
    assert error_of(record).startswith("round 1")
