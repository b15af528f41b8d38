"""OpenSpiel's ISMCTS plays raspisnoy against random players (docs/research.md).

    pip install "raspisnoy[research]"
    python examples/openspiel_ismcts.py --plan 1,2,3 --simulations 200 --games 3

Seat 0 is OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``)
with random rollouts; it samples the hidden cards through the game's
``resample_from_infostate``. The other seats play uniformly at random. Prints each
game's totals and ISMCTS's mean margin over the random seats.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import raspisnoy.research.openspiel_game  # noqa: F401  (registers "raspisnoy")


def play(game: pyspiel.Game, bot: ismcts.ISMCTSBot, rng: np.random.RandomState) -> list[float]:
    """One game: ISMCTS in seat 0, random players elsewhere; the final totals."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=chances)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.returns())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--preset", default="raspisnoy.com")
    parser.add_argument("--plan", default="1,2,3", help="custom_plan: the rounds to play")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(
        "raspisnoy", {"players": args.players, "preset": args.preset, "custom_plan": args.plan}
    )
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    margins = []
    for number in range(1, args.games + 1):
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng
        )
        totals = play(game, bot, rng)
        margins.append(totals[0] - float(np.mean(totals[1:])))
        print(f"game {number}: totals {totals}")
    print(f"ISMCTS minus the random seats' mean: {np.mean(margins):+.1f} points a game")


if __name__ == "__main__":
    main()
