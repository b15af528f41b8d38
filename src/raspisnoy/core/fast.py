"""The fast path: the bit-level helpers behind the engine, for code that simulates games.

``raspisnoy.core`` is the engine's public face: cards, rules, games, views and records.
This module is the other door into core, for the bots' simulators and search, which
replay thousands of tricks a decision and cannot afford a ``Game`` per trick. It hands
out the very tables and functions the engine uses on its own hot paths, so a simulation
decides tricks exactly as the engine does:

- a hand is an ``int`` bit mask: bit ``suit * 13 + rank - 2`` for the 52 standard cards,
  bits 52, 53 and 54 for the jokers ``X``, ``X1`` and ``X2``. ``SUIT_MASKS[suit]`` holds a
  suit's 13 bits, ``mask_of`` and ``cards_in_mask`` convert between masks and cards, and
  ``card_at`` / ``ALL_CARDS`` give the interned card of an index (``JOKERS``: the three
  jokers);
- suits and trumps are ints (``Suit`` values, ``NO_TRUMP`` = -1 for none); ``SUIT_OF``
  gives each card index's suit (-1 for jokers);
- ``winner_of(plays, leader, trump, rules)`` is the engine's trick winner with the trump
  as an int, and ``rotated_trump(led_suit, round_has_trump)`` the trump of a trick under
  rotating trumps (docs/rules.md 2.3).

Nothing here checks its input: it is for code that already holds legal states. Modules
outside core import from ``raspisnoy.core`` or from this module only (tests/test_layers.py).
"""

from raspisnoy.core.cards import ALL_CARDS, JOKERS, SUIT_MASKS, card_at, cards_in_mask, mask_of
from raspisnoy.core.tricks import NO_TRUMP, SUIT_OF, rotated_trump, winner_of

__all__ = [
    "ALL_CARDS",
    "JOKERS",
    "NO_TRUMP",
    "SUIT_MASKS",
    "SUIT_OF",
    "card_at",
    "cards_in_mask",
    "mask_of",
    "rotated_trump",
    "winner_of",
]
