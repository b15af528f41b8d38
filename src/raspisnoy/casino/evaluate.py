"""What a box's cards are worth: the best 5-card hand, the paid combinations, comparison.

``evaluate`` names the first combination (the best 5 of 5 or 6 cards), the second one
(docs/casino.md, *The second combination*) and the total multiplier on the bet;
``compare`` orders two hands as poker does. The arithmetic is
``raspisnoy.casino.ranking``, which the advisor compiles with its own loops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from raspisnoy.casino import ranking
from raspisnoy.casino.cards import Card, require_distinct
from raspisnoy.core import InvalidInputError

__all__ = ["Combination", "Evaluation", "compare", "evaluate", "hand_key"]


class Combination(IntEnum):
    """The combinations of the pay table, lowest first; ``str`` is the CLI's name."""

    NO_HAND = ranking.NO_HAND
    ACE_KING = ranking.ACE_KING
    ONE_PAIR = ranking.ONE_PAIR
    TWO_PAIRS = ranking.TWO_PAIRS
    THREE_OF_A_KIND = ranking.THREE_OF_A_KIND
    STRAIGHT = ranking.STRAIGHT
    FLUSH = ranking.FLUSH
    FULL_HOUSE = ranking.FULL_HOUSE
    FOUR_OF_A_KIND = ranking.FOUR_OF_A_KIND
    STRAIGHT_FLUSH = ranking.STRAIGHT_FLUSH
    ROYAL_FLUSH = ranking.ROYAL_FLUSH

    @property
    def pays(self) -> int:
        """What the combination pays on the bet, N to 1."""
        return ranking.CATEGORY_PAYS[self]

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A box's 5 or 6 cards, valued."""

    cards: tuple[Card, ...]
    #: Orders hands: higher is better, equal is a tie (suits never count).
    key: int
    combination: Combination
    second: Combination | None
    #: The total multiplier on the bet (0 for no hand).
    pays: int

    @property
    def qualifies(self) -> bool:
        """Ace-king or better: what the dealer needs to play."""
        return self.combination >= Combination.ACE_KING

    def to_json(self) -> dict[str, object]:
        """The ``raspisnoy casino hand --json`` object (docs/casino.md)."""
        return {
            "cards": [str(card) for card in self.cards],
            "combination": str(self.combination),
            "second": None if self.second is None else str(self.second),
            "pays": self.pays,
            "qualifies": self.qualifies,
        }


def _indexes(cards: Sequence[Card], sizes: tuple[int, ...]) -> list[int]:
    if len(cards) not in sizes:
        wanted = " or ".join(map(str, sizes))
        raise InvalidInputError(f"{len(cards)} cards given, {wanted} wanted")
    for card in cards:
        if not isinstance(card, Card) or card.is_joker:
            raise InvalidInputError(f"{card!r} is not a card of the 52-card deck")
    require_distinct(cards)
    return [card.index for card in cards]


def evaluate(cards: Sequence[Card]) -> Evaluation:
    """Value 5 or 6 distinct cards (docs/casino.md, *The rules*)."""
    key, first, second, pays = ranking.combination_codes(_indexes(cards, (5, 6)), len(cards))
    return Evaluation(
        tuple(cards),
        key,
        Combination(first),
        None if second < 0 else Combination(second),
        pays,
    )


def hand_key(cards: Sequence[Card]) -> int:
    """The best 5-card hand's order key of 5 or 6 cards."""
    return ranking.best_key(_indexes(cards, (5, 6)), len(cards))


def compare(player: Sequence[Card], dealer: Sequence[Card]) -> int:
    """1 if the player's best hand beats the dealer's, 0 on a tie, -1 if it loses."""
    mine, theirs = hand_key(player), hand_key(dealer)
    return (mine > theirs) - (mine < theirs)
