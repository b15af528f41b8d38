"""Fitting the bid model of ``raspisnoy.bots.inference`` to the bots' own bids, and the
play model of ``raspisnoy.bots.play_inference`` to their plays.

The data is generated, never downloaded: seeded games in which every bid is made by one
of the named bidders (the expert at a fixed number of search iterations, the heuristic,
...; seats take turns at each, game by game); every card, every bid of a round not
modelled (a blind bid) and every choice of a control round is made at random: none of
them changes anything a modelled bid depends on (the hand, the round and the bids
before it), and a random choice costs next to nothing. Each bid of a modelled kind of
round gives one sample: the bidder's hand, its ``BidContext`` and the bid. The model's
negative log-likelihood is convex in its weights, so a few steps of Newton's method
(with a small ridge) fit it exactly.

The plays' data (``self_play_plays``) comes from games played whole by the named bots,
since a card played at random would teach the model nothing of how a player chooses:
each play of a standard card (before any joker in its trick) gives one sample, the
standard cards the player could have played and the one it did. Both models are
conditional logits (a choice among candidates scored by ``t · θ``), fitted alike
(``fit_choices``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from raspisnoy.bots import make_bot
from raspisnoy.bots.base import Bot
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.inference import (
    BASIS,
    FEATURES,
    BidContext,
    Floats,
    bid_contexts,
    hand_features,
)
from raspisnoy.bots.play_inference import PLAY_FEATURES, candidates, decision_row, play_features
from raspisnoy.core import Bid, Game, Phase, Play, Rules, View
from raspisnoy.core.fast import mask_of

__all__ = [
    "BidSample",
    "Choices",
    "PlaySample",
    "SelfPlay",
    "choice_log_loss",
    "fit",
    "fit_choices",
    "gaussian_weights",
    "log_loss",
    "play_design",
    "self_play_bids",
    "self_play_plays",
]

#: A time budget no decision reaches: the expert's iterations end every search.
_OUT_OF_REACH_MS = 10.0**7
#: The ridge, per sample: keeps weights of features that never vary (a preset without
#: jokers) at 0 and Newton's steps well posed.
_RIDGE = 1e-4
_NEWTON_STEPS = 50
_CHUNK = 4096


@dataclass(frozen=True, slots=True)
class BidSample:
    """One bid made in self-play game number ``game``: the bidder's whole ``hand`` (bit
    mask), the round's ``trump`` (-1: none), what else it knew (``context``) and its
    ``bid``."""

    game: int
    hand: int
    trump: int
    context: BidContext
    bid: int


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """Seeded self-play games to learn from: game g of ``games`` has
    ``players[g % len(players)]`` seats, seat s played by ``bots[(s + g) % len(bots)]``
    (the expert at ``iterations`` a decision), by ``rules``."""

    games: int
    seed: str
    rules: Rules
    players: Sequence[int]
    bots: Sequence[str]
    iterations: int

    def tables(self) -> Iterator[tuple[int, Game, list[Bot]]]:
        """Each game's number, the game at its start and its seats' bots."""
        for number in range(self.games):
            count = self.players[number % len(self.players)]
            deal = f"{self.seed}/{number}"
            seated = [
                _bot(self.bots[(seat + number) % len(self.bots)], f"{deal}/{seat}", self.iterations)
                for seat in range(count)
            ]
            yield number, Game(self.rules, count, seed=deal), seated


def self_play_bids(
    games: SelfPlay, on_game: Callable[[int], None] = lambda _: None
) -> list[BidSample]:
    """The bids of the ``games``' bots: every card, every bid of a round not modelled and
    every choice of a control round is made at random instead (the module docstring);
    ``on_game`` is called after each game with its number."""
    samples: list[BidSample] = []
    for number, game, bidding in games.tables():
        rng = random.Random(f"{games.seed}/{number}")
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            if game.phase is not Phase.BID:
                game.apply(rng.choice(game.legal_actions()), seat)
                continue
            view = game.view(seat)
            context = bid_contexts(view)[seat]
            if context is None or view.hand is None:  # not modelled: any bid will do
                game.apply(rng.choice(game.legal_actions()), seat)
                continue
            action = bidding[seat].act(view)
            if isinstance(action, Bid):
                trump = -1 if view.trump is None else int(view.trump)
                samples.append(BidSample(number, mask_of(view.hand), trump, context, action.amount))
            game.apply(action, seat)
        on_game(number)
    return samples


@dataclass(frozen=True, slots=True)
class PlaySample:
    """One play made in self-play game number ``game``: the features at that moment of
    each standard card the player could have played (``features``, a row per card in
    card order) and the place of the card played among them (``chosen``)."""

    game: int
    features: Floats
    chosen: int


def self_play_plays(
    games: SelfPlay, on_game: Callable[[int], None] = lambda _: None
) -> list[PlaySample]:
    """The plays of the ``games``, played whole by their bots; ``on_game`` is called
    after each game with its number."""
    samples: list[PlaySample] = []
    for number, game, seats in games.tables():
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            action = seats[seat].act(view)
            if isinstance(action, Play) and view.hand is not None:
                sample = _play_sample(number, view, action)
                if sample is not None:
                    samples.append(sample)
            game.apply(action, seat)
        on_game(number)
    return samples


def _play_sample(game: int, view: View, play: Play) -> PlaySample | None:
    """The sample of ``play`` by the seat of ``view``; ``None`` where the model weighs
    nothing (a joker, a play after one) or there was no choice."""
    row = decision_row(view, play)
    assert view.hand is not None
    if row is None:
        return None
    legal = candidates(mask_of(view.hand), row)
    cards = [index for index in range(52) if legal >> index & 1]
    if len(cards) < 2:
        return None
    features = np.empty((len(cards), len(PLAY_FEATURES)))
    for i, card in enumerate(cards):
        play_features(card, row, features[i])
    return PlaySample(game, features, cards.index(play.card.index))


def play_design(samples: Sequence[PlaySample]) -> Choices:
    """The play samples as a conditional logit's arrays."""
    most = max(sample.features.shape[0] for sample in samples)
    t = np.zeros((len(samples), most, len(PLAY_FEATURES)))
    allowed = np.zeros((len(samples), most), dtype=np.bool_)
    for i, sample in enumerate(samples):
        count = sample.features.shape[0]
        t[i, :count] = sample.features
        allowed[i, :count] = True
    chosen = np.array([sample.chosen for sample in samples], dtype=np.int64)
    return Choices(t, allowed, chosen)


