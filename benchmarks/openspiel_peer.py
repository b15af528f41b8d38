"""OpenSpiel ``oh_hell`` as a speed reference for the raspisnoy engine benchmark.

Oh Hell is the closest relative of Raspisnoy poker that DeepMind's OpenSpiel ships, and
OpenSpiel's games are written in C++, so its throughput when driven from Python through the
public ``pyspiel`` API is a meaningful yardstick for our pure-Python engine.
``benchmarks/engine.py`` imports this module to print OpenSpiel's figures next to ours in the
same run (same machine, same interpreter) and to compute ratios.

The game is always loaded with the deal we benchmark: 4 players, a 36-card deck (4 suits of
9 ranks; OpenSpiel's ranks are 2..T rather than 6..A, which does not matter for speed) and
8 tricks, i.e. 8 cards per player plus one turned-up trump card. Extra parameters
(``off_bid_penalty``, ``points_per_trick``) can be passed through :func:`load_oh_hell`.

A "round" is one episode from ``new_initial_state()`` to terminal. Chance nodes (the number
of tricks, which ``num_tricks_fixed`` makes a single outcome; the dealer; each dealt card; the
trump card) are sampled with the probabilities returned by ``chance_outcomes()`` (they are all
uniform in ``oh_hell``); bids and card plays are chosen uniformly among ``legal_actions()``.
All randomness comes from an explicit ``random.Random(seed)``. The figures therefore include
the Python-side driving cost (pybind11 calls, list building, sampling), exactly the overhead
our own engine pays when it is driven from Python.

``pyspiel`` is an optional dependency (the ``bench`` extra); it is imported lazily, and
:func:`available` tells the caller whether it can be used.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyspiel

#: The clock every figure is timed by, here and in ``benchmarks/engine.py``: wall time, or
#: with ``use_cpu_time()`` this process's CPU time, which a busy shared machine disturbs
#: less (time spent waiting for a core is not counted, for either engine).
clock: Callable[[], float] = time.perf_counter


def use_cpu_time() -> None:
    """Time every figure by this process's CPU time instead of wall time."""
    global clock
    clock = time.process_time


GAME_NAME = "oh_hell"
FIXED_PARAMS: dict[str, int] = {
    "players": 4,
    "num_suits": 4,
    "num_cards_per_suit": 9,
    "num_tricks_fixed": 8,
}


def available() -> bool:
    """Return True when ``pyspiel`` (the ``open-spiel`` package) can be imported."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def load_oh_hell(**extra: bool | int) -> pyspiel.Game:
    """Load ``oh_hell`` with the fixed benchmark deal plus ``extra`` game parameters.

    ``extra`` may hold the other ``oh_hell`` parameters, e.g.
    ``load_oh_hell(off_bid_penalty=True, points_per_trick=1)``; it may not override
    :data:`FIXED_PARAMS`.
    """
    import pyspiel

    clash = FIXED_PARAMS.keys() & extra.keys()
    if clash:
        raise ValueError(f"fixed benchmark parameters cannot be overridden: {sorted(clash)}")
    return pyspiel.load_game(GAME_NAME, {**FIXED_PARAMS, **extra})


def _sample_chance(state: pyspiel.State, rng: random.Random) -> int:
    """Draw a chance outcome of ``state`` according to ``chance_outcomes()``."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    for action, probability in outcomes:
        r -= probability
        if r < 0.0:
            return int(action)
    return int(outcomes[-1][0])  # rounding left r >= 0 after the last outcome


def _random_playout(state: pyspiel.State, rng: random.Random) -> tuple[int, int]:
    """Play ``state`` to terminal at random; return (player actions, chance actions)."""
    actions = chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample_chance(state, rng))
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions, chance


