"""The values a game is made of and hands out: phases, the deal, log events, tricks, rounds.

All are immutable, so the log, the round history and views can share them freely. They
are named tuples rather than dataclasses because games make many of them: a tuple is
built several times faster.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from raspisnoy.core.actions import Bid, ControlRound, Play
from raspisnoy.core.cards import Card, Suit
from raspisnoy.core.kinds import RoundKind

__all__ = ["Deal", "Event", "Phase", "RoundResult", "Trick"]


class Phase(StrEnum):
    """Where the game stands."""

    #: Waiting for ``deal()`` (a game without a seed, e.g. a record being replayed).
    DEAL = "deal"
    BID = "bid"
    PLAY = "play"
    #: The last-placed player chooses a control round («контрольная»).
    CHOOSE = "choose"
    OVER = "over"


class Deal(NamedTuple):
    """The chance action of a round: every hand, and the card that sets the trump."""

    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card | None

    def __str__(self) -> str:
        hands = " | ".join(" ".join(map(str, hand)) for hand in self.hands)
        return f"deal {hands} trump {self.trump_card}"


class Event(NamedTuple):
    """One entry of the game's append-only log: who did what in which round (1-based)."""

    round: int
    seat: int | None
    action: Deal | Bid | Play | ControlRound


class Trick(NamedTuple):
    """A trick: its leader, the plays in order from the leader, and who won it."""

    leader: int
    plays: tuple[Play, ...]
    winner: int | None


class RoundResult(NamedTuple):
    """A round as played so far. ``points`` is ``None`` until the round is over."""

    number: int
    dealer: int
    cards: int
    kind: RoundKind
    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card | None
    trump: Suit | None
    bids: tuple[int | None, ...] | None
    taken: tuple[int, ...]
    tricks: tuple[Trick, ...]
    points: tuple[int, ...] | None
