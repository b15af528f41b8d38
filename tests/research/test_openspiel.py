"""The OpenSpiel game: OpenSpiel's own random-simulation test for every preset, and the
information state is the seat's alone (a resampled world looks the same to it)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from raspisnoy.core import PRESETS

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install 'raspisnoy[research]'"
)
import raspisnoy.research.openspiel_game  # noqa: E402, F401  (registers "raspisnoy")

#: A short plan with a round of every kind, so that every preset plays them quickly.
PLAN = "2,1:blind,2:misere,1:golden,1:forehead,2:no-trump"
EXAMPLE = Path(__file__).parents[2] / "examples" / "openspiel_ismcts.py"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_simulations_of_every_preset(preset: str) -> None:
    game = pyspiel.load_game("raspisnoy", {"players": 3, "preset": preset, "custom_plan": PLAN})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_options_are_parameters_control_rounds_and_the_dealers_trump() -> None:
    game = pyspiel.load_game(
        "raspisnoy",
        {
            "players": 3,
            "custom_plan": "2,3",
            "control_game": "true",
            "trump_source": "dealer_last",
            "golden_percent": "200",
        },
    )
    assert game.rules.control_game and game.rules.golden_percent == 200
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


def test_a_bad_parameter_is_refused_by_name() -> None:
    with pytest.raises(Exception, match="golden_percent"):
        pyspiel.load_game("raspisnoy", {"golden_percent": "lots"})


def _play_to_a_decision(state, rng: random.Random, moves: int):  # type: ignore[no-untyped-def]
    """Random chance and moves until ``moves`` moves were made and a player is to act."""
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        elif made >= moves:
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    raise AssertionError("the game ended first")


@pytest.mark.parametrize("moves", [0, 1, 4, 7])
def test_a_resampled_world_looks_the_same_to_the_player(moves: int) -> None:
    """``resample_from_infostate`` redeals what the player has not seen: its information
    state (string and tensor) must not change, while the hidden hands do."""
    game = pyspiel.load_game("raspisnoy", {"players": 3, "custom_plan": "5,3:forehead"})
    rng = random.Random(moves)
    state = _play_to_a_decision(game.new_initial_state(), rng, moves)
    player = state.current_player()
    others_differ = False
    for draw in range(10):
        world = state.resample_from_infostate(player, lambda draw=draw: (draw + 0.5) / 10)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(
            world.information_state_tensor(player), state.information_state_tensor(player)
        )
        assert world.observation_string(player) == state.observation_string(player)
        assert world.legal_actions() == state.legal_actions()
        others_differ |= any(
            world.game.hand(seat) != state.game.hand(seat) for seat in range(3) if seat != player
        )
    assert others_differ


def test_the_ismcts_example_runs() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "1", "--simulations", "30", "--plan", "1,2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "ISMCTS minus the random seats' mean" in result.stdout
