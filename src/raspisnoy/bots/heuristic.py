"""``heuristic``: card counting, void inference, trick-probability bidding and
contract-aware play, in a few milliseconds a decision.

Bidding turns each card's chance of taking a trick (``tactics.hand_trick_chances``,
which counts the unseen higher cards and the risk of ruffs) into a distribution of the
tricks the hand takes and bids what scores best under the real table; blind bids use
only the hand size and the number of players, forehead bids the cards on the others'
foreheads. Play follows the seat's goal: short of the bid it takes tricks as cheaply as
it can (every card weighed by its chance of holding the trick against what the players
after it may hold), with the bid made it ducks and sheds its dangerous high cards, over
the bid or in a golden round it takes what it can, in a misère it loses every trick.
"""

from __future__ import annotations

import random
from math import comb

from raspisnoy.bots.base import Bot
from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.bots.tactics import (
    Goal,
    card_strength,
    goal_of,
    hand_trick_chances,
    pick_bid,
    trick_distribution,
    urgency,
    win_chance,
)
from raspisnoy.core import (
    Action,
    Card,
    ControlRound,
    JokerMode,
    Phase,
    Play,
    RoundKind,
    Suit,
    View,
)
from raspisnoy.core.fast import SUIT_MASKS, cards_in_mask, winner_of

__all__ = ["HeuristicBot", "bid_distribution", "choose_control", "play_score"]

#: How much a card's power counts against playing it when taking (scaled by how little
#: of the rest of the round the seat needs) and for shedding it when avoiding: with its
#: bid made, a seat that keeps its high cards is forced to take with them later, so it
#: sheds them readily (at 0.3, as in a misère, it scored 1.4 points a game less in normal
#: rounds); in a misère, where every trick costs, losing this one comes first.
_SPEND_COST = 0.3
_SHED_VALUE = 1.0
_MISERE_SHED_VALUE = 0.3


def choose_control(view: View) -> ControlRound:
    """The last-placed player's control round: golden (every trick pays, the best chance
    to catch up), dealt by the seat on their right so that they lead."""
    seat = view.to_act if view.to_act is not None else 0
    return ControlRound(RoundKind.GOLDEN, (seat - 1) % view.players)


def bid_distribution(view: View, knowledge: Knowledge) -> list[float]:
    """The chance of taking each number of tricks, as far as the bidder can tell."""
    if view.kind is RoundKind.FOREHEAD and view.hand is None:
        win = _forehead_win_chance(view, knowledge)
        return [1.0 - win, win]
    if view.hand is None:  # a blind bid: only the hand size and the table are known
        p = 1.0 / view.players
        n = view.cards
        return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
    return trick_distribution(hand_trick_chances(view, knowledge, knowledge.known[knowledge.seat]))


def _forehead_win_chance(view: View, knowledge: Knowledge) -> float:
    """The chance that my unseen single card beats the cards on the others' foreheads."""
    me = knowledge.seat
    trump = -1 if view.trump is None else int(view.trump)
    leader = (view.dealer + 1) % view.players
    mine = cards_in_mask(knowledge.unseen)
    if not mine:
        return 0.0
    wins = 0
    for card in mine:
        plays = []
        for step in range(view.players):
            seat = (leader + step) % view.players
            shown = view.shown_hands[seat]
            held = card if seat == me or shown is None else shown[0]
            plays.append(_forehead_play(held, leading=step == 0, trump=trump))
        wins += winner_of(plays, leader, trump, view.rules) == me
    return wins / len(mine)


def _forehead_play(card: Card, *, leading: bool, trump: int) -> Play:
    """A single card as it would be played: a joker leads as "highest" and follows as
    "take"."""
    if not card.is_joker:
        return Play.of(card)
    if leading:
        return Play(card, JokerMode.HIGHEST, Suit(max(trump, 0)))
    return Play(card, JokerMode.TAKE)


def play_score(view: View, knowledge: Knowledge, play: Play) -> float:
    """How good ``play`` is for the seat to act given its goal (higher is better)."""
    me = knowledge.seat
    goal = goal_of(view, me)
    trump = -1 if view.trump is None else int(view.trump)
    power = card_strength(play.card.index, trump) / 100
    chance = win_chance(view, knowledge, play)
    if goal.goal is Goal.TAKE:
        spend = _SPEND_COST * (1.0 - urgency(view, goal.need)) * power
        return chance - spend + _joker_suit_bonus(knowledge, play)
    # Avoiding: lose the trick, and shed the cards most likely to win one later; keep
    # the joker, which can always be discarded safely.
    shed = -0.5 if play.card.is_joker else power
    weight = _MISERE_SHED_VALUE if view.kind is RoundKind.MISERE else _SHED_VALUE
    return -chance + weight * shed


def _joker_suit_bonus(knowledge: Knowledge, play: Play) -> float:
    """Among a led joker's "highest S" choices, prefer a suit the seat holds: drawing the
    others' top cards of it promotes the seat's own."""
    if play.mode is not JokerMode.HIGHEST or play.suit is None:
        return 0.0
    held = knowledge.known[knowledge.seat] & SUIT_MASKS[play.suit]
    return 0.01 * held.bit_count()


class HeuristicBot(Bot):
    """Plays by card counting and its contract (see the module docstring)."""

    name = "heuristic"
    default_time_ms = 5.0

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.CHOOSE:
            return choose_control(view)
        knowledge = Knowledge.from_view(view)
        if view.phase is Phase.BID:
            return pick_bid(view, bid_distribution(view, knowledge))
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        # Of plays as good, the weakest card: with a trick as sure (or as lost) either
        # way, the stronger card is worth more later. In a golden round, where a seat
        # wants every trick and so weighs no card's cost, the engine's order used to pick,
        # which spent trumps and aces where a small card did as well.
        trump = -1 if view.trump is None else int(view.trump)
        return max(
            plays,
            key=lambda play: (
                play_score(view, knowledge, play),
                -card_strength(play.card.index, trump),
            ),
        )
