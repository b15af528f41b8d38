"""Every rules option is bounded where it is declared, so no table, record or ``--set``
can carry a value the engine, the database or the JSON encoder cannot hold."""

import pytest

from raspisnoy.core import InvalidInputError, OptionInfo, option_info, resolve_rules

INT_OPTIONS = [info for info in option_info() if info.type is int]
LIST_OPTIONS = [info for info in option_info() if info.type is tuple]


@pytest.mark.parametrize("info", INT_OPTIONS, ids=lambda info: info.name)
def test_every_number_option_declares_bounds_that_hold_its_default(info: OptionInfo) -> None:
    assert info.low is not None and info.high is not None
    assert info.low <= info.default <= info.high


@pytest.mark.parametrize("info", LIST_OPTIONS, ids=lambda info: info.name)
def test_every_list_option_declares_its_longest_length(info: OptionInfo) -> None:
    assert info.max_items is not None and len(info.default) <= info.max_items


@pytest.mark.parametrize("info", INT_OPTIONS, ids=lambda info: info.name)
@pytest.mark.parametrize("side", ["low", "high"])
def test_a_number_past_its_bound_is_refused_with_the_bounds(info: OptionInfo, side: str) -> None:
    assert info.low is not None and info.high is not None
    value = info.low - 1 if side == "low" else info.high + 1
    with pytest.raises(InvalidInputError, match=f"between {info.low} and {info.high}"):
        resolve_rules({"preset": "raspisnoy.com", info.name: value})


def test_a_number_of_thirty_digits_is_refused_by_its_size() -> None:
    """The audit's value: accepted before, it broke the table when the game started."""
    with pytest.raises(InvalidInputError, match=r"exact_per_trick .* not a number of 100 bits"):
        resolve_rules({"preset": "raspisnoy.com", "exact_per_trick": 10**30})


def test_a_number_too_long_to_print_is_refused_with_a_message() -> None:
    with pytest.raises(InvalidInputError, match="bits"):
        resolve_rules({"preset": "raspisnoy.com", "misere_zero": -(10**5000)})


def test_a_plan_longer_than_allowed_is_refused() -> None:
    info = next(info for info in LIST_OPTIONS if info.name == "custom_plan")
    assert info.max_items is not None
    plan = ["1"] * (info.max_items + 1)
    with pytest.raises(InvalidInputError, match=f"at most {info.max_items} entries"):
        resolve_rules({"preset": "raspisnoy.com", "custom_plan": plan})
    assert len(resolve_rules({"custom_plan": plan[:-1]}).custom_plan) == info.max_items
