"""The expert's search: its worlds are consistent and follow the bids; its tree is sound."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import MID_GAME, assert_world_fits, mid_game, position, true_hands

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.inference import shipped_model
from raspisnoy.bots.ismcts import (
    NOT_SOLVED,
    Tree,
    _free,
    _noisy_play_out_solving,
    _utilities,
    reward_scale,
    search,
    world_pool,
)
from raspisnoy.bots.knowledge import Knowledge, bits
from raspisnoy.bots.solver import Table, solve
from raspisnoy.core import Bid, Game, Play, Suit, View, resolve_rules
from raspisnoy.core.fast import SUIT_MASKS

#: Every field of a state but the hands (and the zero streaks, which a view omits).
_PUBLIC = np.ones(fs.STATE_SIZE, dtype=bool)
_PUBLIC[fs.HANDS : fs.HANDS + fs.MAX_PLAYERS] = False
_PUBLIC[fs.ZERO_STREAK : fs.ZERO_STREAK + fs.MAX_PLAYERS] = False


@settings(max_examples=150, deadline=None)
@given(**MID_GAME, learned=st.booleans())
def test_worlds_deal_only_what_the_seat_cannot_rule_out(
    preset: str, players: int, seed: int, steps: int, specials: bool, learned: bool
) -> None:
    # Kept by the Gaussian or by the learned bid model, every world is consistent with
    # everything public: never a card where a void was shown.
    game = mid_game(preset, players, seed, steps, specials)
    if game is None:
        return
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    knowledge = Knowledge.from_view(view)
    model = shipped_model() if learned else None
    worlds = world_pool(view, knowledge, 20, random.Random(seed), model)
    assert len(worlds) == 20
    truth = fs.world_state(view, true_hands(game), game.trump_card)
    for world in worlds:
        if not view.trump_hidden:  # else the trump itself is drawn with the world
            assert (world[_PUBLIC] == truth[_PUBLIC]).all()
        assert_world_fits([int(hand) for hand in world[fs.HANDS : fs.HANDS + players]], knowledge)


@pytest.mark.parametrize(("actions", "free"), [("AC 6H", False), ("", True)])
def test_worlds_are_dealt_as_the_reference_sampler_deals(actions: str, free: bool) -> None:
    # A misère has no bids to weight the worlds by: the compiled dealer alone is seen,
    # and each hidden card must land in each seat (or stay undealt) as often as
    # ``Knowledge.sample`` puts it there. After "AC 6H" seat 1 has shown a void in clubs,
    # so the constraint ordering matters; before any play nothing is ruled out and the
    # worlds are dealt by the quicker shuffle (``_deal_freely``).
    view = position(
        ["AC 7C 8D", "6H 8S 9S", "TC JC QD", "AS KS QS"],
        "7H",
        plan="3:misere",
        dealer=3,
        actions=actions,
    )
    knowledge = Knowledge.from_view(view)
    cards = np.array(bits(knowledge.unseen), dtype=np.int64)
    room = np.array([knowledge.hidden_count(seat) for seat in range(4)], dtype=np.int64)
    assert _free(np.array(knowledge.allowed, dtype=np.int64), room, cards) is free
    rng = random.Random(8)
    draws = 4000
    compiled = world_pool(view, knowledge, draws, rng)[:, fs.HANDS : fs.HANDS + 4]
    reference = np.array([knowledge.sample(rng) for _ in range(draws)], dtype=np.int64)
    for card in bits(knowledge.unseen):
        held = [(hands >> card & 1).mean(axis=0) for hands in (compiled, reference)]
        assert held[0] == pytest.approx(held[1], abs=0.05)
    for hands in compiled:
        assert_world_fits([int(hand) for hand in hands], knowledge)
    if not free:
        assert not (compiled[:, 1] & SUIT_MASKS[Suit.CLUBS]).any()


@pytest.mark.parametrize("learned", [False, True])
def test_worlds_believe_the_bids(learned: bool) -> None:
    # Seat 3 bid all 4 tricks: the worlds kept, by the Gaussian or by the learned bid
    # model, give it far stronger hands than the unweighted draws do.
    view = position(
        ["AH KH 7C 8D", "6S 8S 9S TS", "TC JC QC KC", "AS KS QS JS"],
        "6H",
        dealer=2,
        actions="4",
    )
    knowledge = Knowledge.from_view(view)
    rng = random.Random(1)
    weighted = world_pool(view, knowledge, 300, rng, shipped_model() if learned else None)
    unweighted = [knowledge.sample(rng) for _ in range(300)]
    trump = int(view.trump) if view.trump is not None else -1

    def value(mask: int) -> float:
        return float(fs.hand_value(mask, trump))

    kept = statistics.fmean(value(int(world[fs.HANDS + 3])) for world in weighted)
    drawn = statistics.fmean(value(hands[3]) for hands in unweighted if hands is not None)
    assert kept > drawn + 0.5


def _searched(
    view: View, seed: int, worlds: int, capacity: int, root: Iterable[int], iterations: int
) -> Tree:
    """A tree of ``capacity`` nodes searched ``iterations`` times over ``worlds`` worlds of
    ``view``, with ``root`` as the seat's actions at the root."""
    tree = Tree.with_capacity(capacity, root)
    _search_more(tree, view, seed, worlds, iterations)
    return tree


