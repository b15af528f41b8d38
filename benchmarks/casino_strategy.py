"""Build the casino strategy table from exact values, and measure how well it plays.

``build`` deals a fixed list of decision points (``strategy.sample_positions``), values
every option the table's rules name at each exactly (``strategy.exact_values``: every
dealer hand and every draw enumerated, nothing sampled, so the values depend on no
seed) and writes the table (``strategy.build_table``). The values are appended to
``--values`` as each position ends, and a build run again continues from them: first
every option but the change of all five cards (some 80% of the CPU time), then that
change, the weakest positions first (``--no-all`` leaves it out: the table is then
built from what is there, and ranks ``all`` last where it is missing).
``check`` deals other decision points and compares the table's decision with the
advisor's best: how often they agree, and the advisor's value lost by the table's choice
(its value from the same advice where listed, else the advisor valuing that option alone),
mean and 95% CI. It also checks the bet-or-fold after an exchange: one random draw for
each position whose table decision is an exchange, the threshold's choice against the
advisor's exact bet value.

    nice -n 19 .venv/bin/python benchmarks/casino_strategy.py build --positions 800 \\
        --workers 4 --out src/raspisnoy/casino_advisor/data/strategy.json
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from raspisnoy.casino import DECK
from raspisnoy.casino_advisor.advisor import advise
from raspisnoy.casino_advisor.strategy import (
    RULES,
    Position,
    Strategy,
    build_table,
    exact_values,
    load_strategy,
    option_of,
    sample_positions,
)

Z95 = 1.959964


#: The rule whose exchange (all five cards, 1,370,754 draws) costs some 80% of a
#: position's CPU time: the build values it in a second pass, after every other option.
ALL = "all"


def _valued(job: tuple[int, Position, bool]) -> tuple[int, dict[str, float]]:
    """One position's exact values: every rule but ``all`` (first pass) or ``all`` alone."""
    number, position, last = job
    rules = [ALL] if last else [rule for rule in RULES if rule != ALL]
    return number, exact_values(position, rules)


def _in_pool(function: Any, jobs: list[Any], workers: int, what: str) -> Iterator[Any]:
    """The function's results as they come (in any order), with a progress line."""
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for done, result in enumerate(pool.imap_unordered(function, jobs), 1):
            yield result
            elapsed = time.perf_counter() - started
            left = elapsed / done * (len(jobs) - done)
            sys.stderr.write(f"\r{done}/{len(jobs)} {what}, {elapsed:.0f} s, ~{left:.0f} s left ")
    sys.stderr.write("\n")


def saved_values(path: Path, dealt: list[Position]) -> list[dict[str, float]]:
    """The values kept in ``path`` (JSON lines ``{"position", "cards", "up", "values"}``,
    several lines of one position merged), one dict per dealt position (empty where
    none; lines past the dealt ones, of a longer build, are left out: its first
    positions are these); a line for other cards than those dealt is an error (another
    seed)."""
    valued: list[dict[str, float]] = [{} for _ in dealt]
    if not path.exists():
        return valued
    for line in path.read_text().splitlines():
        row = json.loads(line)
        number = row["position"]
        if number >= len(dealt):
            continue
        if (tuple(row["cards"]), row["up"]) != dealt[number]:
            raise SystemExit(f"{path}: values of other positions (another seed?)")
        valued[number].update(row["values"])
    return valued


def build(positions: int, seed: int, workers: int, values: Path, last: bool) -> Strategy:
    """The table from the exact values of ``positions`` dealt positions, kept in
    ``values`` as they come, so an interrupted build continues where it stopped: first
    every option but the change of all five cards at every position, then (``last``)
    that change, the weakest positions first (those whose best other option is worth
    least: where changing everything can matter). The table is built from what is
    there."""
    dealt = sample_positions(positions, seed)
    valued = saved_values(values, dealt)
    first = [(n, position, False) for n, position in enumerate(dealt) if not valued[n]]
    _value(first, dealt, valued, workers, values)
    if last:
        weakest = sorted(range(positions), key=lambda n: max(valued[n].values()))
        second = [
            (n, dealt[n], True) for n in weakest if option_of(ALL, dealt[n][0]) not in valued[n]
        ]
        _value(second, dealt, valued, workers, values)
    done = [n for n, found in enumerate(valued) if found]
    return build_table([dealt[n] for n in done], [valued[n] for n in done])


def _value(
    jobs: list[tuple[int, Position, bool]],
    dealt: list[Position],
    valued: list[dict[str, float]],
    workers: int,
    values: Path,
) -> None:
    """Run the ``jobs`` (``_valued``), each result appended to ``values`` as it comes."""
    with values.open("a") as kept:
        for number, found in _in_pool(_valued, jobs, workers, "positions"):
            cards, up = dealt[number]
            row = {"position": number, "cards": list(cards), "up": up, "values": found}
            kept.write(json.dumps(row) + "\n")
            kept.flush()
            valued[number].update(found)


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
    rows = list(_in_pool(_checked, list(enumerate(dealt_positions)), workers, "positions"))
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
    parser.add_argument(
        "--values",
        type=Path,
        default=Path("benchmarks/results/casino-strategy-values.jsonl"),
        help="build: the exact values, kept (and resumed from) here.",
    )
    parser.add_argument(
        "--no-all",
        action="store_true",
        help="build: leave the change of all five cards to a later run.",
    )
    args = parser.parse_args()
    command = " ".join(["benchmarks/casino_strategy.py", *sys.argv[1:]])
    if args.what == "build":
        table = build(
            args.positions, args.seed, args.workers, args.values, not args.no_all
        ).to_json()
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
