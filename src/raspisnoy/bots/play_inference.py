"""Learned inference from the plays: how likely each card a player played was, given the
hand it held when it played it.

The bid model (``raspisnoy.bots.inference``) weighs a sampled world by how well its hands
explain the others' bids. The cards they played since tell more: a player who still
needed tricks and followed low under a trick it could have taken probably held nothing
to take it with; one who had its contract and took the trick anyway probably had no
lower card of the suit. This module weighs a world by how well its hands explain every
play of a standard card made so far in the round, under a small model fitted to the
bots' own plays in self-play (``raspisnoy.bots.inference_training.self_play_plays``, the
command ``raspisnoy train-inference --model plays``), shipped as ``data/play_model.json``.

The model is a conditional logit over the standard cards the player could legally play:

    P(c | hand, trick) ∝ exp(w · f(c, trick)),   c among the legal standard cards of hand

where ``f`` (``PLAY_FEATURES``) depends on the card and the public moment only: whether
it would take the trick so far (and whether the player is the last to play, so that it
would surely take it), its rank, whether it is a trump, each apart for a player that
still wants tricks and one that does not, and for a lead. The hand enters only through
which cards were legal, so each play's scores are computed once a decision
(``play_scores``) and a world costs a sum over its few legal cards a play
(``play_misfit``): the card played scores the same in every world, so only the sums
differ from world to world. Jokers are left out: a play of a joker, and every play of a
trick after a joker was played in it (its winner then depends on the joker's mode),
weigh nothing, and a joker is not among the cards a player could have played instead.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.fastsim import compiled, inlined
from raspisnoy.bots.inference import LearnedModel
from raspisnoy.bots.knowledge import trick_context
from raspisnoy.core import Play, RoundKind, View

__all__ = [
    "CARD",
    "FROM_HERE",
    "PLAY_FEATURES",
    "PLAY_MODEL_PATH",
    "ROW_SIZE",
    "SEAT",
    "PlayModel",
    "candidates",
    "decision_row",
    "past_plays",
    "play_features",
    "play_misfit",
    "play_scores",
    "shipped_play_model",
]

Floats = npt.NDArray[np.float64]
Int64s = npt.NDArray[np.int64]

#: The features of a card played (the module docstring): "taking" for a player that
#: wants tricks (short of its bid, or in a golden round), "ducking" for one that does not.
PLAY_FEATURES = (
    "wins_taking",
    "wins_ducking",
    "wins_last_taking",
    "wins_last_ducking",
    "rank_taking",
    "rank_ducking",
    "trump_taking",
    "trump_ducking",
    "lead_rank_taking",
    "lead_rank_ducking",
    "lead_trump_taking",
    "lead_trump_ducking",
)
PLAY_MODEL_PATH = Path(__file__).parent / "data" / "play_model.json"

#: The columns of a play's row (``past_plays``): who played which card; the suit to
#: follow (-1: the card led), the trick's trump (-1: none), the card winning the trick
#: before it (-1: none), whether the player wanted tricks, was the last to play, would
#: have had to trump if void (0/1); and the cards it played from this play on in the
#: round (its hand then is its hand now and these).
SEAT, CARD, FOLLOW, TRUMP, BEST, TAKING, LAST, MUST_TRUMP, FROM_HERE = range(9)
ROW_SIZE = 9
_STANDARD = (1 << 52) - 1


@dataclass(frozen=True, slots=True)
class _Moment:
    """What the rows of one trick share: the round's view, who led and the tricks each
    seat had taken before it."""

    view: View
    leader: int
    taken: tuple[int, ...]


def _taking(view: View, seat: int, taken: int) -> bool:
    """Whether ``seat``, having taken ``taken`` tricks, still wanted tricks."""
    if view.kind is RoundKind.MISERE:
        return False
    if view.kind is RoundKind.GOLDEN or view.bids is None:
        return True
    bid = view.bids[seat]
    return bid is None or taken < bid


def _trick_rows(moment: _Moment, plays: tuple[Play, ...]) -> list[list[int]]:
    """A row (without ``FROM_HERE``) for each play of ``plays`` (a trick as led by
    ``moment.leader``) up to the first joker; none after it."""
    view = moment.view
    context = trick_context(view, plays)
    must_trump = int(context.trump >= 0 and view.rules.trump_when_void)
    players, rows, best = view.players, [], -1
    for position, play in enumerate(plays):
        card = play.card.index
        if play.card.is_joker:
            break
        seat = (moment.leader + position) % players
        follow = -1 if position == 0 else context.follow
        taking = _taking(view, seat, moment.taken[seat])
        last = int(position == players - 1)
        rows.append([seat, card, follow, context.trump, best, int(taking), last, must_trump, 0])
        if best < 0 or _beats(card, best, context.trump):
            best = card
    return rows


def past_plays(view: View) -> Int64s:
    """The rows (``ROW_SIZE`` columns) of every play of a standard card by a seat other
    than ``view.seat`` in the round so far, whose trick had no joker before it."""
    taken = [0] * view.players
    rows: list[list[int]] = []
    places: list[int] = []  # each row's play's place among all the round's plays
    made: list[tuple[int, int]] = []  # every play of the round: its seat and card's bit
    for trick in (*view.tricks, view.trick):
        start = len(made)
        made += [
            ((trick.leader + position) % view.players, play.card.bit)
            for position, play in enumerate(trick.plays)
        ]
        trick_rows = _trick_rows(_Moment(view, trick.leader, tuple(taken)), trick.plays)
        rows += trick_rows
        places += range(start, start + len(trick_rows))
        if trick.winner is not None:
            taken[trick.winner] += 1
    from_here = _from_here(made, view.players)
    for row, place in zip(rows, places, strict=True):
        row[FROM_HERE] = from_here[place]
    kept = [row for row in rows if row[SEAT] != view.seat]
    return np.array(kept, dtype=np.int64).reshape(len(kept), ROW_SIZE)


def _from_here(made: list[tuple[int, int]], players: int) -> list[int]:
    """For each play of ``made`` (seat, card bit, in order), the cards its seat played
    from it on, jokers included."""
    from_here = [0] * len(made)
    later = [0] * players
    for place in range(len(made) - 1, -1, -1):
        seat, bit = made[place]
        later[seat] |= bit
        from_here[place] = later[seat]
    return from_here


def decision_row(view: View, play: Play) -> Int64s | None:
    """The row ``play`` by the seat to act would have as the next play of the trick in
    progress (``FROM_HERE``: the card alone); ``None`` for a joker, or after one."""
    trick = view.trick
    taken = tuple(view.taken)
    rows = _trick_rows(_Moment(view, trick.leader, taken), (*trick.plays, play))
    if len(rows) != len(trick.plays) + 1:
        return None
    row = rows[-1]
    row[FROM_HERE] = 1 << row[CARD]
    return np.array(row, dtype=np.int64)


@inlined
def _beats(card: int, best: int, trump: int) -> bool:
    """Whether the standard ``card`` beats ``best``, the standard card winning a trick
    whose trump is ``trump``: a higher card of its suit, or a trump over a side card."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


