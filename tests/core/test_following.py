"""Following the suit led, and who wins a trick a joker leads, pinned for every suit.

Two mistakes the random games once caught only in their long runs are pinned here, each
in a few milliseconds: followers not obliged to follow when spades (suit 0, the falsy
one) are led, and a joker led "highest" of the trump suit losing to a later trump under
``joker_highest_beaten_by_trump`` (docs/rules.md 1 "Play", 2.5 and 3.3).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import cards, plays

from raspisnoy.core import (
    Card,
    Game,
    IllegalActionError,
    InvalidInputError,
    Play,
    Suit,
    resolve_rules,
    trick_winner,
)

SUITS = "SCDH"


def _after(suit: str, steps: int) -> str:
    return SUITS[(SUITS.index(suit) + steps) % 4]


def _two_card_game(hands: list[str], trump_card: str, **options: Any) -> Game:
    """Anna (0) deals two cards each; Boris (1), Vera (2) and Anna bid 0; Boris leads."""
    rules = resolve_rules(custom_plan=("2",), dealer_constraint=False, **options)
    game = Game(rules, ["Anna", "Boris", "Vera"], first_dealer=0)
    game.deal([cards(hand) for hand in hands], Card.parse(trump_card))
    for _ in range(3):
        game.bid(0)
    return game


@pytest.mark.parametrize("joker", [False, True], ids=["no-joker", "joker"])
@pytest.mark.parametrize("suit", SUITS)
def test_followers_must_follow_every_suit_led(suit: str, joker: bool) -> None:
    other, trump = _after(suit, 1), _after(suit, 2)
    vera = f"9{suit} " + ("X" if joker else f"A{other}")
    game = _two_card_game([f"T{suit} J{trump}", f"K{suit} Q{other}", vera], f"6{trump}")
    game.play(Play.parse(f"K{suit}"))
    offered = [str(action) for action in game.legal_actions()]
    assert offered[0] == f"9{suit}"
    assert all(text == f"9{suit}" or text.startswith("X:") for text in offered)
    if not joker:
        assert not game.can_play(Play.parse(f"A{other}"))
        with pytest.raises(IllegalActionError, match=f"Vera must follow .* A{other}"):
            game.play(Play.parse(f"A{other}"))
    game.play(Play.parse(f"9{suit}"))
    assert [str(action) for action in game.legal_actions()] == [f"T{suit}"]
    assert not game.can_play(Play.parse(f"J{trump}"))


#: Rules under which a trump beats a joker led "highest S" of another suit.
BEATEN_BY_TRUMP = [
    pytest.param({"joker_highest_beaten_by_trump": True}, id="option"),
    pytest.param({"preset": "classic"}, id="classic"),
    pytest.param({"preset": "georgian"}, id="georgian"),
]


@pytest.mark.parametrize("trump", list(Suit))
@pytest.mark.parametrize("spec", BEATEN_BY_TRUMP)
def test_a_joker_led_highest_of_the_trump_suit_wins(trump: Suit, spec: dict[str, Any]) -> None:
    rules = resolve_rules(spec)
    assert rules.joker_highest_beaten_by_trump
    joker = "X1" if len(rules.jokers) == 2 else "X"
    letter = trump.letter
    trick = plays(f"{joker}:highest:{letter} K{letter} A{letter}")
    assert trick_winner(trick, 1, trump, rules) == 1


@pytest.mark.parametrize("trump", SUITS)
def test_a_played_joker_led_highest_trumps_beats_the_trumps(trump: str) -> None:
    side = _after(trump, 1)
    game = _two_card_game(
        [f"A{trump} 8{side}", f"X 9{side}", f"K{trump} Q{trump}"],
        f"6{trump}",
        joker_highest_beaten_by_trump=True,
    )
    game.play(Play.parse(f"X:highest:{trump}"))
    assert [str(action) for action in game.legal_actions()] == [f"K{trump}"]
    game.play(Play.parse(f"K{trump}"))
    game.play(Play.parse(f"A{trump}"))
    assert game.rounds()[0].tricks[0].winner == 1
    assert game.to_act == 1


@pytest.mark.parametrize(
    ("trick", "winner"),
    [("X:highest:D KD 6C", 2), ("X:highest:D 6C KD", 1), ("X:highest:D 6C 9C", 2)],
)
def test_a_trump_beats_a_joker_led_highest_of_another_suit(trick: str, winner: int) -> None:
    """The other side of ``joker_highest_beaten_by_trump``: S not trump, the highest trump
    wins, wherever it is played; without the option the joker wins."""
    rules = resolve_rules(joker_highest_beaten_by_trump=True)
    assert trick_winner(plays(trick), 0, Suit.CLUBS, rules) == winner
    assert trick_winner(plays(trick), 0, Suit.CLUBS, resolve_rules()) == 0


@pytest.mark.parametrize("option", ["first_follower_suit", "joker_wins"])
def test_a_joker_led_discard_makes_its_suit_the_suit_led_for_the_winner(option: str) -> None:
    """After ``X:discard:D``, a void first follower's ♥ does not decide: the ♦ ace does."""
    rules = resolve_rules(joker_discard_lead_unfollowed=option)
    assert trick_winner(plays("X:discard:D 6H AD"), 0, Suit.CLUBS, rules) == 2
    assert trick_winner(plays("X:discard:D 6H AD 7H"), 1, None, rules) == 3


def test_a_trick_needs_a_play() -> None:
    with pytest.raises(InvalidInputError, match=r"^a trick needs at least one play$"):
        trick_winner([], 0, None, resolve_rules())
