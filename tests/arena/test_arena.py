"""The arena: duplicate seatings, statistics, records, parallel workers and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from statistics import NormalDist

import pytest
from typer.testing import CliRunner

from raspisnoy.arena import MatchConfig, play_game, run_match
from raspisnoy.arena.match import GameResult, SeatResult, difference, seat_names, summarize
from raspisnoy.cli import app
from raspisnoy.core import InvalidInputError, loads_record, replay, resolve_rules

SHORT = resolve_rules("raspisnoy.com", custom_plan=("2", "4", "4:misere", "4:golden"))
LINEUP = ("heuristic", "beginner", "random", "beginner")
#: The normal quantile of a two-sided 95% interval, about 1.96.
Z95 = NormalDist().inv_cdf(0.975)


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


def _seat(
    bot: str, points: int, win: float, exact: int, times: tuple[float, ...] = ()
) -> SeatResult:
    return SeatResult(bot, points, win, exact_bids=exact, bids=4, decision_ms=times)


def _made_up_results() -> list[GameResult]:
    """Two deals of three seatings of heuristic, random, random, with round numbers: the
    heuristic scores 10 × (game + 1) in game 0..5 and the randoms half of that, negated."""
    wins = (1.0, 0.5, 0.0, 1.0, 1.0, 0.0)  # the heuristic's share of each game's win
    results = []
    for game in range(6):
        points, win = 10 * (game + 1), wins[game]
        rest = (1.0 - win) / 2
        seats = (
            _seat("heuristic", points, win, exact=game % 5, times=(float(game + 1),)),
            _seat("random", -points // 2, rest, exact=1),
            _seat("random", -points // 2, rest, exact=1),
        )
        results.append(GameResult(game // 3, game % 3, seats))
    return results


def test_statistics_values() -> None:
    """``summarize`` on made-up games: every figure worked out by hand."""
    config = MatchConfig(bots=("heuristic", "random", "random"), games=6, rules=SHORT)
    heuristic, random_bot = summarize(config, _made_up_results()).bots
    # Deal means 20 and 50; the interval spreads the two deal means: stdev 15 × √2.
    assert heuristic.name == "heuristic"
    assert heuristic.mean_points == 35.0
    assert heuristic.ci95 == pytest.approx((35 - 15 * Z95, 35 + 15 * Z95))
    assert heuristic.win_rate == pytest.approx(3.5 / 6)
    assert heuristic.exact_bid_rate == pytest.approx((0 + 1 + 2 + 3 + 4 + 0) / 24)
    # Decision times 1..6 ms: the inclusive quantiles 3.5 and 5.75.
    assert (heuristic.decision_ms_p50, heuristic.decision_ms_p95) == pytest.approx((3.5, 5.75))
    # The randoms: deal means −10 and −25, the rest of the wins, no decision timed.
    assert random_bot.mean_points == -17.5
    assert random_bot.ci95 == pytest.approx((-17.5 - 7.5 * Z95, -17.5 + 7.5 * Z95))
    assert random_bot.win_rate == pytest.approx(2.5 / 12)
    assert random_bot.exact_bid_rate == 0.25
    assert (random_bot.decision_ms_p50, random_bot.decision_ms_p95) == (0.0, 0.0)


def test_statistics_of_a_single_deal_spread_its_games() -> None:
    config = MatchConfig(bots=("heuristic", "random", "random"), games=3, rules=SHORT)
    heuristic = summarize(config, _made_up_results()[:3]).bots[0]
    # Games of 10, 20 and 30 points: stdev 10 over √3 games.
    assert heuristic.ci95 == pytest.approx((20 - 10 * Z95 / 3**0.5, 20 + 10 * Z95 / 3**0.5))
    single = summarize(config, _made_up_results()[:1]).bots[0]
    assert single.ci95 == (10.0, 10.0)


def test_a_match_sums_up_its_games() -> None:
    """``run_match`` is ``summarize`` of every game played on its own, and every game's
    win is worth one in all, shared on ties."""
    config = _config()
    games = [play_game(config, deal, rotation) for deal, rotation in config.units()]
    result = run_match(config)
    figures = [(b.name, b.mean_points, b.ci95, b.win_rate, b.exact_bid_rate) for b in result.bots]
    expected = summarize(config, games).bots
    assert figures == [
        (b.name, b.mean_points, b.ci95, b.win_rate, b.exact_bid_rate) for b in expected
    ]
    assert [bot.name for bot in result.bots] == ["heuristic", "beginner", "random"]
    for game in games:
        assert sum(seat.win for seat in game.seats) == pytest.approx(1.0)
    wins = sum(bot.win_rate * LINEUP.count(bot.name) for bot in result.bots)
    assert wins == pytest.approx(1.0)


def test_records_replay_to_the_same_totals(tmp_path: Path) -> None:
    config = _config(games=4, records=tmp_path)
    results = [play_game(config, 0, rotation) for rotation in range(4)]
    for result in results:
        path = tmp_path / f"deal-00000-seating-{result.rotation}.json"
        game = replay(loads_record(path.read_text()))
        assert list(game.totals) == [seat.points for seat in result.seats]
    assert not list(tmp_path.glob("*.part"))


def test_points_by_round_kind_add_up_to_the_game() -> None:
    """Each seat's points are split by the kind of round they came from, and the kinds'
    means add up to the bot's mean points per game."""
    config = _config()
    results = [play_game(config, deal, rotation) for deal, rotation in config.units()]
    for result in results:
        for seat in result.seats:
            assert [kind for kind, _ in seat.kind_points] == ["normal", "misere", "golden"]
            assert sum(points for _, points in seat.kind_points) == seat.points
    for bot in summarize(config, results).bots:
        assert sum(k.mean_points for k in bot.round_kinds) == pytest.approx(bot.mean_points)


def test_difference_is_paired_by_deal() -> None:
    """The heuristic's lead over the randoms in the made-up games: deal 0's games score
    10, 20, 30 (randoms −5, −10, −15), deal 1's 40, 50, 60 (−20, −25, −30): gaps of
    20 + 10 = 30 and 50 + 25 = 75, whose spread gives the interval."""
    results = _made_up_results()
    mean, (low, high) = difference(results, "heuristic", "random")
    assert mean == pytest.approx(52.5)
    assert (low, high) == pytest.approx((52.5 - 22.5 * Z95, 52.5 + 22.5 * Z95))
    assert difference(results, "random", "heuristic")[0] == pytest.approx(-52.5)
    with pytest.raises(InvalidInputError, match="never played the same deal"):
        difference(results, "heuristic", "expert")


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
        "round_kinds",
    }
    for bot in data["bots"]:
        assert set(bot) == keys
        assert len(bot["ci95"]) == 2
        assert all(isinstance(bot[k], float) for k in keys - {"name", "ci95", "round_kinds"})
        assert set(bot["round_kinds"]) == {"normal", "golden"}
        for kind in bot["round_kinds"].values():
            assert set(kind) == {"mean_points", "ci95"}
            assert kind["ci95"][0] <= kind["mean_points"] <= kind["ci95"][1]
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
