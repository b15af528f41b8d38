"""``raspisnoy play`` end to end: a person plays whole games through a pseudo-terminal.

The game chosen here deals the person the joker and makes them the dealer facing a
forbidden bid, over a short custom plan with a blind, a no-trump, a forehead and a
misère round. The saved record must be exactly the game ``expected_game`` predicts
(the same seed and bots, the person's choices as typed), ``raspisnoy replay --json``
of it must give the totals the program printed, and a game stopped with Ctrl-C and
resumed must end as the same game.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from play_driver import Terminal, expected_game, final_totals

from raspisnoy.core import Game, resolve_rules
from raspisnoy.core.record import dumps_record, game_to_record
from raspisnoy.play.session import Seating, parse_levels, seat_names

PLAN = "2,3,4:blind,3:no-trump,1:forehead,2:misere,3"
PLAYERS = 3
RULES = resolve_rules("raspisnoy.com", custom_plan=tuple(PLAN.split(",")))


@cache
def chosen_seed(lang: str) -> tuple[str, Game]:
    """The first seed whose game has the person play the joker as "highest trumps" and
    meet a forbidden bid as the dealer."""
    levels = parse_levels("random", PLAYERS)
    names = seat_names(lang, PLAYERS)
    for number in range(2000):
        game, seen = expected_game(RULES, names, Seating(str(number), levels))
        highest_trumps = [p for p in seen.jokers if p.mode == "highest"]
        if highest_trumps and seen.forbidden_bids:
            return str(number), game
    raise AssertionError("no seed in 0..1999 gives the game this test needs")


def args(seed: str, record: Path) -> list[str]:
    return [
        "--players", str(PLAYERS), "--bots", "random", "--seed", seed,
        "--set", f"custom_plan={PLAN}", "--save", str(record),
    ]  # fmt: skip


def replay_json(record: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "raspisnoy", "replay", str(record), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report: dict[str, object] = json.loads(result.stdout)
    return report


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_whole_game_through_the_terminal(tmp_path: Path, lang: str) -> None:
    seed, expected = chosen_seed(lang)
    record = tmp_path / "game.json"
    terminal = Terminal(args(seed, record), tmp_path, lang)
    transcript = terminal.play()

    assert terminal.exit_status == 0, transcript[-2000:]
    assert record.read_text(encoding="utf-8") == dumps_record(game_to_record(expected)) + "\n"
    report = replay_json(record)
    assert report["complete"] is True
    assert report["totals"] == list(expected.totals)
    assert final_totals(transcript, lang, expected.names) == report["totals"]
    # What the person met on the way, each explained by the program.
    assert terminal.seen.forbidden_bids >= 1
    assert terminal.seen.refused_cards >= 1
    assert any(p.mode == "highest" and p.suit is not None for p in terminal.seen.jokers)
    assert terminal.sheet_shown


def test_ctrl_c_saves_and_resume_goes_on_to_the_same_game(tmp_path: Path) -> None:
    seed, expected = chosen_seed("ru")
    record = tmp_path / "game.json"
    first = Terminal(args(seed, record), tmp_path, "ru")
    transcript = first.play(stop_after_prompts=12)
    assert first.exit_status == 0
    assert f"raspisnoy play --resume {record}" in transcript
    stopped = replay_json(record)
    assert stopped["complete"] is False

    # The second half in another language: the language is the person's, not the game's.
    second = Terminal(["--resume", str(record)], tmp_path, "en")
    transcript = second.play()
    assert second.exit_status == 0, transcript[-2000:]
    assert record.read_text(encoding="utf-8") == dumps_record(game_to_record(expected)) + "\n"
    assert replay_json(record)["totals"] == list(expected.totals)
