"""Cards of the casino game: the 52-card deck (no joker) and card lists from text.

Cards are ``raspisnoy.core.Card`` values in the notation of docs/record.md (``AS``,
``TD``, ``10♦``); this module refuses jokers and repeated cards, which the casino game
never has.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from raspisnoy.core import Card, InvalidInputError
from raspisnoy.core.fast import ALL_CARDS

__all__ = ["DECK", "Card", "parse_card", "parse_cards", "require_distinct"]

#: The 52 cards in index order (two of spades … ace of hearts).
DECK: tuple[Card, ...] = ALL_CARDS[:52]


def parse_card(text: object, field: str = "card") -> Card:
    """One card from its text; a joker or anything else is an error naming ``field``."""
    if isinstance(text, Card):
        card = text
    elif isinstance(text, str):
        try:
            card = Card.parse(text)
        except InvalidInputError:
            raise InvalidInputError(f"{field}: {text!r} is not a card") from None
    else:
        raise InvalidInputError(f"{field}: {text!r} is not a card")
    if card.is_joker:
        raise InvalidInputError(f"{field}: {text!r} is a joker; this game has none")
    return card


def parse_cards(
    texts: str | Iterable[object], field: str = "cards", sizes: Sequence[int] | None = None
) -> tuple[Card, ...]:
    """Cards from texts, or from one text with the cards separated by spaces or commas.

    With ``sizes``, the number of cards must be one of them. Repeated cards are an error.
    """
    if isinstance(texts, str):
        items: list[object] = list(texts.replace(",", " ").split())
    elif isinstance(texts, Iterable):
        items = [
            part
            for item in texts
            for part in (item.replace(",", " ").split() if isinstance(item, str) else [item])
        ]
    else:
        raise InvalidInputError(f"{field}: {texts!r} is not a list of cards")
    cards = tuple(parse_card(item, field) for item in items)
    if sizes is not None and len(cards) not in sizes:
        wanted = " or ".join(str(size) for size in sizes)
        raise InvalidInputError(f"{field}: {len(cards)} cards given, {wanted} wanted")
    require_distinct(cards, field)
    return cards


def require_distinct(cards: Iterable[Card], field: str = "cards") -> None:
    """Raise ``InvalidInputError`` naming ``field`` if a card appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidInputError(f"{field}: {card} appears twice")
        seen.add(card)
