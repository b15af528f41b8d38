"""Cards named as players of a language write them: ``Д♦`` and ``10♦`` in Russian and
Ukrainian, ``Q♦`` in English; a joker as ``Джокер``, ``Joker 1``.

Both terminal games, ``raspisnoy play`` and ``raspisnoy casino play``, write their cards
with these functions, so a queen reads the same in both; the web client writes them the
same way from its own catalog (``web.rank.*``). The ranks' letters are the catalogs'
``rank.J`` … ``rank.A`` (the common domain).

i18n imports no other part of the package (tests/test_layers.py), so a card is read
through what every card shows: its record notation (docs/record.md: ``QD``, ``TD``,
``X1``), which ``str`` gives, and its suit's symbol (``NamedCard``); core's ``Card`` is
one.
"""

from __future__ import annotations

from typing import Protocol

from raspisnoy.i18n import translate

__all__ = ["LETTER_RANKS", "NamedCard", "card_text", "rank_text"]

#: The ranks, in record notation, that have a letter of their own in each language's
#: catalog (``rank.Q`` is «Д» in Russian); the ten is written ``10``, the others as digits.
LETTER_RANKS = "JQKA"


class NamedSuit(Protocol):
    """A suit as naming a card reads it (core's ``Suit``)."""

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♠ ♣ ♦ ♥."""
        ...


class NamedCard(Protocol):
    """A card as naming it reads it (core's ``Card``): ``str`` gives its record notation
    (``QD``, ``X1``), and a joker has no suit."""

    @property
    def suit(self) -> NamedSuit | None:
        """The card's suit, ``None`` for a joker."""
        ...


def card_text(card: NamedCard, lang: str) -> str:
    """A card as players of ``lang`` write it, like the web client: ``Д♦`` and ``10♦`` in
    Russian, ``Q♦`` in English; a joker as the hand shows it (``Джокер``, ``Джокер 1``)."""
    notation = str(card)
    if card.suit is None:
        return f"{translate('play.joker', lang)} {notation.removeprefix('X')}".strip()
    # Record notation is the rank, then the suit's letter.
    return rank_text(notation[:-1], lang) + card.suit.symbol


def rank_text(rank: str, lang: str) -> str:
    """A rank named in record notation (``T``, ``Q``) as players of ``lang`` write it."""
    if rank == "T":
        return "10"
    return translate(f"rank.{rank}", lang) if rank in LETTER_RANKS else rank
