"""The house edge of casino Russian poker under the advisor's strategy, with its 95% CI.

Every hand is one box of ante 1 dealt by the engine (``CasinoHand``, seed
``SEED/N``), played with the advisor's best option at each decision: the box's decision
(fold, bet, buy, a change), bet or fold after an exchange (the cards changed away are
known), and the purchase of the dealer's game. Two estimates come out of the same hands:

* **played**: the mean net of the hands as dealt and settled;
* **expected**: the mean of the advisor's value of the option it chose at the box's
  decision, the expected net given the box's cards and the up card. It has the same
  mean as the played net, less spread (the dealer's cards are summed out), so its CI is
  narrower for the same number of hands; where that option was sampled its own error
  is added to the CI.

The house edge is minus the mean net per ante. Workers play independent blocks of hands;
progress goes to standard error. The advisor's processor time per decision (p50, p95)
is reported as well.

    .venv/bin/python benchmarks/casino_edge.py --hands 400 --workers 2
    .venv/bin/python benchmarks/casino_edge.py --hands 1000000 --workers 64 --out FILE
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from raspisnoy.casino import CasinoHand, Phase
from raspisnoy.casino.advisor import advise, advise_purchase

Z95 = 1.959964
BLOCK = 50


@dataclass(frozen=True, slots=True)
class Played:
    """One hand: its net, the chosen option's expected value and error, the advice time."""

    net: int
    expected: float
    error: float
    choice: str
    advice_s: float


def play_hand(seed: str, budget_s: float) -> Played:
    hand = CasinoHand([1], 10**6, seed)
    cards, up = hand.box_cards(0), hand.up_card
    advice = advise(cards, up, seed=zlib.crc32(seed.encode()), budget_s=budget_s)
    best = advice.best
    hand.apply(best.option)
    if hand.phase is Phase.DECIDE:  # after a buy or a change: bet or fold
        changed = [card for card in cards if card not in hand.box_cards(0)]
        after = advise(hand.box_cards(0), up, seen=changed, exchange=False, only={"bet"})
        hand.apply(after.best.option)
    if hand.phase is Phase.PURCHASE:
        view = hand.view()
        assert view.dealer is not None
        hand.apply(advise_purchase(hand.box_cards(0), view.dealer).best.option)
    kind = best.option.split()[0]
    if kind == "change":
        kind = f"change {len(best.option.split()) - 1}"
    return Played(hand.results[0].net, best.value, best.error, kind, advice.seconds)


def play_block(job: tuple[str, int, int, float]) -> list[Played]:
    seed, start, stop, budget_s = job
    return [play_hand(f"{seed}/{number}", budget_s) for number in range(start, stop)]


def summarize(played: list[Played], seconds: float) -> dict[str, Any]:
    n = len(played)
    nets = [p.net for p in played]
    expected = [p.expected for p in played]
    mean_net, mean_expected = statistics.fmean(nets), statistics.fmean(expected)
    half_net = Z95 * statistics.stdev(nets) / math.sqrt(n)
    # The sampled values' own errors (95% half-widths) add in quadrature, averaged.
    sampling = math.sqrt(sum((p.error / Z95) ** 2 for p in played)) / n * Z95
    half_expected = math.hypot(Z95 * statistics.stdev(expected) / math.sqrt(n), sampling)
    times = sorted(p.advice_s for p in played)
    return {
        "hands": n,
        "house_edge_played": -mean_net,
        "ci95_played": [-mean_net - half_net, -mean_net + half_net],
        "house_edge_expected": -mean_expected,
        "ci95_expected": [-mean_expected - half_expected, -mean_expected + half_expected],
        "choices": dict(Counter(p.choice for p in played).most_common()),
        "advice_cpu_p50_s": times[n // 2],
        "advice_cpu_p95_s": times[min(n - 1, math.ceil(0.95 * n) - 1)],
        "wall_s": seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="edge")
    parser.add_argument("--budget", type=float, default=0.5, help="Advisor CPU budget, s.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument("--out", type=Path, help="Also write the JSON figures here.")
    args = parser.parse_args()
    jobs = [
        (args.seed, start, min(start + BLOCK, args.hands), args.budget)
        for start in range(0, args.hands, BLOCK)
    ]
    started = time.perf_counter()
    played: list[Played] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for block in pool.imap_unordered(play_block, jobs):
            played += block
            elapsed = time.perf_counter() - started
            left = elapsed / len(played) * (args.hands - len(played))
            sys.stderr.write(
                f"\r{len(played)}/{args.hands} hands, {elapsed:.0f} s, ~{left:.0f} s left "
            )
    sys.stderr.write("\n")
    results = summarize(played, time.perf_counter() - started)
    results["command"] = " ".join(["benchmarks/casino_edge.py", *sys.argv[1:]])
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    print(f"Hands: {results['hands']} (one box, ante 1, the advisor's strategy)")
    for kind in ("played", "expected"):
        low, high = results[f"ci95_{kind}"]
        print(
            f"House edge ({kind}): {results[f'house_edge_{kind}']:+.4f} ante"
            f"  95% CI {low:+.4f} .. {high:+.4f}"
        )
    print("Decisions: " + ", ".join(f"{k} {v}" for k, v in results["choices"].items()))
    print(
        f"Advice CPU time: p50 {results['advice_cpu_p50_s']:.3f} s,"
        f" p95 {results['advice_cpu_p95_s']:.3f} s; wall {results['wall_s']:.0f} s"
    )


if __name__ == "__main__":
    main()
