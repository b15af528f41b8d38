"""The review engine and the hint: shape, judgement, and that only the seat's view is used."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from raspisnoy.bots import make_bot
from raspisnoy.bots.expert import root_values
from raspisnoy.bots.master import MASTER_ITERATIONS
from raspisnoy.core import (
    Bid,
    Card,
    Game,
    InvalidInputError,
    Phase,
    Play,
    RaspisnoyError,
    RoundKind,
    resolve_rules,
)
from raspisnoy.core.record import Record, dumps_record, game_to_record, replay
from raspisnoy.review import (
    DEFAULT_ITERATIONS,
    REVIEW_FORMAT,
    Budget,
    Severity,
    Thresholds,
    hint,
    review_game,
)

#: Small budgets keep the tests fast; the judgements tested hold at any budget.
SMALL = Budget(iterations=300)
#: Short rounds of every kind that a review must cover.
PLAN = ("3", "2:blind", "3:misere", "2:golden", "1:forehead", "4")
SEVERITY_ORDER = list(Severity)


def play_game(
    players: int = 3,
    seed: int = 5,
    plan: tuple[str, ...] = PLAN,
    choose: Callable[[Game, int], Bid | Play | None] | None = None,
) -> Game:
    """A game of heuristic bots; ``choose`` may replace a move (``None``: the bot's)."""
    game = Game(resolve_rules(custom_plan=plan), players, seed=seed)
    bots = [make_bot("heuristic", seed=seat) for seat in range(players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = choose(game, seat) if choose else None
        game.apply(action or bots[seat].act(game.view(seat)), seat)
    return game


@pytest.fixture(scope="module")
def record() -> Record:
    return game_to_record(play_game())


@pytest.fixture(scope="module")
def review_json(record: Record) -> dict[str, Any]:
    return review_game(record, None, SMALL).to_json()


def choices_made(record: Record) -> int:
    """How many bids and cards of the record were a choice (more than one legal action)."""
    game = replay(record)
    again = Game(record.rules, record.players, first_dealer=record.rounds[0].dealer)
    count = 0
    for event in game.events:
        if isinstance(event.action, Bid | Play):
            count += len(again.view(event.seat).legal_actions) > 1
        again.apply_event(event)
    return count


def test_review_shape_covers_every_choice_and_round_kind(
    record: Record, review_json: dict[str, Any]
) -> None:
    review = review_json
    assert review["format"] == REVIEW_FORMAT
    assert review["seats"] == [0, 1, 2]
    assert review["budget"] == {"iterations": 300, "time_ms": None, "seed": 0, "screen": None}
    moments = review["moments"]
    assert isinstance(moments, list)
    assert len(moments) == choices_made(record)
    assert {moment["kind"] for moment in moments} == {
        str(RoundKind(k)) for k in ("normal", "blind", "misere", "golden", "forehead")
    }
    for moment in moments:
        assert moment["loss"] == max(
            0.0, round(moment["best_points"] - moment["played_points"], 2)
        ) or (abs(moment["loss"] - (moment["best_points"] - moment["played_points"])) <= 0.011)
        assert moment["class"] in {str(severity) for severity in Severity}
        assert (moment["phase"] == "bid") == (moment["trick"] is None)
        assert moment["choices"][0]["action"] == moment["best"]
        visits = [choice["visits"] for choice in moment["choices"]]
        assert visits == sorted(visits, reverse=True)
    losses = [moments[i]["loss"] for i in review["worst"]]
    assert losses == sorted(losses, reverse=True) and all(loss > 0 for loss in losses)
    assert len(losses) == sum(moment["loss"] > 0 for moment in moments)


def test_review_summaries_add_up(review_json: dict[str, Any]) -> None:
    moments = review_json["moments"]
    for row in review_json["summary"]:
        mine = [m for m in moments if m["seat"] == row["seat"]]
        assert row["moves"] == len(mine)
        bids = sum(m["loss"] for m in mine if m["phase"] == "bid")
        assert row["bid_loss"] == pytest.approx(bids, abs=0.05)
        assert row["loss"] == pytest.approx(row["bid_loss"] + row["play_loss"], abs=0.02)
        assert row["blunders"] == sum(m["class"] == "blunder" for m in mine)
    rounds = review_json["rounds"]
    assert sum(row["moves"] for row in rounds) == len(moments)
    # The bid-free rounds lose nothing to bids.
    assert all(row["bid_loss"] == 0 for row in rounds if row["kind"] in ("misere", "golden"))


def test_classes_follow_the_thresholds() -> None:
    thresholds = Thresholds.of(resolve_rules("raspisnoy.com"))
    assert (thresholds.stake, thresholds.inaccuracy, thresholds.mistake) == (20, 2.0, 5.0)
    assert thresholds.classify(1.9) is Severity.GOOD
    assert thresholds.classify(2.0) is Severity.INACCURACY
    assert thresholds.classify(9.9) is Severity.MISTAKE
    assert thresholds.classify(10.0) is Severity.BLUNDER
    # The same shares of a larger stake.
    assert Thresholds.of(resolve_rules("georgian")).blunder == 50


def test_a_far_fetched_bid_is_classed_worse_than_the_experts() -> None:
    """The seat bids the number of tricks farthest from the search's own bid: the review
    must class that a mistake or worse, and the search's own bid as the best."""
    plan = ("4", "4")

    def far(game: Game, seat: int) -> Bid | None:
        view = game.view(seat)
        if seat != 0 or view.phase is not Phase.BID or view.round != 2:
            return None
        best = root_values(view, SMALL.iterations, seed=SMALL.seed)[0].action
        assert isinstance(best, Bid)
        bids = [action for action in view.legal_actions if isinstance(action, Bid)]
        return max(bids, key=lambda bid: abs(bid.amount - best.amount))

    def expert(game: Game, seat: int) -> Bid | None:
        view = game.view(seat)
        if seat != 0 or view.phase is not Phase.BID or view.round != 2:
            return None
        best = root_values(view, SMALL.iterations, seed=SMALL.seed)[0].action
        assert isinstance(best, Bid)
        return best

    def bid_moment(choose: Callable[[Game, int], Bid | None]) -> dict[str, Any]:
        review = review_game(game_to_record(play_game(4, 11, plan, choose)), 0, SMALL)
        (moment,) = (m.to_json() for m in review.moments if m.round == 2 and m.is_bid)
        return moment

    bad, good = bid_moment(far), bid_moment(expert)
    assert good["class"] == "best" and good["loss"] == 0
    assert SEVERITY_ORDER.index(Severity(bad["class"])) >= SEVERITY_ORDER.index(Severity.MISTAKE)
    assert bad["loss"] > good["loss"]


@pytest.mark.parametrize("budget", [SMALL, Budget(iterations=1200, screen=150)])
def test_review_reads_only_the_seats_view(budget: Budget) -> None:
    """Swap two unplayed cards of one suit between two other seats in the middle of a
    round, the record cut just after the reviewed seat's card: all the seat could see is
    the same, the hidden hands are not, and the review (its screen, deep searches and
    reasons included) must not change."""
    record = game_to_record(play_game(4, 3, ("5", "5")))
    cut, altered, seat = _hidden_swap(record)
    assert cut.rounds[-1].hands != altered.rounds[-1].hands
    first = review_game(cut, seat, budget).to_json()
    second = review_game(altered, seat, budget).to_json()
    assert any(moment["round"] == len(cut.rounds) for moment in first["moments"])
    assert first == second


def _hidden_swap(record: Record) -> tuple[Record, Record, int]:
    """The record cut after some seat's card in the second trick of a round, the same
    with two unplayed cards of one suit swapped between two other seats, and the seat."""
    for number, round_ in enumerate(record.rounds, start=1):
        earlier = record.rounds[: number - 1]
        leader = replay(dataclasses.replace(record, rounds=record.rounds[:number]))
        second_trick = leader.rounds()[number - 1].tricks[1]
        for position in range(len(round_.hands)):
            tricks = (round_.tricks[0], round_.tricks[1][: position + 1])
            cut = dataclasses.replace(
                record, rounds=(*earlier, dataclasses.replace(round_, tricks=tricks))
            )
            seat = (second_trick.leader + position) % len(round_.hands)
            played = {play.card for trick in tricks for play in trick}
            for hands in _swaps(round_.hands, seat, played):
                altered_round = dataclasses.replace(round_, hands=hands, tricks=tricks)
                altered = dataclasses.replace(record, rounds=(*earlier, altered_round))
                try:
                    replay(altered)
                except RaspisnoyError:  # the swap made a card of the cut illegal
                    continue
                return cut, altered, seat
    raise AssertionError("no round of the test game allows the swap")


def _swaps(
    hands: tuple[tuple[Card, ...], ...], seat: int, played: set[Card]
) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """The hands with one unplayed card of one seat other than ``seat`` swapped with an
    unplayed card of the same suit of another such seat."""
    others = [other for other in range(len(hands)) if other != seat]
    for x, y in itertools.combinations(others, 2):
        for a, b in itertools.product(hands[x], hands[y]):
            if a in played or b in played or a.suit is None or a.suit is not b.suit:
                continue
            swapped = [list(hand) for hand in hands]
            swapped[x][swapped[x].index(a)] = b
            swapped[y][swapped[y].index(b)] = a
            yield tuple(tuple(hand) for hand in swapped)


def test_hint_suggests_the_searchs_choice_from_the_view() -> None:
    game = Game(resolve_rules(custom_plan=("4",)), 3, seed=2)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    given = hint(view, SMALL)
    assert given.suggested in view.legal_actions
    assert given.suggested == given.choices[0].action
    assert {choice.action for choice in given.choices} <= set(view.legal_actions)
    assert sum(choice.visits for choice in given.choices) == SMALL.iterations
    assert given.to_json()["suggested"] == str(given.suggested)
    with pytest.raises(InvalidInputError):
        hint(game.view((seat + 1) % 3), SMALL)


def test_a_budget_too_small_or_a_wrong_seat_is_refused(record: Record) -> None:
    with pytest.raises(InvalidInputError, match="iterations"):
        Budget(iterations=10)
    with pytest.raises(InvalidInputError, match="seat 7"):
        review_game(record, 7, SMALL)


def test_command_line_review_json(tmp_path: Path, record: Record) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps_record(record), encoding="utf-8")
    command = [sys.executable, "-m", "raspisnoy", "review", str(path), "--seat", "1"]
    result = subprocess.run(
        [*command, "--iterations", "100", "--json"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    review = json.loads(result.stdout)
    assert review["seats"] == [1] and {m["seat"] for m in review["moments"]} == {1}
    table = subprocess.run(
        [*command, "--iterations", "100", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # Long headers take two lines: "lost to" above "bids".
    assert "lost to" in table.stdout and "Moves, worst first" in table.stdout
    wrong = subprocess.run(
        [*command, "--iterations", "5"], capture_output=True, text=True, timeout=60
    )
    assert wrong.returncode == 1 and wrong.stderr.startswith("error: ") and wrong.stdout == ""


def test_command_line_review_errors_speak_the_persons_language(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe not a record")
    command = [sys.executable, "-m", "raspisnoy", "review", str(path), "--lang", "ru"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "error: это не текст в кодировке UTF-8\n"


def test_the_master_review_searches_every_move_with_the_masters_budget(tmp_path: Path) -> None:
    """``--master``: the benchmark's reference, ten times the default deep budget, no
    screen, every move searched with all of it (a one-round game of two cards)."""
    assert Budget.master(seed=3) == Budget(MASTER_ITERATIONS, seed=3, screen=None)
    assert MASTER_ITERATIONS == 10 * DEFAULT_ITERATIONS
    game = Game(resolve_rules(custom_plan=("2",)), 3, seed=5)
    bots = [make_bot("heuristic", seed=seat) for seat in range(3)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)
    path = tmp_path / "game.json"
    path.write_text(dumps_record(game_to_record(game)), encoding="utf-8")
    command = [sys.executable, "-m", "raspisnoy", "review", str(path), "--master", "--json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    review = json.loads(result.stdout)
    assert review["budget"] == {
        "iterations": MASTER_ITERATIONS,
        "time_ms": None,
        "seed": 0,
        "screen": None,
    }
    assert review["moments"] and all(m["deep"] for m in review["moments"])
    for moment in review["moments"]:  # far more than the default deep search's visits
        visits = sum(choice["visits"] for choice in moment["choices"])
        assert 9 * DEFAULT_ITERATIONS < visits <= MASTER_ITERATIONS


def test_the_review_imports_only_core_and_bots() -> None:
    """The server runs reviews in its worker pool: the package must not drag in the
    server, the store or the command line (checked in a fresh interpreter)."""
    listing = (
        "import sys, raspisnoy.review; "
        "print(' '.join(m for m in sys.modules if m.startswith('raspisnoy.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", listing], capture_output=True, text=True, timeout=60, check=True
    )
    parts = {name.split(".")[1] for name in result.stdout.split()}
    assert parts == {"core", "bots", "review"}


def test_a_following_jokers_discard_naming_any_suit_is_judged() -> None:
    """A joker discarded while following may name any suit; the search keeps one of those
    discards, and the review measures a move naming another suit by that one (a random
    game where seat 3, following ♠ in round 2, discards its joker naming ♦)."""
    chooser = random.Random(1)
    game = Game(resolve_rules(custom_plan=("5", "6", "4")), 4, seed=1)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(chooser.choice(game.view(seat).legal_actions), seat)
    review = review_game(game_to_record(game), None, Budget(iterations=64))
    discards = [m for m in review.moments if str(m.played).startswith("X:discard:")]
    (case,) = [m for m in discards if m.round == 2 and str(m.played) == "X:discard:D"]
    assert case.seat == 3 and case.loss == max(0.0, case.best_points - case.played_points)
