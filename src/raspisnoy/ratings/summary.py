"""What a finished game says about each seat: the figures a profile adds up.

Read from the ``Game`` rebuilt from the stored actions (never from what clients sent),
once, when the game ends; the store keeps one ``SeatSummary`` per seat and a profile
sums them, so its statistics need no replay of old games.
"""

from __future__ import annotations

from dataclasses import dataclass

from raspisnoy.core import Game, RoundKind
from raspisnoy.store import ROUND_COUNTS, RoundCounts

__all__ = ["SeatSummary", "summarize"]


@dataclass(frozen=True, slots=True)
class SeatSummary(RoundCounts):
    """One seat's game: its total and place (1 = won; ties share the better place), and
    per kind of round how often it was played, bid exactly and what it paid."""

    seat: int
    points: int
    place: int


def summarize(game: Game) -> list[SeatSummary]:
    """Every seat's summary of a finished game (``ValueError`` if it is not over)."""
    if not game.is_over:
        raise ValueError("only a finished game is summarized")
    totals = game.totals
    return [_seat(game, seat, totals) for seat in range(len(totals))]


def _seat(game: Game, seat: int, totals: tuple[int, ...]) -> SeatSummary:
    counts = dict.fromkeys(ROUND_COUNTS, 0)
    for result in game.rounds():
        points = 0 if result.points is None else result.points[seat]
        bid = None if result.bids is None else result.bids[seat]
        exact = bid is not None and bid == result.taken[seat]
        if bid is not None:
            counts["bid_rounds"] += 1
            counts["exact"] += exact
            if bid == 0:
                counts["zero_bids"] += 1
                counts["zero_exact"] += exact
        if result.kind is RoundKind.BLIND:
            counts["blind_rounds"] += 1
            counts["blind_exact"] += exact
            counts["blind_points"] += points
        elif result.kind in (RoundKind.MISERE, RoundKind.GOLDEN):
            name = str(result.kind)
            counts[f"{name}_rounds"] += 1
            counts[f"{name}_points"] += points
    place = 1 + sum(other > totals[seat] for other in totals)
    return SeatSummary(seat=seat, points=totals[seat], place=place, **counts)
