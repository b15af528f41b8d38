"""Fitting the bid model of ``raspisnoy.bots.inference`` to the bots' own bids.

The data is generated, never downloaded: seeded games in which every bid is made by one
of the named bidders (the expert at a fixed number of search iterations, the heuristic,
...; seats take turns at each, game by game); every card, every bid of a round not
modelled (a blind bid) and every choice of a control round is made at random: none of
them changes anything a modelled bid depends on (the hand, the round and the bids
before it), and a random choice costs next to nothing. Each bid of a modelled kind of
round gives one sample: the bidder's hand, its ``BidContext`` and the bid. The model's
negative log-likelihood is convex in its weights, so a few steps of Newton's method
(with a small ridge) fit it exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

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
from raspisnoy.core import Bid, Game, Phase, Rules
from raspisnoy.core.fast import mask_of

__all__ = ["BidSample", "fit", "gaussian_weights", "log_loss", "self_play_bids"]

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


def self_play_bids(
    games: int,
    *,
    seed: str,
    rules: Rules,
    players: Sequence[int],
    bidders: Sequence[str],
    iterations: int,
    on_game: Callable[[int], None] = lambda _: None,
) -> list[BidSample]:
    """The bids of ``games`` seeded games (game g: ``players[g % len(players)]`` seats,
    seat s bidding as ``bidders[(s + g) % len(bidders)]``, the expert at ``iterations``
    a decision); ``on_game`` is called after each game with its number."""
    samples: list[BidSample] = []
    for number in range(games):
        count = players[number % len(players)]
        deal = f"{seed}/{number}"
        game = Game(rules, count, seed=deal)
        bidding = [
            _bidder(bidders[(seat + number) % len(bidders)], f"{deal}/{seat}", iterations)
            for seat in range(count)
        ]
        rng = random.Random(deal)
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


def _bidder(name: str, seed: str, iterations: int) -> Bot:
    if name == ExpertBot.name:
        return ExpertBot(seed, time_ms=_OUT_OF_REACH_MS, iterations=iterations)
    return make_bot(name, seed=seed)


@dataclass(frozen=True, slots=True)
class _Design:
    """The samples as arrays: features ``x`` (N × F), the bids' basis ``phi`` (N × B × J,
    B the most cards + 1), which bids were allowed (N × B) and the bids made (N)."""

    x: Floats
    phi: Floats
    allowed: np.ndarray
    bids: np.ndarray


def _design(samples: Sequence[BidSample]) -> _Design:
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
    return _Design(x, phi, allowed, bids)


def _probabilities(weights: Floats, design: _Design, rows: slice) -> Floats:
    """P(b) for every sample of ``rows`` and every b (0 where not allowed)."""
    u = design.x[rows] @ weights.T  # N × J
    logits = np.einsum("nbj,nj->nb", design.phi[rows], u)
    logits = np.where(design.allowed[rows], logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p: Floats = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return p


def log_loss(weights: Floats, samples: Sequence[BidSample]) -> float:
    """The mean negative log-likelihood (nats) of the samples' bids under ``weights``."""
    return _log_loss(weights, _design(samples)) / len(samples)


def _log_loss(weights: Floats, design: _Design) -> float:
    total = 0.0
    for start in range(0, design.bids.shape[0], _CHUNK):
        rows = slice(start, start + _CHUNK)
        p = _probabilities(weights, design, rows)
        total -= float(np.log(p[np.arange(p.shape[0]), design.bids[rows]]).sum())
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
    log-likelihood of the samples' bids, by Newton's method (each step halved until the
    objective falls)."""
    design = _design(samples)
    shape = (len(BASIS), len(FEATURES))
    ridge = _RIDGE * len(samples)

    def objective(theta: Floats) -> float:
        return _log_loss(theta.reshape(shape), design) + ridge / 2 * float(theta @ theta)

    theta = np.zeros(shape[0] * shape[1])
    value = objective(theta)
    for _ in range(_NEWTON_STEPS):
        gradient, hessian = _derivatives(theta.reshape(shape), design)
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
    return theta.reshape(shape)


def _derivatives(weights: Floats, design: _Design) -> tuple[Floats, Floats]:
    """The gradient and Hessian of the summed negative log-likelihood in the flattened
    weights: the sufficient statistic of bid b is φ(b) ⊗ x, whose mean under the model
    less its value for the bid made is the gradient, and whose covariance the Hessian."""
    size = weights.size
    gradient, hessian = np.zeros(size), np.zeros((size, size))
    for start in range(0, design.bids.shape[0], _CHUNK):
        rows = slice(start, start + _CHUNK)
        p = _probabilities(weights, design, rows)
        t = np.einsum("nbj,nf->nbjf", design.phi[rows], design.x[rows]).reshape(
            p.shape[0], p.shape[1], size
        )
        mean = np.einsum("nb,nbd->nd", p, t)
        gradient += (mean - t[np.arange(p.shape[0]), design.bids[rows]]).sum(axis=0)
        centred = (t - mean[:, None, :]).reshape(-1, size)
        hessian += (centred * p.reshape(-1, 1)).T @ centred
    return gradient, hessian
