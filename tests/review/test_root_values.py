"""The expert's root values, which the review and the hint read: what is searched, what
stands for what, that a card on the table splits a sequence of one's own cards, and that
only legal cards stand for each other (a joker's «highest» demand)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.bots.expert import root_values, searched_equivalent
from raspisnoy.core import (
    Card,
    Game,
    JokerMode,
    Phase,
    Play,
    View,
    parse_action,
    resolve_rules,
)


def view_after(hands: list[str], trump: str, actions: str, preset: str | None = None) -> View:
    """The view of the seat to act in a one-round game of these hands, dealer seat 0, of
    ``preset`` (the default one unless given)."""
    rules = resolve_rules(preset, custom_plan=(str(len(hands[0].split())),))
    game = Game(rules, len(hands), first_dealer=0)
    game.deal([[Card.parse(card) for card in hand.split()] for hand in hands], Card.parse(trump))
    for text in actions.split():
        game.apply(parse_action(text))
    seat = game.to_act
    assert seat is not None
    return game.view(seat)


def test_an_ace_over_a_led_king_is_searched_apart_from_the_queen() -> None:
    """Seat 2 bid all three tricks and holds Q♠ A♠ under a led K♠ (♠ trumps): only the
    ace takes the trick. Before the fix the search treated Q and A as one card (no
    unseen card between them) and tried only the queen."""
    view = view_after(["AC 6H QH", "9S KS TC", "QS AS AD"], "8S", "1 3 1 KS")
    values = root_values(view, 2000, seed=1)
    searched = {str(value.action): value for value in values}
    assert set(searched) == {"QS", "AS"}
    assert values[0].action == Play.parse("AS")
    assert searched["AS"].points > searched["QS"].points + 10
    assert sum(value.visits for value in values) == 2000
    assert searched_equivalent(view, Play.parse("AS")) == Play.parse("AS")


def test_cards_in_sequence_stand_for_each_other_and_only_restricts_the_root() -> None:
    """Holding Q♥ K♥ with nothing unseen between, the search tries only the queen; a
    search with ``only`` spends every iteration on that one action."""
    view = view_after(["AC 6S TD", "9S JH TC", "QH KH AD"], "8S", "1 1 0 JH")
    assert {str(action) for action in view.legal_actions} == {"QH", "KH"}
    assert searched_equivalent(view, Play.parse("KH")) == Play.parse("QH")
    (value,) = root_values(view, 300, seed=1, only=Play.parse("QH"))
    assert value.action == Play.parse("QH") and value.visits == 300


def test_a_highest_demand_leaves_the_one_legal_card_searched() -> None:
    """A joker led «highest» in ♥: seat 2, holding Q♥ K♥ in sequence, may play only the
    king. The search still tries it (before the fix it dropped the king for the queen,
    which is not legal here, tried nothing, and a hint there answered 500)."""
    view = view_after(["6C 7C 8C", "X 9D TD", "KH QH 6D"], "9S", "1 1 0 X:highest:H")
    assert view.legal_actions == (Play.parse("KH"),)
    (value,) = root_values(view, 50, seed=1)
    assert value.action == Play.parse("KH") and value.visits == 50
    assert searched_equivalent(view, Play.parse("KH")) == Play.parse("KH")


def test_a_highest_demand_leaves_the_top_card_beside_the_other_joker() -> None:
    """Two jokers (``georgian``): X1 led «highest» in ♥, seat 2 holds K♥ Q♥ and X2. The
    king is searched beside the joker's plays (before the fix only the joker was)."""
    hands = ["7C 8C 9C", "X1 9D TD", "KH QH X2"]
    view = view_after(hands, "9S", "1 1 0 X1:highest:H", preset="georgian")
    searched = {str(value.action) for value in root_values(view, 300, seed=1)}
    assert "KH" in searched and "X2:take" in searched


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_legal_card_stands_for_a_legal_card_the_search_tries(seed: int) -> None:
    """Through a whole random game, at every card to play, each legal action's
    ``searched_equivalent`` is itself legal: the search never tries, nor stands for a
    move by, a card that may not be played. A joker is always led «highest» where it may
    be, so that the demand, which leaves one card of a suit legal, comes often."""
    game = Game("raspisnoy.com", 4, seed=seed)
    rng = random.Random(seed)
    while game.phase in (Phase.BID, Phase.PLAY):
        actions = game.legal_actions()
        if game.phase is Phase.PLAY:
            view = game.view(game.to_act)
            for action in actions:
                assert isinstance(action, Play)
                assert searched_equivalent(view, action) in actions
        highest = [a for a in actions if isinstance(a, Play) and a.mode is JokerMode.HIGHEST]
        game.apply(rng.choice(highest or actions))
