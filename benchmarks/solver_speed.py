"""How long the exact solver (``raspisnoy.bots.solver``) takes to solve the last k tricks
of a round with every hand known.

Deals ``--deals`` random 8-card rounds of ``--rules`` for 4 players (bids at random),
plays each by the playout policy down to k tricks left, and times one solve for the
first seat with a cleared transposition table, for k = 1 … ``--tricks``: the median,
mean and largest time per solve, in microseconds of wall time (a loaded machine inflates
them). The first solve of the process loads the compiled code and is not timed.

Run: ``nice -n 10 .venv/bin/python benchmarks/solver_speed.py --deals 200 --json speed.json``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import print_figures
from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.solver import Table, solve
from raspisnoy.core import Game, Phase, resolve_rules

_CARDS = 8
_PLAYERS = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--tricks", type=int, default=5)
    parser.add_argument("--rules", default="raspisnoy.com")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rules = resolve_rules(args.rules, custom_plan=(str(_CARDS),))
    table = Table.empty()
    times: dict[int, list[float]] = {k: [] for k in range(1, args.tricks + 1)}
    for deal in range(args.deals):
        state, vector, score = _dealt(rules, deal)
        for tricks, spent in times.items():
            ending = _down_to(state, vector, tricks)
            table.clear()
            start = time.perf_counter()
            solve(ending, vector, score, 0, table)
            if deal:  # the first loads the compiled code
                spent.append(time.perf_counter() - start)
    figures: dict[str, Any] = {"deals": args.deals}
    for tricks, spent in times.items():
        micro = [1e6 * t for t in spent]
        figures[f"last {tricks} tricks, µs median"] = round(statistics.median(micro), 1)
        figures[f"last {tricks} tricks, µs mean"] = round(statistics.fmean(micro), 1)
        figures[f"last {tricks} tricks, µs max"] = round(max(micro), 1)
    print_figures("Exact solver, time per solve", figures, args.json)


def _dealt(rules: Any, deal: int) -> tuple[fs.Int64s, fs.Int64s, fs.Int64s]:
    """A round of ``rules`` dealt by seed ``deal``, bid at random: its state, rules
    vector and score table."""
    game = Game(rules, _PLAYERS, seed=deal)
    rng = random.Random(deal)
    while game.phase is Phase.BID:
        game.apply(rng.choice(game.legal_actions()))
    kind = game.round.kind
    return fs.encode_game(game), fs.rules_vector(rules, kind), fs.score_table(rules, kind, _CARDS)


def _down_to(state: fs.Int64s, rules: fs.Int64s, tricks: int) -> fs.Int64s:
    """A copy of ``state`` played on by the playout policy until ``tricks`` are left."""
    ending = state.copy()
    while ending[fs.S_CARDS] - ending[fs.S_TRICKS] > tricks:
        fs.apply_action(ending, rules, fs.policy_action(ending, rules))
    return ending


if __name__ == "__main__":
    main()
