"""The bot protocol: a bot sees one seat's ``View`` and returns one of its legal actions.

A bot never receives a ``Game``, so it cannot see a hidden card by construction. Each
decision draws from its own ``random.Random`` seeded with the bot's seed and the moment
of the game (round, trick, position in the trick, phase, seat), so a bot's choice is a
function of its seed and the view alone: replaying a game, or re-creating a bot after a
server restart, gives the same decisions. ``time_ms`` is the budget per decision that
searching bots respect; the others finish far inside it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from raspisnoy.core import Action, IllegalActionError, InvalidInputError, View

__all__ = ["Bot", "decision_rng"]


def decision_rng(seed: int | str, view: View) -> random.Random:
    """The random source of one decision: fixed by the seed and the moment of the game."""
    moment = (view.round, len(view.tricks), len(view.trick.plays), view.phase, view.seat)
    return random.Random(f"{seed}/{moment}")


class Bot(ABC):
    """A player that decides from a ``View`` (see the module docstring)."""

    #: The name the bot is registered under (``raspisnoy.bots.BOTS``).
    name: ClassVar[str]
    #: Default budget per decision in milliseconds.
    default_time_ms: ClassVar[float] = 1000.0

    def __init__(self, seed: int | str = 0, time_ms: float | None = None) -> None:
        if time_ms is not None and not time_ms > 0:
            raise InvalidInputError(f"a bot's time budget must be positive, not {time_ms!r} ms")
        self.seed = seed
        self.time_ms = self.default_time_ms if time_ms is None else float(time_ms)

    def act(self, view: View) -> Action:
        """The bot's action for ``view``, which must be its seat's view on its turn."""
        if not view.my_turn or not view.legal_actions:
            raise IllegalActionError(
                f"{self.name} bot asked to act, but it is not seat {view.seat}'s turn"
            )
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        action = self.choose(view, decision_rng(f"{self.name}/{self.seed}", view))
        if action not in view.legal_actions:
            raise AssertionError(f"{self.name} bot chose {action}, not a legal action")
        return action

    @abstractmethod
    def choose(self, view: View, rng: random.Random) -> Action:
        """Pick one of ``view.legal_actions`` (there are at least two)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r}, time_ms={self.time_ms})"