def measure_rounds_per_second(
    seconds: float = 2.0, seed: int = 0, game: pyspiel.Game | None = None
) -> dict[str, float]:
    """Play random rounds for about ``seconds`` (at least one) and report the throughput.

    ``game`` defaults to :func:`load_oh_hell` with no extra parameters. The clock is checked
    after every round, so the run overshoots ``seconds`` by at most one round.
    """
    if game is None:
        game = load_oh_hell()
    rng = random.Random(seed)
    rounds = actions = chance = 0
    start = clock()
    while True:
        round_actions, round_chance = _random_playout(game.new_initial_state(), rng)
        rounds += 1
        actions += round_actions
        chance += round_chance
        elapsed = clock() - start
        if elapsed >= seconds:
            break
    return {
        "rounds": rounds,
        "seconds": elapsed,
        "rounds_per_s": rounds / elapsed,
        "actions_per_round": actions / rounds,
        "chance_per_round": chance / rounds,
    }


def _sample_decision_states(
    game: pyspiel.Game, count: int, rng: random.Random
) -> list[pyspiel.State]:
    """Return ``count`` decision states, one per random round, each at a uniformly chosen
    player decision (a bid or a card play) of that round."""
    states = []
    for _ in range(count):
        trajectory = []
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample_chance(state, rng))
            else:
                trajectory.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
        states.append(rng.choice(trajectory))
    return states


def measure_clone_and_legal_us(
    samples: int = 20000, seed: int = 0, game: pyspiel.Game | None = None, pool: int = 1000
) -> dict[str, float]:
    """Mean cost in microseconds of ``state.clone()`` and ``state.legal_actions()``.

    ``pool`` decision states are drawn from random rounds (see
    :func:`_sample_decision_states`), then each method is called ``samples`` times, cycling
    through the pool. Each figure is the loop's total time divided by ``samples``; the
    Python loop overhead (tens of nanoseconds) is included, and so is freeing the clone.
    """
    if game is None:
        game = load_oh_hell()
    states = _sample_decision_states(game, min(pool, samples), random.Random(seed))
    calls = [states[i % len(states)] for i in range(samples)]

    start = clock()
    for state in calls:
        state.clone()
    clone_s = clock() - start

    start = clock()
    for state in calls:
        state.legal_actions()
    legal_s = clock() - start

    return {
        "samples": samples,
        "states": len(states),
        "clone_us": clone_s / samples * 1e6,
        "legal_actions_us": legal_s / samples * 1e6,
        "mean_legal_actions": sum(len(s.legal_actions()) for s in states) / len(states),
    }


def measure_ismcts_simulations_per_s(
    max_simulations: int = 2000, seed: int = 0, game: pyspiel.Game | None = None
) -> dict[str, float]:
    """Time one ``ISMCTSBot.step`` with a one-rollout ``RandomRolloutEvaluator``.

    The state is the opening lead of a random deal (after all bids), where the leader has
    8 legal cards; a state with a single legal action would make ``step`` return at once.
    """
    import pyspiel

    if game is None:
        game = load_oh_hell()
    rng = random.Random(seed)
    state = game.new_initial_state()
    bids = 0
    while state.is_chance_node() or bids < game.num_players():
        if state.is_chance_node():
            state.apply_action(_sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            bids += 1
    bot = pyspiel.ISMCTSBot(
        seed,
        pyspiel.RandomRolloutEvaluator(1, seed),  # n_rollouts, seed
        2.0,  # uct_c
        max_simulations,
    )
    start = clock()
    bot.step(state)
    elapsed = clock() - start
    return {
        "simulations": max_simulations,
        "seconds": elapsed,
        "simulations_per_s": max_simulations / elapsed,
    }


def _report(title: str, figures: dict[str, Any]) -> None:
    print(title)
    for key, value in figures.items():
        print(f"  {key:>20}: {value:,.2f}" if isinstance(value, float) else f"  {key:>20}: {value}")


if __name__ == "__main__":
    if not available():
        raise SystemExit("OpenSpiel not installed (pip install open-spiel)")
    print(load_oh_hell())
    _report("random rounds", measure_rounds_per_second())
    _report("clone / legal_actions", measure_clone_and_legal_us())
    _report("ISMCTS step", measure_ismcts_simulations_per_s())
