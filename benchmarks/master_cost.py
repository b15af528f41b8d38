"""The cost of a ``master`` decision beside an ``expert`` one, in CPU time.

Plays a whole game of heuristic bots (4 players, raspisnoy.com's 28 rounds by default),
takes every ``--every``-th decision with a choice (bids and cards, every seat), and
times each level's decision on the same view, one after the other, in CPU time
(``time.process_time``: a busy machine changes it less than wall time). Reports the
median and mean milliseconds per decision of each level and their ratio.

    .venv/bin/python benchmarks/master_cost.py [--seed 7] [--every 6] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from raspisnoy.bots import make_bot
from raspisnoy.bots.expert import warm_up
from raspisnoy.core import Bid, Game, Play, View, resolve_rules

#: The levels compared: the table's strongest and the analysis level.
LEVELS = ("expert", "master")
#: A time budget no decision reaches, so that each level's iterations alone bound it.
NO_LIMIT_MS = 600_000.0


def decision_views(seed: int, players: int, preset: str, every: int) -> list[View]:
    """Every ``every``-th view with a bid or card to choose of a heuristic bots' game."""
    game = Game(resolve_rules(preset), players, seed=seed)
    bots = [make_bot("heuristic", seed=seed * 10 + seat) for seat in range(players)]
    views = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = bots[seat].act(view)
        if isinstance(action, Bid | Play) and len(view.legal_actions) > 1:
            views.append(view)
        game.apply(action, seat)
    return views[::every]


def measure(seed: int, players: int, preset: str, every: int) -> dict[str, Any]:
    """Each level's CPU milliseconds per decision over the same views."""
    warm_up()
    views = decision_views(seed, players, preset, every)
    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    for done, view in enumerate(views, start=1):
        for level in LEVELS:
            bot = make_bot(level, seed=done, time_ms=NO_LIMIT_MS)
            start = time.process_time()
            bot.act(view)
            times[level].append(1000 * (time.process_time() - start))
        print(f"\r{done}/{len(views)} decisions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    levels = {
        level: {
            "median_ms": round(statistics.median(values), 1),
            "mean_ms": round(statistics.fmean(values), 1),
            "max_ms": round(max(values), 1),
        }
        for level, values in times.items()
    }
    return {
        "seed": seed,
        "players": players,
        "preset": preset,
        "decisions": len(views),
        "load_average": round(os.getloadavg()[0], 1),
        "levels": levels,
        "ratio_of_means": round(levels["master"]["mean_ms"] / levels["expert"]["mean_ms"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="raspisnoy.com")
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    results = measure(args.seed, args.players, args.preset, args.every)
    text = json.dumps(results, indent=1)
    if args.out is not None:
        args.out.write_text(text + "\n", "utf-8")
    print(text)


if __name__ == "__main__":
    main()