def _bot(name: str, seed: str, iterations: int) -> Bot:
    if name == ExpertBot.name:
        return ExpertBot(seed, time_ms=_OUT_OF_REACH_MS, iterations=iterations)
    return make_bot(name, seed=seed)


@dataclass(frozen=True, slots=True)
class Choices:
    """Samples of a choice among candidates, as arrays for a conditional logit: each
    candidate's sufficient statistic ``t`` (N × C × D: its score is ``t · θ``), which
    candidates there were (N × C) and the one chosen (N). The bid model's candidates are
    the bids (t = φ(b) ⊗ x), the play model's the cards that could have been played."""

    t: Floats
    allowed: npt.NDArray[np.bool_]
    chosen: npt.NDArray[np.int64]


def _design(samples: Sequence[BidSample]) -> Choices:
    most = max(sample.context.cards for sample in samples) + 1
    x = np.empty((len(samples), len(FEATURES)))
    phi = np.zeros((len(samples), most, len(BASIS)))
    allowed = np.zeros((len(samples), most), dtype=np.bool_)
    bid = np.arange(most, dtype=np.float64)
    for i, sample in enumerate(samples):
        x[i] = sample.context.vector()
        hand_features(sample.hand, sample.trump, x[i])
        cards = sample.context.cards
        phi[i, :, 0] = bid
        phi[i, :, 1] = bid * bid
        phi[i, 0, 2] = 1.0
        phi[i, cards, 3] = 1.0
        allowed[i, : cards + 1] = True
        if sample.context.forbidden >= 0:
            allowed[i, sample.context.forbidden] = False
    bids = np.array([sample.bid for sample in samples], dtype=np.int64)
    t = np.einsum("nbj,nf->nbjf", phi, x).reshape(len(samples), most, -1)
    return Choices(t, allowed, bids)


