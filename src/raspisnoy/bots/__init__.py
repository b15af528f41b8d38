"""Bots that play raspisnoy from a seat's view, from ``random`` to ``expert``.

``make_bot(name, seed=..., time_ms=...)`` builds one by its registered name; ``BOTS``
lists them from weakest to strongest.
"""

from __future__ import annotations

from raspisnoy.bots.base import Bot, decision_rng
from raspisnoy.bots.beginner import BeginnerBot
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.heuristic import HeuristicBot
from raspisnoy.bots.random_bot import RandomBot
from raspisnoy.core import InvalidInputError

__all__ = ["BOTS", "Bot", "decision_rng", "make_bot"]

#: Every bot by name, weakest first.
BOTS: dict[str, type[Bot]] = {
    bot.name: bot for bot in (RandomBot, BeginnerBot, HeuristicBot, ExpertBot)
}


def make_bot(name: str, seed: int | str = 0, time_ms: float | None = None) -> Bot:
    """A new bot of the named kind; ``InvalidInputError`` for an unknown name."""
    try:
        kind = BOTS[name.strip().lower()]
    except KeyError:
        raise InvalidInputError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    return kind(seed=seed, time_ms=time_ms)
