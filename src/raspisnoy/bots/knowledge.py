"""What a seat can deduce from its view, and hidden hands drawn consistently with it.

Everything is a bit mask of card indexes (``raspisnoy.core.cards``). From the public
record of the round a seat learns where cards are not: a player who did not follow the
suit led holds none of it (nor a trump, where trumping is compulsory), and a player who
answered a joker's "highest S" with a card of S holds no higher card of S. Known cards
are the seat's own hand, a trump card the dealer shows from their hand, and in a forehead
round («лобовая») everyone else's card. ``Knowledge.sample`` deals the unseen cards to
the other seats at random within those limits: one "world" for the search bots.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from raspisnoy.core import Card, JokerMode, Play, RoundKind, Rules, View, deck_cards
from raspisnoy.core.fast import (
    NO_TRUMP,
    SUIT_MASKS,
    SUIT_OF,
    card_at,
    cards_in_mask,
    mask_of,
    rotated_trump,
)

__all__ = [
    "JOKER_MASK",
    "Knowledge",
    "TrickContext",
    "bits",
    "trick_context",
    "trump_source",
]

JOKER_MASK = 0b111 << 52
_SAMPLE_ATTEMPTS = 20


def bits(mask: int) -> list[int]:
    """The card indexes set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class TrickContext:
    """How a trick in progress must be followed: the suit (-1: none), whether a led
    joker demands everyone's highest card of it, and the trump of this trick (-1: none)."""

    follow: int
    demand_highest: bool
    trump: int


def trick_context(view: View, plays: tuple[Play, ...]) -> TrickContext:
    """The follow suit, the demand and the trick's trump for a trick led by ``plays[0]``."""
    round_trump = NO_TRUMP if view.trump is None else int(view.trump)
    if not plays:
        return TrickContext(-1, False, round_trump)
    lead = plays[0]
    if lead.suit is None:
        follow, demand = SUIT_OF[lead.card.index], False
    else:
        follow, demand = int(lead.suit), lead.mode is JokerMode.HIGHEST
    trump = round_trump
    if view.rules.rotating_trumps:
        trump = rotated_trump(follow, view.kind.has_trump)
    return TrickContext(follow, demand, trump)


def _must_trump(rules: Rules, context: TrickContext) -> bool:
    """Whether a player void in the suit led must trump (mirrors the engine's rule)."""
    return context.trump >= 0 and (
        rules.trump_when_void or (context.demand_highest and rules.joker_highest_beaten_by_trump)
    )


def trump_source(rules: Rules, players: int, cards: int, kind: RoundKind) -> str:
    """Where the round's trump card comes from (mirrors the engine): "undealt" (the top of
    the rest), "dealer" (a card the dealer shows from their hand) or "none"."""
    if not kind.has_trump or rules.rotating_trumps:
        return "none"
    if rules.trump_source == "dealer_last":
        return "dealer"
    if players * cards < len(deck_cards(rules)):
        return "undealt"
    return "dealer" if rules.max_deal_trump == "dealer_shows" else "none"


