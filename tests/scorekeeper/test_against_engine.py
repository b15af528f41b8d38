"""The sheet scores and checks a game exactly as the engine does.

Real ``Game``s of every preset, with random table options, are played to the end with
random legal actions; every bid and every trick count is typed into a ``Sheet`` as the
table would. At every bid the sheet must expect the seat the engine expects and allow
exactly the engine's legal bids; at every round's end its points and totals must be the
engine's; at a control round («контрольная») it must ask the player the engine asks;
at the end it must be complete with the engine's winners. The sheet also survives a
round trip through its file format after every round.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from raspisnoy.core import PRESETS, Bid, ControlRound, Game, resolve_rules
from raspisnoy.scorekeeper import EntryKind, Sheet, loads_sheet
from raspisnoy.scorekeeper.sheetfile import dumps_sheet

Table = tuple[dict[str, Any], int, int]


@st.composite
def tables(draw: st.DrawFn, preset: str, *, short_plans: bool = False) -> Table:
    """A ruleset (``preset`` plus options that change what may be bid and who wins), a
    player count it allows and a seed. With ``short_plans`` the plan is a few one- and
    two-card rounds and control rounds are on: such games end tied often, so control
    rounds get played."""
    rules: dict[str, Any] = {"preset": preset}
    if draw(st.booleans()):
        rules["max_zero_bids_in_a_row"] = draw(st.integers(1, 2))
    if short_plans:
        rules["control_game"] = True
        plan = st.lists(st.sampled_from(["1", "1:misere", "2"]), min_size=1, max_size=3)
        rules["custom_plan"] = draw(plan)
    else:
        rules["control_game"] = draw(st.booleans())
        rules["descending"] = draw(st.booleans())
    rules["dealer_constraint"] = draw(st.booleans())
    rules["zero_total_second"] = draw(st.booleans())
    counts = resolve_rules(rules).player_counts
    players = draw(st.integers(counts.start, counts.stop - 1))
    return rules, players, draw(st.integers(0, 2**32))


def _bid(game: Game, rng: random.Random) -> Bid:
    """A random legal bid, 0 half the time when allowed (to reach the zero-bid limit)."""
    legal = [action for action in game.legal_actions() if isinstance(action, Bid)]
    zero = [bid for bid in legal if bid.amount == 0]
    return zero[0] if zero and rng.random() < 0.5 else rng.choice(legal)


def _enter_taken(sheet: Sheet, taken: tuple[int, ...], rng: random.Random) -> Sheet:
    """Type in every player's tricks in a random order, checking what the sheet offers."""
    seats = list(range(len(taken)))
    rng.shuffle(seats)
    for seat in seats:
        entry = sheet.next_entry
        assert entry is not None and entry.kind is EntryKind.TAKEN
        assert taken[seat] <= max(entry.choices)
        sheet = sheet.take(seat, taken[seat])
    return sheet


def _check_round(sheet: Sheet, game: Game) -> None:
    row, result = sheet.scored[-1], game.rounds()[len(sheet.scored) - 1]
    assert (row.number, row.dealer, row.cards, row.kind) == (
        result.number,
        result.dealer,
        result.cards,
        result.kind,
    )
    assert row.points == result.points
    assert sheet.totals == tuple(
        sum(r.points[seat] for r in game.rounds() if r.points) for seat in range(game.players)
    )
    assert loads_sheet(dumps_sheet(sheet)) == sheet


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_sheet_scores_random_games_as_the_engine(preset: str, data: st.DataObject) -> None:
    _play_and_keep_score(data.draw(tables(preset)))


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_control_rounds_as_the_engine(preset: str, data: st.DataObject) -> None:
    _play_and_keep_score(data.draw(tables(preset, short_plans=True)))


def _play_and_keep_score(table: Table) -> None:
    """Play a random game of ``table`` and keep its score on a sheet, checking the sheet
    against the engine at every bid, every control round and every round's end."""
    rules, players, seed = table
    game = Game(resolve_rules(rules), players, seed=seed)
    sheet = Sheet.start(game.rules, game.names, game.dealer)
    rng = random.Random(seed)
    finished = 0
    while not game.is_over:
        entry = sheet.next_entry
        assert entry is not None
        assert entry.round == game.round.number or entry.kind is EntryKind.CONTROL
        if game.to_act is not None and game.legal_actions() and entry.kind is EntryKind.BID:
            assert (entry.seat, entry.dealer, entry.cards) == (
                game.to_act,
                game.dealer,
                game.round.cards,
            )
            legal = tuple(bid.amount for bid in game.legal_actions() if isinstance(bid, Bid))
            assert entry.choices == legal
            if entry.zero_banned:
                event("a zero bid was banned by the zero-bid limit")
            bid = _bid(game, rng)
            game.apply(bid)
            sheet = sheet.bid(entry.seat, bid.amount)
        elif entry.kind is EntryKind.CONTROL:
            assert entry.seat == game.to_act
            choice = rng.choice(game.legal_actions())
            assert isinstance(choice, ControlRound)
            game.apply(choice)
            sheet = sheet.choose_control(choice.kind, choice.dealer)
            event("a control round was played")
        else:
            assert entry.kind is EntryKind.TAKEN
            game.apply(rng.choice(game.legal_actions()))
        if len(game.rounds()) > finished and game.rounds()[finished].points is not None:
            sheet = _enter_taken(sheet, game.rounds()[finished].taken, rng)
            _check_round(sheet, game)
            finished += 1
    assert sheet.complete
    assert sheet.winners == game.winners()
    assert len(sheet.scored) == len(game.rounds())
