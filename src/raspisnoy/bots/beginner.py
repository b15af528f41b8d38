"""``beginner``: the rules a newcomer learns in the first evening.

Bids count the obvious winners: the joker, the aces, and trumps from the queen up (in a
blind bid, a fair share of the tricks). Short of the bid it plays its strongest card,
with the bid made (or in a misère) its weakest; the joker takes when tricks are wanted
and is discarded otherwise.
"""

from __future__ import annotations

import random

from raspisnoy.bots.base import Bot
from raspisnoy.bots.heuristic import choose_control
from raspisnoy.bots.tactics import Goal, card_strength, goal_of
from raspisnoy.core import Action, Bid, JokerMode, Phase, Play, View

__all__ = ["BeginnerBot"]


class BeginnerBot(Bot):
    """Counts high cards to bid; plays high when it needs tricks, low when it does not."""

    name = "beginner"
    default_time_ms = 5.0

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.CHOOSE:
            return choose_control(view)
        if view.phase is Phase.BID:
            return self._bid(view)
        return self._play(view)

    @staticmethod
    def _bid(view: View) -> Bid:
        if view.hand is None:
            wanted = round(view.cards / view.players)
        else:
            trump = -1 if view.trump is None else int(view.trump)
            wanted = sum(
                card.is_joker or card.rank == 14 or (card.suit == trump and card.rank >= 12)
                for card in view.hand
            )
        bids = [a for a in view.legal_actions if isinstance(a, Bid)]
        return min(bids, key=lambda bid: (abs(bid.amount - wanted), bid.amount))

    @staticmethod
    def _play(view: View) -> Play:
        assert view.seat is not None
        taking = goal_of(view, view.seat).goal is Goal.TAKE
        trump = -1 if view.trump is None else int(view.trump)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]

        def power(play: Play) -> tuple[int, bool]:
            """A discarded joker is the lowest card, else the highest; of its leads, the
            "highest" of the trump suit first, which no trump can beat."""
            if play.card.is_joker:
                if play.mode is JokerMode.DISCARD:
                    return -1, False
                return 200, play.mode is JokerMode.HIGHEST and play.suit == trump
            return card_strength(play.card.index, trump), False

        return max(plays, key=power) if taking else min(plays, key=power)