@dataclass(slots=True)
class Knowledge:
    """One seat's deductions about where the cards of the current round are."""

    players: int
    seat: int
    deck: int
    #: Cards played so far this round.
    played: int
    #: Cards known to be in each seat's hand now (the seat's own hand included).
    known: list[int]
    #: Cards each seat may still hold (voids and "highest" answers removed).
    allowed: list[int]
    #: Cards each seat holds now.
    sizes: tuple[int, ...]
    #: Cards whose place this seat does not know: other hands, the undealt rest.
    unseen: int
    #: Whether the trump card must be drawn with the world (a blind round being bid).
    trump_hidden: bool
    #: Where the trump card comes from: "undealt", "dealer" (their hand) or "none".
    trump_source: str
    dealer: int

    @classmethod
    def from_view(cls, view: View) -> Knowledge:
        """Everything ``view.seat`` can deduce (the seat must not be ``None``)."""
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator has no hand to deduce from")
        players, rules = view.players, view.rules
        deck = mask_of(deck_cards(rules))
        known = [0] * players
        if view.hand is not None:
            known[seat] = mask_of(view.hand)
        for other, shown in enumerate(view.shown_hands):
            if shown is not None:
                known[other] = mask_of(shown)
        played = 0
        for trick in (*view.tricks, view.trick):
            for play in trick.plays:
                played |= play.card.bit
        source = trump_source(rules, players, view.cards, view.kind)
        trump_card = view.trump_card
        visible = 0
        if trump_card is not None and not played & trump_card.bit:
            if source == "dealer":
                known[view.dealer] |= trump_card.bit
            else:
                visible = trump_card.bit
        unseen = deck & ~played & ~visible
        for mask in known:
            unseen &= ~mask
        allowed = [unseen | known[other] for other in range(players)]
        knowledge = cls(
            players=players,
            seat=seat,
            deck=deck,
            played=played,
            known=known,
            allowed=allowed,
            sizes=view.hand_sizes,
            unseen=unseen,
            trump_hidden=view.trump_hidden,
            trump_source=source,
            dealer=view.dealer,
        )
        knowledge._learn_from_tricks(view)
        return knowledge

    def _learn_from_tricks(self, view: View) -> None:
        """Remove from ``allowed`` what each player's plays show they cannot hold."""
        for trick in (*view.tricks, view.trick):
            plays = trick.plays
            context = trick_context(view, plays)
            if context.follow < 0:
                continue
            suit_mask = SUIT_MASKS[context.follow]
            for position, play in enumerate(plays[1:], start=1):
                player = (trick.leader + position) % self.players
                index = play.card.index
                suit = SUIT_OF[index]
                if suit < 0:
                    continue  # a joker may always be played: it tells nothing
                if suit != context.follow:
                    self.allowed[player] &= ~suit_mask
                    if _must_trump(view.rules, context) and suit != context.trump:
                        self.allowed[player] &= ~SUIT_MASKS[context.trump]
                elif context.demand_highest:
                    above = suit_mask & ~((1 << (index + 1)) - 1)
                    self.allowed[player] &= ~above

    def hidden_count(self, other: int) -> int:
        """How many cards of ``other``'s hand this seat does not know."""
        return self.sizes[other] - self.known[other].bit_count()

    def sample(self, rng: random.Random) -> list[int] | None:
        """Every seat's hand now, the unseen cards dealt at random within what each seat
        may hold; ``None`` when no deal fits (after a few attempts)."""
        for _ in range(_SAMPLE_ATTEMPTS):
            hands = self._try_sample(rng)
            if hands is not None:
                return hands
        return None

    def _try_sample(self, rng: random.Random) -> list[int] | None:
        room = [self.hidden_count(other) for other in range(self.players)]
        hands = list(self.known)
        cards = bits(self.unseen)
        rng.shuffle(cards)
        # The most constrained cards first: those fewest seats may hold.
        eligible = {
            card: [o for o in range(self.players) if self.allowed[o] >> card & 1] for card in cards
        }
        cards.sort(key=lambda card: len(eligible[card]))
        undealt = self.unseen.bit_count() - sum(room)
        for card in cards:
            seats = [o for o in eligible[card] if room[o]]
            weights = [room[o] for o in seats]
            if undealt:
                seats.append(-1)
                weights.append(undealt)
            if not seats:
                return None
            chosen = rng.choices(seats, weights)[0]
            if chosen < 0:
                undealt -= 1
            else:
                room[chosen] -= 1
                hands[chosen] |= 1 << card
        return hands if not any(room) else None

    def draw_trump_card(self, hands: list[int], rng: random.Random) -> Card | None:
        """A trump card for a world whose trump is hidden (a blind round being bid)."""
        if self.trump_source == "none":
            return None
        if self.trump_source == "dealer":
            return card_at(rng.choice(bits(hands[self.dealer] & ~JOKER_MASK)))
        rest = self.unseen
        for hand in hands:
            rest &= ~hand
        return rng.choice(cards_in_mask(rest)) if rest else None
