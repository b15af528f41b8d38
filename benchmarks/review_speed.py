"""Review speed and agreement: the screened review against one at ten times the budget.

Plays whole games of heuristic bots (4 players, raspisnoy.com's 28 rounds by default),
reviews one seat of each with the given budget (the quick screen of every move, the deep
search of the moves it doubts: docs/review.md) and reports, per game, the CPU time of
the review and per move, the CPU time until the first decision was reviewed and until
the first mistake was found (what the browser shows first), and how many moves the deep
search took. Then the same seat is reviewed at the ``master`` level's budget (ten times
the default deep budget, every move, no screen: ``Budget.master``), the reference, and the
verdicts compared: of the moves the fast review calls mistakes (class ``mistake`` or
``blunder``), the share the reference calls mistakes too, and the same share for
inaccuracies and worse; also how many of the reference's mistakes the fast review found
(recall); and the same over all the games. CPU time, not wall-clock time, so a busy
machine changes it less. With ``--out FILE`` the results are written there after each
game (a line per game on standard error shows the progress), and a run given the same
file again goes on from the games it holds.

    .venv/bin/python benchmarks/review_speed.py [--games 1] [--seed 7] [--iterations 6000]
        [--screen 800] [--reference 60000] [--out FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from raspisnoy.bots import make_bot
from raspisnoy.bots.expert import warm_up
from raspisnoy.core import Game, Record, resolve_rules
from raspisnoy.core.record import game_to_record
from raspisnoy.review import (
    DEFAULT_ITERATIONS,
    DEFAULT_SCREEN,
    Budget,
    Moment,
    Review,
    Thresholds,
    decisions,
    judge,
    review_game,
)

#: The classes that count as a mistake, and as an inaccuracy or worse.
MISTAKES = frozenset({"mistake", "blunder"})
FLAWS = MISTAKES | {"inaccuracy"}


def bot_game(seed: int, players: int, preset: str) -> Record:
    """A whole game of heuristic bots (each seat seeded apart), as a record."""
    game = Game(resolve_rules(preset), players, seed=seed)
    bots = [make_bot("heuristic", seed=seed * 10 + seat) for seat in range(players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)
    return game_to_record(game)


def timed_review(record: Record, seat: int, budget: Budget) -> tuple[Review, dict[str, float]]:
    """The review and its CPU times: in all, to the first decision, to the first mistake."""
    start = time.process_time()
    marks: dict[str, float] = {}

    def partial(review: Review) -> None:
        now = time.process_time() - start
        marks.setdefault("first_move_s", now)
        if "first_mistake_s" not in marks and any(
            str(m.severity) in MISTAKES for m in review.moments
        ):
            marks["first_mistake_s"] = now

    review = review_game(record, seat, budget, partial=partial)
    marks["cpu_s"] = time.process_time() - start
    return review, marks


def reference_verdicts(
    record: Record, fast: Review, budget: Budget, every: bool
) -> tuple[list[Moment | None], float]:
    """The reference's judgement of each of ``fast``'s moves (``None`` for a move it does
    not judge: unless ``every``, it judges only those ``fast`` calls an inaccuracy or
    worse, all that the agreement needs), and its CPU time."""
    start = time.process_time()
    thresholds = Thresholds.of(record.rules)
    verdicts: list[Moment | None] = []
    chosen = decisions(record, fast.seats)
    for moment, (view, played) in zip(fast.moments, chosen, strict=True):
        wanted = every or str(moment.severity) in FLAWS
        verdicts.append(judge(view, played, budget, thresholds) if wanted else None)
    return verdicts, time.process_time() - start


def agreement(
    fast: Review, reference: list[Moment | None], classes: frozenset[str]
) -> dict[str, Any]:
    """Of the moves ``fast`` puts in ``classes``, how many ``reference`` does too; and,
    where the reference judged every move, of those it puts there, how many ``fast``
    found (``recall``; else ``None``)."""
    pairs = list(zip(fast.moments, reference, strict=True))
    called = [r for f, r in pairs if str(f.severity) in classes]
    same = sum(r is not None and str(r.severity) in classes for r in called)
    out: dict[str, Any] = {
        "called": len(called),
        "confirmed": same,
        "agreement": same / len(called) if called else 1.0,
        "reference": None,
        "recalled": None,
        "recall": None,
    }
    if all(r is not None for r in reference):
        found = [f for f, r in pairs if r is not None and str(r.severity) in classes]
        recalled = sum(str(f.severity) in classes for f in found)
        out["reference"], out["recalled"] = len(found), recalled
        out["recall"] = recalled / len(found) if found else 1.0
    return out


def measure_game(
    game_seed: int,
    players: int,
    preset: str,
    budget: Budget,
    reference_budget: Budget,
    every: bool = False,
) -> dict[str, Any]:
    """One game's row: the fast review's times, and its agreement with the reference."""
    record = bot_game(game_seed, players, preset)
    load = os.getloadavg()[0]
    fast, marks = timed_review(record, 0, budget)
    reference, reference_cpu = reference_verdicts(record, fast, reference_budget, every)
    moves = len(fast.moments)
    return {
        "game_seed": game_seed,
        "moves": moves,
        **{key: round(value, 3) for key, value in marks.items()},
        "ms_per_move": round(1000 * marks["cpu_s"] / max(moves, 1), 2),
        "reference_cpu_s": round(reference_cpu, 2),
        "reference_moves": sum(verdict is not None for verdict in reference),
        "load_average": [round(load, 1), round(os.getloadavg()[0], 1)],
        "mistakes": agreement(fast, reference, MISTAKES),
        "inaccuracies_or_worse": agreement(fast, reference, FLAWS),
    }


def overall(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The totals over the games: CPU per game and per move, and the agreements."""
    moves = sum(row["moves"] for row in rows)
    cpu = sum(row["cpu_s"] for row in rows)
    totals: dict[str, Any] = {
        "games": len(rows),
        "moves": moves,
        "cpu_s_per_game": round(cpu / max(len(rows), 1), 3),
        "max_cpu_s": max((row["cpu_s"] for row in rows), default=0.0),
        "ms_per_move": round(1000 * cpu / max(moves, 1), 2),
    }
    for key in ("mistakes", "inaccuracies_or_worse"):
        called = sum(row[key]["called"] for row in rows)
        confirmed = sum(row[key]["confirmed"] for row in rows)
        totals[key] = {
            "called": called,
            "confirmed": confirmed,
            "agreement": confirmed / called if called else 1.0,
            "recall": None,
        }
        if all(row[key]["recall"] is not None for row in rows):
            found = sum(row[key]["reference"] for row in rows)
            recalled = sum(row[key]["recalled"] for row in rows)
            totals[key]["reference"] = found
            totals[key]["recall"] = recalled / found if found else 1.0
    return totals


