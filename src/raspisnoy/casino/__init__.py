"""Casino Russian poker (docs/casino.md): the stud game played alone against the dealer.

A second game beside raspisnoy, sharing only the name and the card notation: the deck and
hand evaluation with its pay table (``evaluate``, on ``ranking``'s arithmetic), one hand
as a phase machine (``CasinoHand``), settlement of a box (``settle_box``, ``BoxRecord``),
records, players' views and commit-reveal shuffles. Pure like ``raspisnoy.core``: the
standard library and core only. The strategy advisor sits beside it, in
``raspisnoy.casino_advisor``, as ``raspisnoy.bots`` sits beside core; the commands in
``raspisnoy.casino_command``.
"""

from raspisnoy.casino.actions import (
    Action,
    Bet,
    BuyCard,
    BuyDealer,
    Change,
    Deal,
    DealerDraw,
    Decline,
    Event,
    Fold,
    Phase,
    parse_action,
)
from raspisnoy.casino.cards import DECK, Card, parse_card, parse_cards
from raspisnoy.casino.evaluate import Combination, Evaluation, compare, evaluate, hand_key
from raspisnoy.casino.game import HAND_FORMAT, MAX_BOXES, CasinoHand, hand_cost
from raspisnoy.casino.settle import (
    BOX_FORMAT,
    MAX_ANTE,
    MIN_ANTE,
    BoxRecord,
    BoxResult,
    Outcome,
    dealer_after_purchase,
    settle_box,
)
from raspisnoy.casino.shuffle import commitment, new_seed, shuffled_deck
from raspisnoy.casino.view import BoxView, HandView

__all__ = [
    "BOX_FORMAT",
    "DECK",
    "HAND_FORMAT",
    "MAX_ANTE",
    "MAX_BOXES",
    "MIN_ANTE",
    "Action",
    "Bet",
    "BoxRecord",
    "BoxResult",
    "BoxView",
    "BuyCard",
    "BuyDealer",
    "Card",
    "CasinoHand",
    "Change",
    "Combination",
    "Deal",
    "DealerDraw",
    "Decline",
    "Evaluation",
    "Event",
    "Fold",
    "HandView",
    "Outcome",
    "Phase",
    "commitment",
    "compare",
    "dealer_after_purchase",
    "evaluate",
    "hand_cost",
    "hand_key",
    "new_seed",
    "parse_action",
    "parse_card",
    "parse_cards",
    "settle_box",
    "shuffled_deck",
]
