"""Hand evaluation: the examples of the rules (docs/casino.md), and Hypothesis properties
against a brute-force reference written independently here."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from casino_helpers import cards
from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.casino import DECK, Card, Combination, compare, evaluate, hand_key
from raspisnoy.core import InvalidInputError

C = Combination


# ----------------------------------------------------------------- the examples


@pytest.mark.parametrize(
    ("text", "first", "second", "pays"),
    [
        # The second-combination examples of docs/casino.md.
        ("AS AH KD 8C 9S", C.ONE_PAIR, C.ACE_KING, 2),
        ("2S 2H AD KC 9S", C.ONE_PAIR, C.ACE_KING, 2),
        ("AS AH AD AC 7S 7H", C.FOUR_OF_A_KIND, C.FULL_HOUSE, 27),
        ("AS KH QD JC TS 9S", C.STRAIGHT, C.STRAIGHT, 8),
        ("AS KS QS JS TS 9S", C.ROYAL_FLUSH, C.STRAIGHT_FLUSH, 150),
        ("AS AH AD AC 9S", C.FOUR_OF_A_KIND, None, 20),
        # The source's hand examples.
        ("QS QH QD QC 8S 8H", C.FOUR_OF_A_KIND, C.FULL_HOUSE, 27),
        ("6S 6H 6D KC KS", C.FULL_HOUSE, None, 7),
        ("9S 9H 9D QC 4S", C.THREE_OF_A_KIND, None, 3),
        ("AS AH 5D 5C TS", C.TWO_PAIRS, None, 2),
        ("8S 8H KD 4C 2S", C.ONE_PAIR, None, 1),
        ("AS KH 8D 7C 3S", C.ACE_KING, None, 1),
        ("JS TH 7D 5C 2S", C.NO_HAND, None, 0),
        ("5S 4H 3D 2C AS", C.STRAIGHT, None, 4),
        ("3S 2H AD KC QS", C.ACE_KING, None, 1),
        ("KS QS JS TS 9S", C.STRAIGHT_FLUSH, None, 50),
        ("AH KH QH JH TH", C.ROYAL_FLUSH, None, 100),
        ("AS 9S 7S 4S 2S", C.FLUSH, None, 5),
        # Ace-king beside a paired rank counts; inside two pairs of aces and kings it does not.
        ("AS AH AD KC 9S", C.THREE_OF_A_KIND, C.ACE_KING, 4),
        ("AS AH KD KC 9S", C.TWO_PAIRS, None, 2),
        ("AS AH 5D 5C KS", C.TWO_PAIRS, C.ACE_KING, 3),
        ("KS KH KD KC AS", C.FOUR_OF_A_KIND, C.ACE_KING, 21),
        # Six cards: a second pair, a second flush, trips over trips.
        ("AS AH KD KC QS QH", C.TWO_PAIRS, C.TWO_PAIRS, 4),
        ("AS 9S 7S 4S 2S 3S", C.FLUSH, C.FLUSH, 10),
        ("KS KH KD AS AH AC", C.FULL_HOUSE, C.FULL_HOUSE, 14),
        # The best hand taken the way that pays more: either 9 in the straight.
        ("9S TD JC QS KS 9H", C.STRAIGHT, C.STRAIGHT, 8),
    ],
)
def test_combinations_and_pays(
    text: str, first: Combination, second: Combination | None, pays: int
) -> None:
    evaluation = evaluate(cards(text))
    assert (evaluation.combination, evaluation.second, evaluation.pays) == (first, second, pays)


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        # The source's comparison examples.
        ("5S 5H 4D 3C 2S", "4S 4H AD KC QS"),
        ("5S 5H QD 3C 2S", "5D 5C JD TC 9S"),
        ("AS AH 2D 2C 3S", "KS KH QD QC AH"),
        ("KS QH JD TC 9S", "5S 4H 3D 2C AS"),
        ("AS KH QD JC TS", "KS QH JD TC 9H"),
        ("3S 3H 3D 2C 2S", "2S 2H 2D AC AH"),
        # Ace-king compares card by card like no hand, and beats it.
        ("AS KH 8D 7C 4S", "AS KH 8D 7C 3S"),
        ("AS KH 3D 4C 2S", "AS QH JD 9C 8S"),
    ],
)
def test_comparison_examples(higher: str, lower: str) -> None:
    assert compare(cards(higher), cards(lower)) == 1
    assert compare(cards(lower), cards(higher)) == -1


def test_suits_never_break_ties() -> None:
    assert compare(cards("AH KH QH JH TH"), cards("AC KC QC JC TC")) == 0
    assert compare(cards("8S 8H KD 4C 2S"), cards("8D 8C KS 4H 2D")) == 0


def test_the_strongest_five_of_six_count() -> None:
    # Q-Q-Q-Q-8-8: the last eight does not count in the comparison.
    assert hand_key(cards("QS QH QD QC 8S 8H")) == hand_key(cards("QS QH QD QC 8S"))


def test_wrong_cards_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="appears twice"):
        evaluate((*cards("AS KD 8C 9S"), Card.parse("AS")))
    with pytest.raises(InvalidInputError, match="4 cards given"):
        evaluate(cards("AS KD 8C 9S"))
    with pytest.raises(InvalidInputError, match="52-card deck"):
        evaluate((*cards("AS KD 8C 9S"), Card.parse("X")))


# ----------------------------------------------------------------- a brute-force reference

STRAIGHTS = [list(range(top, top - 5, -1)) for top in range(14, 5, -1)] + [[5, 4, 3, 2, 14]]
PAYS = {
    "royal-flush": 100,
    "straight-flush": 50,
    "four-of-a-kind": 20,
    "full-house": 7,
    "flush": 5,
    "straight": 4,
    "three-of-a-kind": 3,
    "two-pairs": 2,
    "one-pair": 1,
    "ace-king": 1,
}


def reference_rank(hand: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    """Poker order of five cards, from counting ranks: (category, ranks that decide)."""
    ranks = sorted((card.rank for card in hand), reverse=True)
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card.suit for card in hand}) == 1
    straight = next((s for s in STRAIGHTS if sorted(s) == sorted(ranks)), None)
    if straight and flush:
        return (10 if straight[0] == 14 else 9, (straight[0],))
    if shape == [4, 1]:
        return 8, tuple(by_count)
    if shape == [3, 2]:
        return 7, tuple(by_count)
    if flush:
        return 6, tuple(ranks)
    if straight:
        return 5, (straight[0],)
    if shape == [3, 1, 1]:
        return 4, tuple(by_count)
    if shape == [2, 2, 1]:
        return 3, tuple(by_count)
    if shape == [2, 1, 1, 1]:
        return 2, tuple(by_count)
    return (1 if 14 in ranks and 13 in ranks else 0), tuple(ranks)


def pure_combinations(hand: tuple[Card, ...]) -> list[tuple[str, frozenset[Card]]]:
    """Every combination in ``hand`` with exactly its defining cards."""
    found = []
    for size in (2, 3, 4, 5):
        for group in itertools.combinations(hand, size):
            ranks = Counter(card.rank for card in group)
            name = None
            if size == 2 and len(ranks) == 1:
                name = "one-pair"
            elif size == 2 and set(ranks) == {14, 13}:
                name = "ace-king"
            elif size == 3 and len(ranks) == 1:
                name = "three-of-a-kind"
            elif size == 4 and len(ranks) == 1:
                name = "four-of-a-kind"
            elif size == 4 and sorted(ranks.values()) == [2, 2]:
                name = "two-pairs"
            elif size == 5:
                category = reference_rank(group)[0]
                name = {5: "straight", 6: "flush", 7: "full-house", 9: "straight-flush"}.get(
                    category, "royal-flush" if category == 10 else None
                )
            if name:
                found.append((name, frozenset(group)))
    return found


def reference_pays(hand: tuple[Card, ...]) -> int:
    """The second combination (docs/casino.md) by brute force: the best five, its
    defining cards each way it can be taken, the best-paying combination with a card
    outside them."""
    fives = list(itertools.combinations(hand, 5))
    best = max(reference_rank(five) for five in fives)
    if best[0] == 0:
        return 0
    names = ["no-hand", "ace-king", "one-pair", "two-pairs", "three-of-a-kind", "straight"]
    names += ["flush", "full-house", "four-of-a-kind", "straight-flush", "royal-flush"]
    first = names[best[0]]
    totals = []
    for five in fives:
        if reference_rank(five) != best:
            continue
        defining = max((group for name, group in pure_combinations(five) if name == first), key=len)
        seconds = [PAYS[name] for name, group in pure_combinations(hand) if group - defining]
        totals.append(PAYS[first] + max(seconds, default=0))
    return max(totals)


hands = st.integers(5, 6).flatmap(
    lambda size: st.lists(st.sampled_from(DECK), min_size=size, max_size=size, unique=True)
)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_evaluation_matches_brute_force(hand: list[Card]) -> None:
    evaluation = evaluate(hand)
    five_keys = [hand_key(five) for five in itertools.combinations(hand, 5)]
    assert evaluation.key == max(five_keys)
    best = max(reference_rank(five) for five in itertools.combinations(hand, 5))
    assert evaluation.combination == min(best[0], 10)
    assert evaluation.pays == reference_pays(tuple(hand))
    assert evaluation.qualifies == (best[0] >= 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
def test_keys_order_like_the_reference(ten: list[Card]) -> None:
    a, b = tuple(ten[:5]), tuple(ten[5:])
    expected = (reference_rank(a) > reference_rank(b)) - (reference_rank(a) < reference_rank(b))
    assert compare(a, b) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True), min_size=3, max_size=3
    )
)
def test_comparison_is_a_total_preorder(three: list[list[Card]]) -> None:
    a, b, c = three
    # Total: exactly one of <, =, > and antisymmetric; transitive.
    assert compare(a, b) == -compare(b, a)
    assert compare(a, a) == 0
    if compare(a, b) >= 0 and compare(b, c) >= 0:
        assert compare(a, c) >= 0


@settings(max_examples=300, deadline=None)
@given(hands)
def test_the_second_never_reuses_all_of_the_first(hand: list[Card]) -> None:
    evaluation = evaluate(hand)
    if evaluation.second is None:
        return
    # Some way of taking the best hand leaves a second combination of that name with a
    # defining card outside the first's defining cards.
    first = str(evaluation.combination)
    witnesses = []
    for five in itertools.combinations(hand, 5):
        if hand_key(five) != evaluation.key:
            continue
        defining = max((g for n, g in pure_combinations(five) if n == first), key=len)
        witnesses += [
            group
            for name, group in pure_combinations(tuple(hand))
            if name == str(evaluation.second) and group - defining
        ]
    assert witnesses


@pytest.mark.parametrize(
    ("ranks", "suits"),
    [("AKQ5", "SHDC"), ("AKQJT5", "SHD")],
    ids=["quads-and-pairs", "straights-and-flushes"],
)
def test_every_five_card_hand_of_a_small_deck_pays_as_the_brute_force(
    ranks: str, suits: str
) -> None:
    """Five cards take a shortcut to their second combination (ace-king or none): every
    hand of two small decks, rich in quads, full houses, two pairs with and without
    ace-king, straights and flushes, against the brute force."""
    deck = [Card.parse(rank + suit) for rank in ranks for suit in suits]
    for hand in itertools.combinations(deck, 5):
        evaluation = evaluate(hand)
        assert evaluation.pays == reference_pays(hand), hand
        assert evaluation.second in (None, Combination.ACE_KING)
        paid_first = evaluation.combination.pays
        assert (evaluation.second is not None) == (evaluation.pays > paid_first), hand