def _search_more(tree: Tree, view: View, seed: int, worlds: int, iterations: int) -> None:
    """Search ``tree`` ``iterations`` more times over ``worlds`` worlds of ``view``."""
    rng = random.Random(seed)
    pool = world_pool(view, Knowledge.from_view(view), worlds, rng)
    rules = fs.rules_vector(view.rules, view.kind)
    score = fs.score_table(view.rules, view.kind, view.cards)
    search(tree, pool, rules, score, reward_scale(pool, rules, score), iterations, rng)


def _codes(view: View) -> set[int]:
    codes = set()
    for action in view.legal_actions:
        assert isinstance(action, Bid | Play), action  # no control round in these games
        codes.add(fs.encode_action(action))
    return codes


def test_the_tree_counts_every_iteration() -> None:
    view = position(["AH 7C 8D", "6S 8S 9S", "TC JC QC", "AS KS QS"], "6H", dealer=3)
    legal = _codes(view)
    tree = _searched(view, seed=2, worlds=50, capacity=2000, root=legal, iterations=700)
    visits = tree.root_visits()
    assert set(visits) == legal  # every bid tried
    assert sum(visits.values()) == 700
    used = int(tree.size[0])
    assert used <= 701
    assert (tree.avail[1:used] >= tree.visits[1:used]).all()
    assert tree.best_action() in legal


def test_a_full_tree_still_searches() -> None:
    view = position(["AH 7C 8D", "6S 8S 9S", "TC JC QC", "AS KS QS"], "6H", dealer=3)
    tree = _searched(view, seed=3, worlds=10, capacity=3, root=_codes(view), iterations=100)
    assert int(tree.size[0]) == 3
    assert sum(tree.root_visits().values()) == 100


def test_a_tree_grows_and_keeps_what_it_holds() -> None:
    view = position(["AH 7C 8D", "6S 8S 9S", "TC JC QC", "AS KS QS"], "6H", dealer=3)
    tree = _searched(view, seed=3, worlds=10, capacity=40, root=_codes(view), iterations=100)
    assert int(tree.size[0]) == 40  # full
    before = {name: getattr(tree, name).copy() for name in ("action", "visits", "reward")}
    tree.reserve(30)  # room enough already: nothing changes
    assert tree.action.shape[0] == 40
    tree.reserve(41)
    assert tree.action.shape[0] == 80  # doubled
    for name, array in before.items():
        assert (getattr(tree, name)[:40] == array).all()
        assert not getattr(tree, name)[40:].any()
    _search_more(tree, view, seed=4, worlds=10, iterations=30)
    assert 40 < int(tree.size[0]) <= 70  # the tree was full: the 30 more added nodes
    assert sum(tree.root_visits().values()) == 130


