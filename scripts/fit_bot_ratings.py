"""Fit the fixed bot ratings (``raspisnoy.ratings.BOT_RATINGS``) from an arena match.

Rates every game of ``raspisnoy arena --records DIR`` with the same OpenSkill model the
server uses, every bot starting from the defaults, a few passes over the games in a
shuffled order (so the order of the deals does not matter), and prints each level's
mu and sigma with the displayed rating. docs/accounts.md gives the commands.

    .venv/bin/python scripts/fit_bot_ratings.py /tmp/arena/records [MORE_RECORDS ...]

Several folders (matches of other seeds, e.g. run one after another to keep each run
short) are rated together as one set of games.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from raspisnoy.core.record import loads_record, replay
from raspisnoy.ratings import DEFAULT_RATING, Rating, displayed, rate_game

#: Passes over the games: one, since each game is evidence once (more passes would count
#: it again and make sigma look surer than the match allows).
PASSES = 1


def _level(name: str) -> str:
    """A bot's level from its name in an arena record (``expert`` or ``Bot 2 (expert)``)."""
    return name.rsplit("(", 1)[-1].rstrip(")") if "(" in name else name


def load(records: list[Path]) -> list[tuple[list[str], tuple[int, ...]]]:
    """Each game's levels by seat and final totals."""
    games = []
    for path in records:
        game = replay(loads_record(path.read_text(encoding="utf-8")))
        games.append(([_level(name) for name in game.names], game.totals))
    return games


def fit(games: list[tuple[list[str], tuple[int, ...]]], seed: int = 0) -> dict[str, Rating]:
    ratings: dict[str, Rating] = {}
    order = random.Random(seed)
    games = list(games)
    for _ in range(PASSES):
        order.shuffle(games)
        for levels, totals in games:
            before = [ratings.get(level, DEFAULT_RATING) for level in levels]
            after = rate_game(before, totals, [False] * len(levels))
            ratings.update(zip(levels, after, strict=True))
    return ratings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "records", type=Path, nargs="+", help="--records folders of raspisnoy arena"
    )
    parser.add_argument(
        "--orders", type=int, default=20, help="shuffles whose spread of mu is shown"
    )
    options = parser.parse_args()
    records = sorted(path for folder in options.records for path in folder.glob("*.json"))
    games = load(records)
    ratings = fit(games)
    spread = [fit(games, seed) for seed in range(options.orders)]
    print(f"{len(games)} games; mu over {options.orders} orders of the games: lowest to highest")
    header = ("level", "mu", "sigma", "shown", "mu range", "points", "wins")
    print("{:<10} {:>7} {:>6} {:>6} {:>15} {:>7} {:>5}".format(*header))
    for level, rating in sorted(ratings.items(), key=lambda item: item[1].mu):
        mus = [fitted[level].mu for fitted in spread]
        seats = [(t[seated.index(level)], t) for seated, t in games if level in seated]
        points = sum(mine for mine, _ in seats) / len(seats)
        wins = sum(mine == max(totals) for mine, totals in seats) / len(seats)
        print(
            f"{level:<10} {rating.mu:7.2f} {rating.sigma:6.2f} {displayed(rating):6d}"
            f" {min(mus):7.2f}–{max(mus):7.2f} {points:7.0f} {wins:5.0%}"
        )


if __name__ == "__main__":
    main()
