"""Puzzles from expert self-play (docs/review.md, "Puzzles"): a mined puzzle's best move
is confirmed by a deeper search over other deals, a candidate that is not clearly and
uniquely best is rejected, a puzzle keeps only its seat's view, and the command is
deterministic for a seed."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from raspisnoy.bots import make_bot
from raspisnoy.bots.expert import RootValue, root_values, searched_equivalent
from raspisnoy.bots.master import MASTER_ITERATIONS
from raspisnoy.cli import app
from raspisnoy.core import Card, Game, Phase, Rules, View, player_names, resolve_rules
from raspisnoy.puzzles import (
    PUZZLE_FORMAT,
    Mining,
    Puzzle,
    Theme,
    is_solution,
    mine_puzzles,
    verify,
    view_from_json,
    view_to_json,
)
from raspisnoy.review.engine import Thresholds
from raspisnoy.review.reasons import Reason, reason_for

#: Small budgets: a puzzle in seconds, still verified by a search four times the screen.
SMALL = Mining(self_play=64, screen=400, verify=1600, seed=5)
#: A short game with a misère and a golden round, so that themes other than bids appear.
PLAN = ("5", "4:misere", "5:golden", "6")


def short_rules() -> Rules:
    return resolve_rules(custom_plan=PLAN)


@pytest.fixture(scope="module")
def puzzles() -> list[Puzzle]:
    return list(mine_puzzles(4, short_rules(), SMALL))


def test_mining_finds_the_count_asked_and_reports_progress() -> None:
    calls: list[tuple[int, int]] = []
    found = list(mine_puzzles(2, short_rules(), SMALL, lambda p, n: calls.append((p, n))))
    assert len(found) == 2
    assert calls[-1][0] == 2
    assert [n for _, n in calls] == list(range(1, len(calls) + 1))


def test_mining_by_theme_keeps_only_that_theme() -> None:
    themed = Mining(
        SMALL.self_play, SMALL.screen, SMALL.verify, seed=5, themes=frozenset({Theme.MISERE})
    )
    found = list(mine_puzzles(2, short_rules(), themed))
    assert len(found) == 2
    assert all(p.theme is Theme.MISERE and p.view.kind.value == "misere" for p in found)


def test_mining_stops_when_a_whole_game_gives_no_puzzle_of_the_theme() -> None:
    themed = Mining(SMALL.self_play, SMALL.screen, SMALL.verify, themes=frozenset({Theme.GOLDEN}))
    assert list(mine_puzzles(3, resolve_rules(custom_plan=("3", "4:misere")), themed)) == []


def test_a_puzzle_is_confirmed_by_a_deeper_search_over_other_deals(
    puzzles: list[Puzzle],
) -> None:
    """The master level's search (``--master``), over other deals, finds the same best
    move, the margin ahead of every other."""
    deeper = Mining(screen=400, verify=MASTER_ITERATIONS, seed="another")
    gap = Thresholds.of(short_rules()).stake * SMALL.margin
    for puzzle in puzzles:
        choices = verify(puzzle.view, puzzle.best, deeper)
        assert choices is not None, puzzle.id
        assert choices[0].action == puzzle.best
        assert all(c.points <= choices[0].points - gap for c in choices[1:])


def test_a_move_that_is_not_the_best_is_rejected(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        others = root_values(puzzle.view, SMALL.verify, seed="verify/5")[1:]
        assert others
        assert verify(puzzle.view, others[0].action, SMALL) is None


def test_a_best_move_not_clearly_ahead_under_the_deeper_search_is_rejected(
    puzzles: list[Puzzle],
) -> None:
    """With a margin beyond the deeper search's measured gap, the runner-up is no longer
    "clearly worse": the best move is not unique and the candidate is rejected."""
    stake = Thresholds.of(short_rules()).stake
    for puzzle in puzzles:
        measured = verify(puzzle.view, puzzle.best, SMALL)
        assert measured is not None
        gap = measured[0].points - measured[1].points
        wider = Mining(SMALL.self_play, SMALL.screen, SMALL.verify, gap / stake + 0.01, SMALL.seed)
        assert verify(puzzle.view, puzzle.best, wider) is None


def test_the_answer_is_checked_against_the_best_move(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        assert is_solution(puzzle, puzzle.best)
        for action in puzzle.view.legal_actions:
            same = searched_equivalent(puzzle.view, action) == puzzle.best  # type: ignore[arg-type]
            assert is_solution(puzzle, action) is same


def test_a_puzzle_round_trips_through_json(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        data = json.loads(json.dumps(puzzle.to_json()))
        assert data["format"] == PUZZLE_FORMAT
        again = Puzzle.from_json(data)
        assert again == puzzle
        assert again.id == puzzle.id


#: People's names at a finished game's seats, which no puzzle of it may keep.
PEOPLE = ("Anna Real", "Boris Real", "Vera Real", "Gleb Real")


def test_a_puzzle_keeps_seats_not_people_s_names(puzzles: list[Puzzle]) -> None:
    """A puzzle needs seats, not names (docs/review.md, "Puzzles"): made from a view with
    people's names (a finished game's), it keeps the seats' neutral names (``Player 1``…),
    so its JSON and its id name nobody and it is the puzzle of the same position from
    self-play; one written with names before reads back without them."""
    for puzzle in puzzles:
        named = Puzzle(replace(puzzle.view, names=PEOPLE), puzzle.best, puzzle.reason, puzzle.theme)
        assert named.view.names == player_names(4)
        text = json.dumps(named.to_json())
        assert not [name for name in PEOPLE if name in text]
        assert named == puzzle and named.id == puzzle.id
        old = puzzle.to_json()
        old["view"]["names"] = list(PEOPLE)  # as the miner wrote a game's puzzle before
        assert Puzzle.from_json(old).view.names == player_names(4)
        assert view_from_json(old["view"]).names == player_names(4)
        assert view_to_json(replace(puzzle.view, names=PEOPLE))["names"] == list(player_names(4))


def test_themes_follow_the_round_and_the_move(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        assert puzzle.theme is Theme.of(puzzle.view, puzzle.best)
        if puzzle.view.kind.value in ("misere", "golden"):
            assert puzzle.theme.value == puzzle.view.kind.value


def heuristic_views(seed: int) -> list[View]:
    """Every view of a game of heuristic bots at a choice of bid or card."""
    game = Game(short_rules(), 4, seed=seed)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    views = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view.phase in (Phase.BID, Phase.PLAY):
            views.append(view)
        game.apply(bots[seat].act(view), seat)
    return views


VIEWS = heuristic_views(3) + heuristic_views(4)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VIEWS))
def test_a_view_round_trips_through_json(view: View) -> None:
    assert view_from_json(json.loads(json.dumps(view_to_json(view)))) == view


def strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [text for value in data.values() for text in strings(value)]
    if isinstance(data, list):
        return [text for value in data for text in strings(value)]
    return []


def cards_named(data: Any) -> set[Card]:
    """Every card a JSON object names (alone, or as a move with a joker's mode)."""
    named = set()
    for text in strings(data):
        try:
            named.add(Card.parse(text.split(":")[0]))
        except ValueError:
            continue
    return named


def test_a_puzzle_reveals_no_card_its_seat_cannot_see() -> None:
    """Leak test: mined from a game whose every hand the test knows, a puzzle names no
    card held by another seat that the solver's seat could not see."""
    rules = resolve_rules(custom_plan=("1:forehead", "3:blind", *PLAN))
    for seed in range(2):
        game = Game(rules, 4, seed=f"leak/{seed}")
        bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            choices = root_values(view, 200) if len(view.legal_actions) > 1 else ()
            if len(choices) > 1:
                best = choices[0].action
                puzzle = Puzzle(view, best, _reason(view, choices), Theme.of(view, best))
                hidden = {
                    card
                    for other in range(4)
                    if other != seat and view.shown_hands[other] is None
                    for card in game.hand(other)
                }
                assert not cards_named(puzzle.to_json()) & hidden
            game.apply(bots[seat].act(view), seat)


def _reason(view: View, choices: tuple[RootValue, ...]) -> Reason:
    return reason_for(view, choices[1].action, choices[0], choices[1].points, choices)


def test_generate_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    runner = CliRunner()
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        args = ["puzzles", "generate", "--count", "1", "--out", str(out), "--seed", "7"]
        args += ["--self-play", "64", "--screen", "300", "--verify", "900"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    data = json.loads(outs[0].read_text(encoding="utf-8"))
    assert data["format"] == "raspisnoy-puzzles/1"
    assert len(data["puzzles"]) == 1
    assert Puzzle.from_json(data["puzzles"][0]).best
    assert outs[0].read_bytes() == outs[1].read_bytes()


def test_generate_verifies_with_the_master(tmp_path: Path) -> None:
    """``--master``: the puzzle found holds under the master's budget (the command's own
    verifying search, repeated)."""
    out = tmp_path / "p.json"
    args = ["puzzles", "generate", "--count", "1", "--out", str(out), "--seed", "7"]
    args += ["--self-play", "64", "--screen", "300", "--master"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (found,) = json.loads(out.read_text(encoding="utf-8"))["puzzles"]
    puzzle = Puzzle.from_json(found)
    master = Mining(self_play=64, screen=300, verify=MASTER_ITERATIONS, seed=7)
    choices = verify(puzzle.view, puzzle.best, master)
    assert choices is not None and choices[0].action == puzzle.best


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "0"], "--count must be at least 1"),
        (["--verify", "10", "--screen", "100"], "at least as deep as the screen"),
        (["--rules", "no-such-preset"], "unknown rules preset"),
        (["--theme", "endgame"], "unknown theme 'endgame'"),
    ],
)
def test_generate_refuses_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "p.json"
    result = CliRunner().invoke(app, ["puzzles", "generate", "--out", str(out), *args])
    assert result.exit_code == 1
    assert message in result.output
    assert not out.exists()
