"""The house edge of casino Russian poker under a strategy, with its 95% CI.

Every hand is one box of ante 1. Two strategies:

* ``--strategy table`` (the default): the strategy table (``raspisnoy.casino_advisor.strategy``,
  built offline from the advisor's exact values) on decks shuffled by
  ``random.Random(SEED/N)`` for block N, played and settled by ``Strategy.play`` on the
  compiled evaluator: the box's decision looked up, bet or fold after an exchange by the
  table's thresholds, the dealer's game bought exactly as the advisor would. The blocks
  run in ``--workers`` processes under a progress bar, and each block's sums are saved
  in ``--shards`` as it ends (with the table's hash): run again after an interruption,
  the benchmark reads the saved blocks and plays only the others. A million hands take
  some 3 minutes of CPU. Reported: the house edge per ante (minus the mean net) and per
  chip put in (minus the total net over the total of antes, bets, exchanges and
  purchases), each with its 95% CI, how often each decision was taken, and the CPU
  time of the hands.
* ``--strategy advisor``: the advisor itself at every decision, on hands dealt by the
  engine (``CasinoHand``, seed ``SEED/N``); about 0.7 s of CPU a hand, so only short
  runs are affordable. Two estimates come out of the same hands: **played**, the mean
  net as dealt and settled, and **expected**, the mean of the advisor's value of the
  option it chose at the box's decision (the same mean, less spread, the dealer's cards
  summed out; where that option was sampled its own error is added to the CI). The
  advisor's processor time per decision (p50, p95) is reported as well.

    nice -n 19 .venv/bin/python benchmarks/casino_edge.py --hands 1000000 --workers 2 \\
        --out benchmarks/results/casino-edge-exact-1e6.json
    .venv/bin/python benchmarks/casino_edge.py --strategy advisor --hands 400 --workers 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from raspisnoy.casino import CasinoHand, Phase
from raspisnoy.casino_advisor.advisor import advise, advise_purchase
from raspisnoy.casino_advisor.strategy import Strategy, load_strategy

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


#: Hands per block of the table run (each block has its own seed, ``SEED/N``, and its own
#: shard: what an interrupted run keeps).
TABLE_BLOCK = 10_000


@dataclass
class Sums:
    """Running sums of a table run: nets, chips put in, their squares and products, and
    the processor time the hands took."""

    hands: int = 0
    net: float = 0.0
    net2: float = 0.0
    chips: float = 0.0
    chips2: float = 0.0
    cross: float = 0.0
    cpu_s: float = 0.0
    choices: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)

    def add(self, other: Sums) -> None:
        self.hands += other.hands
        self.net += other.net
        self.net2 += other.net2
        self.chips += other.chips
        self.chips2 += other.chips2
        self.cross += other.cross
        self.cpu_s += other.cpu_s
        self.choices.update(other.choices)
        self.outcomes.update(other.outcomes)

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sums:
        counters = {name: Counter(data[name]) for name in ("choices", "outcomes")}
        return cls(**{**data, **counters})


@cache
def strategy_of(table: str | None) -> Strategy:
    """The table in the file ``table``, or the shipped one (``None``)."""
    if table is None:
        return load_strategy()
    return Strategy.from_json(json.loads(Path(table).read_text()))


def table_block(job: tuple[str, int, str | None]) -> Sums:
    """One block of hands played by the strategy table: the deck's first 16 cards (all
    one box can use) drawn by ``random.Random(f"{seed}/{block}")``."""
    seed, hands, table = job
    started = time.process_time()
    strategy = strategy_of(table)
    rng = random.Random(seed)
    cards = range(52)
    sums = Sums()
    for _ in range(hands):
        box = strategy.play(rng.sample(cards, 16))
        sums.hands += 1
        sums.net += box.net
        sums.net2 += box.net * box.net
        sums.chips += box.wagered
        sums.chips2 += box.wagered * box.wagered
        sums.cross += box.net * box.wagered
        sums.choices[box.rule] += 1
        sums.outcomes[box.outcome + (" (bought)" if box.bought else "")] += 1
    sums.cpu_s = time.process_time() - started
    return sums


def table_digest(table: str | None) -> str:
    """The table's SHA-256: a shard is only reused for the table that played it."""
    return hashlib.sha256(json.dumps(strategy_of(table).to_json()).encode()).hexdigest()


