"""Raspisnoy as an OpenSpiel Python game: ``pyspiel.load_game("raspisnoy", {...})``.

Importing this module registers the game (``pip install raspisnoy[research]``). Its
parameters are ``players``, ``preset``, ``first_dealer`` and every rules option by its
name, as text in the notation of ``raspisnoy ... --set OPTION=VALUE`` (an empty text,
the default, keeps the preset's value): ``{"preset": "classic", "golden_percent":
"200", "custom_plan": "1,2:blind"}``. The rules are the engine's own (``raspisnoy.core``):
every state holds a ``Game``.

- **Chance**: each round is dealt by chance nodes, one card at a time from the dealer's
  left, then the card turned up where the rules turn one up from the rest; the deal of a
  ruleset that redeals on a joker as the dealer's last card never deals one there (the
  same chances as dealing again).
- **Actions** and **tensors**: ``raspisnoy.research.encoding``; the information state
  is perfect-recall within the round (every trick so far, a forehead round's shown
  cards), the observation holds only what is on the table now.
- **Returns**: each seat's final total (general-sum), at the end only.
- ``resample_from_infostate`` deals the cards the player cannot see again, within all it
  knows (``raspisnoy.bots.knowledge``), for OpenSpiel's ISMCTS.

docs/research.md shows how to use it.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pyspiel

from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.core import (
    DEFAULT_PRESET,
    Card,
    Deal,
    Game,
    Phase,
    option_info,
    parse_option_value,
    resolve_rules,
)
from raspisnoy.core.fast import ALL_CARDS, card_at
from raspisnoy.research.encoding import CARDS, Encoding

__all__ = ["RaspisnoyGame", "RaspisnoyState"]

_SHORT_NAME = "raspisnoy"
_OPTIONS = tuple(info.name for info in option_info())
_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "preset": DEFAULT_PRESET,
    "first_dealer": 0,
    **dict.fromkeys(_OPTIONS, ""),
}
_GAME_TYPE = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="Raspisnoy poker (расписной покер)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class RaspisnoyGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one set of parameters (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        overrides = {
            name: parse_option_value(name, str(params[name])) for name in _OPTIONS if params[name]
        }
        self.rules = resolve_rules(str(params["preset"]), **overrides)
        self.players = int(params["players"])
        self.first_dealer = int(params["first_dealer"])
        Game(self.rules, self.players, first_dealer=self.first_dealer)  # checks the count
        self.encoding = Encoding.of(self.rules, self.players)
        low, high = self.encoding.utility_bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.actions,
            max_chance_outcomes=CARDS,
            num_players=self.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=self.encoding.max_moves(),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> RaspisnoyState:
        return RaspisnoyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.encoding, obs_type, params)


class RaspisnoyState(pyspiel.State):  # type: ignore[misc]
    """A moment of a game: the engine's ``Game`` and the cards drawn of a deal under way."""

    def __init__(self, game: RaspisnoyGame) -> None:
        super().__init__(game)
        self.encoding = game.encoding
        self.game = Game(game.rules, game.players, first_dealer=game.first_dealer)
        self.drawn: list[Card] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> RaspisnoyState:
        """``copy.deepcopy`` of a state: share the immutable parts, clone the game.
        (OpenSpiel's own ``clone()`` deep-copies the fields one by one instead, which
        ``Game.__deepcopy__`` makes a clone too.)"""
        clone = copy.copy(self)
        clone.game = self.game.clone()
        clone.drawn = list(self.drawn)
        return clone

    def current_player(self) -> int:
        if self.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.game.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.game.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.encoding.encode(action) for action in self.game.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [card for card in self.game.deck if card not in self.drawn]
        dealt = self.game.players * self.game.round.cards
        if len(self.drawn) == dealt - 1 and self._redeals_on_joker():
            left = [card for card in left if not card.is_joker]
        return [(card.index, 1 / len(left)) for card in sorted(left, key=lambda c: c.index)]

    def _redeals_on_joker(self) -> bool:
        """A joker as the dealer's last card, which would be the trump, means a new deal."""
        return self.game.rules.trump_source == "dealer_last" and self.game.round.has_trump

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.drawn.append(ALL_CARDS[action])
            self._deal_when_drawn()
        else:
            self.game.apply(self.encoding.decode(action), self.game.to_act)

    def _deal_when_drawn(self) -> None:
        """Deal the round once its cards (and the card turned up, if any) are drawn."""
        game, drawn = self.game, self.drawn
        dealt = game.players * game.round.cards
        if len(drawn) < dealt:
            return
        first = game.dealer + 1
        hands = [
            tuple(sorted(drawn[(seat - first) % game.players : dealt : game.players]))
            for seat in range(game.players)
        ]
        for trump in (None, drawn[dealt - 1], *drawn[dealt:]):
            if game.can_deal(hands, trump):
                game.deal(hands, trump)
                drawn.clear()
                return
        if len(drawn) > dealt:
            raise AssertionError(f"no trump card fits the deal {hands}")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_at(action)}"
        return str(self.encoding.decode(action))

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        if not self.game.is_over:
            return [0.0] * self.game.players
        return [float(total) for total in self.game.totals]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RaspisnoyState:
        """A state the player cannot tell from this one: the cards it has not seen dealt
        again at random within everything it knows (``Knowledge``)."""
        clone: RaspisnoyState = self.clone()
        if self.game.phase not in (Phase.BID, Phase.PLAY):
            return clone
        rng = random.Random(int(probability_sampler() * 2**62))
        view = self.game.view(player_id)
        knowledge = Knowledge.from_view(view)
        holdings = knowledge.sample(rng)
        if holdings is None:  # no other deal fits: should not happen
            return clone
        trump = view.trump_card
        if view.trump_hidden:
            trump = knowledge.draw_trump_card(holdings, rng)
        clone.game = _redealt(self.game, holdings, trump)
        return clone

    def __str__(self) -> str:
        game = self.game
        hands = " | ".join(" ".join(map(str, game.hand(seat))) for seat in range(game.players))
        trick = " ".join(map(str, game.trick.plays))
        return (
            f"round {game.round.number} ({game.round.kind}) dealer {game.dealer} "
            f"trump {game.trump_card} bids {list(game.bids)} hands {hands} trick [{trick}] "
            f"totals {list(game.totals)}"
        )


