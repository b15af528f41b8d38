"""Small helpers shared by the core tests: card lists from text, random play."""

from __future__ import annotations

import random

from raspisnoy.core import Card, Game, Play


def cards(text: str) -> list[Card]:
    """``"AS KD X"`` → the cards."""
    return [Card.parse(word) for word in text.split()]


def plays(text: str) -> list[Play]:
    """``"X:take KD"`` → the plays."""
    return [Play.parse(word) for word in text.split()]


def play_randomly(game: Game, steps: int, seed: int = 0) -> None:
    """Take ``steps`` random legal actions (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
