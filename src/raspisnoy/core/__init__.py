"""The rules of raspisnoy: cards, rulesets, the round plan, the game, views and records.

This package is core's public face: every other layer imports what it needs from here
(the game, actions, cards, the rules catalogue, the bidding and scoring rules, records
and errors), and the bit-level helpers of simulations from ``raspisnoy.core.fast``;
never from core's other modules (tests/test_layers.py enforces it). The rules are
described in docs/rules.md, records in docs/record.md.

Pure: no I/O, no global random, nothing imported from outside the standard library.

The names are imported from their modules when first used (PEP 562), so a command that
needs only the rules catalogue (``raspisnoy rules list``) loads neither the game nor
records.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from raspisnoy.core.actions import (
        CONTROL_KINDS,
        Action,
        Bid,
        ControlRound,
        JokerMode,
        Play,
        parse_action,
    )
    from raspisnoy.core.bidding import forbidden_bid, zero_bid_banned
    from raspisnoy.core.cards import RANK_NAMES, Card, Suit
    from raspisnoy.core.errors import (
        IllegalActionError,
        InvalidInputError,
        NotYourTurnError,
        RaspisnoyError,
    )
    from raspisnoy.core.events import Deal, Event, Phase, RoundResult, Trick
    from raspisnoy.core.game import Game, player_names
    from raspisnoy.core.kinds import SPECIAL_KINDS, RoundKind
    from raspisnoy.core.plan import RoundSpec, check_players, round_plan
    from raspisnoy.core.record import (
        RECORD_FORMAT,
        Record,
        RecordRound,
        dumps_record,
        game_to_record,
        loads_json,
        loads_record,
        parse_record,
        record_to_json,
        replay,
        replay_report,
    )
    from raspisnoy.core.rules import (
        DEFAULT_PRESET,
        PRESET_DESCRIPTIONS,
        PRESETS,
        OptionInfo,
        Rules,
        deck_cards,
        max_cards,
        option_info,
        parse_option_value,
        resolve_rules,
    )
    from raspisnoy.core.scoring import leaders, round_points
    from raspisnoy.core.tricks import trick_winner
    from raspisnoy.core.view import OwnView, View

#: Core's modules, each after those it imports: a name is looked up in them in this
#: order, so the first that has it is the one that defines it, and a command imports the
#: rules' foundations and stops at the module it needs.
_MODULES = (
    "errors",
    "cards",
    "kinds",
    "rules",
    "plan",
    "actions",
    "bidding",
    "events",
    "tricks",
    "scoring",
    "view",
    "game",
    "record",
)


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (and kept here after)."""
    if name in __all__:
        for module_name in _MODULES:
            module = import_module(f"{__name__}.{module_name}")
            if hasattr(module, name):
                value = getattr(module, name)
                globals()[name] = value
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CONTROL_KINDS",
    "DEFAULT_PRESET",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "RANK_NAMES",
    "RECORD_FORMAT",
    "SPECIAL_KINDS",
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
    "OptionInfo",
    "OwnView",
    "Phase",
    "Play",
    "RaspisnoyError",
    "Record",
    "RecordRound",
    "RoundKind",
    "RoundResult",
    "RoundSpec",
    "Rules",
    "Suit",
    "Trick",
    "View",
    "check_players",
    "deck_cards",
    "dumps_record",
    "forbidden_bid",
    "game_to_record",
    "leaders",
    "loads_json",
    "loads_record",
    "max_cards",
    "option_info",
    "parse_action",
    "parse_option_value",
    "parse_record",
    "player_names",
    "record_to_json",
    "replay",
    "replay_report",
    "resolve_rules",
    "round_plan",
    "round_points",
    "trick_winner",
    "zero_bid_banned",
]
