"""Hand evaluation speed: raspisnoy.casino against eval7, treys and phevaluator (PyPI).

The same random 5- and 6-card hands go through every evaluator in one run; the table
gives hands per second and the ratio to ours. Ours is timed three ways: the pure kernel
(``ranking.rank5`` / ``best_key``, what the engine runs), ``evaluate`` (the combination's
name, the second combination and the pays on top), and the compiled kernel, called
from Python one hand at a time (as the peers are) and in a compiled loop (what the
advisor runs). Before timing, every peer is checked to order
hands as ours does. The last lines measure what evaluation costs inside one advice: the
advisor must not wait on its evaluator.

    .venv/bin/python benchmarks/casino_eval.py [--hands 200000] [--json]

The peers come with ``scripts/bootstrap bench`` (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from raspisnoy.casino import DECK, Card, evaluate
from raspisnoy.casino import ranking as pure
from raspisnoy.casino_advisor.advisor import advise
from raspisnoy.casino_advisor.fast import compiled

SUITS = "SCDH"


def _deals(count: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(DECK, size)) for _ in range(count)]


def _text(card: Card) -> str:
    return "23456789TJQKA"[card.rank - 2] + SUITS[card.suit or 0].lower()


def _peers() -> dict[str, tuple[Callable[[Sequence[Card]], Any], Callable[[Any], Any], bool]]:
    """Each installed peer: (convert a hand once, evaluate it, higher is better?)."""
    peers: dict[str, tuple[Callable[[Sequence[Card]], Any], Callable[[Any], Any], bool]] = {}
    try:
        import eval7

        peers["eval7 (Cython)"] = (
            lambda hand: [eval7.Card(_text(c)) for c in hand],
            eval7.evaluate,
            True,
        )
    except ImportError:
        pass
    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()

        def split(hand: Sequence[Card]) -> tuple[list[int], list[int]]:
            """treys takes two "hole" cards and the rest as the board."""
            converted = [TreysCard.new(_text(c)) for c in hand]
            return converted[:2], converted[2:]

        peers["treys (Python)"] = (
            split,
            lambda both: evaluator.evaluate(both[0], both[1]),
            False,
        )
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards

        # phevaluator numbers cards 4 * rank + suit, suits c d h s.
        peers["phevaluator (C)"] = (
            lambda hand: [4 * (c.rank - 2) + "CDHS".index(SUITS[c.suit or 0]) for c in hand],
            lambda ids: evaluate_cards(*ids),
            False,
        )
    except ImportError:
        pass
    return peers


def _rate(function: Callable[[Any], Any], inputs: Sequence[Any]) -> float:
    """Hands per second of ``function`` over ``inputs`` (the best of three passes)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for item in inputs:
            function(item)
        best = min(best, time.process_time() - started)
    return len(inputs) / best


def _check_order(
    name: str,
    convert: Callable[[Sequence[Card]], Any],
    run: Callable[[Any], Any],
    higher: bool,
    deals: Sequence[tuple[Card, ...]],
) -> None:
    """Refuse a peer that orders some pair of hands differently from ours."""
    ours = [pure.best_key([c.index for c in hand], len(hand)) for hand in deals]
    theirs = [run(convert(hand)) for hand in deals]
    sign = 1 if higher else -1
    for i in range(len(deals) - 1):
        a = (ours[i] > ours[i + 1]) - (ours[i] < ours[i + 1])
        b = (theirs[i] > theirs[i + 1]) - (theirs[i] < theirs[i + 1])
        if a != sign * b:
            raise SystemExit(f"{name} orders {deals[i]} and {deals[i + 1]} differently")


def _compiled_batch_rate(deals: Sequence[tuple[Card, ...]]) -> float | None:
    jit = compiled()
    if jit is None:
        return None
    import numba
    import numpy

    size = len(deals[0])
    table = numpy.array([[c.index for c in hand] for hand in deals], dtype=numpy.int64)
    best_key = jit.best_key

    @numba.njit(cache=False)
    def run(hands: Any, size: int) -> int:
        total = 0
        for row in range(hands.shape[0]):
            total += best_key(hands[row], size) & 1
        return total

    run(table[:10], size)
    return _rate(lambda rows: run(rows, size), [table]) * len(deals)


def _with_length(function: Callable[[Any, int], Any], hand: Any) -> Any:
    """``function(hand, len(hand))``: the kernels take a hand and its size."""
    return function(hand, len(hand))


def measure(hands: int, seed: int) -> dict[str, Any]:
    results: dict[str, Any] = {"hands": hands, "rows": []}
    for size in (5, 6):
        deals = _deals(hands, size, seed + size)
        indexes = [[c.index for c in hand] for hand in deals]
        rows = [
            ("raspisnoy kernel (pure)", _rate(partial(_with_length, pure.best_key), indexes)),
            ("raspisnoy evaluate (names, pays)", _rate(evaluate, deals[: hands // 4])),
        ]
        batch = _compiled_batch_rate(deals)
        jit = compiled()
        if batch is not None and jit is not None:
            import numpy

            arrays = [numpy.array(ix, dtype=numpy.int64) for ix in indexes]
            jit.best_key(arrays[0], size)
            per_call = partial(_with_length, jit.best_key)
            rows.append(("raspisnoy kernel (compiled, per call)", _rate(per_call, arrays)))
            rows.append(("raspisnoy kernel (compiled loop)", batch))
        for name, (convert, run, higher) in _peers().items():
            _check_order(name, convert, run, higher, deals[:2000])
            rows.append((name, _rate(run, [convert(hand) for hand in deals])))
        ours = rows[0][1]
        for name, rate in rows:
            results["rows"].append(
                {"cards": size, "evaluator": name, "hands_per_s": rate, "vs_ours_pure": rate / ours}
            )
    results["advisor"] = _advisor_share(seed)
    return results


def _advisor_share(seed: int) -> dict[str, float]:
    """CPU time of one advice, and of the evaluation inside it: the dealer's 163,185
    hands and the keys after a purchase of his game (about 3 million hands)."""
    from raspisnoy.casino_advisor.advisor import _Backend, _tables, _unknown

    rng = random.Random(seed)
    backend = _Backend(None)
    advise(tuple(DECK[:5]), DECK[5])  # compile
    total = tables = 0.0
    rounds = 5
    for _ in range(rounds):
        deal = rng.sample(DECK, 6)
        started = time.process_time()
        _tables(backend, deal[5], _unknown(deal))
        tables += time.process_time() - started
        total += advise(tuple(deal[:5]), deal[5]).seconds
    return {"advice_cpu_s": total / rounds, "tables_cpu_s": tables / rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    results = measure(args.hands, args.seed)
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    print(f"{'cards':>5}  {'evaluator':<34} {'hands/s':>12}  {'vs ours (pure)':>14}")
    for row in results["rows"]:
        print(
            f"{row['cards']:>5}  {row['evaluator']:<34} {row['hands_per_s']:>12,.0f}"
            f"  {row['vs_ours_pure']:>13.2f}x"
        )
    share = results["advisor"]
    print(
        f"\nOne advice: {share['advice_cpu_s']:.3f} s CPU, of which the dealer tables "
        f"(all his hands and purchases, evaluated) {share['tables_cpu_s']:.3f} s"
    )


if __name__ == "__main__":
    main()
