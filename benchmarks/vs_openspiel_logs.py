"""The logs of ``benchmarks/vs_openspiel.py``, read without playing: one run's or several
runs' figures pooled, and how each side's bids fared, bid by bid.

A log holds one line per deal (both seatings, the expert's four seats as ``ours`` and
ISMCTS's as ``theirs``: returns, bids and tricks taken). Several runs of the same match
on different deals pool into one larger sample, which narrows the interval that a
single 200-deal run cannot: the figure says whether the expert is ahead at all, and how
large an edge a 200-deal run needs to show it. The table by bid says where the two
sides' bids differ: how often each side makes each bid, how often it takes exactly
that many tricks, and its mean return with that bid.

    .venv/bin/python benchmarks/vs_openspiel_logs.py LOG [LOG ...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

#: Deals in the match the issue's outside method runs (``--deals 200``).
MATCH_DEALS = 200
#: z-values of a two-sided 95% interval and of 80% power.
_Z_95, _Z_POWER = 1.96, 0.84


def read_log(log: Path | None) -> list[dict[str, Any]]:
    """Every deal of a log (none if there is no log yet)."""
    if log is None or not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]


def gap(result: dict[str, Any]) -> float:
    """One deal's expert − ISMCTS per seat."""
    return statistics.fmean(result["ours"]) - statistics.fmean(result["theirs"])


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval."""
    mean = statistics.fmean(values)
    half = _Z_95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def needed_edge(gaps: list[float], deals: int = MATCH_DEALS) -> float:
    """The true expert − ISMCTS a match of ``deals`` deals shows with its 95% interval
    above 0 four times in five, given the spread of ``gaps`` from deal to deal."""
    return (_Z_95 + _Z_POWER) * statistics.stdev(gaps) / math.sqrt(deals)


def by_bid(results: list[dict[str, Any]], side: str) -> dict[int, dict[str, float]]:
    """For each bid ``side`` ("our" or "their") made: how many times, the share of them it
    took exactly, and its mean return with that bid."""
    returns = "ours" if side == "our" else "theirs"
    outcomes: dict[int, list[tuple[bool, float]]] = {}  # by bid: (taken exactly, return)
    for result in results:
        seats = zip(result[f"{side}_bids"], result[f"{side}_taken"], result[returns], strict=True)
        for bid, taken, points in seats:
            outcomes.setdefault(bid, []).append((bid == taken, points))
    return {
        bid: {
            "count": len(made),
            "exact": sum(exact for exact, _ in made) / len(made),
            "mean_return": statistics.fmean(points for _, points in made),
        }
        for bid, made in sorted(outcomes.items())
    }


def summary(logs: list[Path]) -> dict[str, Any]:
    """Each log's difference per deal and the pooled one, the edge a 200-deal match needs,
    and both sides' bids by bid over all the logs."""
    runs = {str(log): read_log(log) for log in logs}
    pooled = [result for results in runs.values() for result in results]
    if not pooled:
        raise SystemExit("no deals in these logs")
    gaps = [gap(result) for result in pooled]
    return {
        "runs": {name: _run_figures(results) for name, results in runs.items()},
        "deals": len(pooled),
        "difference_per_deal": mean_ci(gaps),
        "edge_a_200_deal_match_needs": needed_edge(gaps),
        "expert_by_bid": by_bid(pooled, "our"),
        "ismcts_by_bid": by_bid(pooled, "their"),
    }


def _run_figures(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One log's deals: how many, their first and last numbers (which tell runs apart where
    a narrow terminal cuts the logs' names short) and the difference per deal."""
    deals = [result["deal"] for result in results]
    return {
        "deals": len(results),
        "first_deal": min(deals, default=None),
        "last_deal": max(deals, default=None),
        "difference_per_deal": mean_ci(list(map(gap, results))) if results else None,
    }


def print_figures(figures: dict[str, Any]) -> None:
    """Print ``summary``'s figures: each run and the pooled sample, then the bids."""
    console = Console()
    runs = Table(title="expert − ISMCTS per seat and deal")
    runs.add_column("log", overflow="fold")
    for column in ("deals", "numbers", "difference", "95% CI"):
        runs.add_column(column, justify="right")
    rows = [*figures["runs"].items(), ("pooled", figures)]
    for name, run in rows:
        first, difference = run.get("first_deal"), run["difference_per_deal"]
        numbers = "" if first is None else f"{first}-{run['last_deal']}"
        figures_cells = ("", "")
        if difference is not None:
            mean, low, high = difference
            figures_cells = (f"{mean:+.2f}", f"{low:+.2f} … {high:+.2f}")
        runs.add_row(Path(name).name, str(run["deals"]), numbers, *figures_cells)
    console.print(runs)
    edge = figures["edge_a_200_deal_match_needs"]
    needs = f"at an edge of {edge:.2f} a seat and deal"
    console.print(f"A {MATCH_DEALS}-deal match shows its CI above 0 four times in five {needs}.")
    bids = Table(title="bids, pooled: how many, taken exactly, mean return")
    bids.add_column("bid", justify="right")
    for side in ("expert", "ISMCTS"):
        for column in ("count", "exact", "return"):
            bids.add_column(f"{side} {column}", justify="right")
    expert, ismcts = figures["expert_by_bid"], figures["ismcts_by_bid"]
    for bid in sorted(expert.keys() | ismcts.keys()):
        cells = []
        for side in (expert, ismcts):
            row = side.get(bid)
            cells += (
                [str(row["count"]), f"{row['exact']:.1%}", f"{row['mean_return']:.2f}"]
                if row
                else ["0", "", ""]
            )
        bids.add_row(str(bid), *cells)
    console.print(bids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", type=Path, nargs="+", help="logs of vs_openspiel.py --log")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    figures = summary(args.logs)
    print_figures(figures)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
