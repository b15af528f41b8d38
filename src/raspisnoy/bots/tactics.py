"""The card sense the heuristic bots share: what each seat wants from the round, how
likely a card is to take a trick, and which bid pays best for a hand.

Estimates here are quick closed forms (a few microseconds each), not searches: the
heuristic bot must decide within a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from raspisnoy.bots.knowledge import JOKER_MASK, Knowledge, TrickContext, bits, trick_context
from raspisnoy.core import Bid, JokerMode, Play, RoundKind, View, round_points
from raspisnoy.core.fast import SUIT_MASKS, SUIT_OF, card_at, winner_of

__all__ = [
    "Goal",
    "card_strength",
    "cashing_leads",
    "expected_points",
    "goal_of",
    "hand_trick_chances",
    "pick_bid",
    "trick_distribution",
    "urgency",
    "win_chance",
]


class Goal(Enum):
    """What a seat wants from the tricks still to come."""

    #: Short of the bid (or a golden round, or already over it): take tricks.
    TAKE = "take"
    #: Bid made exactly, or a misère: lose every trick.
    AVOID = "avoid"


@dataclass(frozen=True, slots=True)
class SeatGoal:
    goal: Goal
    #: Tricks still wanted (0 when avoiding).
    need: int


def goal_of(view: View, seat: int) -> SeatGoal:
    """What ``seat`` is after now, from its bid and tricks (or the round kind)."""
    left = view.cards - len(view.tricks)
    taken = view.taken[seat]
    if view.kind is RoundKind.MISERE:
        return SeatGoal(Goal.AVOID, 0)
    if view.kind is RoundKind.GOLDEN or view.bids is None:
        return SeatGoal(Goal.TAKE, left)
    bid = view.bids[seat]
    if bid is None:
        return SeatGoal(Goal.TAKE, 0)
    if taken == bid:
        return SeatGoal(Goal.AVOID, 0)
    # Short of the bid: take what is missing. Over it, nothing is left to save: every
    # trick taken is a point and may break someone else's bid.
    return SeatGoal(Goal.TAKE, bid - taken if taken < bid else left)


def urgency(view: View, need: int) -> float:
    """How much of what is left the seat needs: 1.0 means every remaining trick."""
    left = view.cards - len(view.tricks)
    return min(1.0, need / left) if left else 0.0


def card_strength(index: int, trump: int) -> int:
    """An order of card power for choosing the highest or lowest card: jokers, trumps,
    then other cards by rank."""
    suit = SUIT_OF[index]
    if suit < 0:
        return 100
    rank = index - 13 * suit + 2
    return 50 + rank if suit == trump else rank


def _share(knowledge: Knowledge, seat: int) -> float:
    """The chance that one given unseen card is in ``seat``'s hand."""
    unseen = knowledge.unseen.bit_count()
    return knowledge.hidden_count(seat) / unseen if unseen else 0.0


def _holds_any(knowledge: Knowledge, seat: int, mask: int) -> float:
    """The chance that ``seat`` holds at least one of the cards of ``mask``."""
    certain = knowledge.known[seat] & mask
    if certain:
        return 1.0
    count = (mask & knowledge.unseen & knowledge.allowed[seat]).bit_count()
    return 1.0 - (1.0 - _share(knowledge, seat)) ** count


def win_chance(view: View, knowledge: Knowledge, play: Play) -> float:
    """The chance that ``play`` takes the current trick for the seat to act."""
    me = knowledge.seat
    trick = view.trick
    plays = (*trick.plays, play)
    context = trick_context(view, plays)
    # With leader 0 the engine's answer is the winning position in the partial trick.
    if winner_of(plays, 0, context.trump, view.rules) != len(plays) - 1:
        return 0.0
    lead_joker = len(plays) == 1 and play.card.suit is None
    if lead_joker and play.mode is JokerMode.DISCARD:
        return 0.0
    chance = 1.0
    later = [(me + step) % view.players for step in range(1, view.players - len(trick.plays))]
    for seat in later:
        chance *= 1.0 - _beat_chance(view, knowledge, play, context, seat)
    return chance


def _beat_chance(
    view: View, knowledge: Knowledge, play: Play, context: TrickContext, seat: int
) -> float:
    """The chance that ``seat``, playing after ``play``, takes the trick from it: a seat
    that wants tricks beats it whenever it can; one that avoids them only when forced."""
    taker = goal_of(view, seat).goal is Goal.TAKE
    must_trump = view.rules.trump_when_void
    jokers = _holds_any(knowledge, seat, JOKER_MASK) if taker else 0.0
    if play.card.suit is None:
        # A joker that takes (or is led as "highest") loses only to a later joker's "take"
        # (or, with the option, to a trump when "highest" named a side suit).
        highest_side = play.mode is JokerMode.HIGHEST and play.suit != context.trump
        if highest_side and view.rules.joker_highest_beaten_by_trump and context.trump >= 0:
            void = 1.0 - _holds_any(knowledge, seat, SUIT_MASKS[context.follow])
            return max(jokers, void * _holds_any(knowledge, seat, SUIT_MASKS[context.trump]))
        return jokers
    index = play.card.index
    suit = SUIT_OF[index]
    suit_mask = SUIT_MASKS[suit]
    above = suit_mask & ~((1 << (index + 1)) - 1)
    below = suit_mask & ((1 << index) - 1)
    higher = _holds_any(knowledge, seat, above)
    if suit == context.follow:
        forced = context.demand_highest or taker
        chance = higher if forced else higher * (1.0 - _holds_any(knowledge, seat, below))
        if context.trump >= 0 and suit != context.trump and (taker or must_trump):
            void = 1.0 - _holds_any(knowledge, seat, suit_mask)
            chance += (1 - chance) * void * _holds_any(knowledge, seat, SUIT_MASKS[context.trump])
    else:  # a trump played on a side suit: beaten by a higher trump from a void seat
        void = 1.0 - _holds_any(knowledge, seat, SUIT_MASKS[context.follow])
        lower = _holds_any(knowledge, seat, below)
        chance = void * higher * (1.0 if taker else (1.0 - lower) * must_trump)
    return min(1.0, chance + (1 - chance) * jokers)


