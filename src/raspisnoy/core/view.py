"""What one seat may know: the only game state that leaves core for a player or a bot.

A ``View`` is built by ``Game.view(seat)`` from the game's state, leaving out every card
that seat cannot see: other hands, the undealt rest, and in a blind round («тёмная»)
even its own hand and the trump until every bid is in. In a forehead round («лобовая»)
a seat sees the other seats' cards but not its own while the bids are made.
``seat=None`` is a spectator's view: public information only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from raspisnoy.core.actions import Action
from raspisnoy.core.cards import Card, Suit
from raspisnoy.core.events import Phase, Trick
from raspisnoy.core.kinds import RoundKind
from raspisnoy.core.rules import Rules

__all__ = ["OwnView", "View"]


class OwnView(NamedTuple):
    """The part of a seat's ``View`` that is its own alone: its hand, the hands shown to
    it and its legal actions (``Game.own_view``). With a spectator's view of the same
    moment it makes the seat's whole view, so that a server sending every seat its view
    of an action builds the public part once (see ``View``'s fields of the same names)."""

    hand: tuple[Card, ...] | None
    shown_hands: tuple[tuple[Card, ...] | None, ...]
    legal_actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class View:
    """A seat's knowledge of the game at one moment."""

    seat: int | None
    names: tuple[str, ...]
    rules: Rules
    phase: Phase
    #: 1-based number of the current round, its cards per player and kind.
    round: int
    cards: int
    kind: RoundKind
    dealer: int
    to_act: int | None
    #: This seat's hand; ``None`` for a spectator and while a blind round is being bid.
    hand: tuple[Card, ...] | None
    #: Other seats' cards this seat can see, by seat (``None``: hidden). Only in a forehead
    #: round («лобовая») while bidding: everyone's card but your own.
    shown_hands: tuple[tuple[Card, ...] | None, ...]
    #: The turned-up (or dealer-shown) card and the trump; ``None`` when hidden or absent.
    trump_card: Card | None
    trump: Suit | None
    trump_hidden: bool
    #: Bids by seat (``None`` = not yet); ``None`` in rounds without bids.
    bids: tuple[int | None, ...] | None
    taken: tuple[int, ...]
    #: Cards each seat still holds (counts only).
    hand_sizes: tuple[int, ...]
    #: The trick in progress and the tricks finished in this round.
    trick: Trick
    tricks: tuple[Trick, ...]
    #: Points per finished round (by seat) and the running totals.
    scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    #: What this seat may do now; empty unless it is this seat's turn.
    legal_actions: tuple[Action, ...]

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_act
