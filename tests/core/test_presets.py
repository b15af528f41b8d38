"""The presets of docs/rules.md 2 and the scoring and plan options they are made of: each
option changes a score or a plan, and every preset plays whole games consistently."""

from __future__ import annotations

import random
from typing import Any

import pytest

from raspisnoy.core import (
    PRESETS,
    Game,
    InvalidInputError,
    RoundKind,
    dumps_record,
    game_to_record,
    loads_record,
    option_info,
    replay,
    replay_report,
    resolve_rules,
    round_plan,
    round_points,
)

NORMAL, BLIND, MISERE = RoundKind.NORMAL, RoundKind.BLIND, RoundKind.MISERE


def points(kind: RoundKind, bid: int | None, taken: int, cards: int = 9, **options: Any) -> int:
    return round_points(resolve_rules(**options), kind, bid, taken, cards=cards)


@pytest.mark.parametrize(
    ("options", "bid", "taken", "default", "changed"),
    [
        ({"exact_bonus": 50, "exact_per_trick": 50}, 2, 2, 20, 150),
        ({"bid_all_multiplier": 2}, 9, 9, 90, 180),
        ({"undertrick_counts": "bid"}, 3, 1, -20, -30),
        ({"overtrick_counts": "extra"}, 1, 4, 4, 3),
        ({"miss_scoring": "per_trick_taken"}, 1, 4, 4, 40),
        ({"miss_scoring": "per_trick_taken"}, 3, 1, -20, 10),
        ({"khishti_penalty": -200}, 2, 0, -20, -200),
        ({"exact_zero": 50}, 0, 0, 5, 50),
    ],
)
def test_scoring_option_changes_a_score(
    options: dict[str, Any], bid: int, taken: int, default: int, changed: int
) -> None:
    assert points(NORMAL, bid, taken) == default
    assert points(NORMAL, bid, taken, **options) == changed


def test_bid_all_multiplier_skips_one_card_deals() -> None:
    assert points(NORMAL, 1, 1, cards=1, bid_all_multiplier=2) == 10


def test_misere_all_tricks_and_round_multipliers() -> None:
    assert points(MISERE, None, 9) == -180
    assert points(MISERE, None, 9, misere_all_tricks=100) == 100
    assert points(BLIND, 2, 2, blind_percent=200) == 40
    # ×1.5 rounds half away from zero: -15 → -22.5 → -23; 5 → 7.5 → 8
    assert points(BLIND, 2, 1, cards=3, undertrick_per_trick=-15, blind_percent=150) == -23
    assert points(BLIND, 0, 0, blind_percent=150) == 8


def test_deal_sequences() -> None:
    def cards(**options: Any) -> list[int]:
        plan = round_plan(resolve_rules(special_rounds=(), **options), 4)
        return [spec.cards for spec in plan]

    up, down = list(range(1, 9)), list(range(8, 0, -1))
    assert cards() == [*up, 9, 9, 9, 9]
    assert cards(deal_sequence="classic") == [*up, 9, 9, 9, 9, *down]
    assert cards(deal_sequence="georgian") == [*up, 9, 9, 9, 9, *down, 9, 9, 9, 9]


def test_special_rounds_in_their_order() -> None:
    plan = round_plan(resolve_rules(special_rounds=("golden", "blind")), 3)
    assert [spec.kind for spec in plan[-6:]] == [RoundKind.GOLDEN] * 3 + [BLIND] * 3


def test_special_rounds_are_validated() -> None:
    with pytest.raises(InvalidInputError, match="special_rounds: 'normal'"):
        resolve_rules(special_rounds=("normal",))


def test_georgian_plan_is_the_rule_book_s() -> None:
    plan = round_plan(resolve_rules("georgian"), 4)
    assert len(plan) == 24
    assert all(spec.kind is NORMAL for spec in plan)


def test_player_counts_span_the_preset_range() -> None:
    assert list(resolve_rules().player_counts) == [3, 4, 5]
    assert list(resolve_rules("ukrainian").player_counts) == list(range(2, 11))


