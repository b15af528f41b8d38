"""Review speed and agreement: the screened review against one at ten times the budget.

Plays whole games of heuristic bots (4 players, raspisnoy.com's 28 rounds by default),
reviews one seat of each with the given budget (the quick screen of every move, the deep
search of the moves it doubts: docs/review.md) and reports, per game, the CPU time of
the review and per move, the CPU time until the first decision was reviewed and until
the first mistake was found (what the browser shows first), and how many moves the deep
search took. Then the same seat is reviewed with ten times the deep budget and no screen
(the reference) and the verdicts compared: of the moves the fast review calls mistakes
(class ``mistake`` or ``blunder``), the share the reference calls mistakes too, and the
same share for inaccuracies and worse; also how many of the reference's mistakes the fast
review found (recall). CPU time, not wall-clock time, so a busy machine changes it less.

    .venv/bin/python benchmarks/review_speed.py [--games 1] [--seed 7] [--iterations 6000]
        [--screen 800] [--factor 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from raspisnoy.bots import make_bot
from raspisnoy.bots.expert import warm_up
from raspisnoy.core import Game, Record, resolve_rules
from raspisnoy.core.record import game_to_record
from raspisnoy.review import DEFAULT_ITERATIONS, DEFAULT_SCREEN, Budget, Review, review_game

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


def agreement(fast: Review, reference: Review, classes: frozenset[str]) -> dict[str, Any]:
    """Of the moves ``fast`` puts in ``classes``, how many ``reference`` does too; and of
    those ``reference`` puts there, how many ``fast`` found."""
    pairs = list(zip(fast.moments, reference.moments, strict=True))
    called = [(f, r) for f, r in pairs if str(f.severity) in classes]
    found = [(f, r) for f, r in pairs if str(r.severity) in classes]
    same = sum(str(r.severity) in classes for _, r in called)
    recalled = sum(str(f.severity) in classes for f, _ in found)
    return {
        "called": len(called),
        "confirmed": same,
        "agreement": same / len(called) if called else 1.0,
        "reference": len(found),
        "recall": recalled / len(found) if found else 1.0,
    }


def measure(
    games: int, seed: int, players: int, preset: str, budget: Budget, factor: int
) -> dict[str, Any]:
    warm_up()
    reference_budget = Budget(budget.iterations * factor, seed=budget.seed, screen=None)
    rows = []
    for n in range(games):
        record = bot_game(seed + n, players, preset)
        fast, marks = timed_review(record, 0, budget)
        reference, reference_marks = timed_review(record, 0, reference_budget)
        moves = len(fast.moments)
        rows.append(
            {
                "game_seed": seed + n,
                "moves": moves,
                **{key: round(value, 3) for key, value in marks.items()},
                "ms_per_move": round(1000 * marks["cpu_s"] / max(moves, 1), 2),
                "reference_cpu_s": round(reference_marks["cpu_s"], 2),
                "mistakes": agreement(fast, reference, MISTAKES),
                "inaccuracies_or_worse": agreement(fast, reference, FLAWS),
            }
        )
    return {
        "budget": budget.to_json(),
        "reference": reference_budget.to_json(),
        "players": players,
        "preset": preset,
        "load_average": os.getloadavg()[0],
        "games": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="raspisnoy.com")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--screen", type=int, default=DEFAULT_SCREEN)
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    budget = Budget(args.iterations, screen=args.screen)
    results = measure(args.games, args.seed, args.players, args.preset, budget, args.factor)
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
        return
    print(f"budget {results['budget']}, reference {results['reference']}")
    print(f"load average {results['load_average']:.1f}")
    for row in results["games"]:
        mistakes, flaws = row["mistakes"], row["inaccuracies_or_worse"]
        print(
            f"game {row['game_seed']}: {row['moves']} moves, {row['cpu_s']:.2f} s CPU "
            f"({row['ms_per_move']:.1f} ms a move; first move {row['first_move_s']:.3f} s, "
            f"first mistake {row.get('first_mistake_s', float('nan')):.3f} s); reference "
            f"{row['reference_cpu_s']:.1f} s\n"
            f"  mistakes: {mistakes['confirmed']}/{mistakes['called']} confirmed "
            f"({mistakes['agreement']:.0%}), recall {mistakes['recall']:.0%} of "
            f"{mistakes['reference']}; inaccuracies or worse: {flaws['confirmed']}/"
            f"{flaws['called']} ({flaws['agreement']:.0%}), recall {flaws['recall']:.0%}"
        )


if __name__ == "__main__":
    main()