def _shard(shards: Path, seed: str, block: int) -> Path:
    return shards / f"{seed.replace('/', '_')}-{block}.json"


def _saved(path: Path, job: tuple[str, int, str | None], digest: str) -> Sums | None:
    """A block's sums from its shard, if it holds this block of this table."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    if [data["seed"], data["hands"], data["table"]] != [*job[:2], digest]:
        raise SystemExit(f"{path}: a shard of another run (seed, size or table); move it away")
    return Sums.from_json(data["sums"])


def play_table(
    hands: int,
    seed: str,
    workers: int,
    shards: Path,
    block: int = TABLE_BLOCK,
    table: str | None = None,
) -> dict[str, Any]:
    """``hands`` boxes played by the strategy table (the shipped one, or the file
    ``table``), in blocks over ``workers`` processes (one: in this process), each
    block's sums saved in ``shards`` as it ends; the blocks found there are read, not
    played again, so an interrupted run continues."""
    jobs = [
        (f"{seed}/{number}", min(block, hands - start), table)
        for number, start in enumerate(range(0, hands, block))
    ]
    digest = table_digest(table)
    shards.mkdir(parents=True, exist_ok=True)
    sums = Sums()
    missing = []
    for number, job in enumerate(jobs):
        saved = _saved(_shard(shards, seed, number), job, digest)
        if saved is None:
            missing.append((number, job))
        else:
            sums.add(saved)
    resumed = sums.hands
    started = time.perf_counter()
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"hands ({resumed} saved)", total=hands, completed=resumed)
        for number, played in _played(missing, workers):
            data = {"seed": jobs[number][0], "hands": jobs[number][1], "table": digest}
            path = _shard(shards, seed, number)
            path.with_suffix(".tmp").write_text(json.dumps({**data, "sums": played.to_json()}))
            path.with_suffix(".tmp").replace(path)
            sums.add(played)
            progress.advance(task, played.hands)
    return _figures(sums, resumed, time.perf_counter() - started)


def _played(
    missing: list[tuple[int, tuple[str, int, str | None]]], workers: int
) -> Iterator[tuple[int, Sums]]:
    """Each missing block's number and sums, as they end."""
    numbers = [number for number, _job in missing]
    blocks = [job for _number, job in missing]
    if workers == 1:
        yield from zip(numbers, map(table_block, blocks), strict=True)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        order = iter(numbers)
        yield from ((next(order), sums) for sums in pool.imap(table_block, blocks))


def _figures(sums: Sums, resumed: int, wall_s: float) -> dict[str, Any]:
    """The house edge per ante and per chip put in, with their 95% CIs, from the sums."""
    n = float(sums.hands)
    mean = sums.net / n
    half = Z95 * math.sqrt((sums.net2 / n - mean**2) / (n - 1))
    # Per chip put in: a ratio of means; its CI by the delta method.
    ratio = sums.net / sums.chips
    spread = sums.net2 - 2 * ratio * sums.cross + ratio**2 * sums.chips2
    ratio_half = Z95 * math.sqrt(spread / (n - 1) / n) / (sums.chips / n)
    return {
        "hands": sums.hands,
        "strategy": "table",
        "house_edge_per_ante": -mean,
        "ci95_per_ante": [-mean - half, -mean + half],
        "house_edge_per_chip": -ratio,
        "ci95_per_chip": [-ratio - ratio_half, -ratio + ratio_half],
        "chips_per_hand": sums.chips / n,
        "choices": {rule: count / n for rule, count in sums.choices.most_common()},
        "outcomes": {outcome: count / n for outcome, count in sums.outcomes.most_common()},
        "cpu_s": sums.cpu_s,
        "cpu_us_per_hand": sums.cpu_s / n * 1e6,
        "resumed_hands": resumed,
        "wall_s": wall_s,
    }