def _probabilities(theta: Floats, design: Choices, rows: slice) -> Floats:
    """P(candidate) for every sample of ``rows`` and every candidate (0 where none)."""
    logits = design.t[rows] @ theta
    logits = np.where(design.allowed[rows], logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p: Floats = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return p


def log_loss(weights: Floats, samples: Sequence[BidSample]) -> float:
    """The mean negative log-likelihood (nats) of the samples' bids under ``weights``."""
    return choice_log_loss(weights.reshape(-1), _design(samples))


def choice_log_loss(theta: Floats, design: Choices) -> float:
    """The mean negative log-likelihood (nats) of the choices made under ``theta``."""
    return _log_loss(theta, design) / len(design.chosen)


def _log_loss(theta: Floats, design: Choices) -> float:
    total = 0.0
    for start in range(0, design.chosen.shape[0], _CHUNK):
        rows = slice(start, start + _CHUNK)
        p = _probabilities(theta, design, rows)
        total -= float(np.log(p[np.arange(p.shape[0]), design.chosen[rows]]).sum())
    return total


def gaussian_weights(sigma: float = 1.0) -> Floats:
    """The hand-made model in the learned one's terms: log P(b) = -(b - quick tricks)² /
    2σ² + a constant, i.e. ``bid`` × quick tricks / σ² and ``bid_squared`` × -1 / 2σ²."""
    weights = np.zeros((len(BASIS), len(FEATURES)))
    weights[0, FEATURES.index("quick_tricks")] = 1.0 / sigma**2
    weights[1, FEATURES.index("bias")] = -0.5 / sigma**2
    return weights


def fit(samples: Sequence[BidSample]) -> Floats:
    """The weights (``BASIS`` × ``FEATURES``) of least ridge-penalised negative
    log-likelihood of the samples' bids (``fit_choices``)."""
    return fit_choices(_design(samples)).reshape(len(BASIS), len(FEATURES))


def fit_choices(design: Choices) -> Floats:
    """The θ of least ridge-penalised negative log-likelihood of the choices made, by
    Newton's method (each step halved until the objective falls)."""
    ridge = _RIDGE * len(design.chosen)

    def objective(theta: Floats) -> float:
        return _log_loss(theta, design) + ridge / 2 * float(theta @ theta)

    theta = np.zeros(design.t.shape[2])
    value = objective(theta)
    for _ in range(_NEWTON_STEPS):
        gradient, hessian = _derivatives(theta, design)
        step = np.linalg.solve(hessian + ridge * np.eye(theta.size), gradient + ridge * theta)
        while True:
            candidate = theta - step
            new_value = objective(candidate)
            if new_value <= value or float(np.abs(step).max()) < 1e-9:
                break
            step /= 2
        theta, converged = candidate, value - new_value < 1e-9 * max(1.0, abs(value))
        value = new_value
        if converged:
            break
    return theta


def _derivatives(theta: Floats, design: Choices) -> tuple[Floats, Floats]:
    """The gradient and Hessian of the summed negative log-likelihood in θ: the mean of
    the candidates' statistic t under the model less the chosen one's is the gradient,
    and its covariance the Hessian."""
    size = theta.size
    gradient, hessian = np.zeros(size), np.zeros((size, size))
    for start in range(0, design.chosen.shape[0], _CHUNK):
        rows = slice(start, start + _CHUNK)
        p = _probabilities(theta, design, rows)
        t = design.t[rows]
        mean = np.einsum("nb,nbd->nd", p, t)
        gradient += (mean - t[np.arange(p.shape[0]), design.chosen[rows]]).sum(axis=0)
        centred = (t - mean[:, None, :]).reshape(-1, size)
        hessian += (centred * p.reshape(-1, 1)).T @ centred
    return gradient, hessian
