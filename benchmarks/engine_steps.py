"""What one step of the engine costs: each kind of action, a clone, a view and the log.

``benchmarks/engine.py`` gives whole playouts; this gives their parts, to say what a change
to the engine bought. Random 4 × 8 states (a plan of two rounds) are sorted by the action
drawn for them: a bid, the dealer's bid (the play starts), a lead, a follow, the card that
ends a trick, the card that ends a round (scoring and the next deal). Each figure is the
CPU time of ``clone().apply(action)`` less that of ``clone()``, the least of ``--repeats``
passes over the states (a busy shared machine only ever adds). Then, at round 20 of
random ``raspisnoy.com`` games (four players): ``clone()``, ``view()`` and ``events``.

``--baseline OTHER/src`` measures another tree's engine too (in a subprocess,
``PYTHONPATH=OTHER/src``), the two in turn ``--runs`` times, and prints the least of each.
``--instructions`` counts each step's instructions with valgrind instead (as
``engine_instructions.py`` does playouts): a count repeats whatever the load, where the
CPU time of a step of half a microsecond swings by half.

    .venv/bin/python benchmarks/engine_steps.py [--baseline /tmp/base/src] [--runs 3]
    .venv/bin/python benchmarks/engine_steps.py --instructions [--baseline /tmp/base/src]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

# Run as a script, this file's folder is on sys.path: its neighbours are importable.
from engine_instructions import count_instructions
from raspisnoy.core import Action, Bid, Game, resolve_rules

STEPS = ("bid", "dealer's bid", "lead", "follow", "trick's end", "round's end")


def _step_of(game: Game, action: Action) -> str:
    """Which of ``STEPS`` applying ``action`` to ``game`` is."""
    if isinstance(action, Bid):
        return "dealer's bid" if game.to_act == game.dealer else "bid"
    played = len(game.trick.plays)
    if played == 0:
        return "lead"
    if played < game.players - 1:
        return "follow"
    last_trick = len(game.rounds()[-1].tricks) == game.round.cards
    return "round's end" if last_trick else "trick's end"


def _least(call: Callable[[], object], repeats: int) -> float:
    """The least CPU seconds of ``repeats`` calls."""
    least = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        call()
        least = min(least, time.process_time() - start)
    return least


def _cases(states: int) -> dict[str, list[tuple[Game, Action]]]:
    """Random states of 4 players × 8 cards and the action drawn for each, by ``STEPS``."""
    rules, rng = resolve_rules(custom_plan=("8", "8")), random.Random(3)
    cases: dict[str, list[tuple[Game, Action]]] = {step: [] for step in STEPS}
    for seed in range(states):
        game = Game(rules, 4, seed=seed)
        for _ in range(rng.randrange(36) if seed % 3 else 35):  # a third at a round's end
            game.apply(rng.choice(game.legal_actions()))
        action = rng.choice(game.legal_actions())
        cases[_step_of(game, action)].append((game, action))
    return cases


def step_costs(states: int, repeats: int) -> dict[str, float]:
    """µs of each of ``STEPS``, over random states of 4 players × 8 cards."""
    costs = {}
    for step, items in _cases(states).items():
        both = _least(partial(_clone_and_apply, items), repeats)
        clones = _least(partial(_clone, items), repeats)
        costs[step] = (both - clones) / max(len(items), 1) * 1e6
    return costs


def _clone_and_apply(items: list[tuple[Game, Action]]) -> None:
    for game, action in items:
        game.clone().apply(action)


def _clone(items: list[tuple[Game, Action]]) -> None:
    for game, _ in items:
        game.clone()


def _each(call: Callable[[Game], object], games: list[Game]) -> None:
    for game in games:
        call(game)


def late_costs(games: int, repeats: int) -> dict[str, float]:
    """µs of ``clone()``, ``view()`` and ``events`` at round 20 of ``raspisnoy.com`` games."""
    rng, states = random.Random(1), []
    for seed in range(games):
        game = Game("raspisnoy.com", 4, seed=seed)
        while game.round.number < 20:
            game.apply(rng.choice(game.legal_actions()))
        states.append(game)
    calls: dict[str, Callable[[Game], object]] = {
        "clone at round 20": Game.clone,
        "view at round 20": lambda game: game.view(game.to_act),
        "events at round 20": lambda game: game.events,
    }
    return {
        name: _least(partial(_each, call, states), repeats) / games * 1e6
        for name, call in calls.items()
    }


STATES = 600  # random states, sorted by step
#: Passes over a step's states that an instruction count measures (``--instructions``).
COUNTED_PASSES = 5


def measure() -> dict[str, float]:
    return {**step_costs(STATES, 60), **late_costs(50, 30)}


def _count_child(step: str, with_apply: bool) -> None:
    """A child that ``step_instructions`` counts: the states, one pass of
    ``clone().apply(action)`` over the step's (caches filled on first use are filled in
    both children), then ``COUNTED_PASSES`` passes of the same or of ``clone()`` alone."""
    items = _cases(STATES)[step]
    _clone_and_apply(items)
    gc.collect()
    gc.freeze()
    counted = _clone_and_apply if with_apply else _clone
    for _ in range(COUNTED_PASSES):
        counted(items)


def step_instructions(source: Path) -> dict[str, float]:
    """Instructions (valgrind) of each of ``STEPS`` with the engine of ``source``: a child
    applying the step's actions less one only cloning, per action (the call of ``apply``
    included). Load-independent, where ``step_costs`` swings with the machine's load."""
    counts = {}
    for step in STEPS:
        runs = [
            count_instructions([__file__, "--count-child", step, mode], source)
            for mode in ("apply", "clone")
        ]
        counts[step] = (runs[0] - runs[1]) / COUNTED_PASSES / len(_cases(STATES)[step])
    return counts


def _in_tree(source: Path) -> dict[str, float]:
    """``measure()`` run with another tree's code."""
    environment = {**os.environ, "PYTHONPATH": str(source)}
    command = [sys.executable, __file__, "--json-out"]
    output = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(output.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count each step's instructions with valgrind instead of timing it",
    )
    parser.add_argument("--json-out", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json_out:
        print(json.dumps(measure()))
        return
    if args.count_child:
        step, mode = args.count_child
        _count_child(step, mode == "apply")
        return
    trees: dict[str, Path] = {"this tree": Path(__file__).resolve().parents[1] / "src"}
    if args.baseline is not None:
        trees = {"baseline": args.baseline, **trees}
    if args.instructions:
        _print_instructions({name: step_instructions(source) for name, source in trees.items()})
        return
    least: dict[str, dict[str, float]] = {name: {} for name in trees}
    for _ in range(args.runs):
        for name, source in trees.items():
            for key, value in _in_tree(source).items():
                least[name][key] = min(value, least[name].get(key, value))
    print(f"load average {os.getloadavg()[0]:.2f}; µs, the least of {args.runs} runs")
    print(f"{'':<20}" + "".join(f"{name:>12}" for name in trees))
    for key in least["this tree"]:
        print(f"{key:<20}" + "".join(f"{least[name][key]:>12.2f}" for name in trees))


def _print_instructions(counts: dict[str, dict[str, float]]) -> None:
    print("thousand instructions per step (valgrind; the call of apply included)")
    print(f"{'':<20}" + "".join(f"{name:>12}" for name in counts))
    for step in STEPS:
        print(f"{step:<20}" + "".join(f"{counts[name][step] / 1e3:>12.2f}" for name in counts))


if __name__ == "__main__":
    main()