def versus(shards: Path, other: Path, seed: str) -> dict[str, Any]:
    """This run's house edge per ante minus that of another table's run on the same
    decks (the blocks of ``seed`` saved in both ``shards`` and ``other``), with its 95%
    CI from the blocks' paired differences: the same decks take most of the noise out."""
    differences = []
    for path in sorted(shards.glob(f"{seed.replace('/', '_')}-*.json")):
        mine, theirs = json.loads(path.read_text()), other / path.name
        if theirs.exists():
            them = json.loads(theirs.read_text())
            if them["hands"] == mine["hands"]:
                ours, others = mine["sums"], them["sums"]
                differences.append((others["net"] - ours["net"]) / mine["hands"])
    if len(differences) < 2:
        raise SystemExit(f"{other}: fewer than two blocks in common with {shards}")
    mean = statistics.fmean(differences)
    half = Z95 * statistics.stdev(differences) / math.sqrt(len(differences))
    return {"blocks": len(differences), "difference": mean, "ci95": [mean - half, mean + half]}


def print_edge(label: str, edge: float, ci95: list[float]) -> None:
    print(f"House edge {label}: {edge:+.4f}  95% CI {ci95[0]:+.4f} .. {ci95[1]:+.4f}")


def write(results: dict[str, Any], out: Path | None, as_json: bool) -> bool:
    """Write the figures to ``out`` and, with ``as_json``, to standard output (then
    return True: nothing more to print)."""
    if out:
        out.write_text(json.dumps(results, indent=1) + "\n")
    if as_json:
        json.dump(results, sys.stdout, indent=1)
        sys.stdout.write("\n")
    return as_json


def print_table(results: dict[str, Any]) -> None:
    print(f"Hands: {results['hands']} (one box, ante 1, the strategy table)")
    if "versus" in results:
        paired = results["versus"]
        print_edge(
            f"minus the other table's ({paired['blocks']} blocks)",
            paired["difference"],
            paired["ci95"],
        )
    for unit in ("ante", "chip"):
        print_edge(f"per {unit}", results[f"house_edge_per_{unit}"], results[f"ci95_per_{unit}"])
    print(f"Chips put in per hand: {results['chips_per_hand']:.3f} antes")
    print("Decisions: " + ", ".join(f"{k} {v:.1%}" for k, v in results["choices"].items()))
    print("Outcomes: " + ", ".join(f"{k} {v:.1%}" for k, v in results["outcomes"].items()))
    print(
        f"CPU time: {results['cpu_s']:.0f} s ({results['cpu_us_per_hand']:.0f} us a hand);"
        f" wall time {results['wall_s']:.0f} s ({results['resumed_hands']} hands resumed)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--strategy", choices=("table", "advisor"), default="table")
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="edge")
    parser.add_argument("--budget", type=float, default=0.5, help="Advisor CPU budget, s.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument("--out", type=Path, help="Also write the JSON figures here.")
    parser.add_argument(
        "--shards",
        type=Path,
        default=Path("benchmarks/results/casino-edge-shards"),
        help="table: each block's sums are kept here; a rerun continues from them.",
    )
    parser.add_argument("--table", help="table: play this strategy file, not the shipped one.")
    parser.add_argument(
        "--versus",
        type=Path,
        help="table: another table's shards on the same decks; report the edge's difference.",
    )
    args = parser.parse_args()
    if args.strategy == "table":
        results = {
            "command": " ".join(["benchmarks/casino_edge.py", *sys.argv[1:]]),
            **play_table(args.hands, args.seed, args.workers, args.shards, table=args.table),
        }
        if args.versus:
            results["versus"] = versus(args.shards, args.versus, args.seed)
        if not write(results, args.out, args.json):
            print_table(results)
        return
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
    if write(results, args.out, args.json):
        return
    print(f"Hands: {results['hands']} (one box, ante 1, the advisor's strategy)")
    for kind in ("played", "expected"):
        print_edge(f"({kind}) per ante", results[f"house_edge_{kind}"], results[f"ci95_{kind}"])
    print("Decisions: " + ", ".join(f"{k} {v}" for k, v in results["choices"].items()))
    print(
        f"Advice CPU time: p50 {results['advice_cpu_p50_s']:.3f} s,"
        f" p95 {results['advice_cpu_p95_s']:.3f} s; wall {results['wall_s']:.0f} s"
    )


if __name__ == "__main__":
    main()
