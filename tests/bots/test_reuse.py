"""The expert's tree kept between a seat's decisions (``ExpertBot.reuse_tree``)."""

from __future__ import annotations

import pytest

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.ismcts import FOLLOWING_DISCARD, Tree
from raspisnoy.bots.reuse import KeptTree, history
from raspisnoy.core import PRESETS, Bid, Game, Play

ALL_KINDS = {"special_rounds": ("no-trump", "blind", "misere", "golden", "forehead", "percent")}


class _Reusing(ExpertBot):
    reuse_tree = True


def _play(game: Game, seed: str) -> list[str]:
    bots = [_Reusing(seed=f"{seed}/{seat}", iterations=150) for seat in range(game.players)]
    actions = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = bots[seat].act(game.view(seat))  # ``act`` rejects an illegal choice
        game.apply(action, seat)
        actions.append(str(action))
    return actions


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_reusing_expert_plays_every_preset_legally_and_deterministically(preset: str) -> None:
    rules = Game(preset, 4).rules
    rules = rules.replace(**ALL_KINDS, custom_plan=("3", "5:blind", "4:misere", "4:golden"))
    first = _play(Game(rules, 4, seed=5), "reuse")
    assert first == _play(Game(rules, 4, seed=5), "reuse")


def test_history_lists_the_bids_from_the_dealers_left_then_the_plays() -> None:
    game = Game("raspisnoy.com", 4, seed=3)
    made = []
    for _ in range(7):  # four bids and three cards
        seat = game.to_act
        assert seat is not None
        action = game.view(seat).legal_actions[-1]
        assert isinstance(action, Bid | Play)
        game.apply(action, seat)
        made.append(action)
    seat = game.to_act
    assert seat is not None
    codes = history(game.view(seat))
    assert [fs.decode_action(code & ~FOLLOWING_DISCARD) for code in codes] == made


def _descended_root(bot: _Reusing, game: Game) -> tuple[KeptTree, int]:
    """Play the round on from ``bot``'s decision by the most visited child of each node
    of its tree legal in ``game`` until its seat is to act again: its kept tree, and the
    node reached."""
    kept = bot._kept
    assert kept is not None
    tree, node = kept.tree, kept.tree.root
    seat = game.to_act
    while True:
        legal = game.legal_actions()
        children = [
            child
            for child in _children(tree, node)
            if fs.decode_action(int(tree.action[child])) in legal
        ]
        node = max(children, key=lambda child: int(tree.visits[child]))
        game.apply(fs.decode_action(int(tree.action[node])), game.to_act)
        if game.to_act == seat:
            return kept, node


def _children(tree: Tree, node: int) -> list[int]:
    out, child = [], int(tree.first_child[node])
    while child > 0:
        out.append(child)
        child = int(tree.next_sibling[child])
    return out


def test_the_next_decision_goes_on_from_the_subtree_of_the_actions_made() -> None:
    game = Game(Game("oh-hell", 4).rules.replace(custom_plan=("5",)), 4, seed=8)
    seat = game.to_act
    bot = _Reusing(seed=1, iterations=2000)
    bot.act(game.view(seat))
    kept, node = _descended_root(bot, game)
    assert int(kept.tree.visits[node]) > 0
    before = _visits_below(kept.tree, node)
    followed = kept.follow(game.view(seat))
    assert followed is not None and followed.root == node
    bot.act(game.view(seat))  # goes on with the visits below that node and 2,000 more
    assert bot._kept is not None and bot._kept.tree.root == node
    assert _visits_below(bot._kept.tree, node) == before + 2000


def _visits_below(tree: Tree, node: int) -> int:
    return sum(int(tree.visits[child]) for child in _children(tree, node))


def test_a_kept_tree_is_not_followed_into_another_round_or_game() -> None:
    game = Game("oh-hell", 4, seed=8)
    seat = game.to_act
    bot = _Reusing(seed=1, iterations=300)
    view = game.view(seat)
    bot.act(view)
    kept = bot._kept
    assert kept is not None
    assert kept.follow(view) is None  # no action made since
    other = Game("oh-hell", 4, seed=9)  # another deal: another hand
    while other.to_act != seat or other.view(seat).bids == view.bids:
        other.apply(other.legal_actions()[0], other.to_act)
    assert kept.follow(other.view(seat)) is None


def test_rescaling_keeps_every_nodes_mean_utility() -> None:
    tree = Tree.with_capacity(4, [fs.BID_BASE])
    tree.size[0] = 3
    tree.visits[:3] = (10, 6, 4)
    tree.reward[:3] = (2.0, -3.0, 1.5)
    before = 1.0 + 4.0 * tree.reward[:3] / tree.visits[:3]
    tree.rescale((1.0, 4.0), (-2.0, 0.5))
    after = -2.0 + 0.5 * tree.reward[:3] / tree.visits[:3]
    assert after == pytest.approx(before)


def test_descend_finds_a_following_jokers_discard_whatever_suit_it_named() -> None:
    tree = Tree.with_capacity(4, [fs.BID_BASE])
    discard = 53 * 16 + fs.M_DISCARD * 4 + 1  # the joker's discard naming suit 1
    tree.size[0], tree.first_child[0], tree.action[1] = 2, 1, discard
    named_otherwise = (discard & ~3 | 2) | FOLLOWING_DISCARD
    assert tree.descend([named_otherwise]) == 1
    assert tree.descend([discard & ~3 | 2]) == 0  # a leading joker's suit matters
