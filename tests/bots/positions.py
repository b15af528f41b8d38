"""Hand-made positions for bot tests: a one-round game dealt from text."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.core import PRESETS, Bid, Card, Game, Phase, View, parse_action
from raspisnoy.core.fast import mask_of

SPECIAL_ROUNDS = ("no-trump", "blind", "misere", "golden", "forehead", "percent")
#: Hypothesis arguments of ``mid_game``: ``@given(**MID_GAME)``.
MID_GAME = {
    "preset": st.sampled_from(sorted(PRESETS)),
    "players": st.integers(3, 5),
    "seed": st.integers(0, 10**6),
    "steps": st.integers(0, 400),
    "specials": st.booleans(),
}


def position(
    hands: list[str],
    trump: str | None,
    *,
    plan: str = "",
    dealer: int = 0,
    actions: str = "",
    rules: str = "raspisnoy.com",
) -> View:
    """The view of the seat to act after dealing ``hands`` (text per seat) with the trump
    card ``trump`` and applying ``actions`` (bids and plays in docs/record.md notation). The
    plan defaults to one normal round of the hands' size."""
    size = len(hands[0].split())
    game = Game(rules, len(hands), first_dealer=dealer)
    game = Game(
        game.rules.replace(custom_plan=(plan or str(size),)), len(hands), first_dealer=dealer
    )
    game.deal([[Card.parse(c) for c in hand.split()] for hand in hands], _card(trump))
    for text in actions.split():
        game.apply(parse_action(text))
    seat = game.to_act
    assert seat is not None
    return game.view(seat)


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


def game_at(preset: str, players: int, seed: int, steps: int, **options: object) -> Game:
    """A game of ``preset`` after ``steps`` random legal actions (fewer if it ends or
    waits for a control-round choice first)."""
    game = Game(Game(preset, players).rules.replace(**options), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over or game.phase is Phase.CHOOSE:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def true_hands(game: Game) -> list[int]:
    """Every seat's hand now, as bit masks."""
    return [mask_of(game.hand(seat)) for seat in range(game.players)]


def mid_game(preset: str, players: int, seed: int, steps: int, specials: bool) -> Game | None:
    """``game_at``, with every special round when ``specials``; ``None`` when no seat is
    to bid or play then (the game is over or waits for a control-round choice)."""
    options = {"special_rounds": SPECIAL_ROUNDS} if specials else {}
    game = game_at(preset, players, seed, steps, **options)
    return None if game.is_over or game.phase is Phase.CHOOSE else game


def assert_world_fits(hands: list[int], knowledge: Knowledge) -> None:
    """A dealt world gives each seat as many cards as it holds, within what it may hold,
    with what is known of it, and no card twice or already played."""
    dealt = 0
    for seat, hand in enumerate(hands):
        assert hand.bit_count() == knowledge.sizes[seat]
        assert hand & ~knowledge.allowed[seat] == 0
        assert hand & knowledge.known[seat] == knowledge.known[seat]
        assert hand & dealt == 0
        assert hand & knowledge.played == 0
        dealt |= hand


#: Presets whose deck has a joker: the ones where a hand can hold "the joker".
JOKER_PRESETS = tuple(sorted(p for p in PRESETS if any(c.is_joker for c in Game(p, 4).deck)))
#: Hypothesis arguments of ``strong_hand``: ``@given(**STRONG_HAND)``.
STRONG_HAND = {
    "preset": st.sampled_from(JOKER_PRESETS),
    "players": st.integers(3, 5),
    "cards": st.integers(2, 7),
    "before": st.integers(0, 4),
    "seed": st.integers(0, 10**6),
}


def strong_hand(preset: str, players: int, cards: int, before: int, seed: int) -> Game:
    """A normal round of ``cards`` cards of ``preset``, dealt at random except that the
    seat that bids after ``before`` others (their bids random and legal) holds every
    joker of the deck and the ace of trumps (the round has at least as many cards); that
    seat is to bid."""
    rng = random.Random(seed)
    rules = Game(preset, players).rules
    deck = list(Game(rules, players).deck)
    cards = max(cards, 1 + sum(card.is_joker for card in deck))
    game = Game(rules.replace(custom_plan=(str(cards),)), players)
    rng.shuffle(deck)
    trump_card = next(card for card in deck if not card.is_joker and card.rank != 14)
    ace = next(c for c in deck if c.suit is trump_card.suit and c.rank == 14)
    strong = [card for card in deck if card.is_joker] + [ace]
    rest = [card for card in deck if card not in strong and card != trump_card]
    seat = (game.dealer + 1 + before % players) % players
    hands = []
    for s in range(players):
        count = cards - len(strong) if s == seat else cards
        hands.append((strong if s == seat else []) + rest[:count])
        rest = rest[count:]
    game.deal(hands, trump_card)
    while game.to_act != seat:
        game.apply(rng.choice(game.legal_actions()))
    return game


def needs_every_trick(preset: str, players: int, cards: int, seed: int) -> Game:
    """``strong_hand``'s deal with the strong seat bidding first and all ``cards``
    tricks, the others at random: the strong seat leads the first trick, needs every
    trick and holds the joker and the ace of trumps."""
    game = strong_hand(preset, players, cards, 0, seed)
    rng = random.Random(seed)
    game.apply(Bid(game.view(None).cards))
    while game.phase is Phase.BID:
        game.apply(rng.choice(game.legal_actions()))
    return game
