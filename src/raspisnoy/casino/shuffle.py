"""Commit-reveal shuffles (docs/casino.md, *Fair shuffles*).

Each hand is shuffled from a secret seed. Its SHA-256 hash, the commitment, is shown
before the deal; the seed is revealed after settlement. Anyone can then check that the
seed hashes to the commitment and that it shuffles to the cards dealt, so the deal
cannot have been changed mid-hand.
"""

from __future__ import annotations

import hashlib
import random

from raspisnoy.casino.cards import DECK, Card
from raspisnoy.core import InvalidInputError

__all__ = ["commitment", "new_seed", "shuffled_deck"]

SEED_BITS = 256


def new_seed(rng: random.Random) -> str:
    """A fresh seed of 256 bits from ``rng``, as 64 hex digits. The server and the CLI
    pass a ``random.SystemRandom`` so that no one can predict it."""
    return f"{rng.getrandbits(SEED_BITS):064x}"


def _check_seed(seed: object) -> str:
    if not isinstance(seed, str) or not seed or not seed.isprintable():
        raise InvalidInputError(f"seed: {seed!r} is not a seed (printable text)")
    return seed


def commitment(seed: str) -> str:
    """The SHA-256 hash of the seed, as 64 hex digits: what is shown before the deal."""
    return hashlib.sha256(_check_seed(seed).encode("utf-8")).hexdigest()


def shuffled_deck(seed: str) -> tuple[Card, ...]:
    """The deck in the order the seed shuffles it to (a Fisher-Yates shuffle driven by
    ``random.Random``, whose seeding from text is fixed across Python versions)."""
    cards = list(DECK)
    random.Random(f"raspisnoy-casino/{_check_seed(seed)}").shuffle(cards)
    return tuple(cards)
