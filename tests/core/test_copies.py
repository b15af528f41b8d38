"""``Game.clone()`` and ``Game.from_events()``: faithful copies and rebuilds of a game."""

import copy
import random

import pytest

from raspisnoy.core import Game, IllegalActionError

MUTABLE = (list, dict, set)


def _mid_round_game() -> Game:
    game = Game("raspisnoy.com", 4, seed=11)
    rng = random.Random(5)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_clone_copies_every_slot() -> None:
    game = _mid_round_game()
    other = game.clone()
    for name in Game.__slots__:
        assert getattr(other, name) == getattr(game, name), name


def test_clone_shares_no_mutable_state() -> None:
    game = _mid_round_game()
    other = game.clone()
    for name in Game.__slots__:
        value = getattr(game, name)
        if isinstance(value, MUTABLE):
            assert getattr(other, name) is not value, name


def test_clone_plays_on_identically() -> None:
    game = _mid_round_game()
    other = game.clone()
    for each in (game, other):
        rng = random.Random(9)
        while not each.is_over:
            each.apply(rng.choice(each.legal_actions()))
    assert other.events == game.events
    assert other.totals == game.totals


def test_a_deep_copy_is_a_clone_that_plays_on_alone() -> None:
    """``copy.deepcopy`` (how OpenSpiel clones a Python game's state) gives a clone: the
    copy plays on without touching the original, and the original as before."""
    game = _mid_round_game()
    before = game.events
    other = copy.deepcopy(game)
    assert type(other) is Game and other.events == before
    assert other._setup is game._setup  # shared, as a clone shares it, not copied
    rng = random.Random(3)
    while not other.is_over:
        other.apply(rng.choice(other.legal_actions()))
    assert game.events == before and not game.is_over


def test_from_events_rebuilds_a_seeded_game() -> None:
    game = _mid_round_game()
    again = Game.from_events("raspisnoy.com", 4, game.events, seed=11)
    assert again.events == game.events
    assert again.view(0) == game.view(0)


def test_from_events_rebuilds_an_unseeded_game_from_its_deals() -> None:
    game = _mid_round_game()
    again = Game.from_events("raspisnoy.com", 4, game.events, first_dealer=game.rounds()[0].dealer)
    assert again.events == game.events
    assert again.totals == game.totals


def test_from_events_rejects_a_foreign_deal() -> None:
    other = Game("raspisnoy.com", 4, seed=12)
    with pytest.raises(IllegalActionError, match="differs"):
        Game.from_events("raspisnoy.com", 4, other.events[:1], seed=11)
