"""The errors a person can cause through a game's options carry a code and its values
beside the English message, which stays word for word what it was (records, logs and the
record contract show it): a front end words the code in the person's language
(``raspisnoy.i18n.translate_error``, checked here for every code in every language)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from raspisnoy.core import (
    InvalidInputError,
    RaspisnoyError,
    option_info,
    parse_option_value,
    player_names,
    resolve_rules,
    round_plan,
)
from raspisnoy.i18n import LANGUAGES, catalog, translate_error

PRESETS = "raspisnoy.com, classic, ukrainian, georgian, oh-hell"
OPTIONS = ", ".join(info.name for info in option_info())
KINDS = "normal, no-trump, blind, misere, golden, forehead, percent"


@dataclass(frozen=True, slots=True)
class Case:
    """A call that fails, and the message, code and values its error must have."""

    call: Callable[[], object]
    message: str
    code: str
    params: dict[str, str | int]


CASES = {
    "unknown preset": Case(
        lambda: resolve_rules("whist"),
        f"unknown rules preset 'whist' (known: {PRESETS})",
        "unknown_preset",
        {"preset": "whist", "known": PRESETS},
    ),
    "rules neither a name nor an object": Case(
        lambda: resolve_rules(5),  # type: ignore[arg-type]
        "rules must be a preset name or an object, not 5",
        "rules_type",
        {"value": "5"},
    ),
    "unknown option": Case(
        lambda: resolve_rules(nonsense=1),
        f"unknown rules option 'nonsense' (known: {OPTIONS})",
        "unknown_option",
        {"option": "nonsense", "known": OPTIONS},
    ),
    "--set text for a true-or-false option": Case(
        lambda: parse_option_value("descending", "maybe"),
        "rules option descending must be true or false, not 'maybe'",
        "option_not_bool",
        {"option": "descending", "value": "'maybe'"},
    ),
    "--set text for a number option": Case(
        lambda: parse_option_value("exact_zero", "five"),
        "rules option exact_zero must be a whole number, not 'five'",
        "option_not_int",
        {"option": "exact_zero", "value": "'five'"},
    ),
    "a number option given a text": Case(
        lambda: resolve_rules({"exact_zero": "5"}),
        "rules option exact_zero must be a whole number, not '5'",
        "option_not_int",
        {"option": "exact_zero", "value": "'5'"},
    ),
    "a list option given a number": Case(
        lambda: resolve_rules({"custom_plan": 9}),
        "rules option custom_plan must be a list of texts, not 9",
        "option_not_list",
        {"option": "custom_plan", "value": "9"},
    ),
    "a text option given a number": Case(
        lambda: resolve_rules({"deal_sequence": 2}),
        "rules option deal_sequence must be a text, not 2",
        "option_not_text",
        {"option": "deal_sequence", "value": "2"},
    ),
    "a choice not offered": Case(
        lambda: resolve_rules(trump_source="top"),
        "rules option trump_source must be one of undealt, dealer_last, not 'top'",
        "option_choice",
        {"option": "trump_source", "choices": "undealt, dealer_last", "value": "'top'"},
    ),
    "a number out of bounds": Case(
        lambda: resolve_rules(bid_all_multiplier=11),
        "rules option bid_all_multiplier must be between 1 and 10, not 11",
        "option_range",
        {"option": "bid_all_multiplier", "low": 1, "high": 10, "value": "11"},
    ),
    "a list too long": Case(
        lambda: resolve_rules(special_rounds=("blind",) * 13),
        "rules option special_rounds has at most 12 entries, not 13",
        "option_entries",
        {"option": "special_rounds", "most": 12, "count": 13},
    ),
    "fewest players above the most": Case(
        lambda: resolve_rules(min_players=5, max_players=4),
        "rules: min_players is greater than max_players",
        "players_order",
        {"low": 5, "high": 4},
    ),
    "three jokers": Case(
        lambda: resolve_rules(jokers=("6S", "6C"), extra_jokers=1),
        "rules: a deck has at most two jokers (jokers + extra_jokers)",
        "jokers_count",
        {"count": 3},
    ),
    "a joker not in the deck": Case(
        lambda: resolve_rules(jokers=("2S",)),
        "rules option jokers: 2S is not a card of this deck",
        "joker_card",
        {"card": "2S"},
    ),
    "a joker named twice": Case(
        lambda: resolve_rules(jokers=("6S", "6s")),
        "rules option jokers names 6S twice",
        "joker_twice",
        {"card": "6S"},
    ),
    "a joker that is no card": Case(
        lambda: resolve_rules(jokers=("ZZ",)),
        "'ZZ' is not a card",
        "not_a_card",
        {"text": "'ZZ'"},
    ),
    "an unknown special round": Case(
        lambda: resolve_rules(special_rounds=("bogus",)),
        "rules option special_rounds: 'bogus' is not one of "
        "no-trump, blind, misere, golden, forehead, percent",
        "special_round",
        {"entry": "bogus", "kinds": "no-trump, blind, misere, golden, forehead, percent"},
    ),
    "a plan entry that does not parse": Case(
        lambda: resolve_rules(custom_plan=("1", "9:foo")),
        f"custom_plan entry 2 '9:foo': expected CARDS or CARDS:KIND ({KINDS})",
        "plan_entry",
        {"number": 2, "entry": "9:foo", "kinds": KINDS},
    ),
    "a plan entry of no cards": Case(
        lambda: resolve_rules(custom_plan=("0",)),
        "custom_plan entry 1 '0': cards must be at least 1",
        "plan_no_cards",
        {"number": 1, "entry": "0"},
    ),
    "a plan entry dealing more than each can get": Case(
        lambda: round_plan(resolve_rules(custom_plan=("1", "10:blind")), 4),
        "custom_plan entry 2 '10:blind': cards must be 1 to 9 for this many players",
        "plan_cards",
        {"number": 2, "entry": "10:blind", "count": 9, "players": 4},
    ),
    "a name that is no printable text": Case(
        lambda: player_names(["Anna", "\tBoris"]),
        "players: '\\tBoris' is not a name (printable text)",
        "player_name",
        {"name": "'\\tBoris'"},
    ),
    "a name too long": Case(
        lambda: player_names(["Anna", "x" * 41]),
        f"players: '{'x' * 41}' is longer than 40",
        "player_name_length",
        {"name": f"'{'x' * 41}'", "count": 40},
    ),
    "a name twice": Case(
        lambda: player_names(["Anna", "Anna"]),
        "players: names must be different",
        "player_names_twice",
        {},
    ),
    "players the rules do not allow": Case(
        lambda: round_plan(resolve_rules(), 7),
        "raspisnoy.com is played by 3 to 5 players, not 7",
        "players",
        {"preset": "raspisnoy.com", "low": 3, "high": 5, "count": 7},
    ),
}


def raised(case: Case) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as caught:
        case.call()
    return caught.value


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_error_has_its_code_and_values_and_its_english_message(case: Case) -> None:
    error = raised(case)
    assert (str(error), error.code, dict(error.params)) == (case.message, case.code, case.params)


def test_an_error_without_a_code_is_still_an_error() -> None:
    error = RaspisnoyError("something went wrong")
    assert (str(error), error.code, dict(error.params)) == ("something went wrong", None, {})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_every_code_is_worded_in_every_language(case: Case, lang: str) -> None:
    """Each error reads in the person's language, every value filled in (in Russian and
    Ukrainian not the English message: the code has its own words). Every form of its
    message takes the error's values as they are, so no wording falls back unseen."""
    error = raised(case)
    text = translate_error(error, lang)
    assert not re.search(r"\{\w*\}", text), text
    if lang != "en":
        assert text != str(error)
    form = re.compile(rf"error\.{case.code}(\.(zero|one|two|few|many|other))?")
    templates = [template for key, template in catalog(lang).items() if form.fullmatch(key)]
    assert templates
    for template in templates:
        template.format(**error.params)


def test_every_worded_code_is_one_the_engine_raises() -> None:
    """No ``error.<code>`` message is left over from a code the engine no longer raises
    (``setting_syntax`` is raised by the command line's ``--set`` reading)."""
    worded = {key.split(".")[1] for key in catalog("en") if key.startswith("error.")}
    assert worded == {case.code for case in CASES.values()} | {"deck_too_small", "setting_syntax"}
