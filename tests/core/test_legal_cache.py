"""``legal_actions()`` is computed once per change of state and kept: it must never be stale.

The game keeps its legal set (and the mask that checks a play or bid) up to date at every
change, and ``clone()`` hands the copy the same immutable tuple. These properties compare
it, after every ``apply`` and after every ``clone()``, with a slow recomputation from the
public state alone: the hand of the player to act, the trick so far and the trump through
the rule book's reference (tests/core/oracle.py), and the bids from the bids made, the
dealer and the zero bids of earlier rounds (docs/rules.md 1 "Bidding", 2.4). A cache that
missed a change, or that a clone shared with its original, fails here.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import rule_book

from raspisnoy.core import (
    CONTROL_KINDS,
    PRESETS,
    Action,
    Bid,
    ControlRound,
    Game,
    Phase,
    resolve_rules,
)

PRESET_NAMES = sorted(PRESETS)
#: A short plan with every kind of round, as in test_random_games.
SHORT_PLAN = ("3", "3:blind", "3:misere", "3:golden", "3:no-trump", "1:forehead", "3:percent", "3")


def _zero_streak(game: Game, seat: int) -> int:
    """How many rounds in a row, up to the one in progress, ``seat`` bid 0."""
    streak = 0
    for result in game.rounds()[:-1]:
        if result.bids is None:
            continue  # a round without bids neither breaks nor extends a streak
        streak = streak + 1 if result.bids[seat] == 0 else 0
    return streak


def _reference_bids(game: Game) -> set[Action]:
    """The bids the player to act may make, from the public state alone."""
    rules, seat, cards = game.rules, game.to_act, game.round.cards
    assert seat is not None
    amounts = set(range(cards + 1))
    others = sum(bid for bid in game.bids if bid is not None)
    if rules.dealer_constraint and seat == game.dealer and others <= cards:
        amounts.discard(cards - others)
    limit = rules.max_zero_bids_in_a_row
    if limit and _zero_streak(game, seat) >= limit and amounts - {0}:
        amounts.discard(0)
    return {Bid(amount) for amount in amounts}


def reference_legal(game: Game) -> set[Action]:
    """``legal_actions()`` recomputed slowly from the public state (see the module)."""
    if game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        return set(rule_book(game.rules).legal(game.hand(seat), game.trick.plays, game.trump))
    if game.phase is Phase.BID:
        return _reference_bids(game)
    if game.phase is Phase.CHOOSE:
        return {
            ControlRound(kind, dealer) for kind in CONTROL_KINDS for dealer in range(game.players)
        }
    return set()


def assert_fresh(game: Game) -> None:
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal), f"duplicates in {legal}"
    assert set(legal) == reference_legal(game), f"stale legal set in {game.phase}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), preset=st.sampled_from(PRESET_NAMES), seed=st.integers())
def test_legal_actions_after_every_apply_and_clone_are_recomputed(
    data: st.DataObject, preset: str, seed: int
) -> None:
    rules = resolve_rules(preset, custom_plan=SHORT_PLAN)
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    assert_fresh(game)
    while not game.is_over:
        legal = game.legal_actions()
        clone = game.clone()
        assert clone.legal_actions() == legal
        assert_fresh(clone)
        # The clone goes its own way; the original must not see it, nor it the original.
        clone.apply(rng.choice(legal))
        assert_fresh(clone)
        assert game.legal_actions() == legal
        game.apply(rng.choice(legal))
        assert_fresh(game)
        assert_fresh(clone)
