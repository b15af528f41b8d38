"""``raspisnoy schedule`` and ``raspisnoy replay`` for every preset (RULES.md 2)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from raspisnoy.core import PRESETS, Game, resolve_rules, round_plan
from raspisnoy.core.record import dumps_record, game_to_record, replay_report


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "raspisnoy", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_schedule_of_every_preset(preset: str) -> None:
    rules = resolve_rules(preset)
    for players in range(rules.min_players, rules.max_players + 1):
        result = run("schedule", "--players", str(players), "--rules", preset, "--json")
        assert result.returncode == 0, result.stderr
        expected = [spec.to_json() for spec in round_plan(rules, players)]
        assert json.loads(result.stdout) == expected


PRESET_SEATS = [
    (name, players)
    for name in PRESETS
    for players in range(resolve_rules(name).min_players, resolve_rules(name).max_players + 1)
]


@pytest.mark.parametrize(("preset", "players"), PRESET_SEATS)
def test_replay_of_every_preset(preset: str, players: int) -> None:
    game = Game(preset, players, seed=7)
    rng = random.Random(7)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    result = run("replay", "-", "--json", stdin=dumps_record(game_to_record(game)))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == replay_report(game)
