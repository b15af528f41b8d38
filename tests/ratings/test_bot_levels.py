"""The bot levels' shipped ratings (``raspisnoy.ratings.bot_levels``): ordered from the
weakest level to the strongest, and the fit's own output, re-derived here from the
games the output file keeps; the fit command end to end on a tiny arena; what the
lobby is told of each level (``GET /api/bots``)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raspisnoy.arena.match import MatchConfig, play_games
from raspisnoy.ratings import BOT_RATINGS, displayed, level_strengths
from raspisnoy.ratings.bot_levels import (
    ArenaGame,
    ahead_shares,
    fit,
    load_bot_levels,
    pair_games,
    read_records,
)
from raspisnoy.ratings.skill import shipped_bot_fit
from raspisnoy.server.routes.catalogue import bots

#: The table levels from the weakest to the strongest (docs/bots.md).
LEVELS = ("random", "beginner", "heuristic", "expert")
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fit_bot_ratings.py"


def test_the_shipped_ratings_are_ordered_from_the_weakest_level() -> None:
    assert tuple(BOT_RATINGS) == LEVELS
    mus = [BOT_RATINGS[level].mu for level in LEVELS]
    shown = [displayed(BOT_RATINGS[level]) for level in LEVELS]
    assert mus == sorted(mus) and len(set(mus)) == len(mus)
    assert shown == sorted(shown) and len(set(shown)) == len(shown)


def test_the_shipped_ratings_are_the_fit_of_the_shipped_games() -> None:
    games = load_bot_levels().games
    refitted = fit(games)
    assert set(refitted) == set(BOT_RATINGS)
    for level, rating in BOT_RATINGS.items():
        assert refitted[level].mu == pytest.approx(rating.mu, abs=1e-9)
        assert refitted[level].sigma == pytest.approx(rating.sigma, abs=1e-9)
    assert load_bot_levels().ahead == ahead_shares(games)
    data = shipped_bot_fit()
    assert data["made_by"].startswith("scripts/fit_bot_ratings.py")
    assert len(data["records_sha256"]) == 64


def test_every_shipped_game_seats_every_pair_of_levels() -> None:
    """A four-seat game of the four levels is evidence on all six pairs, and the fit's
    one Plackett–Luce ranking of the four uses every pair of it."""
    games = load_bot_levels().games
    assert all(sorted(game.levels) == sorted(LEVELS) for game in games)
    counts = pair_games(games)
    assert set(counts) == {tuple(sorted(pair)) for pair in combinations(LEVELS, 2)}
    assert set(counts.values()) == {len(games)}
    assert shipped_bot_fit()["pair_games"] == {" ".join(p): n for p, n in counts.items()}


@given(st.lists(st.lists(st.integers(-500, 500), min_size=3, max_size=3), min_size=1, max_size=20))
def test_ahead_shares_of_a_pair_add_up_to_one_less_their_ties(
    totals: list[list[int]],
) -> None:
    games = [ArenaGame(f"{n}", ("a", "b", "c"), tuple(t)) for n, t in enumerate(totals)]
    shares = ahead_shares(games)
    for a, b in combinations("abc", 2):
        ties = sum(t["abc".index(a)] == t["abc".index(b)] for t in totals) / len(totals)
        assert shares[a][b] + shares[b][a] == pytest.approx(1 - ties)


def test_the_lobby_is_told_each_level_against_its_neighbour() -> None:
    strengths = level_strengths()
    assert [s.level for s in strengths] == list(LEVELS)
    assert [s.versus for s in strengths] == ["beginner", "random", "beginner", "heuristic"]
    ahead = load_bot_levels().ahead
    for strength in strengths:
        assert strength.rating == displayed(BOT_RATINGS[strength.level])
        share = ahead[strength.level][strength.versus]
        assert abs(strength.ahead_of_100 - 100 * share) <= 1
        assert (strength.ahead_of_100 in (0, 100)) == (share in (0.0, 1.0))
    answer = asyncio.run(bots()).model_dump()
    assert answer["bots"][: len(LEVELS)] == list(LEVELS)
    assert answer["levels"] == [
        {"level": s.level, "rating": s.rating, "versus": s.versus, "ahead_of_100": s.ahead_of_100}
        for s in strengths
    ]


def test_the_fit_command_writes_what_it_read(tmp_path: Path) -> None:
    """``scripts/fit_bot_ratings.py --output`` on the records of a tiny arena: the file
    holds the games as the records have them and the fit of exactly those games."""
    records = tmp_path / "records"
    config = MatchConfig(
        bots=("random", "beginner", "heuristic"), games=3, seed="tiny", records=records
    )
    assert len(list(play_games(config))) == 3
    output = tmp_path / "bot_ratings.json"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(records), "--orders", "2", "--output", str(output)],
        capture_output=True,
        encoding="utf-8",  # the summary has dashes, whatever the locale
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=True,
    )
    assert "3 games" in run.stdout and "beginner–random (3)" in run.stdout
    data = json.loads(output.read_text(encoding="utf-8"))
    games, digest = read_records(records.glob("*.json"))
    assert data["records_sha256"] == digest
    assert data["games"] == [[g.record, list(g.levels), list(g.totals)] for g in games]
    fitted = fit(games)
    assert data["ratings"] == {
        level: {"mu": fitted[level].mu, "sigma": fitted[level].sigma}
        for level in sorted(fitted, key=lambda level: fitted[level].mu)
    }
