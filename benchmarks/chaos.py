"""Chaos: a local cluster (nginx, 2 workers, PostgreSQL, Redis) under load while the
worker owning the most tables is killed with SIGKILL again and again.

Every seat is a WebSocket client through nginx that reconnects by itself (as the browser
client does) and resends its unacknowledged action under the same id. At the end the
acknowledged actions are checked against the database: each must be stored, once, at the
version its acknowledgement named. Reported: kills, actions acknowledged, actions lost
(must be 0), actions acknowledged twice at different versions (must be 0), reconnection
attempts, and the longest pause a table saw (no new event at any of its seats).

    .venv/bin/python benchmarks/chaos.py [--tables 20] [--seconds 30] [--kill-every 8]
        [--think-ms 200] [--json out.json]

``--database-url`` is a PostgreSQL server; the run gets a fresh schema there, dropped at
the end. The worker killed is restarted by ``raspisnoy serve --workers`` after a second, so the
tables move away from it and back again once it is up; the next kill waits until it is,
so one worker is always there to take the tables over.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
from localcluster import (
    DEFAULT_DATABASE,
    DEFAULT_REDIS,
    LocalCluster,
    exit_on_sigterm,
    postgres_schema,
)

from figures import print_figures
from guests import seated_table

#: Settings for clients that act as fast as bots, all from one address.
LOAD_ENVIRONMENT = {
    "RASPISNOY_MESSAGES_PER_SECOND": "1000",
    "RASPISNOY_MESSAGE_BURST": "1000",
    "RASPISNOY_SESSIONS_PER_ADDRESS": "1000000/minute",
    "RASPISNOY_REQUESTS_PER_ADDRESS": "1000000/minute",
    "RASPISNOY_REQUESTS_PER_USER": "1000000/minute",
    "RASPISNOY_MAX_SOCKETS_PER_USER": "1000000",
    "RASPISNOY_TABLES_PER_USER": "1000000/minute",
    "RASPISNOY_MAX_OPEN_TABLES_PER_USER": "1000000",
    "RASPISNOY_MAX_GAMES_PER_USER": "1000000",
}


@dataclass
class TableState:
    """What the clients of one table have seen: the highest version and when."""

    id: str
    version: int = 0
    progressed: float = field(default_factory=time.monotonic)
    longest_pause: float = 0.0
    over: bool = False

    def saw(self, version: int) -> None:
        if version > self.version:
            now = time.monotonic()
            self.longest_pause = max(self.longest_pause, now - self.progressed)
            self.version, self.progressed = version, now


@dataclass
class SeatClient:
    """One seat's client: its session, its acknowledged actions and the one in flight."""

    table: TableState
    seat: int
    token: str
    acked: dict[str, int] = field(default_factory=dict)
    pending: tuple[str, str] | None = None
    sent: int = 0
    acked_twice: int = 0
    reconnects: int = 0
    over: bool = False


async def open_table(http: httpx.AsyncClient, bot_delay_ms: int) -> list[SeatClient]:
    """Four guests seated at a new table (turn timer off), started."""
    options = {"bots": "random", "turn_seconds": 0, "bot_delay_ms": bot_delay_ms}
    table_id, tokens = await seated_table(http, options)
    start = await http.post(
        f"/api/tables/{table_id}/start", headers={"authorization": f"Bearer {tokens[0]}"}
    )
    start.raise_for_status()
    table = TableState(table_id)
    return [SeatClient(table, seat, token) for seat, token in enumerate(tokens)]


async def play(client: SeatClient, ws_base: str, think: float, stop: asyncio.Event) -> None:
    """Play the seat until the game ends or ``stop``, reconnecting whenever the socket
    drops; an action not yet acknowledged is resent under its id after each reconnect."""
    rng = random.Random(f"{client.table.id}/{client.seat}")
    url = f"{ws_base}/ws/tables/{client.table.id}?token={client.token}"
    while not stop.is_set() and not client.over:
        try:
            async with connect(url, max_queue=None, open_timeout=10) as ws:
                await _session(ws, client, rng, think, stop)
        except (OSError, WebSocketException, InvalidHandshake, TimeoutError):
            pass
        if not stop.is_set() and not client.over:
            client.reconnects += 1
            await asyncio.sleep(0.2 + rng.random() * 0.3)


async def _session(
    ws: Any, client: SeatClient, rng: random.Random, think: float, stop: asyncio.Event
) -> None:
    game: dict[str, Any] | None = None

    async def act() -> None:
        if game is None or stop.is_set() or client.pending is not None:
            return
        if game["phase"] == "over" or game["to_act"] != client.seat or not game["legal"]:
            return
        if think:
            await asyncio.sleep(think)
        client.sent += 1
        client.pending = (f"a{client.sent}", rng.choice(game["legal"]))
        await _send(ws, client.pending)

    async for raw in ws:
        message = json.loads(raw)
        kind = message["type"]
        if kind in ("state", "event"):
            client.table.saw(message["version"])
            game = message["game"]
            if game is not None and game["phase"] == "over":
                client.over = client.table.over = True
                return
            if kind == "state" and client.pending is not None:
                await _send(ws, client.pending)  # the action may or may not have been stored
            else:
                await act()
        elif kind == "ack" and client.pending is not None and message["id"] == client.pending[0]:
            first = client.acked.setdefault(message["id"], message["version"])
            client.acked_twice += first != message["version"]
            client.pending = None
            await act()
        elif (
            kind == "error"
            and client.pending is not None
            and message.get("id") == (client.pending[0])
        ):
            client.pending = None  # refused, so not applied (e.g. a stand-in played it)
            await act()


