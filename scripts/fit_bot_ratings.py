"""Fit the fixed bot ratings (``raspisnoy.ratings.BOT_RATINGS``) from an arena match.

Rates every game of ``raspisnoy arena --records DIR`` with the same OpenSkill model the
server uses, every level starting from the defaults, once, in a shuffled order (so the
order of the deals does not matter), and prints each level's mu and sigma with the
displayed rating, how far other orders of the games move mu, its mean points and win
rate, the games each pair of levels played together and how often each level finished
ahead of the others. With ``--output`` it writes the fit's output file, the one the
server reads (``src/raspisnoy/ratings/data/bot_ratings.json``). docs/accounts.md gives
the commands.

    .venv/bin/python scripts/fit_bot_ratings.py /tmp/arena/records [MORE_RECORDS ...] \\
        --output src/raspisnoy/ratings/data/bot_ratings.json

Several folders (matches of other seeds, e.g. run one after another to keep each run
short) are rated together as one set of games.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from raspisnoy.ratings import displayed
from raspisnoy.ratings.bot_levels import (
    ArenaGame,
    ahead_shares,
    bot_levels_json,
    fit,
    pair_games,
    read_records,
)


def report(games: list[ArenaGame], orders: int) -> None:
    """Prints the fit, its spread over ``orders`` shuffles, and the pairs' figures."""
    ratings = fit(games)
    spread = [fit(games, seed) for seed in range(orders)]
    print(f"{len(games)} games; mu over {orders} orders of the games: lowest to highest")
    header = ("level", "mu", "sigma", "shown", "mu range", "points", "wins")
    print("{:<10} {:>7} {:>6} {:>6} {:>15} {:>7} {:>5}".format(*header))
    for level, rating in sorted(ratings.items(), key=lambda item: item[1].mu):
        mus = [fitted[level].mu for fitted in spread]
        seats = [
            (game.totals[game.levels.index(level)], game.totals)
            for game in games
            if level in game.levels
        ]
        points = sum(mine for mine, _ in seats) / len(seats)
        wins = sum(mine == max(totals) for mine, totals in seats) / len(seats)
        print(
            f"{level:<10} {rating.mu:7.2f} {rating.sigma:6.2f} {displayed(rating):6d}"
            f" {min(mus):7.2f}–{max(mus):7.2f} {points:7.0f} {wins:5.0%}"
        )
    print("pair (games together): share of them each finished ahead")
    ahead = ahead_shares(games)
    for (a, b), count in pair_games(games).items():
        print(f"{a}–{b} ({count}): {a} {ahead[a][b]:.1%}, {b} {ahead[b][a]:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "records", type=Path, nargs="+", help="--records folders of raspisnoy arena"
    )
    parser.add_argument(
        "--orders", type=int, default=20, help="shuffles whose spread of mu is shown"
    )
    parser.add_argument("--output", type=Path, help="write the fit's output file here")
    options = parser.parse_args()
    games, digest = read_records(
        path for folder in options.records for path in folder.glob("*.json")
    )
    report(games, options.orders)
    if options.output is not None:
        options.output.write_text(bot_levels_json(games, digest), encoding="utf-8")
        print(f"written: {options.output}")


if __name__ == "__main__":
    main()