@compiled
def play_features(card: int, row: Int64s, x: Floats) -> None:
    """Write the features (``PLAY_FEATURES``) of ``card`` played at the moment of
    ``row`` into ``x``."""
    taking = float(row[TAKING])
    ducking = 1.0 - taking
    rank = (card % 13) / 12.0
    trump = 1.0 if card // 13 == row[TRUMP] else 0.0
    x[:] = 0.0
    if row[FOLLOW] < 0:
        x[8], x[9] = rank * taking, rank * ducking
        x[10], x[11] = trump * taking, trump * ducking
        return
    wins = 1.0 if row[BEST] >= 0 and _beats(card, row[BEST], row[TRUMP]) else 0.0
    last = float(row[LAST])
    x[0], x[1] = wins * taking, wins * ducking
    x[2], x[3] = wins * last * taking, wins * last * ducking
    x[4], x[5] = rank * taking, rank * ducking
    x[6], x[7] = trump * taking, trump * ducking


@compiled
def candidates(hand: int, row: Int64s) -> int:
    """The standard cards of ``hand`` (a bit mask) the player could have played at the
    moment of ``row``: the suit led if it had any, else the trumps where it had to trump
    and had some, else any."""
    standard = hand & _STANDARD
    follow = row[FOLLOW]
    if follow < 0:
        return standard
    suited = standard & (np.int64(0x1FFF) << (13 * follow))
    if suited:
        return int(suited)
    if row[MUST_TRUMP]:
        trumps = standard & (np.int64(0x1FFF) << (13 * row[TRUMP]))
        if trumps:
            return int(trumps)
    return standard


@compiled
def play_scores(rows: Int64s, weights: Floats) -> Floats:
    """exp(w · f(c)) for each row's moment and each standard card c (rows × 52): what a
    world's likelihood of the plays is summed from (``play_misfit``)."""
    scores = np.zeros((rows.shape[0], 52), dtype=np.float64)
    x = np.empty(weights.shape[0], dtype=np.float64)
    for i in range(rows.shape[0]):
        for card in range(52):
            play_features(card, rows[i], x)
            total = 0.0
            for f in range(x.shape[0]):
                total += weights[f] * x[f]
            scores[i, card] = math.exp(total)
    return scores


@compiled
def play_misfit(hands: Int64s, rows: Int64s, scores: Floats) -> float:
    """The negative log-likelihood of the plays of ``rows`` when each seat now holds
    ``hands[seat]``, less Σ −log score(card played), which is the same in every world:
    log Π over the plays of Σ_{c legal then} score(c), one logarithm a world."""
    product = 1.0
    for i in range(rows.shape[0]):
        legal = candidates(hands[rows[i, SEAT]] | rows[i, FROM_HERE], rows[i])
        mass = 0.0
        while legal:
            low = legal & -legal
            mass += scores[i, fs._bit_index(low)]
            legal ^= low
        product *= mass
    return math.log(product)


@dataclass(frozen=True, slots=True)
class PlayModel(LearnedModel):
    """The fitted play model: a weight for each of ``PLAY_FEATURES``."""

    LAYOUT: ClassVar[dict[str, tuple[str, ...]]] = {"features": PLAY_FEATURES}
    WHAT: ClassVar[str] = "play model"

    def distribution(self, hand: int, row: Int64s) -> dict[int, float]:
        """P(card) for each card the player holding ``hand`` could have played at the
        moment of ``row``."""
        scores = play_scores(row.reshape(1, ROW_SIZE), self.weights)[0]
        legal = [index for index in range(52) if candidates(hand, row) >> index & 1]
        mass = sum(scores[index] for index in legal)
        return {index: float(scores[index] / mass) for index in legal}


@functools.cache
def shipped_play_model() -> PlayModel:
    """The model shipped with the package (read once per process)."""
    return PlayModel.read(PLAY_MODEL_PATH)
