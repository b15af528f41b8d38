"""Settlement of a box: the net examples of docs/casino.md, and the box file's rules."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from casino_helpers import BOX_EXAMPLE, cards

from raspisnoy.casino import BoxRecord, Outcome, settle_box
from raspisnoy.core import InvalidInputError

FULL_HOUSE = cards("6S 6H 6D KC KS")
QUALIFYING = cards("QS QH 7C 5H 3S")
NOT_QUALIFYING = cards("QC JD 7D 5C 3D")


@pytest.mark.parametrize(
    ("kwargs", "outcome", "net"),
    [
        # docs/casino.md, ante 10 (bet 20): full house beats a qualifying dealer → +140 …
        ({"cards": FULL_HOUSE, "dealer": QUALIFYING}, Outcome.WIN, 140),
        # … the same after a change → +130.
        ({"cards": FULL_HOUSE, "dealer": QUALIFYING, "exchanged": True}, Outcome.WIN, 130),
        # lose → -30; tie → 0; fold → -10; dealer does not qualify → +10.
        ({"cards": cards("8S 8H KD 4C 2S"), "dealer": QUALIFYING}, Outcome.LOSE, -30),
        ({"cards": cards("QD QC 7S 5D 3C"), "dealer": QUALIFYING}, Outcome.TIE, 0),
        ({"cards": FULL_HOUSE, "dealer": QUALIFYING, "folded": True}, Outcome.FOLD, -10),
        ({"cards": cards("JS TH 7S 5S 2H"), "dealer": NOT_QUALIFYING}, Outcome.ANTE, 10),
        # A bought game that still does not qualify: -2 antes (- a change).
        (
            {
                "cards": FULL_HOUSE,
                "dealer": NOT_QUALIFYING,
                "dealer_bought": cards("2C JD 7D 5C 3D"),
            },
            Outcome.BET_BACK,
            -20,
        ),
        (
            {
                "cards": FULL_HOUSE,
                "dealer": NOT_QUALIFYING,
                "dealer_bought": cards("2C JD 7D 5C 3D"),
                "exchanged": True,
            },
            Outcome.BET_BACK,
            -30,
        ),
        # Bought and now qualifying: settled as usual, less the purchase.
        (
            {
                "cards": FULL_HOUSE,
                "dealer": NOT_QUALIFYING,
                "dealer_bought": cards("JC JD 7D 5C 3D"),
            },
            Outcome.WIN,
            130,
        ),
        # The source: a royal flush wins 2000 on an ante of 10.
        ({"cards": cards("AH KH QH JH TH"), "dealer": QUALIFYING}, Outcome.WIN, 2000),
    ],
)
def test_nets_for_ante_10(kwargs: dict[str, Any], outcome: Outcome, net: int) -> None:
    result = settle_box(10, **kwargs)
    assert (result.outcome, result.net) == (outcome, net)
    assert result.pays == (result.evaluation.pays if outcome is Outcome.WIN else 0)


def test_a_qualifying_dealers_game_cannot_be_bought() -> None:
    with pytest.raises(InvalidInputError, match="does not qualify"):
        settle_box(10, FULL_HOUSE, QUALIFYING, dealer_bought=cards("QS QH 7C 5H 2S"))


EXAMPLE = BOX_EXAMPLE


def test_the_example_file() -> None:
    # A-A-2-2-K after the change; Q-J-7-5-3 drops the queen, draws the Q♥, still nothing.
    result = BoxRecord.from_json(EXAMPLE).settle()
    assert result.to_json() == {"net": -30, "outcome": "bet-back", "pays": 0}


def test_a_buy_and_a_win() -> None:
    data = copy.deepcopy(EXAMPLE)
    data["exchange"] = {"buy": "KS"}
    data["buy_dealer"] = {"draw": "JH"}
    # A-A-K-K-8-9 (two pairs; ace-king inside them): 2:1; the dealer gets J-J.
    assert BoxRecord.from_json(data).settle().to_json() == {"net": 20, "outcome": "win", "pays": 2}


def _broken(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    for field, value in changes.items():
        if value is None:
            del data[field]
        else:
            data[field] = value
    return data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (_broken(format="russian-poker-box/2"), "format"),
        (_broken(ante=0), "ante"),
        (_broken(ante=101), "ante"),
        (_broken(ante=True), "ante"),
        (_broken(ante=None), "ante"),
        (_broken(cards=["AS", "AH", "KD", "8C"]), "cards"),
        (_broken(cards=["AS", "AH", "KD", "8C", "X"]), "cards"),
        (_broken(cards="AS AH KD 8C 9S"), "cards"),
        (_broken(exchange={"change": ["8C"], "draw": ["2H", "2D"]}), "exchange.draw"),
        (_broken(exchange={"change": ["7C"], "draw": ["2H"]}), "exchange.change"),
        (_broken(exchange={"change": [], "draw": []}), "exchange.change"),
        (_broken(exchange={"swap": ["8C"]}), "exchange"),
        (_broken(exchange={"buy": "ZZ"}), "exchange.buy"),
        (_broken(decision="raise"), "decision"),
        (_broken(dealer=["QS", "JD", "7C", "5H"]), "dealer"),
        (_broken(dealer=["QS", "QD", "7C", "5H", "3S"]), "buy_dealer"),
        (_broken(decision="fold"), "buy_dealer"),
        (_broken(buy_dealer={"card": "QH"}), "buy_dealer"),
        (_broken(extra=1), "extra"),
        ([1, 2], "JSON object"),
    ],
)
def test_broken_files_name_the_field(data: object, field: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        BoxRecord.from_json(data)
    assert str(error.value).startswith(field) or field in str(error.value)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"exchange": {"change": ["8C"], "draw": ["AS"]}}, "exchange.draw: AS is also in cards"),
        ({"exchange": {"buy": "KD"}}, "exchange.buy: KD is also in cards"),
        ({"dealer": ["AS", "JD", "7C", "5H", "3S"]}, "dealer: AS is also in cards"),
        (
            {"exchange": {"change": ["8C", "9S"], "draw": ["2H", "QS"]}},
            "dealer: QS is also in exchange.draw",
        ),
        ({"exchange": {"buy": "QS"}}, "dealer: QS is also in exchange.buy"),
        ({"buy_dealer": {"draw": "AS"}}, "buy_dealer.draw: AS is also in cards"),
        ({"buy_dealer": {"draw": "2D"}}, "buy_dealer.draw: 2D is also in exchange.draw"),
        (
            {"exchange": {"buy": "KS"}, "buy_dealer": {"draw": "KS"}},
            "buy_dealer.draw: KS is also in exchange.buy",
        ),
        ({"buy_dealer": {"draw": "QS"}}, "buy_dealer.draw: QS is also in dealer"),
    ],
)
def test_a_card_in_two_fields_names_both(changes: dict[str, Any], message: str) -> None:
    """Every card must be distinct across the file: a card given twice is an error naming
    the field it is repeated in and the field it was in first."""
    with pytest.raises(InvalidInputError) as error:
        BoxRecord.from_json(copy.deepcopy(EXAMPLE) | changes)
    assert str(error.value) == message
