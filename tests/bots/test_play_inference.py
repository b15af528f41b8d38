"""The learned play model: what it reads of the plays, its likelihoods, its training
command and file, and the expert whose worlds it weighs."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.heuristic import HeuristicBot
from raspisnoy.bots.inference import MODEL_PATH
from raspisnoy.bots.inference_training import (
    SelfPlay,
    choice_log_loss,
    fit_choices,
    play_design,
    self_play_plays,
)
from raspisnoy.bots.ismcts import world_pool
from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.bots.play_inference import (
    CARD,
    FROM_HERE,
    PLAY_FEATURES,
    PLAY_MODEL_PATH,
    SEAT,
    PlayModel,
    candidates,
    decision_row,
    past_plays,
    play_misfit,
    play_scores,
    shipped_play_model,
)
from raspisnoy.cli import app
from raspisnoy.core import PRESETS, Game, Phase, Play, View, resolve_rules
from raspisnoy.core.fast import mask_of


def _players(preset: str) -> int:
    rules = resolve_rules(preset)
    return 4 if 4 in rules.player_counts else rules.player_counts.start


def _views_of_plays(preset: str, seed: str) -> list[tuple[View, Play]]:
    """Every play of a game of heuristics, with the view it was chosen from."""
    game = Game(resolve_rules(preset), _players(preset), seed=seed)
    bot = HeuristicBot(seed=seed)
    plays = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = bot.act(view)
        if isinstance(action, Play):
            plays.append((view, action))
        game.apply(action, seat)
    return plays


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_candidates_are_the_standard_cards_the_engine_allowed(preset: str) -> None:
    for view, play in _views_of_plays(preset, f"candidates/{preset}"):
        row = decision_row(view, play)
        if row is None:  # a joker, or a play after one: the model weighs nothing there
            assert play.card.is_joker or any(p.card.is_joker for p in view.trick.plays)
            continue
        assert view.hand is not None
        allowed = {
            a.card.index for a in view.legal_actions if isinstance(a, Play) and not a.card.is_joker
        }
        legal = candidates(mask_of(view.hand), row)
        assert {i for i in range(52) if legal >> i & 1} == allowed
        assert legal >> play.card.index & 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_plays_read_later_are_the_plays_as_they_were_made(preset: str) -> None:
    """Every row ``past_plays`` gives a seat of a play of the round is the row the player
    had at the moment it played, and its hand now and the cards it played from then on
    are the hand it held then: what the model was trained on is what it is asked."""
    game = Game(resolve_rules(preset), _players(preset), seed=f"rows/{preset}")
    bot = HeuristicBot(seed=1)
    made: dict[tuple[int, int], tuple[list[int], int]] = {}  # (round, card): row, hand
    checked = 0
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view.phase is Phase.PLAY:
            hands = [mask_of(game.view(other).hand or ()) for other in range(view.players)]
            for row in past_plays(view):
                then, hand_then = made[view.round, int(row[CARD])]
                assert row[SEAT] != seat
                assert list(row[:FROM_HERE]) == then
                assert hands[row[SEAT]] | int(row[FROM_HERE]) == hand_then
                checked += 1
        action = bot.act(view)
        if isinstance(action, Play) and view.hand is not None:
            row = decision_row(view, action)
            if row is not None:
                made[view.round, action.card.index] = (list(row[:FROM_HERE]), mask_of(view.hand))
        game.apply(action, seat)
    assert checked > 0


def test_a_worlds_misfit_is_the_plays_negative_log_likelihood() -> None:
    """Between two worlds, ``play_misfit`` differs by what the model's distributions say:
    it leaves out only a term that is the same in every world."""
    model = shipped_play_model()
    rng = random.Random(5)
    tried = 0
    for view, _play in _views_of_plays("raspisnoy.com", "misfit")[::7]:
        rows = past_plays(view)
        if not len(rows) or view.seat is None:
            continue
        knowledge = Knowledge.from_view(view)
        scores = play_scores(rows, model.weights)
        worlds = [knowledge.sample(rng) for _ in range(2)]
        misfits, nlls = [], []
        for hands in worlds:
            assert hands is not None
            misfits.append(play_misfit(np.array(hands, dtype=np.int64), rows, scores))
            nlls.append(
                -sum(
                    math.log(
                        model.distribution(hands[row[SEAT]] | int(row[FROM_HERE]), row)[
                            int(row[CARD])
                        ]
                    )
                    for row in rows
                )
            )
        assert misfits[0] - misfits[1] == pytest.approx(nlls[0] - nlls[1], abs=1e-9)
        tried += 1
    assert tried >= 5


def test_the_worlds_weighed_by_the_plays_hold_only_what_the_plays_allow() -> None:
    rng = random.Random(3)
    model = shipped_play_model()
    for view, _play in _views_of_plays("raspisnoy.com", "worlds")[::11]:
        knowledge = Knowledge.from_view(view)
        worlds = world_pool(view, knowledge, 40, rng, play_model=model)
        assert len(worlds) == 40
        for world in worlds:
            for seat in range(view.players):
                hand = int(world[fs.HANDS + seat])
                assert hand & ~knowledge.allowed[seat] == 0  # never a card a void ruled out
                assert hand & knowledge.played == 0
                assert hand.bit_count() == view.hand_sizes[seat]


def test_the_shipped_model_believes_players_take_what_they_need() -> None:
    """A player that wants tricks is likelier to play a card that takes the trick, one
    that wants none likelier to play one that does not; and the file says how it was
    made."""
    model = shipped_play_model()
    weights = dict(zip(PLAY_FEATURES, model.weights, strict=True))
    assert weights["wins_taking"] > 0 > weights["wins_ducking"]
    assert model.command.startswith("raspisnoy train-inference ")
    assert "--model=plays" in model.command
    again = PlayModel.from_json(json.loads(json.dumps(model.to_json())))
    assert np.array_equal(again.weights, model.weights) and again.version == model.version


def test_a_model_file_of_another_format_is_refused() -> None:
    document = shipped_play_model().to_json()
    with pytest.raises(ValueError, match="format"):
        PlayModel.from_json({**document, "features": ["rank"]})


def test_a_fit_of_plays_explains_them_better_than_chance() -> None:
    rules = resolve_rules("raspisnoy.com")
    samples = self_play_plays(SelfPlay(3, "fit", rules, [4], ["heuristic"], 5))
    training = [sample for sample in samples if sample.game < 2]
    testing = play_design([sample for sample in samples if sample.game == 2])
    theta = fit_choices(play_design(training))
    assert choice_log_loss(theta, testing) < choice_log_loss(np.zeros_like(theta), testing) - 0.2


def test_the_play_training_command_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "plays.json"
    args = ["train-inference", "--model", "plays", "--games", "2", "--players", "3"]
    result = CliRunner().invoke(
        app, [*args, "--bidders", "heuristic", "--version", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["plays"]["training"] > 0 and report["plays"]["held_out"] > 0
    assert report["held_out_log_loss"]["learned"] < report["held_out_log_loss"]["uniform"]
    model = PlayModel.read(out)
    assert model.version == 3 and "--model=plays" in model.command


class _PlayInferringExpert(ExpertBot):
    play_inference = True


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_expert_weighing_plays_plays_a_whole_game_of_every_preset(preset: str) -> None:
    game = Game(resolve_rules(preset), _players(preset), seed=f"plays/{preset}")
    bots = [_PlayInferringExpert(seed=seat, iterations=30) for seat in range(_players(preset))]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)  # ``Bot.act`` rejects illegal
    assert len(game.rounds()) == len(game.plan)


def test_the_plays_change_what_the_expert_believes() -> None:
    """Weighed by the plays, the same decisions sometimes come out otherwise: the model is
    used (and only where there are plays of others to explain)."""
    plain = ExpertBot(seed=1, iterations=200)
    weighing = _PlayInferringExpert(seed=1, iterations=200)
    changed = 0
    for view, _play in _views_of_plays("raspisnoy.com", "beliefs")[:150]:
        if len(view.legal_actions) < 2:
            continue
        if not len(past_plays(view)):
            assert plain.act(view) == weighing.act(view)
        elif plain.act(view) != weighing.act(view):
            changed += 1
    assert changed > 0


def test_an_expert_names_the_learned_models_it_decides_with() -> None:
    """What a benchmark records of the weights it measured: none by default, the shipped
    files' documents when the expert uses them."""
    assert ExpertBot(seed=1).learned_models() == {}
    expert = _PlayInferringExpert(seed=1)
    expert.learned_inference = True
    models = expert.learned_models()
    assert models["play"] == json.loads(PLAY_MODEL_PATH.read_text(encoding="utf-8"))
    assert models["bid"] == json.loads(MODEL_PATH.read_text(encoding="utf-8"))
