"""Fill a PostgreSQL schema with players and finished rated games, for the accounts
benchmark (benchmarks/accounts_queries.py): users with accounts, tables of four seats
(people and bots), one result row per seat, each person's ratings (overall and per
preset) and a rating change per rated game, written with COPY through psycopg.

The games are synthetic (totals and figures drawn at random, with a skill per player so
that ratings spread): the queries measured only read those tables, and the rating
update the benchmark times is a real game's. Actions (``game_events``) are not written:
no profile or leaderboard query reads them.

The kept sums of profiles and leaderboards (``player_figures``, ``rating_counts``) are
summed from the copied rows, as migration 0010 sums a database's existing rows. The
foreign keys and secondary indexes are dropped while the rows are copied and made
again at the end from PostgreSQL's own definitions (one sort per index instead of a
B-tree insert and a key check per row), then the schema is vacuumed, so that the
counts of the leaderboard read the index alone as on a settled database. The Python
side, which draws the rows, is the slower half: run it under ``nice -n 19``.

    nice -n 19 .venv/bin/python scripts/fill_accounts.py --schema accounts_bench \\
        --players 10000 --games 100000          # scaled down
    nice -n 19 .venv/bin/python scripts/fill_accounts.py --schema accounts_full \\
        --players 100000 --games 1000000        # the full size of issue 18
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import psycopg
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from raspisnoy.core import resolve_rules
from raspisnoy.ratings import BOT_RATINGS, DEFAULT_RATING, Rating, displayed
from raspisnoy.store import Store, recount

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
PRESETS = ("raspisnoy.com", "classic", "georgian")
SEATS = 4
#: How the bench's ratings move per game: a crude stand-in for OpenSkill that keeps the
#: spread of the stored numbers realistic (the benchmark times the real update).
_STEP = 0.4
#: Games copied at a time: the rows of one batch are held in memory, not those of all.
_BATCH = 20_000


@dataclass(slots=True)
class _Climb:
    """One person's rating in one scope as the fill moves it: mean, spread, games, last."""

    mu: float
    sigma: float
    games: int
    last: datetime


def _url(schema: str) -> str:
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3D{schema}"


def fresh_schema(schema: str) -> None:
    """Drop and recreate ``schema``, then migrate it (the indexes come with the
    migrations: 0005, 0009, 0010)."""
    admin = create_engine(_url("public").replace("?options=-csearch_path%3Dpublic", ""))
    with admin.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    Store.open(_url(schema)).close()


def fill(schema: str, players: int, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    now = datetime.now(UTC)
    ids = [f"u{n:07d}" for n in range(players)]
    skill = [rng.gauss(0, 1) for _ in ids]
    rules = {preset: json.dumps(resolve_rules(preset).to_json()) for preset in PRESETS}
    ratings: dict[tuple[str, int], _Climb] = {}
    timings: dict[str, float] = {}
    with psycopg.connect(POSTGRES, options=f"-csearch_path={schema}") as connection:
        started = time.perf_counter()
        with connection.cursor() as cursor:
            rebuild = _drop_checks(cursor, schema)
            with cursor.copy("COPY users (id, nickname, kind, created_at) FROM STDIN") as copy:
                for n, user in enumerate(ids):
                    copy.write_row((user, f"Player {n}", "registered", now - timedelta(days=400)))
            with cursor.copy(
                "COPY accounts (user_id, username, username_key, password_hash, created_at)"
                " FROM STDIN"
            ) as copy:
                for n, user in enumerate(ids):
                    copy.write_row((user, f"Player {n}", f"player {n}", "-", now))
        timings["users"] = time.perf_counter() - started
        started = time.perf_counter()
        stream = _games(rng, games, players, now)
        while batch := list(itertools.islice(stream, _BATCH)):
            with connection.cursor() as cursor:
                _copy_games(cursor, iter(batch), rules, skill, ids, ratings, rng)
        timings["games"] = time.perf_counter() - started
        started = time.perf_counter()
        with (
            connection.cursor() as cursor,
            cursor.copy(
                "COPY ratings (scope, user_id, mu, sigma, display, games, last_played_at)"
                " FROM STDIN"
            ) as copy,
        ):
            for (scope, player), climb in ratings.items():
                shown = displayed(Rating(climb.mu, climb.sigma))
                row = (scope, ids[player], climb.mu, climb.sigma, shown, climb.games, climb.last)
                copy.write_row(row)
        timings["ratings"] = time.perf_counter() - started
        connection.commit()  # the rows, for the sums below (the keys are made after them)
        started = time.perf_counter()
        _recount(schema)
        timings["sums"] = time.perf_counter() - started
        started = time.perf_counter()
        with connection.cursor() as cursor:
            for statement in rebuild:
                cursor.execute(statement)
        timings["indexes"] = time.perf_counter() - started
    started = time.perf_counter()
    with psycopg.connect(POSTGRES, options=f"-csearch_path={schema}", autocommit=True) as vacuum:
        # Statistics, and the visibility map that lets the leaderboard's counts read the
        # index alone; the schema's tables only (other schemas are others' business).
        tables = vacuum.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,))
        names = ", ".join(f'"{schema}"."{name}"' for (name,) in tables.fetchall())
        vacuum.execute(f"VACUUM (ANALYZE) {names}")
    timings["vacuum"] = time.perf_counter() - started
    return timings


def _recount(schema: str) -> None:
    """The kept sums that games would have made (per person, preset and place; per
    rating), from the rows copied: ``raspisnoy.store.recount``, as migration 0010 does."""
    engine = create_engine(_url(schema))
    with Session(engine) as session, session.begin():
        recount(session)
    engine.dispose()


