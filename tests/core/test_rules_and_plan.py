"""Rulesets as data and the round plan (docs/rules.md 1, "Players and deck" and "The round
plan"; 2.2)."""

import json
from collections import Counter
from typing import Any

import pytest

from raspisnoy.core import (
    Game,
    InvalidInputError,
    RoundKind,
    RoundSpec,
    Rules,
    max_cards,
    resolve_rules,
    round_plan,
)

DEFAULT = resolve_rules()
SPECIALS = ("no-trump", "blind", "misere", "golden")


def deals(plan: tuple[RoundSpec, ...]) -> list[tuple[int, str]]:
    return [(spec.cards, str(spec.kind)) for spec in plan]


# ----------------------------------------------------------------------------- the plan


def test_three_player_plan_is_the_rules_table() -> None:
    ascending = [(cards, "normal") for cards in range(1, 13)]
    repeats = [(12, "normal")] * 2
    specials = [(12, kind) for kind in SPECIALS for _ in range(3)]
    assert deals(round_plan(DEFAULT, 3)) == ascending + repeats + specials


@pytest.mark.parametrize(
    ("players", "top", "rounds"),
    [(3, 12, 26), (4, 9, 28), (5, 7, 31)],
)
def test_plan_length_and_kinds(players: int, top: int, rounds: int) -> None:
    plan = round_plan(DEFAULT, players)
    assert len(plan) == rounds
    assert [spec.number for spec in plan] == list(range(1, rounds + 1))
    assert deals(plan[:top]) == [(cards, "normal") for cards in range(1, top + 1)]
    assert all(spec.cards == top for spec in plan[top:])
    counts = Counter(str(spec.kind) for spec in plan)
    assert counts == {"normal": top + players - 1, **dict.fromkeys(SPECIALS, players)}
    # The phases come in the table's order, each as one block.
    order = ["normal", *SPECIALS]
    kinds = [order.index(str(spec.kind)) for spec in plan]
    assert kinds == sorted(kinds)


@pytest.mark.parametrize(("players", "top"), [(3, 12), (4, 9), (5, 7)])
def test_hand_size_cap(players: int, top: int) -> None:
    assert max_cards(DEFAULT, players) == 36 // players == top
    assert max(spec.cards for spec in round_plan(DEFAULT, players)) == top


@pytest.mark.parametrize(("players", "top"), [(3, 12), (4, 9), (5, 7)])
def test_descending_phase_follows_the_ascending_one(players: int, top: int) -> None:
    base = round_plan(DEFAULT, players)
    plan = round_plan(resolve_rules(descending=True), players)
    assert len(plan) == len(base) + top - 1
    assert deals(plan[:top]) == deals(base[:top])
    assert deals(plan[top : 2 * top - 1]) == [(cards, "normal") for cards in range(top - 1, 0, -1)]
    assert deals(plan[2 * top - 1 :]) == deals(base[top:])
    assert [spec.number for spec in plan] == list(range(1, len(plan) + 1))


def test_schedule_json() -> None:
    assert [spec.to_json() for spec in round_plan(DEFAULT, 4)[8:10]] == [
        {"round": 9, "cards": 9, "kind": "normal"},
        {"round": 10, "cards": 9, "kind": "normal"},
    ]


@pytest.mark.parametrize("players", [0, 1, 2, 6, 10])
def test_player_count_outside_three_to_five(players: int) -> None:
    message = f"raspisnoy.com is played by 3 to 5 players, not {players}"
    with pytest.raises(InvalidInputError, match=message):
        round_plan(DEFAULT, players)
    with pytest.raises(InvalidInputError, match=message):
        Game(DEFAULT, players)


