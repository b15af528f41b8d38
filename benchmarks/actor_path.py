"""The server's CPU per action in the table actor's hot path, without sockets or a database.

One process, one event loop: a real ``TableActor`` over a port that keeps its table in
memory, four people seated (each with one connection) and ``--spectators`` watchers. The
people play ``--games`` whole games of random legal actions, each sent as a client's
``act`` message is (``actor.receive``): the action applied to a copy, "stored", the event
built and every connection's message encoded and queued. The figure is the process's CPU
time per action (``time.process_time``); nothing here waits, so it is the actor → event
→ messages path alone, the part of ``server_load.py``'s CPU per action that is our code.

``--baseline OTHER/src`` runs the same games on another tree's code too (in a
subprocess, ``PYTHONPATH=OTHER/src``), interleaved ``--runs`` times, and gives the medians
side by side. ``--profile`` prints where this tree's time goes (``cProfile``, top 25).

    .venv/bin/python benchmarks/actor_path.py [--games 40] [--spectators 2]
        [--baseline ../main/src --runs 5] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

from starlette.websockets import WebSocket

from raspisnoy.core import Game, resolve_rules
from raspisnoy.server.connection import Connection
from raspisnoy.server.protocol import parse_client_message
from raspisnoy.server.services.chat import ChatMute
from raspisnoy.server.services.tables.actor import TableActor
from raspisnoy.server.wire import encode
from raspisnoy.store import ChatRow, EventRow, SeatRow, TableRow, UserRow

_T = TypeVar("_T")
PEOPLE = ("anna", "boris", "vera", "gleb")


class MemoryPort:
    """The part of a ``TablePort`` a game without chat or rematch uses, in memory."""

    def __init__(self, table: TableRow) -> None:
        self.table = table

    async def append(self, row: EventRow) -> None:
        """Nothing to store: the store's cost is not this benchmark's."""

    async def finish(self, table: TableRow, game: Game) -> TableRow:
        self.table = dataclasses.replace(self.table, status="over")
        return self.table

    async def set_seat(self, table_id: str, seat: int, user_id: str | None) -> None:
        raise NotImplementedError

    async def leave_open_table(self, table_id: str, seat: int, user_id: str) -> None:
        raise NotImplementedError

    async def start(
        self,
        table_id: str,
        names: Sequence[str],
        first_dealer: int,
        games_cap: int | None = None,
        seated: Sequence[str | None] = (),
    ) -> TableRow:
        self.table = dataclasses.replace(
            self.table, status="playing", names=tuple(names), first_dealer=first_dealer
        )
        return self.table

    async def set_away(self, table_id: str, seat: int, away: bool) -> None:
        """Nothing to store: everyone is connected here."""

    async def reload(self, table_id: str) -> TableRow:
        return self.table

    async def events_of(self, table_id: str) -> list[EventRow]:
        raise NotImplementedError

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        return function(*args)

    def drop_later(self, table_id: str) -> None:
        """Nothing to drop."""

    async def add_chat(self, row: ChatRow) -> None:
        raise NotImplementedError

    async def chat_of(self, table_id: str) -> list[ChatRow]:
        return []

    async def blocked_with(self, user_id: str) -> frozenset[str]:
        return frozenset()

    async def mute_of(self, table_id: str, user_id: str) -> ChatMute | None:
        raise NotImplementedError

    async def open_rematch(
        self, old: TableRow, people: dict[int, str], host_id: str, first_dealer: int
    ) -> str:
        raise NotImplementedError

    async def rematch_of(self, table_id: str) -> str | None:
        return None

    def bot_failed(self, level: str) -> None:
        raise AssertionError(f"a {level} bot failed: the measured path has none")


class Socket(Connection):
    """A connection whose socket takes each message as it comes (the writer's cost is
    Uvicorn's, measured by ``server_load.py``), keeping the last with a view to play on."""

    def __init__(self, user: UserRow | None) -> None:
        super().__init__(cast(WebSocket, None), user, 1)
        self.last = ""

    def send(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else encode(message)
        if text.startswith(('{"type":"event"', '{"type":"state"')):
            self.last = text


def table_row(number: int) -> TableRow:
    """Table ``number``: four people, no turn timer, the full game of the default rules."""
    seats = tuple(SeatRow(n, user, user.title(), "random", False) for n, user in enumerate(PEOPLE))
    return TableRow(
        id=f"t{number}",
        host_id=PEOPLE[0],
        status="open",
        public=True,
        rules=resolve_rules({}).to_json(),
        seats=seats,
        seed=f"seed {number}",
        names=None,
        first_dealer=None,
        created_at=datetime.now(UTC),
        started_at=None,
        finished_at=None,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
    )


async def play_game(number: int, spectators: int) -> tuple[int, float]:
    """Play table ``number``'s game to its end; its actions and the CPU seconds they took."""
    port = MemoryPort(table_row(number))
    actor = TableActor(port, port.table, [])
    seats = [Socket(UserRow(user, user.title(), "guest")) for user in PEOPLE]
    for socket in [*seats, *(Socket(None) for _ in range(spectators))]:
        await actor.call(partial(actor.join, socket))
    await actor.call(lambda: actor.start(PEOPLE[0]))
    rng, actions, cpu = random.Random(number), 0, 0.0
    while (game := actor.game) is not None and game.to_act is not None:
        seat = game.to_act
        view = json.loads(seats[seat].last)["game"]
        text = json.dumps({"type": "act", "id": f"a{actions}", "action": rng.choice(view["legal"])})
        message = parse_client_message(text)
        start = time.process_time()
        await actor.call(partial(actor.receive, seats[seat], message))
        cpu += time.process_time() - start
        actions += 1
    await actor.close()
    return actions, cpu


async def measure(games: int, spectators: int) -> dict[str, float]:
    """``games`` games one after the other: the CPU per action in microseconds."""
    await play_game(-1, spectators)  # warm up: imports, caches
    totals = [await play_game(number, spectators) for number in range(games)]
    actions = sum(count for count, _ in totals)
    return {"actions": actions, "cpu_us_per_action": sum(c for _, c in totals) * 1e6 / actions}


def run_tree(source: Path | None, games: int, spectators: int) -> dict[str, float]:
    """``measure`` in a subprocess on the tree whose ``src`` is ``source`` (``None``: this)."""
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = str(source.resolve())
    command = [sys.executable, __file__, "--games", str(games), "--spectators", str(spectators)]
    output = subprocess.run(
        [*command, "--json-out"], env=environment, check=True, capture_output=True, text=True
    )
    return cast(dict[str, float], json.loads(output.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json-out", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json_out:
        print(json.dumps(asyncio.run(measure(args.games, args.spectators))))
        return
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(asyncio.run, measure(args.games, args.spectators))
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    trees: dict[str, Path | None] = {"this tree": None}
    if args.baseline is not None:
        trees = {"baseline": args.baseline, **trees}
    figures: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.runs):
        for name, source in trees.items():
            figures[name].append(run_tree(source, args.games, args.spectators)["cpu_us_per_action"])
    print(f"load average {os.getloadavg()[0]:.2f}; {args.games} games × {args.runs} runs")
    for name, values in figures.items():
        shown = " ".join(f"{value:.1f}" for value in values)
        print(f"{name}: median {statistics.median(values):.1f} µs/action (runs: {shown})")


if __name__ == "__main__":
    main()