def _drop_checks(cursor: psycopg.Cursor[tuple[object, ...]], schema: str) -> list[str]:
    """Drop the schema's foreign keys and secondary indexes (a COPY then neither checks a
    key per row nor updates a B-tree per row) and return the statements that make them
    again, indexes first, from PostgreSQL's own definitions."""
    cursor.execute(
        "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)"
        " FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace"
        " WHERE n.nspname = %s AND c.contype = 'f'",
        (schema,),
    )
    keys = cursor.fetchall()
    cursor.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i"
        " JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND NOT i.indisprimary AND NOT i.indisunique",
        (schema,),
    )
    indexes = cursor.fetchall()
    for table, name, _ in keys:
        cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        cursor.execute(f"DROP INDEX {name}")
    return [str(definition) for _, definition in indexes] + [
        f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}'
        for table, name, definition in keys
    ]


def _games(
    rng: random.Random, games: int, players: int, now: datetime
) -> Iterator[tuple[str, str, datetime, list[int | None]]]:
    """Each game: id, preset, when it ended, and who sat where (``None``: a bot)."""
    for n in range(games):
        people = rng.choice((1, 2, 3, 4))
        seated: list[int | None] = rng.sample(range(players), people)
        seated += [None] * (SEATS - people)
        rng.shuffle(seated)
        finished = now - timedelta(seconds=(games - n) * 90 * 86400 / games)
        yield f"g{n:08d}", rng.choice(PRESETS), finished, seated


def _copy_games(
    cursor: psycopg.Cursor[tuple[object, ...]],
    games: Iterator[tuple[str, str, datetime, list[int | None]]],
    rules: dict[str, str],
    skill: list[float],
    ids: list[str],
    ratings: dict[tuple[str, int], _Climb],
    rng: random.Random,
) -> None:
    """COPY a batch of games: their tables, seats, results and rating changes (one COPY
    runs at a time on a connection, so the batch's rows are gathered first)."""
    tables, seats, results, changes = [], [], [], []
    bots = list(BOT_RATINGS)
    for table_id, preset, finished, seated in games:
        names = [
            f"Player {p}" if p is not None else f"Bot {i + 1} (random)"
            for i, p in enumerate(seated)
        ]
        tables.append(
            (
                table_id,
                ids[next(p for p in seated if p is not None)],
                finished,
                "over",
                True,
                rules[preset],
                SEATS,
                0,
                0,
                "random",
                table_id,
                json.dumps(names),
                0,
                finished,
                finished,
                True,
            )
        )
        strength = [skill[p] if p is not None else rng.uniform(-1, 1) for p in seated]
        totals = [round(200 * s + rng.gauss(0, 150)) for s in strength]
        for seat, person in enumerate(seated):
            bot = None if person is not None else rng.choice(bots)
            seats.append((table_id, seat, None if person is None else ids[person], bot or "random"))
            place = 1 + sum(t > totals[seat] for t in totals)
            bids = 20
            exact = _between(rng, 3, 14)
            results.append(
                (
                    table_id,
                    seat,
                    None if person is None else ids[person],
                    bot,
                    preset,
                    True,
                    finished,
                    totals[seat],
                    place,
                    bids,
                    exact,
                    4,
                    _between(rng, 0, 4),
                    4,
                    _between(rng, 0, 4),
                    _between(rng, -100, 100),
                    4,
                    _between(rng, -200, 0),
                    4,
                    _between(rng, 0, 200),
                )
            )
            if person is None:
                continue
            for scope in ("all", preset):
                state = ratings.setdefault(
                    (scope, person), _Climb(DEFAULT_RATING.mu, DEFAULT_RATING.sigma, 0, finished)
                )
                state.mu += _STEP * (len(seated) + 1 - 2 * place) / 2
                state.sigma = max(1.0, state.sigma * 0.97)
                state.games += 1
                state.last = finished
                changes.append(
                    (
                        table_id,
                        ids[person],
                        scope,
                        state.mu,
                        state.sigma,
                        displayed(Rating(state.mu, state.sigma)),
                        finished,
                    )
                )
    _copy(
        cursor,
        "tables (id, host_id, created_at, status, public, rules, seats, turn_seconds,"
        " bot_delay_ms, stand_in, seed, names, first_dealer, started_at, finished_at, rated)",
        tables,
    )
    _copy(cursor, "seats (table_id, seat, user_id, bot)", seats)
    _copy(
        cursor,
        "game_results (table_id, seat, user_id, bot, preset, rated, finished_at, points,"
        " place, bid_rounds, exact, zero_bids, zero_exact, blind_rounds, blind_exact,"
        " blind_points, misere_rounds, misere_points, golden_rounds, golden_points)",
        results,
    )
    _copy(cursor, "rating_changes (table_id, user_id, scope, mu, sigma, display, at)", changes)


def _between(rng: random.Random, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``: ``rng.randint`` without its checks, which
    were a third of the fill's time."""
    return low + int(rng.random() * (high - low + 1))


def _copy(
    cursor: psycopg.Cursor[tuple[object, ...]], target: str, rows: Sequence[tuple[object, ...]]
) -> None:
    with cursor.copy(f"COPY {target} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default="accounts_bench")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    started = time.perf_counter()
    fresh_schema(options.schema)
    timings = fill(options.schema, options.players, options.games, options.seed)
    print(f"filled schema {options.schema}: {options.players} players, {options.games} games")
    for step, seconds in timings.items():
        print(f"  {step:<8} {seconds:7.1f} s")
    print(f"  total    {time.perf_counter() - started:7.1f} s")


if __name__ == "__main__":
    main()