# ----------------------------------------------------------------------------- custom_plan


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        (("9",), [(9, "normal")]),
        (("9:blind",), [(9, "blind")]),
        (
            ("1", "2:no-trump", "3:BLIND", "4:misere", "5:golden", "12:normal"),
            [
                (1, "normal"),
                (2, "no-trump"),
                (3, "blind"),
                (4, "misere"),
                (5, "golden"),
                (12, "normal"),
            ],
        ),
    ],
)
def test_custom_plan(entries: tuple[str, ...], expected: list[tuple[int, str]]) -> None:
    assert deals(round_plan(resolve_rules(custom_plan=entries), 3)) == expected


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (("x",), "custom_plan entry 1 'x': expected CARDS or CARDS:KIND"),
        (("",), "custom_plan entry 1 '': expected CARDS or CARDS:KIND"),
        (("1", "9:foo"), "custom_plan entry 2 '9:foo': expected CARDS or CARDS:KIND"),
        (("9:blind:x",), "custom_plan entry 1 '9:blind:x': expected"),
        (("0",), "custom_plan entry 1 '0': cards must be at least 1"),
    ],
)
def test_custom_plan_rejects_malformed_entries_at_once(
    entries: tuple[str, ...], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        resolve_rules(custom_plan=entries)


@pytest.mark.parametrize(
    ("entries", "players", "message"),
    [
        (("13",), 3, "custom_plan entry 1 '13': cards must be 1 to 12"),
        (("10:blind",), 4, "custom_plan entry 1 '10:blind': cards must be 1 to 9"),
    ],
)
def test_custom_plan_rejects_deals_too_big_for_the_players(
    entries: tuple[str, ...], players: int, message: str
) -> None:
    rules = resolve_rules(custom_plan=entries)
    with pytest.raises(InvalidInputError, match=message):
        round_plan(rules, players)
    with pytest.raises(InvalidInputError, match=message):
        Game(rules, players)


# ----------------------------------------------------------------------------- resolving


def test_default_rules() -> None:
    assert resolve_rules() == resolve_rules("raspisnoy.com") == Rules()
    assert DEFAULT.preset == "raspisnoy.com"
    assert DEFAULT.jokers == ("7S",)
    assert (DEFAULT.descending, DEFAULT.dealer_constraint) == (False, True)


def test_resolve_rules_forms_agree() -> None:
    by_object = resolve_rules({"preset": "raspisnoy.com", "descending": True})
    assert by_object == resolve_rules("raspisnoy.com", descending=True)
    assert by_object.descending is True
    assert resolve_rules(by_object) is by_object
    assert resolve_rules(by_object, exact_zero=50).exact_zero == 50


def test_unknown_preset() -> None:
    with pytest.raises(InvalidInputError, match="unknown rules preset 'no-such-preset'"):
        resolve_rules("no-such-preset")


@pytest.mark.parametrize(
    "spec", [{"no_such_option": 1}, {"preset": "raspisnoy.com", "no_such_option": True}]
)
def test_unknown_option(spec: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError, match="unknown rules option 'no_such_option'"):
        resolve_rules(spec)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("descending", "yes"),
        ("descending", 1),
        ("dealer_constraint", None),
        ("exact_zero", "5"),
        ("exact_zero", True),
        ("exact_zero", 5.0),
        ("min_players", 1),
        ("max_players", 11),
        ("lowest_rank", 7),
        ("jokers", "7S"),
        ("jokers", ("7S", "6S", "6C")),
        ("custom_plan", "12"),
    ],
)
def test_wrong_option_value(option: str, value: object) -> None:
    with pytest.raises(InvalidInputError, match=option):
        resolve_rules(None, **{option: value})


def test_rules_spec_must_be_a_name_or_object() -> None:
    with pytest.raises(InvalidInputError, match="preset name or an object"):
        resolve_rules(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"descending": True},
        {"custom_plan": ("3", "2:blind", "1:misere")},
        {"exact_zero": 50, "dealer_constraint": False, "golden_per_trick": 15},
    ],
)
def test_rules_json_round_trip(overrides: dict[str, Any]) -> None:
    rules = resolve_rules(**overrides)
    data = json.loads(json.dumps(rules.to_json()))
    assert data["preset"] == "raspisnoy.com"
    assert {name: data[name] for name in overrides} == {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in overrides.items()
    }
    assert resolve_rules(data) == rules


def test_rules_json_lists_every_option() -> None:
    data = DEFAULT.to_json()
    assert data["jokers"] == ["7S"]
    assert data["custom_plan"] == []
    assert set(data) == {
        "preset",
        *(name for name in Rules.__dataclass_fields__ if name != "preset"),
    }


def test_rules_replace_is_validated() -> None:
    assert DEFAULT.replace(exact_zero=7).exact_zero == 7
    with pytest.raises(InvalidInputError, match="exact_zero"):
        DEFAULT.replace(exact_zero="7")


def test_kind_flags() -> None:
    assert [kind.has_bids for kind in RoundKind] == [True, True, True, False, False, True, True]
    assert [kind.has_trump for kind in RoundKind] == [True, False, True, True, True, True, True]
