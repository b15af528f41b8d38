"""``random``: uniform over the legal actions. The floor every other bot must beat."""

from __future__ import annotations

import random

from raspisnoy.bots.base import Bot
from raspisnoy.core import Action, View

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks any legal action, each with the same chance."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions)
