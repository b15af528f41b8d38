"""The reference simulator: one round of a sampled world, played out on the engine.

A world is the current round with every hand filled in (``Knowledge.sample``). It is
rebuilt as a one-round ``Game`` of the real rules (a ``custom_plan`` of just this round),
dealt the world's hands, and brought to the moment of the view by replaying the round's
bids and plays. Using the engine itself means that every rule option (compulsory
trumping, rotating trumps, joker variants, scoring tables) holds in the simulations
exactly as in the game. The expert searches with the compiled simulator
(``raspisnoy.bots.fastsim``), a dozen times faster; this readable one defines what the
compiled one must do: its playout policy and quick trick values are checked against
these, state by state (``tests/bots/test_fastsim.py``).

Playouts use a greedy, contract-aware policy: a seat short of its bid plays its
strongest card when that card would take the trick (the cheapest winner when it plays
last) and its weakest otherwise; a seat that has made its bid, or plays a misère, plays
the strongest card that still loses. Seats still to bid bid their hand's quick trick
count.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

from raspisnoy.bots.knowledge import JOKER_MASK, bits
from raspisnoy.core import Bid, Card, Game, JokerMode, Phase, Play, RoundKind, Rules, View
from raspisnoy.core.fast import SUIT_MASKS, SUIT_OF, cards_in_mask, rotated_trump, winner_of

__all__ = ["hand_value", "play_out", "policy_action", "round_game"]

_DISCARD, _HIGHEST = JokerMode.DISCARD, JokerMode.HIGHEST
#: Quick trick values of a card by rank (6..A and the 2..5 of 52-card decks), for a trump
#: and for a side suit; a joker counts 0.95.
_TRUMP_VALUE = {14: 0.95, 13: 0.8, 12: 0.6, 11: 0.45, 10: 0.35}
_SIDE_VALUE = {14: 0.75, 13: 0.4, 12: 0.15}


@lru_cache(maxsize=256)
def _one_round_rules(rules: Rules, cards: int, kind: RoundKind) -> Rules:
    """The rules with a plan of just this round (and no control round after it)."""
    return rules.replace(
        custom_plan=(f"{cards}:{kind}",), control_game=False, max_zero_bids_in_a_row=0
    )


def round_game(view: View, hands: list[int], trump_card: Card | None) -> Game:
    """The current round of ``view`` as a one-round game where each seat holds
    ``hands[seat]`` now, replayed up to the view's moment."""
    players = view.players
    start = list(hands)
    for trick in (*view.tricks, view.trick):
        for position, play in enumerate(trick.plays):
            start[(trick.leader + position) % players] |= play.card.bit
    game = Game(
        _one_round_rules(view.rules, view.cards, view.kind), players, first_dealer=view.dealer
    )
    game.deal([cards_in_mask(mask) for mask in start], trump_card)
    if view.bids is not None:
        for step in range(1, players + 1):
            amount = view.bids[(view.dealer + step) % players]
            if amount is None:
                break
            game.bid(amount)
    for trick in (*view.tricks, view.trick):
        for play in trick.plays:
            game.play(play)
    return game


def hand_value(mask: int, trump: int) -> float:
    """A quick count of the tricks a hand should take (for bids made inside playouts and
    for weighting worlds by the bids the players made)."""
    value = 0.95 * (mask & JOKER_MASK).bit_count()
    for index in bits(mask & ~JOKER_MASK):
        rank = index % 13 + 2
        if SUIT_OF[index] == trump:
            value += _TRUMP_VALUE.get(rank, 0.25)
        else:
            value += _SIDE_VALUE.get(rank, 0.0)
    return value


def play_out(game: Game, rng: random.Random) -> None:
    """Play ``game`` (a one-round game) to its end with the playout policy."""
    while game.phase is not Phase.OVER:
        game.apply(policy_action(game, rng))


def policy_action(game: Game, rng: random.Random) -> Bid | Play:
    """The playout policy's action for the seat to act (see the module docstring)."""
    actions = game.legal_actions()
    if len(actions) == 1:
        return actions[0]  # type: ignore[return-value]
    if game.phase is Phase.BID:
        return _quick_bid(game, actions)  # type: ignore[arg-type]
    return _greedy_play(game, actions)  # type: ignore[arg-type]


def _quick_bid(game: Game, bids: tuple[Bid, ...]) -> Bid:
    seat = game.to_act
    assert seat is not None
    trump = -1 if game.trump is None else int(game.trump)
    mask = sum(card.bit for card in game.hand(seat))
    wanted = round(hand_value(mask, trump))
    return min(bids, key=lambda bid: (abs(bid.amount - wanted), bid.amount))


def _taking(game: Game, seat: int) -> bool:
    kind = game.round.kind
    if kind is RoundKind.MISERE:
        return False
    if kind is RoundKind.GOLDEN:
        return True
    bid = game.bids[seat]
    return bid is None or game.taken[seat] != bid


def _greedy_play(game: Game, plays: tuple[Play, ...]) -> Play:
    seat = game.to_act
    assert seat is not None
    trick = game.trick
    done = trick.plays
    rules = game.rules
    trump = -1 if game.trump is None else int(game.trump)
    taking = _taking(game, seat)
    if not done:
        return _lead(plays, trump, taking)
    if rules.rotating_trumps:
        first = done[0]
        led = SUIT_OF[first.card.index] if first.suit is None else int(first.suit)
        trump = rotated_trump(led, game.round.kind.has_trump)
    last = len(done) == game.players - 1
    winners: list[Play] = []
    losers: list[Play] = []
    for play in plays:
        if play.card.suit is None and play.mode is _DISCARD:
            losers.append(play)
            continue
        position = winner_of((*done, play), 0, trump, rules)
        (winners if position == len(done) else losers).append(play)
    strength = _strength_key(trump)
    if taking:
        if winners:
            return min(winners, key=strength) if last else max(winners, key=strength)
        return min(losers, key=strength)
    if losers:
        return max(losers, key=strength)
    return max(winners, key=strength)


def _lead(plays: tuple[Play, ...], trump: int, taking: bool) -> Play:
    """Leading: the strongest card to take (a joker as "highest" of the trump or its
    first suit), the weakest to lose (a joker led as "discard")."""
    strength = _strength_key(trump)
    if taking:
        best = max(plays, key=strength)
        if best.card.suit is None:
            wanted = trump if trump >= 0 else 0
            for play in plays:
                if play.mode is _HIGHEST and play.suit == wanted:
                    return play
        return best
    return min(plays, key=strength)


@lru_cache(maxsize=8)
def _strength_key(trump: int) -> Callable[[Play], int]:
    """A sort key of plays by power: discarded jokers lowest, then side cards by rank,
    trumps, and jokers that take or lead "highest" above all."""
    trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0

    def key(play: Play) -> int:
        card = play.card
        if card.suit is None:
            return -1 if play.mode is _DISCARD else 200
        return card.rank + (50 if card.bit & trump_mask else 0)

    return key
