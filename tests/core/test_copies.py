"""``Game.clone()`` and ``Game.from_events()``: faithful copies and rebuilds of a game."""

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
    for copy in (game, other):
        rng = random.Random(9)
        while not copy.is_over:
            copy.apply(rng.choice(copy.legal_actions()))
    assert other.events == game.events
    assert other.totals == game.totals


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