def hand_trick_chances(view: View, knowledge: Knowledge, hand: int) -> list[float]:
    """For bidding: each card's chance of taking a trick during the round."""
    players, cards = view.players, view.cards
    trump = -1 if view.trump is None else int(view.trump)
    unseen = knowledge.unseen
    others = sum(knowledge.hidden_count(s) for s in range(players) if s != knowledge.seat)
    total = unseen.bit_count()
    held_share = others / total if total else 0.0
    trumps_held = (hand & SUIT_MASKS[trump]).bit_count() if trump >= 0 else 0
    chances = []
    for index in bits(hand):
        suit = SUIT_OF[index]
        if suit < 0:
            spare_jokers = (unseen & JOKER_MASK).bit_count()
            chances.append(0.97 - 0.15 * spare_jokers * held_share)
            continue
        above = SUIT_MASKS[suit] & ~((1 << (index + 1)) - 1)
        higher = (above & unseen).bit_count()
        top = (1.0 - held_share) ** higher
        rank_in_hand = (above & hand).bit_count()  # my own higher cards of the suit first
        if suit == trump:
            ruff = 0.45 * min(1.0, max(0, trumps_held - 1) / 3) if cards > 2 else 0.0
            chances.append(min(0.98, top * 0.95 + (1 - top) * ruff))
            continue
        length = (SUIT_MASKS[suit] & unseen).bit_count()
        void = (1.0 - held_share) ** length if trump >= 0 else 0.0
        survive = (1.0 - min(0.9, void * (players - 1) * 0.8)) ** (rank_in_hand + 1)
        joker_risk = 1.0 - 0.3 * (unseen & JOKER_MASK).bit_count() * held_share
        chances.append(top * survive * joker_risk)
    return [_calibrated(p, cards, no_trump=trump < 0) for p in chances]


def _calibrated(chance: float, cards: int, *, no_trump: bool) -> float:
    """Correct a card's chance for what the closed form leaves out, fitted on heuristic
    self-play (4 players, 36 cards, tricks taken against the summed chances by hand size):
    small hands take fewer tricks than their top cards suggest, big hands more, as high
    cards fall on each other and long suits run; without trumps long suits run further."""
    if no_trump:
        scale, base = 1.24, 0.09
    else:
        scale, base = 1.05, 0.0 if cards == 1 else min(0.05, max(-0.17, -0.2 + 0.028 * cards))
    return min(0.99, max(0.0, scale * chance + base * (1.0 - chance)))


def trick_distribution(chances: list[float]) -> list[float]:
    """The chance of taking exactly k tricks (k = 0..len) if each card counts independently."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def expected_points(view: View, bid: int, dist: list[float]) -> float:
    """The mean points of bidding ``bid`` when the tricks taken follow ``dist``."""
    return sum(
        q * round_points(view.rules, view.kind, bid, taken, cards=view.cards)
        for taken, q in enumerate(dist)
        if q
    )


def pick_bid(view: View, dist: list[float]) -> Bid:
    """The legal bid with the best mean points under ``dist`` (ties: the lower bid)."""
    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    return max(bids, key=lambda b: (expected_points(view, b.amount, dist), -b.amount))


def cashing_leads(view: View, knowledge: Knowledge, plays: list[Play]) -> list[Play]:
    """``plays`` without the low leads of a seat that needs every trick left and holds a
    sure winner (a lead no card it cannot see beats): a low lead (a card with a higher
    one of its suit unseen, a joker's discard) can only lose a trick it must take, while
    the sure winner keeps the contract alive and the low card can still be led later.
    Otherwise ``plays`` as they are. Players of every platform complain of bots that
    lead low when they need every trick (issue 31)."""
    me = knowledge.seat
    if view.trick.plays or not view.kind.has_bids or view.kind is RoundKind.GOLDEN:
        return plays
    goal = goal_of(view, me)
    if goal.goal is not Goal.TAKE or goal.need < view.cards - len(view.tricks):
        return plays
    if not any(_sure_lead(view, knowledge, play) for play in plays):
        return plays
    return [play for play in plays if not _low_lead(knowledge, play)]


def _sure_lead(view: View, knowledge: Knowledge, play: Play) -> bool:
    """Whether ``play``, led, takes the trick whatever card it cannot see follows it."""
    if play.mode is JokerMode.DISCARD:
        return False
    trump = trick_context(view, (play,)).trump
    for index in bits(knowledge.unseen):
        card = card_at(index)
        answer = Play(card, JokerMode.TAKE) if card.is_joker else Play.of(card)
        if winner_of((play, answer), 0, trump, view.rules) != 0:
            return False
    return True


def _low_lead(knowledge: Knowledge, play: Play) -> bool:
    """A joker led to discard, or a card below an unseen card of its suit."""
    if play.card.is_joker:
        return play.mode is JokerMode.DISCARD
    suit = SUIT_OF[play.card.index]
    above = SUIT_MASKS[suit] & ~((1 << (play.card.index + 1)) - 1)
    return bool(above & knowledge.unseen)
