"""Cards, suits and their notation (docs/record.md, "Card notation").

Every card has a fixed ``index`` so that a hand can be an ``int`` bit mask: bit
``suit * 13 + rank - 2`` for the 52 standard cards (higher rank, higher bit, so the
highest card of a suit in a hand is the top set bit of that suit's slice), and bits
52, 53, 54 for the jokers ``X``, ``X1``, ``X2``. Cards are interned: ``Card.parse``
and ``card_at`` always return the same object for the same card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from raspisnoy.core.errors import InvalidInputError

__all__ = [
    "ALL_CARDS",
    "JOKERS",
    "RANK_NAMES",
    "SUIT_MASKS",
    "Card",
    "Suit",
    "card_at",
    "cards_in_mask",
    "mask_of",
]


class Suit(IntEnum):
    """The four suits, in the order docs/rules.md lists them: ♠ ♣ ♦ ♥."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The record letter: ``S``, ``C``, ``D`` or ``H``."""
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol shown to people: ♠ ♣ ♦ ♥."""
        return "♠♣♦♥"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter (any case) or symbol; raise ``InvalidInputError`` otherwise."""
        suit = _SUIT_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if suit is None:
            raise InvalidInputError(f"{text!r} is not a suit (expected S, C, D or H)")
        return suit

    def __str__(self) -> str:
        return self.letter


_SUIT_BY_TEXT: dict[str, Suit] = {}
for _suit in Suit:
    _SUIT_BY_TEXT[_suit.letter] = _suit
    _SUIT_BY_TEXT[_suit.symbol] = _suit
# The outlined symbols people also type.
_SUIT_BY_TEXT.update({"♤": Suit.SPADES, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS})

RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T"}
RANK_NAMES.update({11: "J", 12: "Q", 13: "K", 14: "A"})
_RANK_BY_TEXT = {name: rank for rank, name in RANK_NAMES.items()} | {"10": 10}

JOKER_INDEXES = (52, 53, 54)
_JOKER_NAMES = ("X", "X1", "X2")

#: Bit mask of each suit's 13 standard cards, indexed by ``Suit``.
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card or a joker. Compare and hash by ``index``; sort by suit then rank.

    ``rank`` is 2..14 (ace high) and ``suit`` a ``Suit`` for standard cards; a joker has
    rank 0 and suit ``None``.
    """

    index: int
    rank: int = field(compare=False)
    suit: Suit | None = field(compare=False)
    #: This card's bit in a hand mask: ``1 << index``.
    bit: int = field(compare=False, repr=False)

    @property
    def is_joker(self) -> bool:
        """True for ``X``, ``X1`` and ``X2``."""
        return self.suit is None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``TD``, ``10d``, ``Q♦``, ``X``, ``X1``… (docs/record.md); raise otherwise."""
        if not isinstance(text, str):
            raise _not_a_card(text)
        cleaned = text.strip().upper()
        card = _CARD_BY_TEXT.get(cleaned)
        if card is None:
            raise _not_a_card(text)
        return card

    def __str__(self) -> str:
        if self.suit is None:
            return _JOKER_NAMES[self.index - 52]
        return RANK_NAMES[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def pretty(self) -> str:
        """The card for people: ``10♦``, ``A♠``, ``X`` (joker)."""
        if self.suit is None:
            return str(self)
        rank = "10" if self.rank == 10 else RANK_NAMES[self.rank]
        return rank + self.suit.symbol


def _not_a_card(text: object) -> InvalidInputError:
    """The error of text that names no card (as typed, or a JSON value that is no text)."""
    message = f"{text!r} is not a card"
    return InvalidInputError(message, code="not_a_card", params={"text": repr(text)})


def _make_cards() -> tuple[Card, ...]:
    indexes = [
        (13 * suit + rank - 2, rank, Suit(suit)) for suit in range(4) for rank in range(2, 15)
    ]
    cards = [Card(index, rank, suit, 1 << index) for index, rank, suit in indexes]
    cards += [Card(index, 0, None, 1 << index) for index in JOKER_INDEXES]
    return tuple(cards)


#: Every card the engine knows, indexed by ``Card.index``.
ALL_CARDS: tuple[Card, ...] = _make_cards()
JOKERS: tuple[Card, ...] = ALL_CARDS[52:]

_CARD_BY_TEXT: dict[str, Card] = {}
for _card in ALL_CARDS:
    if _card.suit is None:
        _CARD_BY_TEXT[str(_card)] = _card
        continue
    for _rank_text in [t for t, r in _RANK_BY_TEXT.items() if r == _card.rank]:
        for _suit_text in [t for t, s in _SUIT_BY_TEXT.items() if s == _card.suit]:
            _CARD_BY_TEXT[_rank_text + _suit_text] = _card
            # People write the symbol first too: ♦Q, ♥10.
            if not _suit_text.isascii():
                _CARD_BY_TEXT[_suit_text + _rank_text] = _card


def card_at(index: int) -> Card:
    """The interned card with this index."""
    return ALL_CARDS[index]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of an iterable of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_in_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask, sorted by suit then rank (jokers last)."""
    cards: tuple[Card, ...] = ()
    for shift in (0, 13, 26, 39, 52):
        chunk = mask >> shift & 0x1FFF
        if chunk:
            key = chunk | shift << 13
            part = _CHUNK_CARDS.get(key)
            if part is None:
                part = _CHUNK_CARDS[key] = tuple(
                    ALL_CARDS[shift + bit] for bit in range(13) if chunk >> bit & 1
                )
            cards += part
    return cards


#: ``cards_in_mask`` of one 13-bit slice, keyed by slice | shift << 13; filled on demand.
_CHUNK_CARDS: dict[int, tuple[Card, ...]] = {}
