"""The heuristic and beginner bots in positions where a strong human's move is clear."""

from __future__ import annotations

import pytest
from positions import position

from raspisnoy.bots import make_bot
from raspisnoy.core import Bid, Play

TRUMP_HEARTS = "6H"


@pytest.mark.parametrize("bot", ["beginner", "heuristic", "expert"])
def test_does_not_bid_zero_holding_the_ace_of_trumps_and_the_joker(bot: str) -> None:
    view = position(["AH X", "6S 7C", "8D 9D", "TC JC"], "6H", dealer=3)
    assert view.to_act == 0
    action = make_bot(bot, seed=1).act(view)
    assert action == Bid(2)


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_cashes_its_winners_when_it_needs_every_trick(bot: str) -> None:
    # Seat 0 bid 2 of 2 and leads: the ace of trumps first, or a low card is lost.
    view = position(["AH 7C", "6C 8C", "9C TC", "JC QC"], TRUMP_HEARTS, dealer=3, actions="2 0 0 1")
    assert make_bot(bot, seed=1).act(view) == Play.parse("AH")


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_does_not_trump_in_once_its_bid_is_made(bot: str) -> None:
    # Seat 2 bid 0; void in clubs, it discards the diamond rather than trump the club.
    view = position(
        ["AC KC QD", "6C 7C 8C", "7H 6D 9D", "TS JS QS"],
        "6H",
        dealer=3,
        actions="1 1 0 0 AC 6C",
    )
    assert view.to_act == 2
    assert make_bot(bot, seed=1).act(view) in (Play.parse("9D"), Play.parse("6D"))


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_ducks_under_the_winning_card_in_a_misere(bot: str) -> None:
    view = position(
        ["QC 6S 7D", "TC AC 8S", "KC 9C 9S", "JS QS KS"],
        "6H",
        dealer=3,
        plan="3:misere",
        actions="QC",
    )
    assert view.to_act == 1
    assert make_bot(bot, seed=1).act(view) == Play.parse("TC")


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_takes_with_the_cheapest_winner_when_last(bot: str) -> None:
    # Seat 3 plays last and needs two of three tricks: the jack of clubs takes this one
    # and keeps the ace for the second.
    view = position(
        ["6C 6S 8D", "7C 6D 9S", "TC 8S 9D", "JC AC 7D"],
        TRUMP_HEARTS,
        dealer=3,
        actions="0 0 0 2 6C 7C TC",
    )
    assert make_bot(bot, seed=1).act(view) == Play.parse("JC")


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_sheds_its_ace_and_keeps_the_joker_once_its_bid_is_made(bot: str) -> None:
    # Seat 1 bid 0 and cannot follow clubs: the ace of spades goes now, while it is safe;
    # the joker can be discarded safely at any time later.
    view = position(
        ["AC 9S", "X AS", "8C 6D", "9C 8S"], TRUMP_HEARTS, dealer=3, actions="1 0 0 0 AC"
    )
    assert make_bot(bot, seed=1).act(view) == Play.parse("AS")


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_joker_takes_when_the_last_trick_is_needed(bot: str) -> None:
    view = position(["AC", "X", "8C", "9C"], TRUMP_HEARTS, dealer=3, actions="1 1 0 0 AC")
    assert make_bot(bot, seed=1).act(view) == Play.parse("X:take")


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_keeps_its_king_when_it_cannot_take_the_trick_in_a_golden_round(bot: str) -> None:
    # A golden round: every trick pays. Seat 1 cannot follow the ace of clubs and holds
    # no trump; whatever it plays loses, so it throws the six and keeps the king, which
    # may take a trick later.
    view = position(
        ["AC 7C", "KS 6D", "8C 9C", "TC JC"], TRUMP_HEARTS, dealer=3, plan="2:golden", actions="AC"
    )
    assert view.to_act == 1
    assert make_bot(bot, seed=1).act(view) == Play.parse("6D")


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
def test_takes_with_its_small_trump_in_a_golden_round(bot: str) -> None:
    # Seat 3 plays last, void in clubs: either trump takes the trick; the six does, and
    # the ace of trumps is kept to beat seat 0's seven of trumps in the last trick.
    view = position(
        ["AC 7H", "8C 9C", "TC JC", "AH 6H"], "8H", dealer=3, plan="2:golden",
        actions="AC 8C TC",
    )  # fmt: skip
    assert make_bot(bot, seed=1).act(view) == Play.parse("6H")


def test_beginner_leads_the_joker_as_the_highest_trump_when_it_needs_tricks() -> None:
    # Classic rules: a trump beats a joker led as the "highest" of another suit.
    view = position(
        ["X AH", "6S 7C", "8D 9D", "TC JC"], TRUMP_HEARTS, dealer=3, actions="2 0 0 1",
        rules="classic",
    )  # fmt: skip
    assert make_bot("beginner", seed=1).act(view) == Play.parse("X:highest:H")
