"""The arena: duplicate seatings, statistics, records, parallel workers and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raspisnoy.arena import MatchConfig, play_game, run_match
from raspisnoy.arena.match import seat_names
from raspisnoy.cli import app
from raspisnoy.core import InvalidInputError, resolve_rules
from raspisnoy.core.record import loads_record, replay

SHORT = resolve_rules("raspisnoy.com", custom_plan=("2", "4", "4:misere", "4:golden"))
LINEUP = ("heuristic", "beginner", "random", "beginner")


def _config(**changes: object) -> MatchConfig:
    settings: dict[str, object] = {"bots": LINEUP, "games": 8, "seed": "t", "rules": SHORT}
    settings.update(changes)
    return MatchConfig(**settings)  # type: ignore[arg-type]


def test_every_deal_is_played_once_per_seating() -> None:
    config = _config(games=7)
    assert config.deals == 2
    assert list(config.units()) == [(d, r) for d in range(2) for r in range(4)]
    first, second = play_game(config, 0, 0), play_game(config, 0, 1)
    assert [s.bot for s in first.seats] == list(LINEUP)
    assert [s.bot for s in second.seats] == [*LINEUP[1:], LINEUP[0]]


def test_the_same_deal_gives_each_seat_the_same_cards_in_every_seating(tmp_path: Path) -> None:
    config = _config(games=4, records=tmp_path)
    for rotation in range(4):
        play_game(config, 0, rotation)
    records = [loads_record(p.read_text()) for p in sorted(tmp_path.glob("*.json"))]
    assert len(records) == 4
    deals = {tuple(tuple(r.hands) for r in record.rounds) for record in records}
    assert len(deals) == 1


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    one = run_match(_config(workers=1))
    two = run_match(_config(workers=2))
    assert one.games == two.games == 8
    for a, b in zip(one.bots, two.bots, strict=True):
        assert (a.name, a.mean_points, a.ci95, a.win_rate, a.exact_bid_rate) == (
            b.name,
            b.mean_points,
            b.ci95,
            b.win_rate,
            b.exact_bid_rate,
        )


def test_statistics_per_distinct_bot() -> None:
    result = run_match(_config())
    assert [bot.name for bot in result.bots] == ["heuristic", "beginner", "random"]
    total_wins = 0.0
    for bot in result.bots:
        low, high = bot.ci95
        assert low <= bot.mean_points <= high
        assert 0.0 <= bot.win_rate <= 1.0
        assert 0.0 <= bot.exact_bid_rate <= 1.0
        assert 0.0 <= bot.decision_ms_p50 <= bot.decision_ms_p95
        seats = LINEUP.count(bot.name)
        total_wins += bot.win_rate * seats
    # Every game has winners worth one win in all, shared on ties.
    assert total_wins == pytest.approx(1.0)


def test_records_replay_to_the_same_totals(tmp_path: Path) -> None:
    config = _config(games=4, records=tmp_path)
    results = [play_game(config, 0, rotation) for rotation in range(4)]
    for result in results:
        path = tmp_path / f"deal-00000-seating-{result.rotation}.json"
        game = replay(loads_record(path.read_text()))
        assert list(game.totals) == [seat.points for seat in result.seats]
    assert not list(tmp_path.glob("*.part"))


def test_seat_names_are_distinct() -> None:
    assert seat_names(("a", "b", "a", "a")) == ("a 1", "b", "a 2", "a 3")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bots": ("heuristic", "wizard", "random")}, "unknown bot 'wizard'"),
        ({"bots": ("random", "random")}, "played by 3–5 players, not 2"),
        ({"games": 0}, "at least 1"),
        ({"workers": 0}, "at least 1"),
    ],
)
def test_bad_configurations_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        _config(**changes)


def test_cli_prints_exactly_the_json_schema(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "arena",
            "--players", "3",
            "--bots", "heuristic,beginner,random",
            "--games", "3",
            "--seed", "5",
            "--set", "custom_plan=1,3,3:golden",
            "--workers", "1",
            "--records", str(tmp_path),
            "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"games", "bots"}
    assert data["games"] == 3
    keys = {
        "name",
        "mean_points",
        "ci95",
        "win_rate",
        "exact_bid_rate",
        "decision_ms_p50",
        "decision_ms_p95",
    }
    for bot in data["bots"]:
        assert set(bot) == keys
        assert len(bot["ci95"]) == 2
        assert all(isinstance(bot[k], float) for k in keys - {"name", "ci95"})
    assert len(list(tmp_path.glob("*.json"))) == 3


def test_cli_table_and_errors() -> None:
    command = [sys.executable, "-m", "raspisnoy", "arena", "--players", "3"]
    table = subprocess.run(
        [*command, "--bots", "random,random,beginner", "--games", "3",
         "--set", "custom_plan=2", "--workers", "1"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert table.returncode == 0, table.stderr
    assert "points per game" in table.stdout
    assert table.stderr == ""
    assert "beginner" in table.stdout
    wrong = subprocess.run(
        [*command, "--bots", "random,random"], capture_output=True, text=True, check=False
    )
    assert wrong.returncode == 1
    assert wrong.stderr == "error: --bots names 2 bots for 3 players: name one per seat\n"
