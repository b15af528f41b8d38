"""The strategy table's exact values: the same for positions alike up to the suits, as
computed again from scratch, and the table's decisions the best by them.

The values are checked against a brute force on reduced decks in
``test_casino_advisor.py`` (changes of one to five cards); here the full deck.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from casino_strategy import saved_values
from raspisnoy.casino_advisor.fast import compiled
from raspisnoy.casino_advisor.strategy import (
    Position,
    build_table,
    exact_values,
    load_strategy,
    rule_values,
    sample_positions,
)

VALUES = Path(__file__).parents[2] / "benchmarks/results/casino-strategy-values.jsonl"
#: Positions and seed of the shipped table's build (``docs/casino.md``).
BUILD = (800, 17)
#: Rules whose exchanges draw at most 1,035 sets of cards: a fraction of a second each.
CHEAP = ("fold", "bet", "buy", "paired+1", "paired+2", "flush4", "straight4", "top3", "top4")

needs_numba = pytest.mark.skipif(compiled() is None, reason="Numba is not installed")


def _recoloured(position: Position, suits: tuple[int, int, int, int]) -> Position:
    """The position with each card's suit s replaced by ``suits[s]``."""
    cards, up = position

    def move(card: int) -> int:
        return suits[card // 13] * 13 + card % 13

    return tuple(move(card) for card in cards), move(up)


def _renamed(values: dict[str, float], old: Position, new: Position) -> dict[str, float]:
    """Option names of ``old`` written with the matching cards of ``new``."""
    from raspisnoy.casino.cards import DECK

    names = {str(DECK[a]): str(DECK[b]) for a, b in zip(old[0], new[0], strict=True)}
    return {" ".join(names.get(w, w) for w in name.split()): v for name, v in values.items()}


@needs_numba
@pytest.mark.parametrize("suits", [(1, 0, 3, 2), (3, 2, 1, 0), (2, 3, 0, 1)])
def test_suits_do_not_change_the_values(suits: tuple[int, int, int, int]) -> None:
    """Suit isomorphism: a position and its image under a permutation of the suits have
    the same exact values, option for option (a check on the enumeration, which sees
    the cards by index, not by class)."""
    for position in sample_positions(6, 23)[3:6]:
        image = _recoloured(position, suits)
        values = exact_values(position, CHEAP)
        expected = _renamed(values, position, image)
        assert exact_values(image, CHEAP) == pytest.approx(expected, abs=1e-12)


def _build() -> tuple[list[Position], list[dict[str, float]]]:
    dealt = sample_positions(*BUILD)
    return dealt, saved_values(VALUES, dealt)


def test_the_shipped_table_is_built_from_the_saved_exact_values() -> None:
    dealt, valued = _build()
    done = [n for n, found in enumerate(valued) if found]
    assert len(done) == BUILD[0]
    shipped = load_strategy()
    rebuilt = build_table([dealt[n] for n in done], [valued[n] for n in done], shipped.thresholds)
    assert rebuilt == shipped


def test_each_decision_is_the_exact_best_where_its_kind_holds_one_position() -> None:
    """Where the finest kind of a build position holds that position alone, the table's
    decision there is the rule of the highest exact value; elsewhere never one that is
    worth less than folding at every position of its kind."""
    dealt, valued = _build()
    strategy = load_strategy()
    alone = 0
    for position, values in zip(dealt, valued, strict=True):
        kind, _rules = strategy.ranking(*position)
        worth = rule_values(position, values)
        chosen = strategy.rule(*position)
        if strategy.rankings[kind][0] == 1:
            alone += 1
            assert worth[chosen] == max(worth.values())
        assert chosen in worth
    assert alone > BUILD[0] // 4


@needs_numba
@pytest.mark.parametrize("number", [0, 87])
def test_saved_values_are_the_exact_values(number: int) -> None:
    """Two saved positions computed again, every option but the change of all five
    cards (seconds each): the same values."""
    dealt, valued = _build()
    again = exact_values(dealt[number], (*CHEAP, "paired", "flush3", "top1", "top2"))
    for option, value in again.items():
        assert valued[number][option] == pytest.approx(value, abs=1e-12)