def test_the_root_searches_only_what_the_seat_may_do() -> None:
    # Worlds do not know a seat's streak of 0 bids, so the root is told what is legal.
    view = position(["AH 7C 8D", "6S 8S 9S", "TC JC QC", "AS KS QS"], "6H", dealer=3)
    allowed = [fs.BID_BASE + amount for amount in (1, 2, 3)]
    tree = _searched(view, seed=4, worlds=20, capacity=500, root=allowed, iterations=300)
    assert set(tree.root_visits()) == set(allowed)


def test_a_following_joker_discards_once() -> None:
    # The suit a following joker names for its discard changes nothing: one is searched.
    view = position(["AC 9S", "X AS", "8C 6D", "9C 8S"], "6H", dealer=3, actions="1 0 0 0 AC")
    tree = _searched(view, seed=5, worlds=20, capacity=500, root=_codes(view), iterations=300)
    searched = sorted(str(fs.decode_action(code)) for code in tree.root_visits())
    assert searched == ["AS", "X:discard:S", "X:take"]


def test_each_seat_plays_for_its_points_less_a_share_of_the_others() -> None:
    rules = resolve_rules("oh-hell", lowest_rank=6, custom_plan=("8",))
    game = Game(rules, 4, seed=7)
    state, vector = fs.encode_game(game), fs.rules_vector(rules, game.round.kind)
    fs.play_out(state, vector)
    score = fs.score_table(rules, game.round.kind, 8)
    points, utility = np.empty(fs.MAX_PLAYERS, dtype=np.int64), np.empty(fs.MAX_PLAYERS)
    _utilities(state, score, 0.5, points, utility, 0, NOT_SOLVED)
    own = points[:4].astype(float)
    others = (own.sum() - own) / 3
    assert len(set(own)) > 1  # the seats scored differently: the shares matter
    assert utility[:4] == pytest.approx(own - 0.5 * others)
    _utilities(state, score, 0.0, points, utility, 0, NOT_SOLVED)
    assert utility[:4] == pytest.approx(own)
    # Own points against the others' mean.
    _utilities(state, score, 1.0, points, utility, 0, NOT_SOLVED)
    assert utility[:4].sum() == pytest.approx(0.0)

    _utilities(state, score, 0.0, points, utility, 2, 1234)  # seat 2's points solved
    assert points[2] == 1234 and utility[2] == 1234.0
    assert utility[:2] == pytest.approx(own[:2])


@pytest.mark.parametrize("tricks", [0, 2, 3])
def test_playouts_solve_the_seats_last_tricks(tricks: int) -> None:
    # From the bidding, a playout plays on until ``tricks`` tricks are left, solves the
    # seat's points there exactly, and still plays to the end for everyone's tricks.
    rules = resolve_rules("raspisnoy.com", custom_plan=("5",))
    game = Game(rules, 4, seed=3)
    state, vector = fs.encode_game(game), fs.rules_vector(rules, game.round.kind)
    score = fs.score_table(rules, game.round.kind, 5)
    seat, table = int(state[fs.S_TO_ACT]), Table.empty(1 << 10)
    for seed in range(20):
        start = state.copy()
        solved = _noisy_play_out_solving(
            start, vector, score, seat, 0.9, np.random.default_rng(seed), tricks,
            table.keys, table.bounds,
        )  # fmt: skip
        assert start[fs.S_PHASE] == fs.PHASE_OVER
        if tricks == 0:
            assert solved == NOT_SOLVED
            continue
        # The same draws again, stopped where the solver took over.
        again, gen = state.copy(), np.random.default_rng(seed)
        while again[fs.S_PHASE] == fs.PHASE_BID or 5 - again[fs.S_TRICKS] > tricks:
            fs.noisy_play_out_step(again, vector, seat, 0.9, gen)
        assert solved == solve(again, vector, score, seat, Table.empty(1 << 10))
