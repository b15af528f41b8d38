"""The expert's search: its worlds are consistent and follow the bids; its tree is sound."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from positions import MID_GAME, assert_world_fits, mid_game, position, true_hands

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.ismcts import Tree, _utilities, search, world_pool
from raspisnoy.bots.knowledge import Knowledge

#: Every field of a state but the hands (and the zero streaks, which a view omits).
_PUBLIC = np.ones(fs.STATE_SIZE, dtype=bool)
_PUBLIC[fs.HANDS : fs.HANDS + fs.MAX_PLAYERS] = False
_PUBLIC[fs.ZERO_STREAK : fs.ZERO_STREAK + fs.MAX_PLAYERS] = False


@settings(max_examples=100, deadline=None)
@given(**MID_GAME)
def test_worlds_deal_only_what_the_seat_cannot_rule_out(
    preset: str, players: int, seed: int, steps: int, specials: bool
) -> None:
    game = mid_game(preset, players, seed, steps, specials)
    if game is None:
        return
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    knowledge = Knowledge.from_view(view)
    worlds = world_pool(view, knowledge, 20, random.Random(seed))
    assert len(worlds) == 20
    truth = fs.world_state(view, true_hands(game), game.trump_card)
    for world in worlds:
        if not view.trump_hidden:  # else the trump itself is drawn with the world
            assert (world[_PUBLIC] == truth[_PUBLIC]).all()
        assert_world_fits([int(hand) for hand in world[fs.HANDS : fs.HANDS + players]], knowledge)


def test_worlds_believe_the_bids() -> None:
    # Seat 3 bid all 4 tricks: the worlds kept give it far stronger hands than the
    # unweighted draws do.
    view = position(
        ["AH KH 7C 8D", "6S 8S 9S TS", "TC JC QC KC", "AS KS QS JS"],
        "6H",
        dealer=2,
        actions="4",
    )
    knowledge = Knowledge.from_view(view)
    rng = random.Random(1)
    weighted = world_pool(view, knowledge, 300, rng)
    unweighted = [knowledge.sample(rng) for _ in range(300)]
    trump = int(view.trump) if view.trump is not None else -1

    def value(mask: int) -> float:
        return float(fs.hand_value(mask, trump))

    kept = statistics.fmean(value(int(world[fs.HANDS + 3])) for world in weighted)
    drawn = statistics.fmean(value(hands[3]) for hands in unweighted if hands is not None)
    assert kept > drawn + 0.5


def test_the_tree_counts_every_iteration() -> None:
    view = position(["AH 7C 8D", "6S 8S 9S", "TC JC QC", "AS KS QS"], "6H", dealer=3)
    knowledge = Knowledge.from_view(view)
    rng = random.Random(2)
    worlds = world_pool(view, knowledge, 50, rng)
    rules = fs.rules_vector(view.rules, view.kind)
    score = fs.score_table(view.rules, view.kind, view.cards)
    legal = {fs.encode_action(action) for action in view.legal_actions}
    tree = Tree.with_capacity(2000, legal)
    search(tree, worlds, rules, score, 700, rng)
    visits = tree.root_visits()
    assert set(visits) == legal  # every bid tried
    assert sum(visits.values()) == 700
    used = int(tree.size[0])
    assert used <= 701
    assert (tree.avail[1:used] >= tree.visits[1:used]).all()
    assert tree.best_action() in legal


def test_a_full_tree_still_searches() -> None:
    view = position(["AH 7C 8D", "6S 8S 9S", "TC JC QC", "AS KS QS"], "6H", dealer=3)
    knowledge = Knowledge.from_view(view)
    rng = random.Random(3)
    worlds = world_pool(view, knowledge, 10, rng)
    tree = Tree.with_capacity(3, [fs.encode_action(a) for a in view.legal_actions])
    rules = fs.rules_vector(view.rules, view.kind)
    score = fs.score_table(view.rules, view.kind, view.cards)
    search(tree, worlds, rules, score, 100, rng)
    assert int(tree.size[0]) == 3
    assert sum(tree.root_visits().values()) == 100


def test_the_root_searches_only_what_the_seat_may_do() -> None:
    # Worlds do not know a seat's streak of 0 bids, so the root is told what is legal.
    view = position(["AH 7C 8D", "6S 8S 9S", "TC JC QC", "AS KS QS"], "6H", dealer=3)
    knowledge = Knowledge.from_view(view)
    rng = random.Random(4)
    worlds = world_pool(view, knowledge, 20, rng)
    allowed = [fs.BID_BASE + amount for amount in (1, 2, 3)]
    tree = Tree.with_capacity(500, allowed)
    rules = fs.rules_vector(view.rules, view.kind)
    score = fs.score_table(view.rules, view.kind, view.cards)
    search(tree, worlds, rules, score, 300, rng)
    assert set(tree.root_visits()) == set(allowed)


def test_a_following_joker_discards_once() -> None:
    # The suit a following joker names for its discard changes nothing: one is searched.
    view = position(["AC 9S", "X AS", "8C 6D", "9C 8S"], "6H", dealer=3, actions="1 0 0 0 AC")
    knowledge = Knowledge.from_view(view)
    rng = random.Random(5)
    worlds = world_pool(view, knowledge, 20, rng)
    tree = Tree.with_capacity(500, [fs.encode_action(a) for a in view.legal_actions])
    rules = fs.rules_vector(view.rules, view.kind)
    score = fs.score_table(view.rules, view.kind, view.cards)
    search(tree, worlds, rules, score, 300, rng)
    searched = sorted(str(fs.decode_action(code)) for code in tree.root_visits())
    assert searched == ["AS", "X:discard:S", "X:take"]


def test_each_seat_plays_for_its_points_less_a_share_of_the_others() -> None:
    points = np.array([12, 0, -3, 3], dtype=np.int64)
    utility = np.empty(4)
    _utilities(points, 4, 0.5, utility)
    assert utility == pytest.approx([12 - 0.5 * 0, 0 - 0.5 * 4, -3 - 0.5 * 5, 3 - 0.5 * 3])
    _utilities(points, 4, 0.0, utility)
    assert utility == pytest.approx(points)
    _utilities(points, 4, 1.0, utility)  # own points against the others' mean: zero-sum
    assert utility.sum() == pytest.approx(0.0)
