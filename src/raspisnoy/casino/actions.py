"""The player's decisions, the hand's phases and its log events.

Decisions are small frozen values with a text form (``fold``, ``bet``, ``buy``,
``change 8C 9S``, ``buy-dealer``, ``decline``) that ``parse_action`` reads back; the
terminal game and the hand record use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from raspisnoy.casino.cards import Card, parse_cards
from raspisnoy.core import InvalidInputError

__all__ = [
    "Action",
    "Bet",
    "BuyCard",
    "BuyDealer",
    "Change",
    "Deal",
    "DealerDraw",
    "Decline",
    "Event",
    "Fold",
    "Phase",
    "parse_action",
]


class Phase(StrEnum):
    """Where the hand stands."""

    #: A box's decision: fold, bet, buy a sixth card or change; after an exchange, bet or fold.
    DECIDE = "decide"
    #: The dealer did not qualify: the betting boxes one and two, in order, may buy his game.
    PURCHASE = "purchase"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the box: its ante is lost."""

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Bet:
    """Place the bet, twice the ante, and play the cards held."""

    def __str__(self) -> str:
        return "bet"


@dataclass(frozen=True, slots=True)
class BuyCard:
    """Buy a sixth card for one ante («покупка»)."""

    def __str__(self) -> str:
        return "buy"


@dataclass(frozen=True, slots=True)
class Change:
    """Change 1-5 of the box's cards for one ante («обмен»)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.cards, tuple) or not all(isinstance(c, Card) for c in self.cards):
            raise InvalidInputError(f"{self.cards!r} is not a tuple of cards to change")
        if not 1 <= len(self.cards) <= 5 or len(set(self.cards)) != len(self.cards):
            raise InvalidInputError("a change names 1 to 5 different cards")

    def __str__(self) -> str:
        return " ".join(["change", *map(str, self.cards)])


@dataclass(frozen=True, slots=True)
class BuyDealer:
    """Buy the game for the dealer on this box, for one ante."""

    def __str__(self) -> str:
        return "buy-dealer"


@dataclass(frozen=True, slots=True)
class Decline:
    """Do not buy the dealer's game: take the ante paid 1:1."""

    def __str__(self) -> str:
        return "decline"


Action = Fold | Bet | BuyCard | Change | BuyDealer | Decline

_SIMPLE: dict[str, Action] = {
    "fold": Fold(),
    "bet": Bet(),
    "buy": BuyCard(),
    "buy-dealer": BuyDealer(),
    "decline": Decline(),
}


def parse_action(text: str) -> Action:
    """Read a decision from its text form."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError(f"{text!r} is not a decision")
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    if word == "change":
        return Change(parse_cards(rest, "change"))
    action = _SIMPLE.get(word)
    if action is None or rest.strip():
        names = ", ".join([*_SIMPLE, "change CARDS"])
        raise InvalidInputError(f"{text!r} is not a decision ({names})")
    return action


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance event of the deal: each box's five cards and the dealer's, the last up."""

    boxes: tuple[tuple[Card, ...], ...]
    dealer: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """The dealer's game was bought: he discarded his highest card and drew one."""

    discard: Card
    draw: Card


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the hand's log: a box's decision (``box`` 0-2) with the cards it drew,
    or a chance event (``box`` is ``None``)."""

    box: int | None
    action: Action | Deal | DealerDraw
    drawn: tuple[Card, ...] = ()