def test_presets_resolve_and_round_trip() -> None:
    assert set(PRESETS) == {"raspisnoy.com", "classic", "ukrainian", "georgian", "oh-hell"}
    for name in PRESETS:
        rules = resolve_rules(name)
        assert resolve_rules(rules.to_json()) == rules


PRESET_GAMES = [(name, n) for name in PRESETS for n in resolve_rules(name).player_counts]


@pytest.mark.parametrize(("preset", "players"), PRESET_GAMES)
def test_every_preset_plays_whole_games(preset: str, players: int) -> None:
    """Two random games per preset and player count: deals conserve cards, every trick
    has one winner, totals add up, and the record replays to the same report."""
    for seed in range(2):
        game = Game(preset, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        rounds = game.rounds()
        assert len(rounds) == len(game.plan)
        for result in rounds:
            dealt = [card for hand in result.hands for card in hand]
            assert len(dealt) == len(set(dealt)) == players * result.cards
            assert len(result.tricks) == result.cards == sum(result.taken)
            assert result.kind.has_bids == (result.bids is not None)
        points = [r.points for r in rounds if r.points is not None]
        assert len(points) == len(rounds)
        totals = [sum(p[seat] for p in points) for seat in range(players)]
        assert list(game.totals) == totals
        again = replay(loads_record(dumps_record(game_to_record(game))))
        assert replay_report(again) == replay_report(game)


# option -> (kind, bid, taken, cards, other options the case needs) where the option decides
# the points; every whole-number scoring option must appear here.
SCORING_CASES: dict[str, tuple[RoundKind, int | None, int, int, dict[str, object]]] = {
    "exact_per_trick": (NORMAL, 2, 2, 9, {}),
    "exact_bonus": (NORMAL, 2, 2, 9, {}),
    "exact_zero": (NORMAL, 0, 0, 9, {}),
    "bid_all_multiplier": (NORMAL, 3, 3, 3, {}),
    "undertrick_per_trick": (NORMAL, 3, 1, 9, {}),
    "overtrick_per_trick": (NORMAL, 1, 3, 9, {}),
    "miss_per_trick": (NORMAL, 1, 3, 9, {"miss_scoring": "per_trick_taken"}),
    "khishti_penalty": (NORMAL, 2, 0, 9, {}),
    "misere_zero": (MISERE, None, 0, 9, {}),
    "misere_per_trick": (MISERE, None, 2, 9, {}),
    "misere_all_tricks": (MISERE, None, 9, 9, {}),
    "golden_zero": (RoundKind.GOLDEN, None, 0, 9, {}),
    "golden_per_trick": (RoundKind.GOLDEN, None, 2, 9, {}),
    "forehead_exact": (RoundKind.FOREHEAD, 1, 1, 1, {}),
    "forehead_miss": (RoundKind.FOREHEAD, 1, 0, 1, {}),
    "percent_multiplier": (RoundKind.PERCENT, 2, 2, 4, {}),
    "blind_percent": (BLIND, 2, 2, 9, {}),
    "no_trump_percent": (RoundKind.NO_TRUMP, 2, 2, 9, {}),
    "misere_percent": (MISERE, None, 0, 9, {}),
    "golden_percent": (RoundKind.GOLDEN, None, 2, 9, {}),
}


NOT_SCORING = {
    "min_players",
    "max_players",
    "lowest_rank",
    "extra_jokers",
    "max_zero_bids_in_a_row",
}


def test_every_whole_number_scoring_option_has_a_case() -> None:
    numbers = {info.name for info in option_info() if info.type is int}
    assert numbers - NOT_SCORING == set(SCORING_CASES)


@pytest.mark.parametrize("option", SCORING_CASES)
def test_scoring_option_decides_the_points(option: str) -> None:
    kind, bid, taken, cards, needs = SCORING_CASES[option]
    default = getattr(resolve_rules(), option)
    changed = default + 7 if option != "bid_all_multiplier" else 3
    before = points(kind, bid, taken, cards, **needs)
    after = points(kind, bid, taken, cards, **needs, **{option: changed})
    assert before != after
