"""The advisor's accuracy and speed: its best option against the exact figures.

For random decision points (a box's five cards and the dealer's up card), the advisor
runs as the CLI runs it (exact bet and one-card exchanges, sampled larger changes within
a CPU budget); then every option that can be enumerated in reasonable time (fold, bet,
the buy, changes of up to three cards, and the chosen option whatever its size) is
computed exactly. Reported: the error of the best option's value (|advised - exact|),
the regret of the choice (best exact value - exact value of the chosen option), and the
advice's CPU time p50 / p95 on one core.

    .venv/bin/python benchmarks/casino_advisor.py [--positions 30] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from raspisnoy.casino import DECK
from raspisnoy.casino.advisor import advise

#: Enumerate exchanges of up to three cards exactly (15,180 draws each).
EXACT_DRAWS = 15_180


def measure(positions: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    advise(tuple(DECK[:5]), DECK[5])  # compile outside the timings
    rows: list[dict[str, Any]] = []
    for number in range(positions):
        deal = rng.sample(DECK, 6)
        box, up = tuple(deal[:5]), deal[5]
        advice = advise(box, up, seed=number)
        best = advice.best
        started = time.process_time()
        exact = advise(box, up, exact_draws=EXACT_DRAWS)
        values = {o.option: o.value for o in exact.options if o.method == "exact"}
        if best.option not in values:
            chosen = advise(box, up, exact_draws=10**7, only={best.option})
            values[best.option] = next(o.value for o in chosen.options if o.option == best.option)
        rows.append(
            {
                "cards": " ".join(map(str, box)),
                "up": str(up),
                "best": best.option,
                "method": best.method,
                "advised": best.value,
                "exact": values[best.option],
                "error": abs(best.value - values[best.option]),
                "regret": max(values.values()) - values[best.option],
                "best_exact_option": max(values, key=values.__getitem__),
                "advice_cpu_s": advice.seconds,
                "exact_cpu_s": time.process_time() - started,
            }
        )
        sys.stderr.write(f"\r{number + 1}/{positions} positions ")
    sys.stderr.write("\n")
    times = sorted(row["advice_cpu_s"] for row in rows)
    errors = sorted(row["error"] for row in rows)
    return {
        "positions": positions,
        "max_error": errors[-1],
        "p95_error": errors[min(len(errors) - 1, int(0.95 * len(errors)))],
        "within_0.01": sum(e <= 0.01 for e in errors) / len(errors),
        "mean_regret": statistics.fmean(row["regret"] for row in rows),
        "max_regret": max(row["regret"] for row in rows),
        "advice_cpu_p50_s": times[len(times) // 2],
        "advice_cpu_p95_s": times[min(len(times) - 1, int(0.95 * len(times)))],
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    results = measure(args.positions, args.seed)
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    head = f"{'cards':<16} {'up':<3} {'advised option':<22} {'method':<8}"
    print(f"{head} {'advised':>8} {'exact':>8}")
    for row in results["rows"]:
        print(
            f"{row['cards']:<16} {row['up']:<3} {row['best']:<22} {row['method']:<8}"
            f" {row['advised']:>+8.4f} {row['exact']:>+8.4f}"
        )
    print(
        f"\nBest option's error: max {results['max_error']:.4f}, p95 {results['p95_error']:.4f},"
        f" within 0.01 ante: {results['within_0.01']:.0%}"
    )
    print(
        f"Regret of the choice: mean {results['mean_regret']:.4f}, max {results['max_regret']:.4f}"
    )
    print(
        f"Advice CPU time: p50 {results['advice_cpu_p50_s']:.3f} s,"
        f" p95 {results['advice_cpu_p95_s']:.3f} s"
    )


if __name__ == "__main__":
    main()
