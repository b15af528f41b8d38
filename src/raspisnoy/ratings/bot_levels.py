"""The bot levels' fixed ratings, fitted from an arena match of the levels.

``scripts/fit_bot_ratings.py`` reads the records of ``raspisnoy arena`` into one
``ArenaGame`` per game (each seat's level and final total), rates them with the house's
model (``fit``) and writes the fit's output, ``skill.BOT_RATINGS_FILE``: the games
themselves, the ratings they give and how often each level finished ahead of each other
one (``ahead``). The server reads that file (``skill.BOT_RATINGS``, ``load_bot_levels``)
and a test re-derives its ratings from its games, so the shipped numbers are the fit's,
never typed by hand. docs/accounts.md gives the match, the commands and the figures.

A game of four seats is one Plackett–Luce ranking of all four: it counts once for every
pair of levels at the table (six pairs), which is how ``pair_games`` counts it too.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

from raspisnoy.core import loads_record, replay
from raspisnoy.ratings.skill import (
    BOT_RATINGS,
    BOT_RATINGS_FORMAT,
    DEFAULT_RATING,
    Rating,
    displayed,
    rate_game,
    shipped_bot_fit,
)

__all__ = [
    "ArenaGame",
    "BotLevels",
    "LevelStrength",
    "ahead_shares",
    "bot_levels_json",
    "fit",
    "level_strengths",
    "load_bot_levels",
    "pair_games",
    "read_records",
]


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One arena game: its record (folder/file), each seat's level and final total."""

    record: str
    levels: tuple[str, ...]
    totals: tuple[int, ...]


def _level(name: str) -> str:
    """A bot's level from its name in an arena record (``expert`` or ``Bot 2 (expert)``)."""
    return name.rsplit("(", 1)[-1].rstrip(")") if "(" in name else name


def read_records(paths: Iterable[Path]) -> tuple[list[ArenaGame], str]:
    """The games of these ``raspisnoy arena --records`` files (each named by its folder
    and file), and the SHA-256 of the files in that order, which lets anyone who reruns
    the match check that it played the same games."""
    digest = hashlib.sha256()
    games = []
    for name, path in sorted((f"{path.parent.name}/{path.name}", path) for path in paths):
        text = path.read_text(encoding="utf-8")
        digest.update(text.encode())
        game = replay(loads_record(text))
        games.append(ArenaGame(name, tuple(map(_level, game.names)), game.totals))
    return games, digest.hexdigest()


def fit(games: Sequence[ArenaGame], seed: int = 0) -> dict[str, Rating]:
    """Each level's rating after rating every game once, in an order shuffled by
    ``seed`` (so that the order of the deals does not matter), from the defaults. Once:
    each game is evidence once, and more passes would make sigma surer than the match."""
    ratings: dict[str, Rating] = {}
    shuffled = list(games)
    random.Random(seed).shuffle(shuffled)
    for game in shuffled:
        before = [ratings.get(level, DEFAULT_RATING) for level in game.levels]
        after = rate_game(before, game.totals, [False] * len(game.levels))
        ratings.update(zip(game.levels, after, strict=True))
    return ratings


def pair_games(games: Iterable[ArenaGame]) -> dict[tuple[str, str], int]:
    """Games in which each pair of levels (in name order) sat at one table."""
    counts: dict[tuple[str, str], int] = {}
    for game in games:
        for pair in combinations(sorted(set(game.levels)), 2):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def ahead_shares(games: Iterable[ArenaGame]) -> dict[str, dict[str, float]]:
    """For each level and each other level it met: the share of their games in which it
    finished strictly ahead (a tie is ahead of neither)."""
    ahead: dict[tuple[str, str], int] = {}
    met: dict[tuple[str, str], int] = {}
    for game in games:
        seats = zip(game.levels, game.totals, strict=True)
        for (a, total_a), (b, total_b) in combinations(seats, 2):
            for key in ((a, b), (b, a)):
                met[key] = met.get(key, 0) + 1
            if total_a != total_b:
                winner = (a, b) if total_a > total_b else (b, a)
                ahead[winner] = ahead.get(winner, 0) + 1
    shares: dict[str, dict[str, float]] = {}
    for (level, other), count in sorted(met.items()):
        shares.setdefault(level, {})[other] = ahead.get((level, other), 0) / count
    return shares


def bot_levels_json(games: Sequence[ArenaGame], records_sha256: str) -> str:
    """The fit's output file: the fitted ratings, the shares ``ahead``, the pairs'
    game counts and every game (one line each, so that a refit reads as a diff)."""
    ratings = fit(games)
    summary: dict[str, Any] = {
        "format": BOT_RATINGS_FORMAT,
        "made_by": "scripts/fit_bot_ratings.py (docs/accounts.md)",
        "records_sha256": records_sha256,
        "ratings": {
            level: {"mu": rating.mu, "sigma": rating.sigma}
            for level, rating in sorted(ratings.items(), key=lambda item: item[1].mu)
        },
        "ahead": ahead_shares(games),
        "pair_games": {" ".join(pair): count for pair, count in pair_games(games).items()},
    }
    head = json.dumps(summary, indent=2)[: -len("\n}")]
    lines = ",\n".join(
        "    " + json.dumps([game.record, list(game.levels), list(game.totals)]) for game in games
    )
    return f'{head},\n  "games": [\n{lines}\n  ]\n}}\n'


@dataclass(frozen=True, slots=True)
class BotLevels:
    """The shipped fit: how often each level finished ahead of each other one, and the
    games it was fitted from (the ratings themselves are ``skill.BOT_RATINGS``)."""

    ahead: dict[str, dict[str, float]]
    games: tuple[ArenaGame, ...]


@cache
def load_bot_levels() -> BotLevels:
    """The fit shipped with the package (``skill.shipped_bot_fit``), read."""
    data = shipped_bot_fit()
    return BotLevels(
        ahead=data["ahead"],
        games=tuple(
            ArenaGame(record, tuple(levels), tuple(totals))
            for record, levels, totals in data["games"]
        ),
    )


@dataclass(frozen=True, slots=True)
class LevelStrength:
    """What the lobby says of a level: its displayed rating, and in how many of 100
    arena games it finished ahead of ``versus``, the level just below it (the weakest:
    just above), rounded but never to 0 or 100 unless it always or never was ahead."""

    level: str
    rating: int
    versus: str
    ahead_of_100: int


def level_strengths() -> list[LevelStrength]:
    """Every rated level, weakest first, as the lobby shows it: its neighbour in the
    match, not a share of people, because the match is the evidence there is (people
    play the levels under their own ratings, which the lobby does not know)."""
    levels = sorted(BOT_RATINGS, key=lambda level: BOT_RATINGS[level].mu)
    ahead = load_bot_levels().ahead
    strengths = []
    for index, level in enumerate(levels):
        versus = levels[index - 1] if index else levels[1]
        strengths.append(
            LevelStrength(
                level,
                displayed(BOT_RATINGS[level]),
                versus,
                _of_100(ahead[level][versus]),
            )
        )
    return strengths


def _of_100(share: float) -> int:
    """``share`` in whole hundredths, 1 to 99 unless it is exactly 0 or 1 (0.996 of the
    games is not every game)."""
    if share in (0.0, 1.0):
        return round(share * 100)
    return min(99, max(1, round(share * 100)))