def measure(
    games: int,
    seed: int,
    players: int,
    preset: str,
    budget: Budget,
    reference_budget: Budget,
    out: Path | None = None,
    every: bool = False,
) -> dict[str, Any]:
    """Every game's row and the totals (``every``: the reference judges every move, for
    the recall); with ``out``, written there after each game, and the games already
    there (of the same budgets) kept rather than measured again."""
    warm_up()
    results: dict[str, Any] = {
        "budget": budget.to_json(),
        "reference": reference_budget.to_json(),
        "players": players,
        "preset": preset,
        "every_move": every,
        "games": [],
    }
    if out is not None and out.exists():
        before = json.loads(out.read_text("utf-8"))
        if all(
            before.get(key) == results[key]
            for key in ("budget", "reference", "players", "every_move")
        ):
            results["games"] = before["games"]
    done = {row["game_seed"] for row in results["games"]}
    for game_seed in range(seed, seed + games):
        if game_seed not in done:
            row = measure_game(game_seed, players, preset, budget, reference_budget, every)
            results["games"].append(row)
            print(_row_text(row), file=sys.stderr, flush=True)
        results["overall"] = overall(results["games"])
        if out is not None:
            out.write_text(json.dumps(results, indent=1) + "\n", "utf-8")
    return results


def _row_text(row: dict[str, Any]) -> str:
    return (
        f"game {row['game_seed']}: {row['moves']} moves, {row['cpu_s']:.2f} s CPU "
        f"({row['ms_per_move']:.1f} ms a move; first move {row['first_move_s']:.3f} s, "
        f"first mistake {row.get('first_mistake_s', float('nan')):.3f} s); reference "
        f"{row['reference_cpu_s']:.1f} s over {row['reference_moves']} moves; "
        f"load {row['load_average']}\n  {_agreement_text(row)}"
    )


def _agreement_text(row: dict[str, Any]) -> str:
    """The agreements (and recalls, if measured) of a game's row or of the totals."""
    parts = []
    for key, name in (("mistakes", "mistakes"), ("inaccuracies_or_worse", "inaccuracies+")):
        figures = row[key]
        recall = "" if figures["recall"] is None else f", recall {figures['recall']:.0%}"
        parts.append(
            f"{name}: {figures['confirmed']}/{figures['called']} confirmed "
            f"({figures['agreement']:.0%}{recall})"
        )
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="raspisnoy.com")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--screen", type=int, default=DEFAULT_SCREEN)
    parser.add_argument("--reference", type=int, default=Budget.master().iterations)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--recall", action="store_true", help="judge every move with the reference (slow)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    budget = Budget(args.iterations, screen=args.screen)
    reference = Budget(args.reference, screen=None)
    results = measure(
        args.games, args.seed, args.players, args.preset, budget, reference, args.out, args.recall
    )
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
        return
    print(f"budget {results['budget']}, reference {results['reference']}")
    for row in results["games"]:
        print(_row_text(row))
    totals = results["overall"]
    print(
        f"overall: {totals['games']} games, {totals['cpu_s_per_game']:.2f} s CPU a game "
        f"(at most {totals['max_cpu_s']:.2f} s), {totals['ms_per_move']:.1f} ms a move; "
        f"{_agreement_text(totals)}"
    )


if __name__ == "__main__":
    main()
