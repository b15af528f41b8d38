"""``expert``: Monte Carlo search over sampled worlds (perfect-information Monte Carlo).

For each decision the expert deals the cards it cannot see in many ways consistent with
everything public (the cards played, the voids they revealed, the answers to a joker's
"highest" demand, a card the dealer showed), keeps the deals in proportion to how well
they explain the bids the others made, and in every such world plays each candidate
action out to the end of the round with the simulator's contract-aware policy, scoring
it with the real table (``round_points``, non-linear as it is). The action with the best
mean points over the worlds is played. All candidates are tried in the same worlds, so
their comparison is not blurred by the luck of the draw.

It is deterministic for a given seed; the time budget (``time_ms``) only cuts the
number of worlds when a decision would otherwise run over it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator

from raspisnoy.bots.base import Bot
from raspisnoy.bots.heuristic import bid_distribution, choose_control, play_score
from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.bots.simulator import hand_value, play_out, round_game
from raspisnoy.bots.tactics import pick_bid
from raspisnoy.core import Action, Bid, Card, JokerMode, Phase, Play, RoundKind, View
from raspisnoy.core.cards import SUIT_MASKS

__all__ = ["ExpertBot"]

#: Bids further than this from the heuristic's choice are not searched.
_BID_SPREAD = 2
#: Candidate worlds drawn per world kept, before weighting by the bids.
_OVERSAMPLE = 3
#: How closely a hand's quick trick count is expected to match its owner's bid.
_BID_SIGMA = 1.0
_MIN_WORLDS = 4
#: Worlds kept from each batch of draws.
_BATCH = 8

World = tuple[list[int], Card | None]


class ExpertBot(Bot):
    """Searches sampled worlds with playouts (see the module docstring)."""

    name = "expert"
    default_time_ms = 1000.0
    #: Worlds searched per decision when the time budget allows.
    default_worlds = 24

    def __init__(
        self, seed: int | str = 0, time_ms: float | None = None, worlds: int | None = None
    ) -> None:
        super().__init__(seed, time_ms)
        self.worlds = self.default_worlds if worlds is None else worlds

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.CHOOSE:
            return choose_control(view)
        deadline = time.perf_counter() + self.time_ms / 1000 * 0.8
        knowledge = Knowledge.from_view(view)
        candidates: list[Action] = list(_candidates(view, knowledge))
        if len(candidates) == 1:
            return candidates[0]
        me = knowledge.seat
        totals = [0.0] * len(candidates)
        for searched, (hands, trump_card) in enumerate(_worlds(view, knowledge, rng), start=1):
            base = round_game(view, hands, trump_card)
            for position, action in enumerate(candidates):
                game = base.clone()
                game.apply(action)
                play_out(game, rng)
                totals[position] += game.totals[me]
            if searched >= self.worlds or (
                searched >= _MIN_WORLDS and time.perf_counter() > deadline
            ):
                break
        # Ties go to the earlier candidate: the heuristic's preference.
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]


def _candidates(view: View, knowledge: Knowledge) -> list[Bid] | list[Play]:
    """The actions worth searching, the heuristic's favourite first."""
    if view.phase is Phase.BID:
        favourite = pick_bid(view, bid_distribution(view, knowledge))
        near = [
            bid
            for bid in view.legal_actions
            if isinstance(bid, Bid) and abs(bid.amount - favourite.amount) <= _BID_SPREAD
        ]
        return sorted(
            near, key=lambda bid: abs(bid.amount - favourite.amount) + 0.5 * (bid != favourite)
        )
    plays = _distinct_plays(view, knowledge)
    return sorted(plays, key=lambda play: -play_score(view, knowledge, play))


def _distinct_plays(view: View, knowledge: Knowledge) -> list[Play]:
    """The legal plays without those that cannot differ in effect: of cards in sequence
    (no unseen card between them) only the lowest, and of a following joker's discards
    only one (the suit it names changes nothing once a suit is led)."""
    out: list[Play] = []
    hand = knowledge.known[knowledge.seat]
    following = bool(view.trick.plays)
    discarded = False
    for action in view.legal_actions:
        assert isinstance(action, Play)
        card = action.card
        if card.suit is None:
            if following and action.mode is JokerMode.DISCARD:
                if discarded:
                    continue
                discarded = True
            out.append(action)
            continue
        lower_own = hand & SUIT_MASKS[card.suit] & (card.bit - 1)
        if lower_own:
            nearest = 1 << (lower_own.bit_length() - 1)
            between = (card.bit - 1) & ~(2 * nearest - 1)
            if not between & knowledge.unseen:
                continue  # our next lower card of the suit is as good, and searched
        out.append(action)
    return out


def _worlds(view: View, knowledge: Knowledge, rng: random.Random) -> Iterator[World]:
    """Worlds without end, drawn in batches in proportion to how well they explain the
    bids made (nothing when no deal fits what was seen, which should not happen)."""
    while True:
        drawn: list[World] = []
        misfits: list[float] = []
        for _ in range(_BATCH * _OVERSAMPLE):
            hands = knowledge.sample(rng)
            if hands is None:
                return
            trump_card = (
                knowledge.draw_trump_card(hands, rng) if view.trump_hidden else view.trump_card
            )
            drawn.append((hands, trump_card))
            misfits.append(_bid_misfit(view, hands, trump_card))
        # Likelihoods relative to the best world, so that none underflows to zero.
        best = min(misfits)
        weights = [math.exp((best - misfit) / (2 * _BID_SIGMA**2)) for misfit in misfits]
        yield from rng.choices(drawn, weights, k=_BATCH)


def _bid_misfit(view: View, hands: list[int], trump_card: Card | None) -> float:
    """How badly the world's hands explain the others' bids: the summed squares of bid
    minus quick trick count (0 when there is nothing to explain: no bids, or blind ones)."""
    if view.bids is None or view.kind is RoundKind.BLIND:
        return 0.0
    trump = -1 if trump_card is None or trump_card.suit is None else int(trump_card.suit)
    played = [0] * view.players
    for trick in (*view.tricks, view.trick):
        for position, play in enumerate(trick.plays):
            played[(trick.leader + position) % view.players] |= play.card.bit
    misfit = 0.0
    for seat, bid in enumerate(view.bids):
        if bid is None or seat == view.seat:
            continue
        misfit += (bid - hand_value(hands[seat] | played[seat], trump)) ** 2
    return misfit
