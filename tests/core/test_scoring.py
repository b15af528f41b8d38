"""Round scoring (docs/rules.md 1, "Scoring")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raspisnoy.core import RoundKind, resolve_rules, round_points

RULES = resolve_rules()
BID_KINDS = (RoundKind.NORMAL, RoundKind.NO_TRUMP, RoundKind.BLIND)
counts = st.integers(min_value=0, max_value=12)


def table_points(bid: int, taken: int) -> int:
    """The docs/rules.md scoring table, row by row."""
    if taken == bid:
        return 10 * bid if bid > 0 else 5
    if taken < bid:
        return -10 * (bid - taken)
    return taken


@pytest.mark.parametrize("kind", BID_KINDS)
@pytest.mark.parametrize(
    ("player", "bid", "taken", "points"),
    [("A", 3, 3, 30), ("B", 0, 0, 5), ("C", 2, 0, -20), ("D", 1, 4, 4)],
)
def test_worked_round(kind: RoundKind, player: str, bid: int, taken: int, points: int) -> None:
    assert round_points(RULES, kind, bid, taken, cards=12) == points, player


@pytest.mark.parametrize(
    ("taken", "misere", "golden"),
    [(0, 100, -100), (1, -20, 20), (2, -40, 40), (5, -100, 100), (12, -240, 240)],
)
def test_misere_and_golden(taken: int, misere: int, golden: int) -> None:
    assert round_points(RULES, RoundKind.MISERE, None, taken, cards=12) == misere
    assert round_points(RULES, RoundKind.GOLDEN, None, taken, cards=12) == golden


@given(st.sampled_from(BID_KINDS), counts, counts)
def test_scoring_matches_the_table(kind: RoundKind, bid: int, taken: int) -> None:
    assert round_points(RULES, kind, bid, taken, cards=12) == table_points(bid, taken)


@given(counts)
def test_misere_and_golden_formulas(taken: int) -> None:
    misere = 100 if taken == 0 else -20 * taken
    golden = -100 if taken == 0 else 20 * taken
    assert round_points(RULES, RoundKind.MISERE, None, taken, cards=12) == misere
    assert round_points(RULES, RoundKind.GOLDEN, None, taken, cards=12) == golden


def test_scoring_follows_the_rules_options() -> None:
    rules = resolve_rules(exact_zero=50, exact_per_trick=20, misere_zero=60)
    assert round_points(rules, RoundKind.NORMAL, 0, 0, cards=12) == 50
    assert round_points(rules, RoundKind.NORMAL, 2, 2, cards=12) == 40
    assert round_points(rules, RoundKind.MISERE, None, 0, cards=12) == 60
