"""Build the casino strategy table from the advisor, and measure how well it plays.

``build`` deals random decision points (``strategy.sample_positions``), runs the advisor
on each (every option, sampling seeded by the position's number, no CPU budget, so the
table depends on the seed only) and writes the table (``strategy.build_table``).
``check`` deals other decision points and compares the table's decision with the
advisor's best: how often they agree, and the advisor's value lost by the table's choice
(its value from the same advice where listed, else the advisor valuing that option alone),
mean and 95% CI. It also checks the bet-or-fold after an exchange: one random draw for
each position whose table decision is an exchange, the threshold's choice against the
advisor's exact bet value.

    nice -n 19 .venv/bin/python benchmarks/casino_strategy.py build --positions 1600 \\
        --workers 2 --out src/raspisnoy/casino_advisor/data/strategy.json
    nice -n 19 .venv/bin/python benchmarks/casino_strategy.py check --positions 300 \\
        --workers 2 --out benchmarks/results/casino-strategy.json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from raspisnoy.casino import DECK
from raspisnoy.casino_advisor.advisor import advise
from raspisnoy.casino_advisor.strategy import (
    Position,
    Strategy,
    advisor_values,
    build_table,
    load_strategy,
    sample_positions,
)

Z95 = 1.959964


def _valued(job: tuple[int, Position]) -> dict[str, float]:
    number, position = job
    return advisor_values(position, number)


def _in_pool(function: Any, jobs: list[Any], workers: int) -> list[Any]:
    results: list[Any] = []
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for result in pool.imap(function, jobs, chunksize=4):
            results.append(result)
            elapsed = time.perf_counter() - started
            sys.stderr.write(f"\r{len(results)}/{len(jobs)} positions, {elapsed:.0f} s ")
    sys.stderr.write("\n")
    return results


def build(positions: int, seed: int, workers: int, values: Path | None) -> Strategy:
    """The table; with ``values``, the advisor's values are read from that file if it
    exists (the same positions and seed), else written to it, so that a table can be
    rebuilt from them without running the advisor again."""
    dealt = sample_positions(positions, seed)
    if values is not None and values.exists():
        saved = json.loads(values.read_text())
        if saved["positions"] != positions or saved["seed"] != seed:
            raise SystemExit(f"{values}: values of other positions")
        valued = saved["values"]
    else:
        valued = _in_pool(_valued, list(enumerate(dealt)), workers)
        if values is not None:
            values.write_text(json.dumps({"positions": positions, "seed": seed, "values": valued}))
    return build_table(dealt, valued)


def _checked(job: tuple[int, Position]) -> dict[str, Any]:
    number, (cards, up) = job
    strategy = load_strategy()
    box = [DECK[c] for c in cards]
    advice = advise(box, DECK[up], seed=number)
    values = {option.option: option for option in advice.options}
    choice = strategy.decide(box, DECK[up])
    if choice in values:
        chosen = values[choice]
    else:
        alone = advise(box, DECK[up], seed=number, only={choice})
        chosen = next(option for option in alone.options if option.option == choice)
    row: dict[str, Any] = {
        "cards": " ".join(map(str, box)),
        "up": str(DECK[up]),
        "advisor": advice.best.option,
        "advisor_ev": advice.best.value,
        "table": choice,
        "table_ev": chosen.value,
        "table_error": chosen.error,
        "kind": strategy.ranking(cards, up)[0],
    }
    if choice.startswith("change") or choice == "buy":
        rng = random.Random(number)
        unknown = [card for card in DECK if card not in box and card != DECK[up]]
        changed = [DECK[c] for c in cards if str(DECK[c]) in choice.split()[1:]]
        kept = [card for card in box if card not in changed]
        drawn = rng.sample(unknown, 6 - len(kept) if choice == "buy" else len(changed))
        after = [*kept, *drawn]
        exact = advise(after, DECK[up], seen=changed, exchange=False, only={"bet"})
        bet = next(option.value for option in exact.options if option.option == "bet")
        best = "bet" if bet > -1.0 else "fold"
        decided = strategy.after_exchange(after, DECK[up])
        row["after"] = {"cards": " ".join(map(str, after)), "advisor": best, "table": decided}
        row["after_loss"] = abs(bet + 1.0) if best != decided else 0.0
    return row


def check(positions: int, seed: int, workers: int) -> dict[str, Any]:
    rng = random.Random(seed)
    dealt_positions: list[Position] = []
    for _ in range(positions):
        deal = rng.sample(range(52), 6)
        dealt_positions.append((tuple(deal[:5]), deal[5]))
    rows = _in_pool(_checked, list(enumerate(dealt_positions)), workers)
    losses = [max(0.0, row["advisor_ev"] - row["table_ev"]) for row in rows]
    n = len(rows)
    mean = statistics.fmean(losses)
    half = Z95 * statistics.stdev(losses) / math.sqrt(n) if n > 1 else 0.0
    after = [row for row in rows if "after" in row]
    return {
        "positions": n,
        "agreement": sum(row["advisor"] == row["table"] for row in rows) / n,
        "ev_lost_mean": mean,
        "ev_lost_ci95": [mean - half, mean + half],
        "ev_lost_max": max(losses),
        "after_exchange_positions": len(after),
        "after_exchange_agreement": (
            sum(row["after"]["advisor"] == row["after"]["table"] for row in after) / len(after)
            if after
            else None
        ),
        "after_exchange_ev_lost_mean": (
            statistics.fmean(row["after_loss"] for row in after) if after else None
        ),
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("build", "check"))
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="Where to write the table or the figures.")
    parser.add_argument("--values", type=Path, help="build: the advisor's values, kept here.")
    args = parser.parse_args()
    command = " ".join(["benchmarks/casino_strategy.py", *sys.argv[1:]])
    if args.what == "build":
        table = build(args.positions, args.seed, args.workers, args.values).to_json()
        table["command"] = command
        text = json.dumps(table, separators=(",", ":"), sort_keys=True) + "\n"
        if args.out:
            args.out.write_text(text)
        else:
            sys.stdout.write(text)
        return
    figures = {"command": command, **check(args.positions, args.seed, args.workers)}
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1) + "\n")
    summary = {k: v for k, v in figures.items() if k != "rows"}
    json.dump(summary, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
