"""The PettingZoo environment: PettingZoo's own API test, and rewards that add up to the
game's totals."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip(
    "pettingzoo", reason="PettingZoo is not installed: pip install 'raspisnoy[research]'"
)
from pettingzoo.test import api_test

from raspisnoy.research.pettingzoo_env import env

PLAN = ("3", "2:blind", "3:misere", "2:golden", "1:forehead")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test() -> None:
    api_test(env(players=3, custom_plan=PLAN), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("seed", [1, 2])
def test_rewards_add_up_to_the_totals_and_masks_are_the_legal_moves(seed: int) -> None:
    game_env = env(players=4, custom_plan=PLAN, control_game=True, render_mode="ansi")
    game_env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    earned = dict.fromkeys(game_env.agents, 0.0)
    for agent in game_env.agent_iter():
        observation, reward, terminated, truncated, _ = game_env.last()
        earned[agent] += reward
        if terminated or truncated:
            game_env.step(None)
            continue
        mask = observation["action_mask"]
        legal = game_env.game.legal_actions()
        assert mask.sum() == len(legal)
        shown = game_env.render()
        assert shown is not None and "round" in shown
        game_env.step(int(rng.choice(np.flatnonzero(mask))))
    assert [earned[f"player_{seat}"] for seat in range(4)] == list(game_env.game.totals)
