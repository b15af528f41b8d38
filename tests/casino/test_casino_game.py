"""The hand's phase machine: boxes, decisions, the money rule, the dealer's purchase,
settlement, the view and the commit-reveal record."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.casino import (
    Bet,
    BuyCard,
    BuyDealer,
    CasinoHand,
    Change,
    Decline,
    Fold,
    Phase,
    commitment,
    evaluate,
    hand_cost,
    shuffled_deck,
)
from raspisnoy.casino.record import replay_record, verify_record
from raspisnoy.core import IllegalActionError, InvalidInputError


def seed_where(test: object, antes: list[int] = [10]) -> str:  # noqa: B006
    """The first seed ``s0``, ``s1``… whose deal passes ``test(hand)``."""
    for number in range(10_000):
        hand = CasinoHand(antes, 1000, f"s{number}")
        if test(hand):  # type: ignore[operator]
            return f"s{number}"
    raise AssertionError("no such seed")


def dealer_qualifies(hand: CasinoHand) -> bool:
    return evaluate(hand.dealer_cards).qualifies


def test_the_deal_follows_the_seeds_shuffle() -> None:
    hand = CasinoHand([10, 20, 5], 1000, "seed")
    deck = shuffled_deck("seed")
    assert [hand.box_cards(i) for i in range(3)] == [deck[0:5], deck[5:10], deck[10:15]]
    assert hand.dealer_cards == deck[15:20]
    assert hand.up_card == deck[19]
    assert hand.commitment == commitment("seed")
    # Antes of all boxes and the closed box's bet are placed before the deal.
    assert hand.balance == 1000 - hand_cost([10, 20, 5]) == 1000 - 35 - 10


def test_boxes_are_decided_in_order_and_the_third_plays_closed() -> None:
    hand = CasinoHand([10, 10, 10], 1000, seed_where(dealer_qualifies, [10, 10, 10]))
    assert hand.to_act == 0
    hand.bet()
    assert hand.to_act == 1
    hand.fold()
    # The third box needs no decision: the dealer shows his hand and the hand is settled.
    assert hand.is_over
    assert [r.outcome.value in ("win", "lose", "tie") for r in hand.results] == [True, False, True]
    assert hand.results[1].net == -10


def test_a_box_whose_bet_is_not_covered_may_only_fold() -> None:
    hand = CasinoHand([50, 50], 200, "x")  # 100 chips left after the antes
    assert hand.legal_actions()[:2] == (Fold(), Bet())
    assert not hand.can_buy_card()  # 50 for the buy would leave 50 < the bet of 100
    hand.bet()
    assert hand.balance == 0
    assert hand.legal_actions() == (Fold(),)
    with pytest.raises(IllegalActionError, match="needs 100 chips; the balance is 0"):
        hand.bet()


def test_one_exchange_per_box_then_bet_or_fold() -> None:
    hand = CasinoHand([10], 1000, "y")
    first = hand.box_cards(0)
    event = hand.change(first[:2])
    assert len(event.drawn) == 2 and not set(event.drawn) & set(first)
    assert hand.box_cards(0)[:3] == first[2:]
    assert hand.legal_actions() == (Fold(), Bet())
    with pytest.raises(IllegalActionError, match="one buy or change per box"):
        hand.buy_card()
    other = CasinoHand([10], 1000, "y")
    other.buy_card()
    assert len(other.box_cards(0)) == 6
    assert other.balance == 1000 - 10 - 10


def test_the_purchase_of_the_dealers_game() -> None:
    seed = seed_where(lambda h: not dealer_qualifies(h), [10, 10, 10])
    hand = CasinoHand([10, 10, 10], 1000, seed)
    hand.bet()
    hand.bet()
    assert hand.phase is Phase.PURCHASE and hand.to_act == 0
    assert hand.legal_actions() == (BuyDealer(), Decline())
    hand.buy_dealer()
    assert hand.to_act == 1
    hand.decline()
    assert hand.is_over
    draw = hand.view().dealer_draw
    assert draw is not None and draw.discard == max(hand.dealer_cards, key=lambda c: c.rank)
    bought, declined, closed = hand.results
    assert declined.outcome.value == "ante" and declined.net == 10
    # The third box cannot buy; it is paid as the dealer's original hand says.
    assert closed.outcome.value == "ante" and closed.net == 10
    assert bought.outcome.value in ("bet-back", "win", "lose", "tie")
    assert bought.costs == 10


def test_nobody_is_asked_to_buy_when_the_dealer_qualifies() -> None:
    hand = CasinoHand([10], 1000, seed_where(dealer_qualifies))
    hand.bet()
    assert hand.is_over and hand.view().dealer_draw is None


def _state(hand: CasinoHand) -> tuple[object, ...]:
    return (
        hand.view(),
        hand.events,
        hand.balance,
        [hand.box_cards(i) for i in range(len(hand.antes))],
    )


def test_illegal_decisions_change_nothing() -> None:
    hand = CasinoHand([10, 10, 10], 60, "z")  # 10 chips left: no bet, no buy
    before = _state(hand)
    for attempt, message in [
        (hand.bet, "needs 20 chips"),
        (hand.buy_card, "would not cover the bet"),
        (lambda: hand.change(hand.box_cards(0)[:1]), "would not cover the bet"),
        (hand.buy_dealer, "cannot buy the dealer's game now"),
        (hand.decline, "cannot decline"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            attempt()
        assert _state(hand) == before
    rich = CasinoHand([10], 1000, "z")
    before = _state(rich)
    for attempt, error, message in [
        (lambda: rich.change(hand.box_cards(1)[:1]), IllegalActionError, "is not in box 1"),
        (lambda: rich.change(()), InvalidInputError, "1 to 5 different cards"),
        (lambda: rich.change(["AS"]), InvalidInputError, "not a list of cards"),  # type: ignore[list-item]
        (lambda: rich.apply("raise"), InvalidInputError, "not a decision"),
        (lambda: rich.apply(42), InvalidInputError, "not a decision"),  # type: ignore[arg-type]
    ]:
        with pytest.raises(error, match=message):
            attempt()
        assert _state(rich) == before
    rich.fold()
    with pytest.raises(IllegalActionError, match="the hand is over"):
        rich.bet()


@pytest.mark.parametrize(
    ("antes", "balance", "error", "message"),
    [
        ([], 100, InvalidInputError, "1 to 3"),
        ([10] * 4, 100, InvalidInputError, "1 to 3"),
        ([0], 100, InvalidInputError, "antes\\[0\\]"),
        ([101], 1000, InvalidInputError, "antes\\[0\\]"),
        ([10, 10, 10], 49, IllegalActionError, "need 50 chips"),
        ([10], -1, InvalidInputError, "balance"),
        (10, 100, InvalidInputError, "not a list"),
    ],
)
def test_bad_hands_are_refused(antes: object, balance: int, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        CasinoHand(antes, balance, "s")  # type: ignore[arg-type]


def _play_randomly(hand: CasinoHand, rng: random.Random) -> None:
    """Random legal decisions to the end, checking the view at every step."""
    dealt: set[object] = set()
    for event in hand.events:
        dealt |= set(event.drawn)
    while not hand.is_over:
        _check_view(hand)
        action = rng.choice(hand.legal_actions())
        hand.apply(action)
    _check_view(hand)


def _check_view(hand: CasinoHand) -> None:
    """The view holds no undealt card, no box's cards before its turn, none of the
    dealer's hidden cards before he shows them, and no seed before the settlement."""
    view = hand.view()
    deck = shuffled_deck(hand.seed)
    boxes = len(hand.antes)
    drawn = {card for event in hand.events for card in event.drawn}
    for box in view.boxes:
        if box.cards is not None:
            assert set(box.cards) <= set(deck[: 5 * boxes]) | drawn
            if view.phase is Phase.DECIDE:
                assert view.to_act is not None and box.number <= view.to_act + 1
    if view.phase is Phase.DECIDE:
        assert view.dealer is None and view.seed is None
        shown = {c for box in view.boxes for c in box.cards or ()}
        assert not shown & set(hand.dealer_cards[:4])
    if view.seed is None:
        assert not hand.is_over


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(1, 100), min_size=1, max_size=3),
    st.integers(0, 2000),
    st.text(min_size=1, max_size=12).filter(str.isprintable),
    st.randoms(use_true_random=False),
)
def test_money_never_appears_or_disappears(
    antes: list[int], extra: int, seed: str, rng: random.Random
) -> None:
    balance = hand_cost(antes) + extra
    hand = CasinoHand(antes, balance, seed)
    _play_randomly(hand, rng)
    assert hand.balance - balance == sum(result.net for result in hand.results)
    assert hand.balance >= 0
    # Every card dealt in the hand is a different card.
    cards = [c for event in hand.events[:1] for box in event.action.boxes for c in box]  # type: ignore[union-attr]
    cards += [c for event in hand.events for c in event.drawn] + list(hand.dealer_cards)
    assert len(cards) == len(set(cards))
    # The record replays to the same hand and verifies.
    record = hand.to_record()
    assert verify_record(record)["final_balance"] == hand.balance


