"""What the player may know of a hand: the only hand state that leaves the engine for a
player (the terminal, the server, the advisor).

A ``HandView`` holds no card that is still in the deck, no box's cards before the boxes
ahead of it are decided, and none of the dealer's cards but the up card before he shows
them; the seed appears only once the hand is settled (before that, its commitment).
"""

from __future__ import annotations

from dataclasses import dataclass

from raspisnoy.casino.actions import Action, DealerDraw, Phase
from raspisnoy.casino.cards import Card
from raspisnoy.casino.settle import BoxResult

__all__ = ["BoxView", "HandView"]


@dataclass(frozen=True, slots=True)
class BoxView:
    """One box as the player sees it."""

    number: int
    ante: int
    #: The box's cards; ``None`` while a box ahead of it is undecided.
    cards: tuple[Card, ...] | None
    #: The third box: ante and bet placed before the deal, no decision.
    closed: bool
    bet: bool
    folded: bool
    exchanged: bool
    #: Whether the box bought the dealer's game (``None``: not asked).
    bought_dealer: bool | None


@dataclass(frozen=True, slots=True)
class HandView:
    """The player's knowledge of the hand at one moment."""

    phase: Phase
    balance: int
    #: SHA-256 of the seed, shown before the deal; the seed itself once the hand is over.
    commitment: str
    seed: str | None
    boxes: tuple[BoxView, ...]
    #: The box (0-based) whose decision is awaited; ``None`` once the hand is over.
    to_act: int | None
    up_card: Card
    #: The dealer's five cards once he shows them (the last is the up card).
    dealer: tuple[Card, ...] | None
    dealer_draw: DealerDraw | None
    results: tuple[BoxResult, ...]
    legal_actions: tuple[Action, ...]
