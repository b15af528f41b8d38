"""Player actions: a bid, or a card played (a joker with its announced mode).

Actions are small frozen values with a canonical text form (docs/record.md): ``Bid`` prints
as its number, ``Play`` as ``KD``, ``X:take``, ``X:discard:D`` or ``X:highest:H``, and
``parse_action`` reads both back. The common ones are interned, so the engine's hot
paths hand out the same objects again instead of building new ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from raspisnoy.core.cards import ALL_CARDS, Card, Suit
from raspisnoy.core.errors import InvalidInputError
from raspisnoy.core.kinds import RoundKind

__all__ = [
    "BID_BIT",
    "CONTROL_KINDS",
    "PLAIN_PLAYS",
    "Action",
    "Bid",
    "ControlRound",
    "JokerMode",
    "Play",
    "parse_action",
]


class JokerMode(StrEnum):
    """What the player of a joker announces with it."""

    #: Following: the joker beats everything and takes the trick.
    TAKE = "take"
    #: Following: the joker ranks below the six of the named suit and loses.
    #: Leading: the joker is the lowest card of the named suit, which is the suit led.
    DISCARD = "discard"
    #: Leading only: everyone must play their highest card of the named suit.
    HIGHEST = "highest"


#: A bid of n is bit ``BID_BIT + n`` of a game's mask of legal actions, above every card's.
BID_BIT = 64
#: The largest bid with a mask bit: far above any round's cards; a larger one is refused
#: as any other bid a game does not allow.
_MAX_BID = 63


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``amount`` tricks."""

    amount: int
    #: This bid's bit in a game's mask of legal actions (``BID_BIT`` + amount), which the
    #: engine tests a bid against in one step; 0 for an amount no game allows.
    mask_bit: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        amount = self.amount
        legal = type(amount) is int and 0 <= amount <= _MAX_BID
        object.__setattr__(self, "mask_bit", 1 << BID_BIT + amount if legal else 0)

    def __str__(self) -> str:
        return str(self.amount)

    def __repr__(self) -> str:
        return f"Bid({self.amount})"


@dataclass(frozen=True, slots=True)
class Play:
    """A card played; a joker carries its announced ``mode`` and, except for ``take``, a suit."""

    card: Card
    mode: JokerMode | None = None
    suit: Suit | None = None
    #: The card's index, and its bit in a game's mask of legal actions, which the engine
    #: tests a play against in one step: a standard card's bit (``Card.bit``), 0 for a
    #: joker, whose announced mode is checked apart.
    index: int = field(init=False, compare=False, repr=False)
    mask_bit: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise InvalidInputError(f"{self.card!r} is not a Card (see Card.parse)")
        if self.mode is not None and not isinstance(self.mode, JokerMode):
            raise InvalidInputError(f"{self.mode!r} is not a joker mode")
        if self.suit is not None and not isinstance(self.suit, Suit):
            raise InvalidInputError(f"{self.suit!r} is not a suit")
        if self.card.is_joker:
            if self.mode is None:
                raise InvalidInputError(
                    f"the joker {self.card} needs a mode: take, discard or highest"
                )
            if (self.mode is JokerMode.TAKE) != (self.suit is None):
                needs = "no suit" if self.mode is JokerMode.TAKE else "a suit"
                raise InvalidInputError(f"joker mode {self.mode} takes {needs}")
        elif self.mode is not None or self.suit is not None:
            raise InvalidInputError(f"only a joker announces a mode, not {self.card}")
        object.__setattr__(self, "index", self.card.index)
        object.__setattr__(self, "mask_bit", 0 if self.card.is_joker else self.card.bit)

    @classmethod
    def parse(cls, text: str) -> Play:
        """Parse ``KD``, ``X:take``, ``X:discard:D``, ``X1:highest:H`` (docs/record.md)."""
        if not isinstance(text, str):
            raise InvalidInputError(f"{text!r} is not a card play")
        parts = text.strip().split(":")
        card = Card.parse(parts[0])
        if len(parts) == 1:
            if card.is_joker:
                raise InvalidInputError(
                    f"{text!r}: a joker play needs a mode, e.g. {card}:take or {card}:discard:D"
                )
            return PLAIN_PLAYS[card.index]  # type: ignore[return-value]
        if not card.is_joker:
            raise InvalidInputError(f"{text!r}: only a joker announces a mode")
        try:
            mode = JokerMode(parts[1].strip().lower())
        except ValueError:
            raise InvalidInputError(
                f"{text!r}: unknown joker mode {parts[1]!r} (take, discard or highest)"
            ) from None
        if mode is JokerMode.TAKE:
            if len(parts) != 2:
                raise InvalidInputError(f"{text!r}: 'take' names no suit")
            return cls(card, mode)
        if len(parts) != 3:
            raise InvalidInputError(f"{text!r}: '{mode}' needs a suit, e.g. {card}:{mode}:D")
        return cls(card, mode, Suit.parse(parts[2]))

    @classmethod
    def of(cls, card: Card) -> Play:
        """The (interned) play of a card that is not a joker."""
        play = PLAIN_PLAYS[card.index]
        if play is None:
            raise InvalidInputError(f"the joker {card} needs a mode")
        return play

    def __str__(self) -> str:
        if self.mode is None:
            return str(self.card)
        if self.suit is None:
            return f"{self.card}:{self.mode}"
        return f"{self.card}:{self.mode}:{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class ControlRound:
    """The choice of a control round («контрольная»): its kind and its dealer's seat."""

    kind: RoundKind
    dealer: int

    def __post_init__(self) -> None:
        if not isinstance(self.kind, RoundKind) or self.kind not in CONTROL_KINDS:
            kinds = ", ".join(CONTROL_KINDS)
            raise InvalidInputError(f"a control round is one of {kinds}, not {self.kind!r}")
        if type(self.dealer) is not int or self.dealer < 0:
            raise InvalidInputError(f"a control round's dealer is a seat, not {self.dealer!r}")

    @classmethod
    def parse(cls, text: str) -> ControlRound:
        """Parse ``control:KIND:DEALER`` (e.g. ``control:blind:2``)."""
        parts = text.strip().split(":")
        if len(parts) != 3 or parts[0].lower() != "control" or not parts[2].isdigit():
            raise InvalidInputError(f"{text!r}: a control round is control:KIND:DEALER")
        try:
            kind = RoundKind(parts[1].lower())
        except ValueError:
            raise InvalidInputError(f"{text!r}: unknown round kind {parts[1]!r}") from None
        return cls(kind, int(parts[2]))

    def __str__(self) -> str:
        return f"control:{self.kind}:{self.dealer}"

    def __repr__(self) -> str:
        return f"ControlRound.parse({str(self)!r})"


#: The kinds the last-placed player may choose for a control round.
CONTROL_KINDS = (
    RoundKind.NORMAL,
    RoundKind.NO_TRUMP,
    RoundKind.BLIND,
    RoundKind.MISERE,
    RoundKind.GOLDEN,
)

Action = Bid | Play | ControlRound

_BID_TEXT = re.compile(r"[0-9]+")
#: The interned play of every card, by card index; ``None`` for jokers, which need a mode.
PLAIN_PLAYS: tuple[Play | None, ...] = tuple(
    None if card.is_joker else Play(card) for card in ALL_CARDS
)


def parse_action(text: str) -> Action:
    """Parse a bid (a whole number), a card play, or a control-round choice."""
    if isinstance(text, str) and _BID_TEXT.fullmatch(text.strip()):
        return Bid(int(text))
    if isinstance(text, str) and text.strip().lower().startswith("control:"):
        return ControlRound.parse(text)
    return Play.parse(text)