async def _send(ws: Any, pending: tuple[str, str]) -> None:
    await ws.send(json.dumps({"type": "act", "id": pending[0], "action": pending[1]}))


async def owners_by_pid(redis: Redis, tables: list[TableState]) -> Counter[int]:
    """How many of the tables each worker process owns now (from the Redis leases)."""
    values = await redis.mget([f"raspisnoy:owner:{table.id}" for table in tables])
    return Counter(int(str(value).rsplit(":", 1)[1]) for value in values if value is not None)


async def every_worker_up(cluster: LocalCluster) -> None:
    """Wait until every worker answers (one killed before is up again)."""
    async with httpx.AsyncClient(timeout=2) as http:
        for url in cluster.worker_urls:
            while True:
                try:
                    (await http.get(f"{url}/healthz")).raise_for_status()
                    break
                except httpx.HTTPError:
                    await asyncio.sleep(0.2)


def lost_actions(database_url: str, clients: list[SeatClient]) -> int:
    """Acknowledged actions the database does not hold at their acknowledged version."""
    engine = create_engine(database_url)
    stored: set[tuple[str, int, int, str]] = set()
    ids = list({client.table.id for client in clients})
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT table_id, seq, seat, client_id FROM game_events "
                "WHERE table_id = ANY(:ids) AND client_id IS NOT NULL"
            ),
            {"ids": ids},
        )
        stored = {(r.table_id, r.seq, r.seat, r.client_id) for r in rows}
    engine.dispose()
    return sum(
        (client.table.id, version, client.seat, action_id) not in stored
        for client in clients
        for action_id, version in client.acked.items()
    )


async def chaos(
    cluster: LocalCluster, tables: int, seconds: float, kill_every: float, think: float
) -> dict[str, Any]:
    """Play ``tables`` games through ``cluster`` for ``seconds``, killing the busiest
    worker every ``kill_every`` seconds; the figures."""
    stop = asyncio.Event()
    redis = Redis.from_url(cluster.redis_url, decode_responses=True)
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=cluster.url, timeout=60, limits=limits) as http:
        semaphore = asyncio.Semaphore(10)

        async def one() -> list[SeatClient]:
            async with semaphore:
                return await open_table(http, bot_delay_ms=int(think * 1000))

        clients = [
            c for seats in await asyncio.gather(*(one() for _ in range(tables))) for c in seats
        ]
    ws_base = cluster.url.replace("http://", "ws://")
    players = [asyncio.create_task(play(c, ws_base, think, stop)) for c in clients]
    table_states = list({id(c.table): c.table for c in clients}.values())
    kills = acked_before = 0
    start = time.monotonic()
    for state in table_states:
        state.progressed = start
    while time.monotonic() - start < seconds:
        await asyncio.sleep(min(kill_every, seconds - (time.monotonic() - start)))
        if time.monotonic() - start >= seconds:
            break
        await every_worker_up(cluster)  # kill one of two, never the last one standing
        busiest = (await owners_by_pid(redis, table_states)).most_common(1)
        if busiest:
            os.kill(busiest[0][0], signal.SIGKILL)
            kills += 1
            if kills == 1:
                acked_before = sum(len(c.acked) for c in clients)
    stop.set()
    end = time.monotonic()
    for state in table_states:  # a table that stopped moving pauses until the end
        if not state.over:
            state.longest_pause = max(state.longest_pause, end - state.progressed)
    for player in players:  # a client waiting for its turn would wait on
        player.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    await redis.aclose()
    acked = sum(len(c.acked) for c in clients)
    return {
        "tables": tables,
        "seconds": seconds,
        "kills": kills,
        "actions_acknowledged": acked,
        "acknowledged_after_first_kill": acked - acked_before if kills else 0,
        "actions_lost": lost_actions(cluster.database_url, clients),
        "acknowledged_twice": sum(c.acked_twice for c in clients),
        "reconnect_attempts": sum(c.reconnects for c in clients),
        "games_finished": sum(c.over for c in clients if c.seat == 0),
        "longest_pause_s": max(state.longest_pause for state in table_states),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--kill-every", type=float, default=8.0)
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    environment = {**LOAD_ENVIRONMENT, "RASPISNOY_SECRET_KEY": secrets.token_urlsafe(32)}
    exit_on_sigterm()
    with postgres_schema(args.database_url) as database_url:
        cluster = LocalCluster(
            2,
            database_url=database_url,
            redis_url=args.redis_url,
            environment=environment,
            quiet=True,
        )
        with cluster:
            result = asyncio.run(
                chaos(cluster, args.tables, args.seconds, args.kill_every, args.think_ms / 1000)
            )
    title = f"Chaos: {args.tables} tables, 2 workers, a SIGKILL every {args.kill_every:g} s"
    print_figures(title, result, args.json, digits=2)


if __name__ == "__main__":
    main()
