"""A large Swiss tournament run by the server's own runner, in one process: ``--players``
bots entered as players (1,000 by default) at tables of ``--size`` (4), ``--rounds``
rounds of one-deal games (so the games themselves take little of the time), on a fresh
SQLite database (or ``--database-url``). The app's services run as ``raspisnoy serve``
runs them (the hub of tables, the runner's lease and passes every ``--pass-seconds``).

Reported, with the load average beside:

- the pairing time of each round (``seat_round`` by the standings; target under 1 s),
  and the whole pairing step (the standings read and computed, the round's tables and
  seats stored in one transaction);
- the time from a round's last game's end to the next round's start (its row stored),
  and to its last table's game started (target under 5 s);
- that every game's record replays (``raspisnoy-record/1`` through ``replay``) to the
  points recorded as its result, and that every round holds every player once.

    nice -n 10 .venv/bin/python benchmarks/tournament.py \
        --json benchmarks/results/tournament-1000.json
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from figures import print_figures
from raspisnoy.core import game_to_record, parse_record, record_to_json, replay
from raspisnoy.ratings.replay import rebuild_game
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services import tournament_runner
from raspisnoy.server.services.container import Services
from raspisnoy.server.wire.tournaments import TournamentIn
from raspisnoy.store import Store, TournamentStore

_RULES = {"preset": "raspisnoy.com", "custom_plan": ["1"]}


def timed(function: Callable[..., Any], into: list[float]) -> Callable[..., Any]:
    """``function``, noting each call's seconds in ``into``."""

    def measured(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            into.append(time.perf_counter() - start)

    return measured


async def run(store: Store, settings: ServerSettings, args: argparse.Namespace) -> dict[str, Any]:
    """Enter the bots, start the event, wait for its end; the figures."""
    seatings: list[float] = []
    pairings: list[float] = []
    tournament_runner.seat_round = timed(tournament_runner.seat_round, seatings)  # type: ignore[attr-defined]
    services = Services.create(store, settings)
    await services.start()
    runner = services.tournament_runner
    runner._pair = _timed_async(runner._pair, pairings)  # type: ignore[method-assign]
    try:
        director = store.create_user("Director")
        made = await services.tournaments.create(
            director,
            TournamentIn(
                name="Benchmark",
                starts_at=time.time() + 3600,
                rules=_RULES,
                table_size=args.size,
                rounds=args.rounds,
                turn_seconds=30,
                max_players=args.players,
                bot_delay_ms=0,
            ),
        )
        tournaments = TournamentStore(store)
        for number in range(args.players):
            tournaments.register(
                made.id, user_id=None, bot="random", name=f"bot {number}", now=float(number)
            )
        started = time.monotonic()
        tournaments.start_now(made.id, time.time())
        while tournaments.get(made.id).state != "finished":
            if time.monotonic() - started > args.timeout:
                raise SystemExit(f"the tournament did not finish in {args.timeout} s")
            await asyncio.sleep(0.5)
        elapsed = time.monotonic() - started
    finally:
        await services.stop()
    return {
        **_gaps(store, tournaments, made.id, args),
        "seconds_in_all": round(elapsed, 1),
        "pairing_s_per_round": [round(s, 3) for s in seatings],
        "pairing_s_max": round(max(seatings), 3),
        "pairing_and_starting_step_s_per_round": [round(s, 3) for s in pairings],
        "pairing_and_starting_step_s_max": round(max(pairings), 3),
    }


def _timed_async(function: Callable[..., Any], into: list[float]) -> Callable[..., Any]:
    async def measured(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await function(*args, **kwargs)
        finally:
            into.append(time.perf_counter() - start)

    return measured


def _gaps(
    store: Store, tournaments: TournamentStore, tournament_id: str, args: argparse.Namespace
) -> dict[str, Any]:
    """Each round's gap from its last game's end to the next round's start (its row, and
    its last game started), and the records' replay check."""
    rounds = tournaments.rounds(tournament_id)
    ends: list[float] = []
    to_row: list[float] = []
    to_started: list[float] = []
    replayed = seated_once = 0
    for paired in rounds:
        tables = tournaments.tables(tournament_id, paired.number)
        games = [store.get_table(t.table_id) for t in tables]
        if paired.number > 1:
            to_row.append(paired.started_at - ends[-1])
            last_start = max(g.started_at.timestamp() for g in games if g.started_at)
            to_started.append(last_start - ends[-1])
        ends.append(max(g.finished_at.timestamp() for g in games if g.finished_at))
        entries = [e for t in tables for e in t.entries if e is not None]
        seated_once += len(entries) == len(set(entries)) == args.players
        for table, game_table in zip(tables, games, strict=True):
            game = rebuild_game(game_table, store.events_of(table.table_id))
            again = replay(parse_record(record_to_json(game_to_record(game))))
            assert table.result is not None
            points = [deal["points"] for deal in table.result["deals"]]
            replayed += again.is_over and [list(r.points or ()) for r in again.rounds()] == points
    tables_in_all = sum(len(tournaments.tables(tournament_id, r.number)) for r in rounds)
    return {
        "players": args.players,
        "table_size": args.size,
        "rounds": len(rounds),
        "tables": tables_in_all,
        "records_replayed": replayed,
        "rounds_with_everyone_seated_once": seated_once,
        "last_game_to_next_round_s": [round(s, 2) for s in to_row],
        "last_game_to_next_round_s_max": round(max(to_row, default=0.0), 2),
        "last_game_to_next_round_started_s": [round(s, 2) for s in to_started],
        "last_game_to_next_round_started_s_max": round(max(to_started, default=0.0), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--pass-seconds", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--database-url")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="raspisnoy-tournament-") as folder:
        url = args.database_url or f"sqlite:///{folder}/bench.sqlite"
        settings = ServerSettings(
            secret_key="benchmark-" + "k" * 32,
            data_dir=Path(folder),
            tournament_pass_seconds=args.pass_seconds,
        )
        store = Store.open(url)
        try:
            figures = asyncio.run(run(store, settings, args))
        finally:
            store.close()
    print_figures(
        f"a Swiss tournament of {args.players} bots at tables of {args.size}",
        {**figures, "load_average_1min": round(os.getloadavg()[0], 2)},
        args.json,
    )


if __name__ == "__main__":
    main()
