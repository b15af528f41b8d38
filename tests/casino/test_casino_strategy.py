"""The strategy table: it loads, answers every decision the engine asks with a legal
one, plays whole hands exactly as the engine settles them, agrees with the advisor
where the advisor's choice is clear, and is built the same way from the same seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from casino_helpers import cards
from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.casino import (
    BuyDealer,
    CasinoHand,
    Phase,
    hand_key,
    parse_action,
    ranking,
    shuffled_deck,
)
from raspisnoy.casino_advisor.advisor import advise
from raspisnoy.casino_advisor.strategy import (
    MAX_PAYS,
    RULES,
    STRATEGY_FORMAT,
    Strategy,
    build_table,
    exact_values,
    kinds,
    load_strategy,
    option_of,
    sample_positions,
)
from raspisnoy.core import InvalidInputError

TABLE = Path(__file__).parents[2] / "src/raspisnoy/casino_advisor/data/strategy.json"


def test_the_table_loads_and_is_small() -> None:
    strategy = load_strategy()
    assert TABLE.stat().st_size < 2_000_000
    assert Strategy.from_json(strategy.to_json()) == strategy
    assert len(strategy.thresholds) == 13
    assert all(len(row) == MAX_PAYS + 1 for row in strategy.thresholds)
    # After an exchange no hand without a combination bets, and every pair does.
    lowest_pair = hand_key(cards("2S 2H 3D 4C 5S"))
    for up in range(13):
        assert not strategy.bets(ranking.QUALIFYING_KEY - 1, 0, up)
        assert strategy.bets(lowest_pair, 1, up)
    assert all(rule in RULES for _count, ranking in strategy.rankings.values() for rule in ranking)
    with pytest.raises(InvalidInputError, match="format"):
        Strategy.from_json({"format": "other"})


def test_every_kind_of_hand_has_a_ranking() -> None:
    """The coarsest kind of every combination is in the table, so ``ranking`` answers
    every decision point; and every ranking holds fold, which is always legal."""
    strategy = load_strategy()
    for category in range(11):
        assert f"c{category}" in strategy.rankings
    for _count, options in strategy.rankings.values():
        assert "fold" in options


def test_the_rules_name_the_advisors_options() -> None:
    box = [card.index for card in cards("AS AH KD 8C 9S")]
    assert option_of("paired", box) == "change KD 8C 9S"
    assert option_of("paired+1", box) == "change 8C 9S"
    assert option_of("top2", box) is None  # a pair: "top" applies to five ranks only
    flush = [card.index for card in cards("AS 9S 7S 4S 2D")]
    assert option_of("flush4", flush) == "change 2D"
    straight = [card.index for card in cards("9S 8D 7C 6H 2D")]
    assert option_of("straight4", straight) == "change 2D"
    wheel = [card.index for card in cards("AS 2D 3C 4H 9D")]
    assert option_of("straight4", wheel) == "change 9D"
    assert kinds(straight, cards("KS")[0].index)[-1] == "c0"


@settings(max_examples=60, deadline=None)
@given(
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=12),
    ante=st.integers(1, 5),
    spare=st.integers(0, 5),
)
def test_every_decision_is_legal_in_the_engine(seed: str, ante: int, spare: int) -> None:
    """A hand dealt by the engine with little money or plenty, played to the end with
    the strategy: each decision is one the engine lists as legal at that point."""
    strategy = load_strategy()
    hand = CasinoHand([ante], ante + spare * ante, seed)
    decided = False
    while not hand.is_over:
        legal = hand.legal_actions()
        money = hand.balance / ante  # antes on hand
        if hand.phase is Phase.PURCHASE:
            view = hand.view()
            assert view.dealer is not None
            decision = strategy.purchase(hand.box_cards(0), view.dealer, money=money)
        elif decided:  # after a buy or a change
            decision = strategy.after_exchange(hand.box_cards(0), hand.up_card, money)
        else:
            decision = strategy.decide(hand.box_cards(0), hand.up_card, money)
            decided = True
        assert parse_action(decision) in legal, (decision, legal)
        hand.apply(decision)


@pytest.mark.parametrize("number", range(40))
def test_play_settles_as_the_engine_does(number: int) -> None:
    """``Strategy.play`` (the benchmark's fast path) against the engine: the same deck,
    the same decisions, the same net."""
    strategy = load_strategy()
    seed = f"strategy/{number}"
    hand = CasinoHand([1], 100, seed)
    first = hand.box_cards(0)
    decision = strategy.decide(first, hand.up_card)
    hand.apply(decision)
    if hand.phase is Phase.DECIDE:
        hand.apply(strategy.after_exchange(hand.box_cards(0), hand.up_card))
    if hand.phase is Phase.PURCHASE:
        view = hand.view()
        assert view.dealer is not None
        seen = [card for card in first if card not in hand.box_cards(0)]
        hand.apply(strategy.purchase(hand.box_cards(0), view.dealer, seen))
    played = strategy.play([card.index for card in shuffled_deck(seed)])
    assert (played.net, played.outcome) == (hand.results[0].net, hand.results[0].outcome)
    assert played.bought == any(isinstance(e.action, BuyDealer) for e in hand.events)
    assert option_of(played.rule, [card.index for card in first]) == decision


# Clear-cut decision points: the advisor's best option is worth at least 0.1 ante more
# than any other it lists, beyond their sampling errors (checked here; one round of
# sampling, no CPU budget, so that the check is the same on any machine).
CLEAR = [
    ("AS KS QS JS TS", "4D"),  # a royal flush
    ("8C 8D 8H 8S 2C", "JD"),  # four eights
    ("QH QD 9C 5S 2H", "7D"),  # a pair of queens
    ("AD KC 8S 6H 4C", "2D"),  # ace-king
    ("7C 5D 3H 2S 9D", "AH"),  # nothing against an ace
]


@pytest.mark.parametrize(("box", "up"), CLEAR)
def test_clear_decisions_agree_with_the_advisor(box: str, up: str) -> None:
    hand, dealer_up = cards(box), cards(up)[0]
    advice = advise(hand, dealer_up, seed=1, budget_s=0.0)
    best, runner_up = advice.options[0], advice.options[1]
    assert best.value - best.error > runner_up.value + runner_up.error + 0.1
    assert load_strategy().decide(hand, dealer_up) == best.option


def test_the_builder_is_deterministic() -> None:
    """The same seed deals the same positions, and the exact values (no sampling, no
    seed) are the same every time, hence the same table."""
    assert sample_positions(40, 3) == sample_positions(40, 3)
    assert sample_positions(40, 3) != sample_positions(40, 4)
    positions = sample_positions(2, 5)
    thresholds = load_strategy().thresholds
    cheap = ("fold", "bet", "buy", "paired+2", "top4", "flush4")
    tables = [
        build_table(positions, [exact_values(p, cheap) for p in positions], thresholds)
        for _ in range(2)
    ]
    assert tables[0] == tables[1]
    assert tables[0].to_json()["format"] == STRATEGY_FORMAT
    assert all(kind in tables[0].rankings for p in positions for kind in kinds(*p))