def test_a_record_that_was_tampered_with_fails() -> None:
    hand = CasinoHand([10, 10], 1000, "tamper")
    hand.apply("change " + str(hand.box_cards(0)[0]))
    hand.apply("bet")
    hand.apply("fold")
    while not hand.is_over:
        hand.apply(hand.legal_actions()[-1])
    record = hand.to_record()
    assert verify_record(record)["ok"] is True
    for field, value, message in [
        ("seed", "other", "commitment"),
        ("commitment", "0" * 64, "commitment"),
        ("dealer", ["2S", "3S", "4S", "5S", "7D"], "dealer"),
        ("results", [], "results"),
        ("final_balance", 5000, "final_balance"),
    ]:
        bad = copy.deepcopy(record)
        bad[field] = value
        with pytest.raises(InvalidInputError, match=message):
            verify_record(bad)


def test_an_unfinished_hand_replays_from_its_record() -> None:
    hand = CasinoHand([10, 10], 1000, "resume")
    hand.bet()
    record = hand.to_record()
    assert record["seed"] is None  # not revealed before the settlement
    again = replay_record(record, "resume")
    assert again.view() == hand.view() and again.events == hand.events


def test_actions_have_text_forms() -> None:
    hand = CasinoHand([10], 1000, "text")
    for action in hand.legal_actions():
        assert hand.legal_actions().count(action) == 1
        assert str(action).split()[0] in ("fold", "bet", "buy", "change")
    assert str(Change(hand.box_cards(0)[:2])).startswith("change ")
    assert str(BuyCard()) == "buy"
