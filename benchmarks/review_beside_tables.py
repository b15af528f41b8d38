"""Reviews beside the tables: the load of ``server_load.py`` (N tables of 4 WebSocket
clients at bot speed) measured on a server with no review running, then on one whose
review process is busy for the whole window, at niceness 19 in the idle scheduling
class (the default), at niceness 19 alone and at 0, then with none again, each on a
fresh SQLite database.

Before each measurement a few whole games are played out by stand-ins (a guest opens a
table of bots, starts it and leaves), and every seat of them is queued for review with
the default budget (``RASPISNOY_REVIEW_ITERATIONS``, 20,000 a move), far more work than
the window holds. The figures per run: actions/s, latency p50 and p99 (from an action's
send to each seat's receipt), the server's CPU per action (the tables' process alone),
and the review moves done during the window. Ratios of the busy runs to the quiet one say
what a review costs the tables.

    .venv/bin/python benchmarks/review_beside_tables.py [--tables 20] [--seconds 20]
        [--think-ms 200] [--games 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from figures import print_figures
from guests import SEATS
from server_load import load_served, served

#: The runs: a name, the review niceness of its server (``None``: no reviews queued) and
#: whether the review process is in the idle scheduling class; a quiet run before and
#: after the busy ones shows how much the machine itself drifts.
RUNS: tuple[tuple[str, str | None, bool], ...] = (
    ("quiet", None, False),
    ("idle", "19", True),
    ("nice19", "19", False),
    ("nice0", "0", False),
    ("quiet_again", None, False),
)


def finished_games(base: str, games: int) -> list[str]:
    """``games`` whole games of four played by random stand-ins; their ids."""
    http = httpx.Client(base_url=base, timeout=60)
    token = http.post("/api/session", json={"nickname": "Reviewer"}).json()["token"]
    http.headers["authorization"] = f"Bearer {token}"
    ids = []
    for _ in range(games):
        table = http.post(
            "/api/tables",
            json={"bots": "random", "stand_in": "random", "turn_seconds": 0, "bot_delay_ms": 0},
        ).json()
        http.post(f"/api/tables/{table['id']}/start").raise_for_status()
        http.post(f"/api/tables/{table['id']}/leave").raise_for_status()
        ids.append(table["id"])
    deadline = time.monotonic() + 300
    while any(http.get(f"/api/tables/{i}").json()["status"] != "over" for i in ids):
        if time.monotonic() > deadline:
            raise SystemExit("the stand-ins did not finish their games in 5 minutes")
        time.sleep(0.5)
    for game in ids:
        for seat in range(SEATS):
            http.post(f"/api/games/{game}/reviews/{seat}").raise_for_status()
    return ids


def reviewed_moves(base: str, games: list[str]) -> int:
    """Decisions reviewed so far over every seat of ``games``."""
    done = 0
    for game in games:
        for seat in range(SEATS):
            job = httpx.get(f"{base}/api/games/{game}/reviews/{seat}", timeout=60).json()
            done += job["total"] if job["status"] == "done" else job["done"]
    return done


def one_run(args: argparse.Namespace, nice: str | None, idle: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        env = {**os.environ, "RASPISNOY_REVIEWS_PER_USER": "1000"}
        env["RASPISNOY_REVIEW_WORKERS"] = "0" if nice is None else "1"
        env["RASPISNOY_REVIEW_NICE"] = nice or "19"
        env["RASPISNOY_REVIEW_IDLE"] = str(idle).lower()
        # A loaded machine starts the server slowly.
        with served(url, env, start_seconds=180) as (base, server):
            games = [] if nice is None else finished_games(base, args.games)
            time.sleep(args.warmup)  # the review process starts and loads the search
            before = reviewed_moves(base, games)
            result = load_served(args, base, server)
            result["review_moves_in_window"] = reviewed_moves(base, games) - before
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--games", type=int, default=2, help="finished games queued for review")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    figures: dict[str, Any] = {}
    runs = {name: one_run(args, nice, idle) for name, nice, idle in RUNS}
    for name, result in runs.items():
        for key in (
            "actions_per_s",
            "latency_ms_p50",
            "latency_ms_p99",
            "server_cpu_ms_per_action",
            "review_moves_in_window",
        ):
            figures[f"{name}_{key}"] = result[key]
    for name in ("idle", "nice19", "nice0", "quiet_again"):
        for key in ("latency_ms_p50", "latency_ms_p99", "actions_per_s"):
            figures[f"{name}_over_quiet_{key}"] = runs[name][key] / runs["quiet"][key]
    figures["load_average"] = os.getloadavg()[0]
    figures["runs"] = runs
    title = f"Tables beside reviews: {args.tables} tables × {SEATS} clients, one worker"
    print_figures(title, figures, args.json, digits=2)


if __name__ == "__main__":
    main()
