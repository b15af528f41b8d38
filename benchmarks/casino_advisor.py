"""The advisor's accuracy and speed: its best option against the exact figures.

For random decision points (a box's five cards and the dealer's up card), the advisor
runs as the CLI runs it; then the options are computed again by the reference
enumeration (``advise(..., reference=True)``: every draw and every dealer hand counted by
plain searches and every purchase summed draw by draw, without the shortcuts the advisor
takes, which were checked against it and against a brute force in the tests): fold, bet,
the buy, every change of up to three cards, the changes of four cards that the advisor
valued within 0.02 ante of its best, and the chosen option whatever its size.
Reported: the error of the best option's value (|advised - exact|), the regret of the
choice (best exact value - exact value of the chosen option), and the advice's CPU
time p50 / p95 on one core. Then the purchase of the dealer's game: for random boxes
and dealer hands that do not qualify, ``advise_purchase`` against every card he may
draw settled with ``settle_box``.

    .venv/bin/python benchmarks/casino_advisor.py [--positions 50] [--purchases 50] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from raspisnoy.casino import DECK, Card, dealer_after_purchase, evaluate, settle_box
from raspisnoy.casino_advisor.advisor import Advice, advise, advise_purchase

#: Enumerate exchanges of up to three cards exactly (15,180 draws each).
EXACT_DRAWS = 15_180
#: Four-card changes valued within this much of the best are enumerated too (regret).
CLOSE = 0.02


def reference(box: tuple[Card, ...], up: Card, advice: Advice) -> dict[str, float]:
    """The reference enumeration's exact values of the options the check needs."""
    exact = advise(box, up, exact_draws=EXACT_DRAWS, exact_contenders=0, reference=True)
    values = {o.option: o.value for o in exact.options if o.method == "exact"}
    wanted = {advice.best.option} | {
        o.option
        for o in advice.options
        if o.option.startswith("change") and o.value >= advice.best.value - CLOSE
    }
    missing = wanted - set(values)
    if missing:
        more = advise(box, up, exact_draws=10**7, only=missing, reference=True)
        values.update({o.option: o.value for o in more.options if o.option in missing})
    return values


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
        values = reference(box, up, advice)
        rows.append(
            {
                "cards": " ".join(map(str, box)),
                "up": str(up),
                "best": best.option,
                "method": best.method,
                "stated_error": best.error,
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
    kinds: dict[str, int] = {}
    for row in rows:
        kind = _kind(row["best"])
        kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "positions": positions,
        "best_options": dict(sorted(kinds.items())),
        "best_exact": sum(row["method"] == "exact" for row in rows),
        "max_error": errors[-1],
        "p95_error": errors[min(len(errors) - 1, int(0.95 * len(errors)))],
        "within_0.01": sum(e <= 0.01 for e in errors) / len(errors),
        "mean_regret": statistics.fmean(row["regret"] for row in rows),
        "max_regret": max(row["regret"] for row in rows),
        "advice_cpu_p50_s": times[len(times) // 2],
        "advice_cpu_p95_s": times[min(len(times) - 1, int(0.95 * len(times)))],
        "rows": rows,
    }


def _kind(option: str) -> str:
    """``fold``, ``bet``, ``buy`` or ``change N``."""
    if option.startswith("change"):
        return f"change {len(option.split()) - 1}"
    return option


def _brute_purchase(box: tuple[Card, ...], dealer: tuple[Card, ...]) -> float:
    """Buying the dealer's game: every card he may draw, each settled by ``settle_box``."""
    unknown = [c for c in DECK if c not in box and c not in dealer]
    nets = [
        settle_box(1, box, dealer, dealer_bought=dealer_after_purchase(dealer, card)).net
        for card in unknown
    ]
    return sum(nets) / len(nets)


def measure_purchases(count: int, seed: int) -> dict[str, Any]:
    """``advise_purchase`` against the brute force, for boxes of 5 or 6 cards that bet
    against a dealer who does not qualify."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    while len(rows) < count:
        deal = rng.sample(DECK, 11)
        box, dealer = tuple(deal[: 5 + len(rows) % 2]), tuple(deal[6:])
        if evaluate(dealer).qualifies:
            continue
        advice = advise_purchase(box, dealer)
        advised = next(o.value for o in advice.options if o.option == "buy-dealer")
        exact = _brute_purchase(box, dealer)
        rows.append(
            {
                "cards": " ".join(map(str, box)),
                "dealer": " ".join(map(str, dealer)),
                "best": advice.best.option,
                "advised": advised,
                "exact": exact,
                "error": abs(advised - exact),
                "advice_cpu_s": advice.seconds,
            }
        )
    times = sorted(row["advice_cpu_s"] for row in rows)
    return {
        "positions": count,
        "max_error": max(row["error"] for row in rows),
        "bought": sum(row["best"] == "buy-dealer" for row in rows),
        "advice_cpu_p95_s": times[min(len(times) - 1, int(0.95 * len(times)))],
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--purchases", type=int, default=50)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    results = measure(args.positions, args.seed)
    results["purchase"] = measure_purchases(args.purchases, args.seed)
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
    print(f"Best options: {results['best_options']}, exact: {results['best_exact']}")
    purchase = results["purchase"]
    print(
        f"Dealer's game: {purchase['positions']} purchases, max error"
        f" {purchase['max_error']:.2e}, bought {purchase['bought']},"
        f" CPU p95 {purchase['advice_cpu_p95_s']:.3f} s"
    )


if __name__ == "__main__":
    main()
