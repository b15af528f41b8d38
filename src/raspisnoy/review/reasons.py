"""Why a move lost points, in words a player understands: a code and its parameters, which
a client words in its reader's language (``web.reason.<code>``; docs/review.md, "Why").

A reason compares the move made with the better one by figures measured from the seat's
view alone: the search's expected round points of each choice (``RootValue``), and the
``Outcome`` of each of the two moves (``raspisnoy.bots.expert.outcomes``): over the same
deals of the hidden cards, each played out after the move by the search's playout
policy, the share of deals in which the seat makes its bid and its mean tricks. The
first of these that tells the two moves apart *in the direction of the search's
verdict* is the reason:

- ``bid``: a bid: the tricks the hand takes on average (with the better bid) and the
  expected points of each of the two bids;
- ``joker``: a joker was played, or should have been: the expected points of the
  joker's best ``JOKER_MODES`` modes the search tried (its first search's values);
- ``made``: the chance to make the bid with each move, when they differ by at least
  ``MADE_GAP``;
- ``tricks``: the mean tricks with each move, when they differ by at least
  ``TRICKS_GAP`` and the better move's are nearer the bid (in a round without bids: the
  two differ);
- ``points``: else, the expected points of each move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from raspisnoy.bots.expert import Outcome, RootValue, outcomes
from raspisnoy.core import Bid, Play, View

__all__ = ["JOKER_MODES", "MADE_GAP", "OUTCOME_DEALS", "TRICKS_GAP", "Reason", "reason_for"]

#: Deals over which the two moves' outcomes are measured.
OUTCOME_DEALS = 200
#: Least difference of the chance to make the bid (a share) that a reason cites.
MADE_GAP = 0.1
#: Least difference of the mean tricks that a reason cites.
TRICKS_GAP = 0.25
#: The joker's modes a reason lists, the best first.
JOKER_MODES = 4


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason's ``code`` and the ``params`` a client words it with (moves in RECORD.md
    notation, points to a hundredth as in the review, chances in whole percent, tricks
    to a tenth)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def reason_for(
    view: View,
    played: Bid | Play,
    best: RootValue,
    played_points: float,
    choices: Sequence[RootValue],
    seed: int | str = 0,
) -> Reason:
    """Why ``played`` (as the search tries it) is worse than ``best`` for the seat of
    ``view`` (the module's docstring): only ``view`` and the search's figures are read."""
    moves = {"played": str(played), "best": str(best.action)}
    points = {"points": _hundredth(played_points), "best_points": _hundredth(best.points)}
    mine, better = outcomes(view, (played, best.action), deals=OUTCOME_DEALS, seed=seed)
    if isinstance(played, Bid):
        return Reason("bid", {**moves, **points, "tricks": _tenth(better.tricks)})
    if _is_joker(played) or _is_joker(best.action):
        jokers = sorted(
            (choice for choice in choices if _is_joker(choice.action)), key=lambda c: -c.points
        )
        modes = [
            {"move": str(choice.action), "points": _hundredth(choice.points)}
            for choice in jokers[:JOKER_MODES]
        ]
        return Reason("joker", {**moves, **points, "modes": modes})
    if mine.made is not None and better.made is not None and better.made - mine.made >= MADE_GAP:
        return Reason(
            "made", {**moves, "made": _percent(mine.made), "best_made": _percent(better.made)}
        )
    bid = view.bids[view.seat] if view.bids is not None and view.seat is not None else None
    if _nearer(mine, better, bid):
        tricks = {"tricks": _tenth(mine.tricks), "best_tricks": _tenth(better.tricks)}
        return Reason("tricks", {**moves, **tricks, "bid": bid})
    return Reason("points", {**moves, **points})


def _nearer(mine: Outcome, better: Outcome, bid: int | None) -> bool:
    """Whether the better move's mean tricks differ enough from the move made's, and
    lie nearer the seat's bid (any difference, in a round without bids)."""
    if abs(better.tricks - mine.tricks) < TRICKS_GAP:
        return False
    return bid is None or abs(better.tricks - bid) < abs(mine.tricks - bid)


def _is_joker(action: Bid | Play) -> bool:
    return isinstance(action, Play) and action.card.is_joker


def _tenth(value: float) -> float:
    return round(value, 1)


def _hundredth(value: float) -> float:
    """Points as the review's JSON writes them (so a client rounds both alike)."""
    return round(value, 2)


def _percent(share: float) -> int:
    return round(100 * share)
