"""The exact solver (``bots.solver``) against a brute force over the engine: on small
deals of every preset, round kind and joker option, its value is the paranoid value the
engine's own rules give when every line of play is tried."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.solver import Table, solve
from raspisnoy.core import PRESETS, Game, Phase, round_points

#: Round kinds with the cards a small deal of each has (forehead rounds have one).
KINDS = {"normal": 3, "no-trump": 3, "blind": 3, "misere": 3, "golden": 3, "forehead": 1}
#: One added joker, for presets that have none.
_ONE_JOKER: dict[str, object] = {"extra_jokers": 1, "jokers": ()}
#: Joker options, the other way round from most presets, so both values are tried.
JOKER_OPTIONS: dict[str, dict[str, object]] = {
    "preset": {},
    "lead_take": {"joker_lead_take": True, **_ONE_JOKER},
    "highest_beaten": {"joker_highest_beaten_by_trump": True, **_ONE_JOKER},
    "two_jokers": {"extra_jokers": 2, "jokers": (), "joker_lead_take": True},
    "discard_wins": {"joker_discard_lead_unfollowed": "joker_wins", **_ONE_JOKER},
    "rotating": {"rotating_trumps": True, "trump_when_void": True},
}


def _small_deal(preset: str, kind: str, option: str, players: int, seed: int) -> Game:
    """A one-round game of ``kind`` with few cards, bid and played at random for a while:
    card play under way, a few tricks or less left."""
    rules = Game(preset, players).rules.replace(**JOKER_OPTIONS[option])
    rules = rules.replace(custom_plan=(f"{KINDS[kind]}:{kind}",))
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    while game.phase is Phase.BID:
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(rng.randrange(players + 1)):
        if game.phase is Phase.PLAY and len(game.hand(game.to_act or 0)) > 1:
            game.apply(rng.choice(game.legal_actions()))
    return game


def _brute_force(game: Game, seat: int) -> int:
    """``seat``'s round points when it chooses every play to raise them and the others
    every play to lower them, trying every legal play (every joker mode and suit)."""
    if game.phase is not Phase.PLAY:
        result = game.rounds()[-1]
        bid = None if result.bids is None else result.bids[seat]
        return round_points(game.rules, result.kind, bid, result.taken[seat], cards=result.cards)
    values = []
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        values.append(_brute_force(child, seat))
    return max(values) if game.to_act == seat else min(values)


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    kind=st.sampled_from(sorted(KINDS)),
    option=st.sampled_from(sorted(JOKER_OPTIONS)),
    players=st.integers(3, 4),
    seed=st.integers(0, 10**6),
    seat=st.integers(0, 3),
)
def test_the_solver_finds_the_brute_force_value(
    preset: str, kind: str, option: str, players: int, seed: int, seat: int
) -> None:
    game = _small_deal(preset, kind, option, players, seed)
    view = game.view(None)
    state = fs.encode_game(game)
    rules = fs.rules_vector(game.rules, view.kind)
    score = fs.score_table(game.rules, view.kind, view.cards)
    before = state.copy()
    assert solve(state, rules, score, seat % players, Table.empty(1 << 10)) == _brute_force(
        game, seat % players
    )
    assert np.array_equal(state, before)


def test_a_shared_table_gives_the_same_values_as_fresh_ones() -> None:
    # One table over many deals of one rules vector and seat: its entries from one
    # deal never answer for another's positions.
    shared = Table.empty(1 << 8)  # small, so that entries are replaced often too
    for seed in range(40):
        game = _small_deal("raspisnoy.com", "normal", "preset", 4, seed)
        view = game.view(None)
        state = fs.encode_game(game)
        rules = fs.rules_vector(game.rules, view.kind)
        score = fs.score_table(game.rules, view.kind, view.cards)
        fresh = solve(state, rules, score, 0, Table.empty(1 << 8))
        assert solve(state, rules, score, 0, shared) == fresh


def test_the_solver_refuses_a_round_still_being_bid() -> None:
    game = Game("raspisnoy.com", 4, seed=1)
    view = game.view(None)
    with pytest.raises(ValueError, match="bidding"):
        solve(
            fs.encode_game(game),
            fs.rules_vector(game.rules, view.kind),
            fs.score_table(game.rules, view.kind, view.cards),
            0,
            Table.empty(),
        )
