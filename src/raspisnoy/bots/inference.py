"""Learned inference of the hidden hands: how likely each bid is, given the bidder's hand.

The expert keeps its sampled worlds in proportion to how well they explain the bids the
others made (``ismcts.world_pool``). The hand-made way scores a bid by a Gaussian around
the hand's quick trick count. This module holds the learned way: a small log-linear
model of P(bid | the bidder's hand and what the bidder knew when bidding), fitted to the
bots' own bids in self-play (``raspisnoy.bots.inference_training``, the command
``raspisnoy train-inference``) and shipped as ``data/bid_model.json``.

The model: for a round of ``n`` cards,

    P(b | x) ∝ exp(Σ_j φ_j(b, n) · (V_j · x)),  b = 0 … n (not the dealer's forbidden bid)

with ``φ(b, n) = (b, b², [b = 0], [b = n])`` and ``x`` the features of ``FEATURES``: the
hand's (quick trick count, jokers, trumps, the top trumps, side aces and kings, side
voids, the longest suit) and the context's (cards, players, the bids made before it, its
place in the order, whether it bids last, a round without trump). With ``b`` and ``b²``
it holds every Gaussian whose mean and spread are linear in the features (the
hand-made model among them), and the two indicators let a bid of 0 or of every card be
likelier than that. Its negative log-likelihood is convex: Newton's method fits it
exactly, and the runtime needs NumPy only.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

import numpy as np
import numpy.typing as npt

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.fastsim import compiled, inlined
from raspisnoy.core import RoundKind, View

__all__ = [
    "BASIS",
    "FEATURES",
    "MODEL_PATH",
    "BidContext",
    "BidModel",
    "LearnedModel",
    "bid_contexts",
    "bid_log_likelihood",
    "hand_features",
    "shipped_model",
]

Floats = npt.NDArray[np.float64]

#: The model's features: the first ``HAND_FEATURES`` from the bidder's hand, the rest
#: from the round and the bids made before (``BidContext``).
FEATURES = (
    "bias",
    "quick_tricks",
    "jokers",
    "trumps",
    "trump_ace",
    "trump_king",
    "trump_queen",
    "side_aces",
    "side_kings",
    "side_voids",
    "longest_suit",
    "cards",
    "players",
    "earlier_bids",
    "position",
    "last",
    "no_trump",
)
HAND_FEATURES = FEATURES.index("cards")
#: The functions of the bid each feature's weight multiplies (the module docstring).
BASIS = ("bid", "bid_squared", "zero", "all")
#: Where the shipped model lives, and the version of its format.
MODEL_PATH = Path(__file__).parent / "data" / "bid_model.json"
FORMAT = 1
#: Kinds of round whose bids the bidder made seeing its hand: the only ones modelled
#: (a blind bid is made unseen; in a forehead round the bidder sees every card but its own).
MODELLED_KINDS = (RoundKind.NORMAL, RoundKind.NO_TRUMP, RoundKind.PERCENT)
_ACE, _KING, _QUEEN = 12, 11, 10


@dataclass(frozen=True, slots=True)
class BidContext:
    """What a bidder knew of the round besides its hand when it bid."""

    cards: int
    players: int
    #: The sum of the bids made before this one.
    earlier: int
    #: How many bids were made before this one.
    position: int
    #: The bid the dealer's constraint forbade this bidder (-1: none).
    forbidden: int
    no_trump: bool

    def vector(self) -> Floats:
        """The feature vector with the context's features set and the hand's zero."""
        x = np.zeros(len(FEATURES), dtype=np.float64)
        x[0] = 1.0
        x[HAND_FEATURES:] = (
            self.cards,
            self.players,
            self.earlier,
            self.position,
            float(self.position == self.players - 1),
            float(self.no_trump),
        )
        return x


def bid_contexts(view: View) -> list[BidContext | None]:
    """Each seat's ``BidContext`` for the bid it made in the round of ``view``, and the
    next bidder's for the bid it is to make (``None`` for the seats after it, and for
    every seat in a round whose bids are not modelled)."""
    contexts: list[BidContext | None] = [None] * view.players
    if view.bids is None or view.kind not in MODELLED_KINDS:
        return contexts
    earlier = 0
    for position in range(view.players):
        seat = (view.dealer + 1 + position) % view.players
        bid = view.bids[seat]
        dealer = seat == view.dealer
        forbidden = dealer and view.rules.dealer_constraint and earlier <= view.cards
        contexts[seat] = BidContext(
            cards=view.cards,
            players=view.players,
            earlier=earlier,
            position=position,
            forbidden=view.cards - earlier if forbidden else -1,
            no_trump=view.trump is None,
        )
        if bid is None:
            break
        earlier += bid
    return contexts


@compiled
def hand_features(hand: int, trump: int, x: Floats) -> None:
    """Write the hand's features (``FEATURES[1:HAND_FEATURES]``) of the bit mask ``hand``
    (the whole hand the bid was made with) under ``trump`` (-1: none) into ``x``."""
    x[1] = fs.hand_value(hand, trump)
    x[2] = fs._bit_count((hand >> 52) & 0b111)
    aces = kings = voids = longest = trumps = 0
    for suit in range(4):
        cards = (hand >> (suit * 13)) & 0x1FFF
        length = fs._bit_count(cards)
        if suit == trump:
            trumps = length
            continue
        aces += (cards >> _ACE) & 1
        kings += (cards >> _KING) & 1
        voids += length == 0
        longest = max(longest, length)
    x[3] = trumps
    x[4] = x[5] = x[6] = 0.0
    if trump >= 0:
        x[4] = (hand >> (trump * 13 + _ACE)) & 1
        x[5] = (hand >> (trump * 13 + _KING)) & 1
        x[6] = (hand >> (trump * 13 + _QUEEN)) & 1
    x[7] = aces
    x[8] = kings
    x[9] = voids
    x[10] = max(longest, trumps)


@compiled
def bid_log_likelihood(weights: Floats, x: Floats, bid: int, cards: int, forbidden: int) -> float:
    """log P(``bid`` | ``x``) under the model with ``weights`` (``BASIS`` × ``FEATURES``)
    in a round of ``cards`` cards, the ``forbidden`` bid (-1: none) excluded. (Loops, not
    NumPy's products: called thousands of times a decision, it must not allocate.)"""
    u0 = u1 = u2 = u3 = 0.0
    for f in range(x.shape[0]):
        u0 += weights[0, f] * x[f]
        u1 += weights[1, f] * x[f]
        u2 += weights[2, f] * x[f]
        u3 += weights[3, f] * x[f]
    best = -math.inf
    for b in range(cards + 1):
        if b != forbidden:
            best = max(best, _logit(b, cards, u0, u1, u2, u3))
    total = 0.0
    for b in range(cards + 1):
        if b != forbidden:
            total += math.exp(_logit(b, cards, u0, u1, u2, u3) - best)
    return _logit(bid, cards, u0, u1, u2, u3) - best - math.log(total)


@inlined
def _logit(bid: int, cards: int, u0: float, u1: float, u2: float, u3: float) -> float:
    """The unnormalised log-probability of ``bid``: Σ_j φ_j(bid, cards) · u_j."""
    return bid * u0 + bid * bid * u1 + (bid == 0) * u2 + (bid == cards) * u3


@dataclass(frozen=True, slots=True)
class LearnedModel:
    """What the learned models share: their ``weights``, their ``version`` and the
    ``command`` that made them, and their file, a JSON document that names the features
    (``LAYOUT``) the weights are laid out by, so that a file of another layout is refused
    rather than misread."""

    weights: Floats
    version: int
    command: str
    #: The names the weights' axes are laid out by, as the file records them.
    LAYOUT: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: What the file holds, for its errors.
    WHAT: ClassVar[str] = "model"

    def to_json(self) -> dict[str, Any]:
        """The model file's document."""
        return {
            "format": FORMAT,
            "version": self.version,
            "command": self.command,
            **{name: list(names) for name, names in self.LAYOUT.items()},
            "weights": np.round(self.weights, 6).tolist(),
        }

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> Self:
        """The model of a file's document; ``ValueError`` when it is not of this format."""
        if document.get("format") != FORMAT or any(
            tuple(document.get(name, ())) != names for name, names in cls.LAYOUT.items()
        ):
            raise ValueError(f"the {cls.WHAT} file is not of this version's format")
        weights = np.array(document["weights"], dtype=np.float64)
        return cls(weights, int(document["version"]), str(document["command"]))

    @classmethod
    def read(cls, path: Path) -> Self:
        """The model saved at ``path``."""
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


@dataclass(frozen=True, slots=True)
class BidModel(LearnedModel):
    """The fitted bid model: ``weights`` of ``BASIS`` × ``FEATURES``."""

    LAYOUT: ClassVar[dict[str, tuple[str, ...]]] = {"basis": BASIS, "features": FEATURES}
    WHAT: ClassVar[str] = "bid model"

    def distribution(self, hand: int, trump: int, context: BidContext) -> Floats:
        """P(bid = b) for b = 0 … ``context.cards`` for a bidder holding ``hand``."""
        x = context.vector()
        hand_features(hand, trump, x)
        return np.array(
            [
                0.0
                if bid == context.forbidden
                else math.exp(
                    bid_log_likelihood(self.weights, x, bid, context.cards, context.forbidden)
                )
                for bid in range(context.cards + 1)
            ]
        )


@functools.cache
def shipped_model() -> BidModel:
    """The model shipped with the package (read once per process)."""
    return BidModel.read(MODEL_PATH)
