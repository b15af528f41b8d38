"""Bots that play raspisnoy from a seat's view, from ``random`` to ``expert``.

``make_bot(name, seed=..., time_ms=...)`` builds one by its registered name; ``BOTS``
lists them from weakest to strongest, ``TABLE_BOTS`` those a server seats at its tables
(not ``master``, the deep level for analysis: a decision costs it some 11 times the
expert's CPU).
"""

from __future__ import annotations

from raspisnoy.bots.base import Bot, decision_rng
from raspisnoy.bots.beginner import BeginnerBot
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.heuristic import HeuristicBot
from raspisnoy.bots.master import MasterBot
from raspisnoy.bots.random_bot import RandomBot
from raspisnoy.core import InvalidInputError

__all__ = ["BOTS", "TABLE_BOTS", "Bot", "decision_rng", "make_bot"]

#: Every bot by name, weakest first.
BOTS: dict[str, type[Bot]] = {
    bot.name: bot for bot in (RandomBot, BeginnerBot, HeuristicBot, ExpertBot, MasterBot)
}
#: The levels a server offers at its tables and tournaments, weakest first: every bot but
#: the analysis level ``master``, whose decisions cost too much CPU to seat it.
TABLE_BOTS: dict[str, type[Bot]] = {name: bot for name, bot in BOTS.items() if bot is not MasterBot}


def make_bot(name: str, seed: int | str = 0, time_ms: float | None = None) -> Bot:
    """A new bot of the named kind; ``InvalidInputError`` for an unknown name."""
    try:
        kind = BOTS[name.strip().lower()]
    except KeyError:
        raise InvalidInputError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    return kind(seed=seed, time_ms=time_ms)
