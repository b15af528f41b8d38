"""Raspisnoy as a PettingZoo AEC environment: ``env(players=4, preset="raspisnoy.com")``.

Needs the optional extra (``pip install raspisnoy[research]``). Agents ``player_0`` …
act in turn (bids, cards and, in a control game, the control round's choice); the deal
is the engine's own, shuffled from ``reset(seed=...)``. Each agent observes a dict:
``observation``, the information-state tensor of ``raspisnoy.research.encoding`` (what
the seat knows, perfect-recall within the round), and ``action_mask``, its legal
actions now (all zero when it is not its turn). At the end of every round each agent is
rewarded with its points for it, so an agent's total reward is its final score. Other
keyword arguments are rules options (``env(preset="classic", golden_percent=200)``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from raspisnoy.core import Game, resolve_rules
from raspisnoy.research.encoding import Encoding

__all__ = ["RaspisnoyEnv", "env"]


def env(**kwargs: Any) -> RaspisnoyEnv:
    """A new environment (see the module docstring); ``render_mode="ansi"`` renders text."""
    return RaspisnoyEnv(**kwargs)


class RaspisnoyEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "raspisnoy_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        preset: str = "raspisnoy.com",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(preset, **options)
        self.players = players
        Game(self.rules, players)  # checks the player count
        self.encoding = Encoding.of(self.rules, players)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        size = self.encoding.size(perfect_recall=True)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoding.actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(
            self.possible_agents, spaces.Discrete(self.encoding.actions)
        )
        self.game = Game(self.rules, players, seed=0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self.game = Game(self.rules, self.players, seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent_to_act()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.encoding.actions, dtype=np.int8)
        if self.game.to_act == seat and not self.game.is_over:
            mask[[self.encoding.encode(action) for action in self.game.legal_actions()]] = 1
        tensor = self.encoding.tensor(self.game, seat, perfect_recall=True)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        finished = self._finished_rounds()
        self.game.apply(self.encoding.decode(int(action)), self.possible_agents.index(agent))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        scores = self.game.view(None).scores
        if len(scores) > finished:  # a round ended: each seat earns its points for it
            for seat, points in enumerate(scores[-1]):
                self.rewards[self.possible_agents[seat]] = float(points)
        if self.game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()

    def _finished_rounds(self) -> int:
        return len(self.game.view(None).scores)

    def _agent_to_act(self) -> str:
        seat = self.game.to_act
        if seat is None or self.game.is_over:
            return self.agents[0] if self.agents else self.possible_agents[0]
        return self.possible_agents[seat]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        game = self.game
        hands = " | ".join(" ".join(map(str, game.hand(seat))) for seat in range(game.players))
        return (
            f"round {game.round.number} ({game.round.kind}), trump {game.trump_card}, "
            f"bids {list(game.bids)}, hands {hands}, trick "
            f"{' '.join(map(str, game.trick.plays))}, totals {list(game.totals)}"
        )

    def close(self) -> None:
        """Nothing to release."""
