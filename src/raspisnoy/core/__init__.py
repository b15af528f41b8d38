"""The rules of raspisnoy: cards, rulesets, the round plan, the game, views and records.

Pure: no I/O, no global random, nothing imported from outside the standard library.
"""

from raspisnoy.core.actions import Action, Bid, ControlRound, JokerMode, Play, parse_action
from raspisnoy.core.cards import Card, Suit
from raspisnoy.core.errors import (
    IllegalActionError,
    InvalidInputError,
    NotYourTurnError,
    RaspisnoyError,
)
from raspisnoy.core.events import Deal, Event, Phase, RoundResult, Trick
from raspisnoy.core.game import Game
from raspisnoy.core.kinds import RoundKind
from raspisnoy.core.plan import RoundSpec, round_plan
from raspisnoy.core.rules import PRESETS, Rules, resolve_rules
from raspisnoy.core.scoring import round_points
from raspisnoy.core.tricks import trick_winner
from raspisnoy.core.view import View

__all__ = [
    "PRESETS",
    "Action",
    "Bid",
    "Card",
    "ControlRound",
    "Deal",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidInputError",
    "JokerMode",
    "NotYourTurnError",
    "Phase",
    "Play",
    "RaspisnoyError",
    "RoundKind",
    "RoundResult",
    "RoundSpec",
    "Rules",
    "Suit",
    "Trick",
    "View",
    "parse_action",
    "resolve_rules",
    "round_plan",
    "round_points",
    "trick_winner",
]
