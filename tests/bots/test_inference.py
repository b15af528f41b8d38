"""The learned bid model: its training command, its file, its distributions, and the
expert that keeps its worlds by it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import position
from typer.testing import CliRunner

from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.inference import (
    MODEL_PATH,
    BidContext,
    BidModel,
    bid_contexts,
    shipped_model,
)
from raspisnoy.bots.inference_training import (
    BidSample,
    fit,
    gaussian_weights,
    log_loss,
)
from raspisnoy.cli import app
from raspisnoy.core import PRESETS, Game

#: A whole hand drawn from the 36-card deck (6 to ace) and the jokers.
_DECK = [suit * 13 + rank for suit in range(4) for rank in range(4, 13)] + [52]


@st.composite
def _bids(draw: st.DrawFn) -> tuple[int, int, BidContext]:
    """A hand, a trump (-1: none) and a bidder's context of a round of its size."""
    cards = draw(st.integers(1, 12))
    hand = sum(1 << card for card in draw(st.permutations(_DECK))[:cards])
    players = draw(st.integers(3, 5))
    position = draw(st.integers(0, players - 1))
    earlier = draw(st.integers(0, cards * position))
    last = position == players - 1
    forbidden = cards - earlier if last and earlier <= cards else -1
    trump = draw(st.integers(-1, 3))
    return hand, trump, BidContext(cards, players, earlier, position, forbidden, trump < 0)


@settings(max_examples=200, deadline=None)
@given(_bids())
def test_the_shipped_model_gives_every_bid_a_probability(bid: tuple[int, int, BidContext]) -> None:
    hand, trump, context = bid
    p = shipped_model().distribution(hand, trump, context)
    assert p.shape == (context.cards + 1,)
    assert (p >= 0).all()
    assert float(p.sum()) == pytest.approx(1.0)
    if context.forbidden >= 0:
        assert p[context.forbidden] == 0.0


def test_the_shipped_model_says_how_it_was_made() -> None:
    assert MODEL_PATH.stat().st_size < 8_000
    model = shipped_model()
    assert model.version >= 1
    assert model.command.startswith("raspisnoy train-inference ")
    again = BidModel.from_json(model.to_json())
    assert (again.version, again.command) == (model.version, model.command)
    assert np.array_equal(again.weights, model.weights)
    with pytest.raises(ValueError, match="format"):
        BidModel.from_json({**model.to_json(), "features": ["bias"]})


def test_the_model_believes_a_strong_hand_bids_high() -> None:
    # The ace, king and queen of trumps and the joker in 4 cards: the model must expect
    # more tricks of it than of four small side cards.
    context = BidContext(4, 4, 0, 0, -1, no_trump=False)
    strong = (1 << 12) | (1 << 11) | (1 << 10) | (1 << 52)
    weak = (1 << 17) | (1 << 18) | (1 << 30) | (1 << 43)
    expected = [
        float(shipped_model().distribution(hand, 0, context) @ np.arange(5))
        for hand in (strong, weak)
    ]
    assert expected[0] > expected[1] + 1.5


def _synthetic(count: int, seed: int) -> list[BidSample]:
    """Bids drawn from the Gaussian model, in the learned model's form, on random hands."""
    rng = random.Random(seed)
    truth = BidModel(gaussian_weights(0.8), 0, "")
    samples = []
    for number in range(count):
        cards = rng.randint(1, 9)
        hand = sum(1 << card for card in rng.sample(_DECK, cards))
        context = BidContext(cards, 4, 0, 0, -1, no_trump=False)
        p = truth.distribution(hand, 1, context)
        bid = rng.choices(range(cards + 1), weights=list(p))[0]
        samples.append(BidSample(number, hand, 1, context, bid))
    return samples


def test_a_fit_recovers_the_model_its_bids_were_drawn_from() -> None:
    training, testing = _synthetic(3000, 1), _synthetic(1000, 2)
    fitted = fit(training)
    truth, uniform = gaussian_weights(0.8), np.zeros_like(fitted)
    assert log_loss(fitted, testing) == pytest.approx(log_loss(truth, testing), abs=0.03)
    assert log_loss(fitted, testing) < log_loss(uniform, testing) - 0.3


def test_the_training_command_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "model.json"
    args = ["train-inference", "--games", "2", "--players", "3", "--iterations", "5"]
    result = CliRunner().invoke(app, [*args, "--version", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["bids"]["training"] > 0 and report["bids"]["held_out"] > 0
    model = BidModel.read(out)
    assert model.version == 7
    assert "--games=2" in model.command
    context = BidContext(3, 3, 1, 1, -1, no_trump=False)
    assert float(model.distribution(0b111, 0, context).sum()) == pytest.approx(1.0)


def test_contexts_follow_the_bidding_order() -> None:
    # Dealer 2: seat 3 bids first, then 0, 1, and the dealer last under its constraint.
    view = position(
        ["AH KH 7C 8D", "6S 8S 9S TS", "TC JC QC KC", "AS KS QS JS"],
        "6H",
        dealer=2,
        actions="4 0 1",
    )
    contexts = bid_contexts(view)
    assert [c.position if c else None for c in contexts] == [1, 2, 3, 0]
    assert [c.earlier if c else None for c in contexts] == [4, 4, 5, 0]
    assert contexts[2] is not None and contexts[2].forbidden == -1  # 5 bid of 4 cards
    assert [c.forbidden if c else None for c in contexts[:2]] == [-1, -1]


class _LearnedExpert(ExpertBot):
    learned_inference = True


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_learned_expert_plays_a_whole_game_of_every_preset(preset: str) -> None:
    rules = Game(preset, 4).rules
    players = 4 if 4 in rules.player_counts else rules.player_counts.start
    game = Game(rules, players, seed=f"learned/{preset}")
    bots = [_LearnedExpert(seed=seat, iterations=30) for seat in range(players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)  # ``Bot.act`` rejects illegal
    assert len(game.rounds()) == len(game.plan)
