"""Wrong types and values given to the public API raise the engine's own errors, never a
crash (``AttributeError``, ``TypeError``…): the server and the CLI rely on it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from raspisnoy.core import (
    Bid,
    Card,
    ControlRound,
    Game,
    InvalidInputError,
    Play,
    RaspisnoyError,
    RoundKind,
    Suit,
    loads_record,
    resolve_rules,
)


def game() -> Game:
    return Game("raspisnoy.com", 3, seed=1)


CASES: dict[str, Callable[[], object]] = {
    "Suit.parse(None)": lambda: Suit.parse(None),  # type: ignore[arg-type]
    "Play('KD')": lambda: Play("KD"),  # type: ignore[arg-type]
    "Play(card, 'take')": lambda: Play(Card.parse("X"), "take"),  # type: ignore[arg-type]
    "play('KD')": lambda: game().play("KD"),  # type: ignore[arg-type]
    "verify_play(None)": lambda: game().verify_play(None),  # type: ignore[arg-type]
    "bid(None)": lambda: game().bid(None),  # type: ignore[arg-type]
    "bid(0, seat='x')": lambda: game().bid(0, seat="x"),  # type: ignore[arg-type]
    # ``apply`` tells actions apart by their mask bit (``Bid.mask_bit``, ``Play.mask_bit``):
    # anything without one, and a bid of an amount no game allows, goes the long way.
    "apply(None)": lambda: game().apply(None),  # type: ignore[arg-type]
    "apply('KD')": lambda: game().apply("KD"),  # type: ignore[arg-type]
    "apply(Bid(-1))": lambda: game().apply(Bid(-1)),
    "apply(Bid(64))": lambda: game().apply(Bid(64)),
    "apply(Bid('1'))": lambda: game().apply(Bid("1")),  # type: ignore[arg-type]
    "apply(Bid(True))": lambda: game().apply(Bid(True)),
    "apply(ControlRound) while bidding": lambda: game().apply(ControlRound(RoundKind.NO_TRUMP, 0)),
    "view('a')": lambda: game().view("a"),  # type: ignore[arg-type]
    "view(True)": lambda: game().view(True),
    "Game(players=None)": lambda: Game(None, None),  # type: ignore[arg-type]
    "Game(players='abc')": lambda: Game(None, "abc"),
    "Game(names with newline)": lambda: Game(None, ["a\nb", "c", "d"]),
    "Game(first_dealer='1')": lambda: Game(None, 3, first_dealer="1"),  # type: ignore[arg-type]
    "Game(seed=1.5)": lambda: Game(None, 3, seed=1.5),  # type: ignore[arg-type]
    "deal(None, None)": lambda: Game(None, 3).deal(None, None),  # type: ignore[arg-type]
    "deal(texts)": lambda: Game(None, 3).deal([["KD"], ["QD"], ["AH"]], "7C"),  # type: ignore[list-item, arg-type]
    "resolve_rules(Rules(), foo=1)": lambda: resolve_rules(resolve_rules(), foo=1),
    "resolve_rules(preset=[])": lambda: resolve_rules({"preset": []}),
    "loads_record(None)": lambda: loads_record(None),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("call", CASES.values(), ids=CASES.keys())
def test_bad_input_raises_an_engine_error(call: Callable[[], object]) -> None:
    with pytest.raises(RaspisnoyError):
        call()


def test_jokers_option_is_kept_in_canonical_notation() -> None:
    assert resolve_rules({"jokers": ["7s"]}).jokers == ("7S",)
    assert resolve_rules(resolve_rules(), jokers=["7S"]).jokers == ("7S",)


def test_bad_types_are_input_errors_not_rule_errors() -> None:
    with pytest.raises(InvalidInputError):
        game().bid("1")  # type: ignore[arg-type]
