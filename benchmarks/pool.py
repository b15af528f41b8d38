"""What the pool's pairing (``raspisnoy.matchmaking.pair``) gives and costs, simulated.

``--waiting`` people (mixed presets, numbers of players, speeds, rated or not, bot waits and
ratings, drawn with a fixed seed) wait in the pool; the server's pass runs every
``--pass-seconds`` (as ``services.pool`` does) on everyone waiting, and each person seated
is replaced by a newcomer at once, so the pool holds that many for ``--duration`` seconds.
Reported, for the people who joined after ``--warm-up`` seconds and were seated: the time to
a table (p50/p95; to a full table, and to any table), the rating spread within tables, the
pairing CPU per person seated and the slowest pass, with the load average beside:

    .venv/bin/python benchmarks/pool.py --waiting 1000 --json benchmarks/results/pool-1000.json
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

from figures import print_figures
from raspisnoy.matchmaking import BOT_WAITS, SPEEDS, Match, Seek, pair, preset_counts

#: How people choose, roughly as a lobby would see it: most take the first preset and the
#: normal speed; some accept any preset or any number of players.
_SPEED_WEIGHTS = {"fast": 2, "normal": 5, "slow": 1}
_WAIT_WEIGHTS = {None: 1, 30: 3, 60: 3, 120: 2}


class Crowd:
    """Simulated people, one after another (ids from 0), drawn with a fixed seed."""

    def __init__(self, seed: int) -> None:
        self._draw = random.Random(seed)
        self._presets = sorted(preset_counts())
        self._next = 0

    def arrive(self, now: float) -> Seek[int]:
        """The next person, joining at ``now``."""
        draw, presets = self._draw, self._presets
        accepted = presets if draw.random() < 0.2 else [draw.choice(presets[:2])]
        counts = {3, 4, 5} if draw.random() < 0.3 else {draw.choice([3, 4, 4, 4, 5])}
        playable = {n for n in counts if any(n in preset_counts()[p] for p in accepted)} or {4}
        speeds, waits = sorted(SPEEDS), list(BOT_WAITS)
        self._next += 1
        return Seek(
            person=self._next - 1,
            rating=draw.gauss(1000, 250),
            presets=frozenset(accepted),
            players=frozenset(playable),
            speed=draw.choices(speeds, [_SPEED_WEIGHTS[s] for s in speeds])[0],
            rated=draw.random() < 0.5,
            bot_wait=draw.choices(waits, [_WAIT_WEIGHTS[w] for w in waits])[0],
            since=now,
        )


def simulate(
    crowd: Crowd, size: int, step: float, duration: float
) -> tuple[list[tuple[Match[int], float]], list[float], dict[int, Seek[int]]]:
    """Run the passes with ``size`` waiting: each table with when it opened, each pass's
    CPU seconds, and everyone who came."""
    waiting = {seek.person: seek for seek in (crowd.arrive(0.0) for _ in range(size))}
    everyone = dict(waiting)
    tables: list[tuple[Match[int], float]] = []
    passes: list[float] = []
    now = 0.0
    while now <= duration:
        started = time.process_time()
        matches = pair(waiting.values(), now)
        passes.append(time.process_time() - started)
        for match in matches:
            tables.append((match, now))
            for person in match.people:
                del waiting[person]
        now += step
        while len(waiting) < size:
            seek = crowd.arrive(now - step * random.random())
            waiting[seek.person] = everyone[seek.person] = seek
    return tables, passes, everyone


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiting", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=180.0)
    parser.add_argument("--warm-up", type=float, default=60.0)
    parser.add_argument("--pass-seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    tables, passes, by_id = simulate(
        Crowd(args.seed), args.waiting, args.pass_seconds, args.duration
    )
    counted = [(m, at) for m, at in tables if min(by_id[p].since for p in m.people) >= args.warm_up]
    to_full = [at - by_id[p].since for m, at in counted if m.full for p in m.people]
    to_any = [at - by_id[p].since for m, at in counted for p in m.people]
    spreads = [
        max(by_id[p].rating for p in m.people) - min(by_id[p].rating for p in m.people)
        for m, _ in counted
        if len(m.people) > 1
    ]
    seated = sum(len(m.people) for m, _ in tables)
    print_figures(
        f"pool pairing, {args.waiting} waiting",
        {
            "waiting": args.waiting,
            "seconds": args.duration,
            "seated": seated,
            "tables": len(tables),
            "full_share": round(len(to_full) / max(1, len(to_any)), 3),
            "to_full_table_p50_s": round(percentile(to_full, 0.5), 1),
            "to_full_table_p95_s": round(percentile(to_full, 0.95), 1),
            "to_any_table_p50_s": round(percentile(to_any, 0.5), 1),
            "to_any_table_p95_s": round(percentile(to_any, 0.95), 1),
            "rating_spread_p50": round(percentile(spreads, 0.5)),
            "rating_spread_p95": round(percentile(spreads, 0.95)),
            "rating_spread_mean": round(statistics.fmean(spreads)) if spreads else 0,
            "passes": len(passes),
            "pairing_cpu_ms_per_person": round(1000 * sum(passes) / max(1, seated), 4),
            "slowest_pass_ms": round(1000 * max(passes, default=0.0), 2),
            "load_average_1min": round(os.getloadavg()[0], 2),
        },
        args.json,
    )


if __name__ == "__main__":
    main()
