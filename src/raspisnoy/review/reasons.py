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
- ``trick_lost`` / ``trick_taken``: the move made wins fewer tricks than the better one
  when the seat needs more (``trick_lost``), or more when it needs fewer
  (``trick_taken``), and one of the round's tricks from this one on turns so in at least
  ``TRICK_GAP`` more of the deals than it turns the other way: that trick (the one that
  turns most) and the share of the deals in which the move made loses it and the better
  one wins it (or the reverse);
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

__all__ = [
    "JOKER_MODES",
    "MADE_GAP",
    "OUTCOME_DEALS",
    "TRICKS_GAP",
    "TRICK_GAP",
    "Reason",
    "reason_for",
    "turned_trick",
]

#: Deals over which the two moves' outcomes are measured.
OUTCOME_DEALS = 200
#: Least difference of the chance to make the bid (a share) that a reason cites.
MADE_GAP = 0.1
#: Least difference of the mean tricks that a reason cites.
TRICKS_GAP = 0.25
#: Least share of the deals by which a trick turns more often against the seat than for
#: it (``turned_trick``) for a reason to name that trick.
TRICK_GAP = 0.25
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
    bid = view.bids[view.seat] if view.bids is not None and view.seat is not None else None
    nearer = _nearer(mine, better, bid)
    fewer = better.tricks < mine.tricks
    turned = turned_trick(mine, better, fewer=fewer) if nearer else None
    if turned is not None:
        trick, share = turned
        code = "trick_taken" if fewer else "trick_lost"
        return Reason(code, {**moves, "trick": trick, "share": _percent(share)})
    if mine.made is not None and better.made is not None and better.made - mine.made >= MADE_GAP:
        return Reason(
            "made", {**moves, "made": _percent(mine.made), "best_made": _percent(better.made)}
        )
    if nearer:
        tricks = {"tricks": _tenth(mine.tricks), "best_tricks": _tenth(better.tricks)}
        return Reason("tricks", {**moves, **tricks, "bid": bid})
    return Reason("points", {**moves, **points})


def turned_trick(mine: Outcome, better: Outcome, *, fewer: bool) -> tuple[int, float] | None:
    """The trick the move made loses most often to the better move (``fewer``: takes
    most often where the better move lets it go), as its number in the round (from 1) and
    the share of the deals in which it turns so; ``None`` unless it turns so in at least
    ``TRICK_GAP`` more of the deals than the other way round. Both outcomes are over the
    same deals (``outcomes``): deal by deal, ``won`` tells which tricks each move wins."""
    pairs = list(zip(mine.won, better.won, strict=True))
    counts = []  # (deals turned against the seat less deals turned for it, turned, trick)
    for trick in range(max((a | b).bit_length() for a, b in pairs)):
        bit = 1 << trick
        lost = sum(1 for a, b in pairs if b & bit and not a & bit)
        taken = sum(1 for a, b in pairs if a & bit and not b & bit)
        turned, back = (taken, lost) if fewer else (lost, taken)
        counts.append((turned - back, turned, -trick))
    net, turned, trick = max(counts, default=(0, 0, 0))
    if net < TRICK_GAP * len(pairs):
        return None
    return 1 - trick, turned / len(pairs)


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
