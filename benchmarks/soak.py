"""Memory soak: play many complete games on the real ``raspisnoy serve`` and report the
server's resident memory (RSS) after every 100 finished games.

A finished game must leave nothing behind (issue 15: RSS grew about 256 KB per finished
game with no levelling off, because a dropped table actor's cancelled tasks kept it, its
game and every copy of it alive in a reference cycle until a rare full collection). The
server runs as ``raspisnoy serve`` in a subprocess on a fresh SQLite database, with the
abuse limits lifted by environment variables (one address plays every game here). Each
game: a new guest opens a table (the guest and three bots, no turn timer, no bot delay),
connects, starts it, plays its own seat at once with a random legal action to the end,
reads the finished game's score sheet and record, and leaves. ``--concurrency`` games run
at a time.

The verdict is the growth over the last half of the run: RSS at the end against RSS at
the middle (target: under 5 %, i.e. flat after warm-up).

    .venv/bin/python benchmarks/soak.py [--games 1000] [--concurrency 8] [--bots random]
        [--plan 3,4,5] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from server_process import ServerProcess

#: Environment of the soaked server: every per-address and per-user limit lifted.
LIFTED_LIMITS = {
    "RASPISNOY_SESSIONS_PER_ADDRESS": "1000000/minute",
    "RASPISNOY_REQUESTS_PER_ADDRESS": "1000000/minute",
    "RASPISNOY_REQUESTS_PER_USER": "1000000/minute",
    "RASPISNOY_TABLES_PER_USER": "1000000/minute",
    "RASPISNOY_MAX_SOCKETS_PER_USER": "1000000",
}


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB, from Linux's /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


async def play_one_game(
    http: httpx.AsyncClient, ws_base: str, number: int, options: dict[str, Any]
) -> int:
    """One whole game as described above; the number of actions its guest made."""
    session = await http.post("/api/session", json={"nickname": f"Soak {number}"})
    session.raise_for_status()
    token = session.json()["token"]
    auth = {"authorization": f"Bearer {token}"}
    created = await http.post("/api/tables", json=options, headers=auth)
    created.raise_for_status()
    table_id = created.json()["id"]
    rng = random.Random(number)
    acted = 0
    async with connect(f"{ws_base}/ws/tables/{table_id}?token={token}", max_queue=None) as ws:
        (await http.post(f"/api/tables/{table_id}/start", headers=auth)).raise_for_status()
        async for raw in ws:
            message = json.loads(raw)
            game = message.get("game") if message["type"] in ("state", "event") else None
            if game is None:
                continue
            if game["phase"] == "over":
                break
            if game["to_act"] == game["seat"] and game["legal"]:
                action = rng.choice(game["legal"])
                await ws.send(
                    json.dumps({"type": "act", "id": f"v{message['version']}", "action": action})
                )
                acted += 1
    for report in ("score", "record"):
        (await http.get(f"/api/games/{table_id}/{report}")).raise_for_status()
    return acted


async def soak(
    base: str, pid: int, games: int, concurrency: int, options: dict[str, Any]
) -> list[dict[str, float]]:
    """Play ``games`` games; RSS after warm-up (the first game) and after every 100."""
    ws_base = base.replace("http://", "ws://")
    samples: list[dict[str, float]] = []
    done = 0
    next_game = 0
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        await play_one_game(http, ws_base, -1, options)
        samples.append({"games": 0, "rss_mb": rss_mb(pid)})

        async def worker(progress: Progress, task: Any) -> None:
            nonlocal done, next_game
            while next_game < games:
                number, next_game = next_game, next_game + 1
                await play_one_game(http, ws_base, number, options)
                done += 1
                progress.advance(task)
                if done % 100 == 0 or done == games:
                    samples.append({"games": done, "rss_mb": rss_mb(pid)})

        with Progress(transient=True) as progress:
            task = progress.add_task("games", total=games)
            await asyncio.gather(*(worker(progress, task) for _ in range(concurrency)))
    return samples


def growth_over_last_half(samples: list[dict[str, float]]) -> float:
    """RSS at the end against RSS at the sample nearest the middle, in percent."""
    end = samples[-1]
    middle = min(samples, key=lambda sample: abs(sample["games"] - end["games"] / 2))
    return 100 * (end["rss_mb"] - middle["rss_mb"]) / middle["rss_mb"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--bots", default="random", help="the bot level of the three bot seats")
    parser.add_argument(
        "--plan", default=None, help="a short custom plan (e.g. 3,4,5) instead of the whole game"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    rules: dict[str, Any] = {"preset": "raspisnoy.com"}
    if args.plan:
        rules["custom_plan"] = args.plan.split(",")
    options = {
        "rules": rules,
        "bots": args.bots,
        "stand_in": args.bots,
        "turn_seconds": 0,
        "bot_delay_ms": 0,
        "public": False,
    }
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        server = ServerProcess("--data-dir", folder, env=LIFTED_LIMITS, log=log)
        server.start()
        assert server.process is not None
        try:
            started = time.monotonic()
            samples = asyncio.run(
                soak(server.url, server.process.pid, args.games, args.concurrency, options)
            )
            seconds = time.monotonic() - started
        finally:
            server.stop()
    growth = growth_over_last_half(samples)
    figures = {
        "games": args.games,
        "concurrency": args.concurrency,
        "bots": args.bots,
        "plan": args.plan or "whole game",
        "seconds": round(seconds, 1),
        "rss_mb": samples,
        "growth_last_half_percent": round(growth, 2),
        "flat": growth < 5,
    }
    table = Table(title=f"server RSS over {args.games} complete games ({figures['plan']})")
    table.add_column("games finished", justify="right")
    table.add_column("RSS MB", justify="right")
    for sample in samples:
        table.add_row(str(int(sample["games"])), f"{sample['rss_mb']:.1f}")
    console = Console()
    console.print(table)
    verdict = "flat" if figures["flat"] else "GROWING"
    console.print(f"growth over the last half: {growth:+.2f} % ({verdict}; target under 5 %)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
