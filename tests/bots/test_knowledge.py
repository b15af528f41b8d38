"""Deductions and sampled worlds are consistent with the real game, on every preset."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import MID_GAME, assert_world_fits, game_at, mid_game, true_hands

from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.bots.simulator import round_game
from raspisnoy.core import PRESETS, Card, Game, Phase, parse_action
from raspisnoy.core.fast import mask_of


@settings(max_examples=150, deadline=None)
@given(**MID_GAME)
def test_deductions_hold_for_the_real_deal(
    preset: str, players: int, seed: int, steps: int, specials: bool
) -> None:
    game = mid_game(preset, players, seed, steps, specials)
    if game is None:
        return
    seat = game.to_act
    assert seat is not None
    knowledge = Knowledge.from_view(game.view(seat))
    truth = true_hands(game)
    for other in range(players):
        # Nothing deduced rules out a card the seat really holds, and what is known is true.
        assert truth[other] & ~knowledge.allowed[other] == 0
        assert knowledge.known[other] & ~truth[other] == 0
        assert truth[other].bit_count() == knowledge.sizes[other]
    for n in range(5):
        hands = knowledge.sample(random.Random(n))
        assert hands is not None
        assert_world_fits(hands, knowledge)


@settings(max_examples=100, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.integers(3, 5),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 300),
)
def test_the_simulator_rebuilds_the_real_round(
    preset: str, players: int, seed: int, steps: int
) -> None:
    game = game_at(preset, players, seed, steps)
    if game.is_over or game.phase is Phase.CHOOSE:
        return
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    rebuilt = round_game(view, true_hands(game), game.trump_card)
    assert rebuilt.legal_actions() == game.legal_actions()
    assert rebuilt.to_act == game.to_act
    assert rebuilt.view(seat).trick == view.trick
    assert rebuilt.taken == game.taken


def test_voids_are_deduced_from_a_card_of_another_suit() -> None:
    game = Game("raspisnoy.com", 3, first_dealer=2)
    game = Game(game.rules.replace(custom_plan=("3",)), 3, first_dealer=2)
    hands = [["AC", "6D", "7D"], ["6S", "8S", "9H"], ["KC", "QC", "TD"]]
    game.deal([[Card.parse(c) for c in hand] for hand in hands], Card.parse("6H"))
    for text in ["1", "0", "1", "AC", "6S"]:
        game.apply(parse_action(text))
    knowledge = Knowledge.from_view(game.view(2))
    clubs = mask_of([Card.parse(c) for c in ("6C", "8C", "9C", "TC", "JC")])
    assert knowledge.allowed[1] & clubs == 0
    assert knowledge.allowed[0] & clubs == clubs & knowledge.unseen


@pytest.mark.parametrize("seed", range(3))
def test_a_blind_bid_samples_the_bidders_own_hand_and_the_trump(seed: int) -> None:
    game = Game(Game("raspisnoy.com", 4).rules.replace(custom_plan=("5:blind",)), 4, seed=seed)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    assert view.hand is None
    knowledge = Knowledge.from_view(view)
    hands = knowledge.sample(random.Random(seed))
    assert hands is not None
    assert hands[seat].bit_count() == 5
    trump_card = knowledge.draw_trump_card(hands, random.Random(seed))
    assert trump_card is not None
    assert all(not hand & trump_card.bit for hand in hands)
