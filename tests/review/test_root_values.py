"""The expert's root values, which the review and the hint read: what is searched, what
stands for what, and that a card on the table splits a sequence of one's own cards."""

from __future__ import annotations

from raspisnoy.bots.expert import root_values, searched_equivalent
from raspisnoy.core import Card, Game, Play, View, parse_action, resolve_rules


def view_after(hands: list[str], trump: str, actions: str) -> View:
    """The view of the seat to act in a one-round game of these hands, dealer seat 0."""
    rules = resolve_rules(custom_plan=(str(len(hands[0].split())),))
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
