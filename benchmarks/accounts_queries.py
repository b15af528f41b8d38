"""Accounts queries on a filled PostgreSQL schema (scripts/fill_accounts.py): a profile,
leaderboard pages (overall and per preset, all time and the last 30 days, the first,
a deep one by number and the next page after a deep line, with the viewer's own
position) and the rating update of a game's end, each timed through the
same ``Players`` / ``Store`` methods the server calls. Prints p50 and p95 per query (the
target is p95 ≤ 50 ms) and, with ``--json``, writes them.

The rating update is a real game: a whole game played with the engine by random moves
at a new rated table of four filled players, its actions stored, then its end
(``ratings.backfill.end_stored_game``) timed (it replays the game, stores four results,
adds them to the kept sums of figures, and moves eight ratings and their kept counts in one
transaction). The game's setup is not timed. The machine's load average (one minute)
before and after is printed and written with the figures: on a shared machine the
figures are mostly waiting for a core, so compare runs made back to back.

    .venv/bin/python benchmarks/accounts_queries.py --schema accounts_bench [--runs 200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from raspisnoy.core import Deal, Game, resolve_rules
from raspisnoy.ratings.backfill import end_stored_game
from raspisnoy.store import BoardKey, EventRow, Players, Store
from raspisnoy.store.models import PlayerRating, User


def _url(schema: str) -> str:
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3D{schema}"


def _timed(runs: int, call: Callable[[int], object]) -> list[float]:
    times = []
    for n in range(runs):
        started = time.perf_counter()
        call(n)
        times.append((time.perf_counter() - started) * 1000)
    return times


def _finished_game(store: Store, people: list[str], seed: int) -> str:
    """A rated table of ``people`` with a whole game's actions stored, not yet finished."""
    game = Game(resolve_rules("raspisnoy.com"), tuple(f"P{i}" for i in range(4)), seed=f"b{seed}")
    chooser = random.Random(seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()), game.to_act)
    row = store.create_table(
        host_id=people[0],
        public=True,
        rules=game.rules.to_json(),
        bots=["random"] * 4,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed=str(game.seed),
        rated=True,
    )
    for seat, person in enumerate(people[1:], start=1):
        store.set_seat(row.id, seat, person)
    store.start_table(row.id, game.names, game.rounds()[0].dealer)
    actions = [e for e in game.events if not isinstance(e.action, Deal)]
    store.append_events(
        [EventRow(row.id, i + 1, e.seat or 0, str(e.action), None) for i, e in enumerate(actions)]
    )
    return row.id


def _offset_page(store: Store, offset: int) -> list[object]:
    """The page as migration 0005's leaderboard read it, the peer of the keyset page:
    ratings joined to users, ordered, and ``offset`` joined rows skipped."""
    query = (
        select(PlayerRating, User.nickname)
        .join(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.scope == "all")
        .order_by(PlayerRating.display.desc(), PlayerRating.user_id)
        .offset(offset)
        .limit(25)
    )
    with Session(store.engine) as session:
        return list(session.execute(query))


def _cursors(store: Store, count: int) -> list[BoardKey]:
    """Lines at random depths of the overall leaderboard: where a "next page" starts."""
    query = text(
        "SELECT display, user_id FROM ratings WHERE scope = 'all' ORDER BY random() LIMIT :n"
    )
    with store.engine.connect() as connection:
        return [BoardKey(d, u) for d, u in connection.execute(query, {"n": count})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default="accounts_bench")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--updates", type=int, default=30)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    store = Store.open(_url(options.schema))
    players = Players(store)
    with store.engine.connect() as connection:
        ids = [row[0] for row in connection.execute(text("SELECT id FROM users ORDER BY id"))]
        games = connection.execute(text("SELECT count(*) FROM game_results")).scalar()
    rng = random.Random(1)
    pick = [rng.choice(ids) for _ in range(options.runs)]
    pages = max(1, len(ids) // 25)
    cursors = _cursors(store, options.runs)
    board = players.leaderboard
    month = datetime.now(UTC) - timedelta(days=30)
    cases: dict[str, Callable[[int], object]] = {
        "profile": lambda n: players.profile(pick[n]),
        "leaderboard all-time p1 + me": lambda n: board(
            "all", since=None, offset=0, limit=25, viewer=pick[n]
        ),
        "leaderboard all-time deep page number + me": lambda n: board(
            "all", since=None, offset=25 * rng.randrange(pages), limit=25, viewer=pick[n]
        ),
        "leaderboard all-time deep next page + me": lambda n: board(
            "all", since=None, after=cursors[n], limit=25, viewer=pick[n]
        ),
        "leaderboard preset all-time p1 + me": lambda n: board(
            "classic", since=None, offset=0, limit=25, viewer=pick[n]
        ),
        "leaderboard all 30 days p1 + me": lambda n: board(
            "all", since=month, offset=0, limit=25, viewer=pick[n]
        ),
        "leaderboard preset 30 days deep + me": lambda n: board(
            "classic", since=month, offset=25 * rng.randrange(pages // 2), limit=25, viewer=pick[n]
        ),
        "peer: 0005's deep page (OFFSET over the join)": lambda n: _offset_page(
            store, 25 * rng.randrange(pages)
        ),
    }
    load_before = os.getloadavg()[0]
    results = {name: _timed(options.runs, call) for name, call in cases.items()}
    tables = [_finished_game(store, rng.sample(ids, 4), n) for n in range(options.updates)]
    results["rating update (finish_table)"] = _timed(
        options.updates, lambda n: end_stored_game(store, tables[n])
    )
    load = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    print(f"schema {options.schema}: {len(ids)} players, {games} result rows")
    print(f"load average (1 min) before and after: {load[0]} and {load[1]}")
    print(f"{'query':<46} {'runs':>5} {'p50 ms':>8} {'p95 ms':>8}")
    summary: dict[str, object] = {"load average before and after": load}
    for name, times in results.items():
        p50 = statistics.median(times)
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) >= 20 else max(times)
        summary[name] = {"runs": len(times), "p50_ms": round(p50, 2), "p95_ms": round(p95, 2)}
        print(f"{name:<46} {len(times):>5} {p50:8.2f} {p95:8.2f}")
    if options.json is not None:
        options.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    store.close()


if __name__ == "__main__":
    main()