def _redealt(game: Game, holdings: list[int], trump: Card | None) -> Game:
    """``game`` with this round dealt so that each seat now holds ``holdings`` (masks),
    every card already played in it where it was, and ``trump`` turned up."""
    events = game.events
    last_deal = max(i for i, event in enumerate(events) if isinstance(event.action, Deal))
    again = Game(game.rules, game.names, first_dealer=game.rounds()[0].dealer)
    for event in events[:last_deal]:
        again.apply_event(event)
    played = [0] * game.players
    for trick in (*game.rounds()[-1].tricks, game.trick):
        for position, play in enumerate(trick.plays):
            played[(trick.leader + position) % game.players] |= play.card.bit
    hands = [
        tuple(card for card in game.deck if (holdings[seat] | played[seat]) & card.bit)
        for seat in range(game.players)
    ]
    again.deal(hands, trump)
    for event in events[last_deal + 1 :]:
        again.apply_event(event)
    return again


class Observer:
    """OpenSpiel's observer protocol: the seat's tensor (perfect recall: the information
    state; else the observation) and its text."""

    def __init__(
        self, encoding: Encoding, iig_obs_type: Any, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"the raspisnoy observer takes no parameters, not {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("the raspisnoy observer observes for one player (its own cards)")
        self.encoding = encoding
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(encoding.size(self.perfect_recall), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for name, size in encoding.pieces(self.perfect_recall):
            self.dict[name] = self.tensor[start : start + size]
            start += size

    def set_from(self, state: RaspisnoyState, player: int) -> None:
        self.tensor[:] = self.encoding.tensor(state.game, player, self.perfect_recall)

    def string_from(self, state: RaspisnoyState, player: int) -> str:
        game = state.game
        view = game.view(player)
        seen = Encoding.seen_hands(game, view, self.perfect_recall)
        parts = [
            f"p{player} round {view.round} {view.kind} cards {view.cards} dealer {view.dealer}",
            f"phase {view.phase} to_act {view.to_act}",
            f"hand {' '.join(map(str, view.hand)) if view.hand is not None else '?'}",
            "seen " + " | ".join("-" if s is None else " ".join(map(str, s)) for s in seen),
            f"trump {'?' if view.trump_hidden else view.trump_card} bids {view.bids}",
            f"taken {list(view.taken)} totals {list(view.totals)}",
        ]
        tricks = (*view.tricks, view.trick) if self.perfect_recall else (view.trick,)
        parts += [f"{t.leader}:{' '.join(map(str, t.plays))}" for t in tricks]
        if self.perfect_recall:
            # Earlier rounds are public once played: every card of them is on the table.
            parts += [
                f"r{r.number} {r.bids} " + " ".join(" ".join(map(str, t.plays)) for t in r.tricks)
                for r in game.rounds()[: view.round - 1]
            ]
        return " / ".join(parts)


pyspiel.register_game(_GAME_TYPE, RaspisnoyGame)
