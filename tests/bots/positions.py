"""Hand-made positions for bot tests: a one-round game dealt from text."""

from __future__ import annotations

import random

from raspisnoy.core import Card, Game, Phase, View, parse_action
from raspisnoy.core.cards import mask_of


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
    card ``trump`` and applying ``actions`` (bids and plays in RECORD.md notation). The
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
