"""The casino's REST answers (docs/PROTOCOL.md, "Casino"): each shape declared once, as a
Pydantic model that FastAPI checks and documents and that builds itself from the hand's
``HandView`` (its ``of`` constructor), so nothing the player may not know yet is written
and no dict builder runs beside it. The models forbid extra fields; their field order is
the order of the JSON keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from raspisnoy.casino import (
    MAX_ANTE,
    MAX_BOXES,
    MIN_ANTE,
    Action,
    BoxResult,
    BoxView,
    Card,
    HandView,
    dealer_after_purchase,
    evaluate,
)
from raspisnoy.store import HandRow, WalletRow

if TYPE_CHECKING:  # the advisor's arithmetic is loaded by the casino service, not here
    from raspisnoy.casino_advisor.advisor import Advice, OptionValue

__all__ = [
    "BoxOut",
    "CasinoHintOut",
    "CasinoHistoryOut",
    "DealerDrawOut",
    "DecisionOut",
    "HandOut",
    "HandRecordOut",
    "HintOptionOut",
    "HistoryHandOut",
    "LimitsOut",
    "ResultOut",
    "SettledOut",
    "StateOut",
    "ValuedOut",
    "record_file",
]


class _Out(BaseModel):
    """A casino answer's shape: exactly these fields."""

    model_config = ConfigDict(extra="forbid")


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _option(action: Action) -> str:
    """An action's word: ``change 8C 9S`` → ``change``."""
    return str(action).split(" ", 1)[0]


def record_file(number: int) -> str:
    """The name a hand's record is downloaded as."""
    return f"raspisnoy-casino-hand-{number}.json"


# ------------------------------------------------------------------------- the hand


class ValuedOut(_Out):
    """Cards the player sees, with their best combination (for the page to name)."""

    cards: list[str]
    combination: str
    qualifies: bool

    @classmethod
    def of(cls, cards: Sequence[Card]) -> ValuedOut:
        evaluation = evaluate(cards)
        return cls(
            cards=_cards(cards),
            combination=str(evaluation.combination),
            qualifies=evaluation.qualifies,
        )


class DealerDrawOut(_Out):
    discard: str
    draw: str


class BoxOut(_Out):
    number: int
    ante: int
    cards: list[str] | None
    combination: str | None
    closed: bool
    bet: bool
    folded: bool
    exchanged: bool
    bought_dealer: bool | None

    @classmethod
    def of(cls, box: BoxView) -> BoxOut:
        return cls(
            number=box.number,
            ante=box.ante,
            cards=None if box.cards is None else _cards(box.cards),
            combination=None if box.cards is None else str(evaluate(box.cards).combination),
            closed=box.closed,
            bet=box.bet,
            folded=box.folded,
            exchanged=box.exchanged,
            bought_dealer=box.bought_dealer,
        )


class ResultOut(_Out):
    """A settled box: how it ended, its net, and what each combination paid."""

    box: int
    outcome: str
    net: int
    pays: int
    costs: int
    cards: list[str]
    combination: str
    combination_pays: int
    second: str | None
    second_pays: int

    @classmethod
    def of(cls, number: int, result: BoxResult) -> ResultOut:
        evaluation = result.evaluation
        second = evaluation.second
        return cls(
            box=number,
            outcome=str(result.outcome),
            net=result.net,
            pays=result.pays,
            costs=result.costs,
            cards=_cards(evaluation.cards),
            combination=str(evaluation.combination),
            combination_pays=evaluation.combination.pays,
            second=None if second is None else str(second),
            second_pays=0 if second is None else second.pays,
        )


class HandOut(_Out):
    """The hand as its player may know it now (its view), with its id and number."""

    id: str
    number: int
    phase: str
    balance: int
    commitment: str
    seed: str | None
    to_act: int | None
    legal: list[str]
    up_card: str
    dealer: list[str] | None
    dealer_hand: ValuedOut | None
    dealer_bought: ValuedOut | None
    dealer_draw: DealerDrawOut | None
    boxes: list[BoxOut]
    results: list[ResultOut]
    net: int | None

    @classmethod
    def of(cls, row: HandRow, view: HandView) -> HandOut:
        dealer, draw = view.dealer, view.dealer_draw
        return cls(
            id=row.id,
            number=row.number,
            phase=str(view.phase),
            balance=view.balance,
            commitment=view.commitment,
            seed=view.seed,
            to_act=None if view.to_act is None else view.to_act + 1,
            legal=list(dict.fromkeys(_option(action) for action in view.legal_actions)),
            up_card=str(view.up_card),
            dealer=None if dealer is None else _cards(dealer),
            dealer_hand=None if dealer is None else ValuedOut.of(dealer),
            dealer_bought=None
            if dealer is None or draw is None
            else ValuedOut.of(dealer_after_purchase(dealer, draw.draw)),
            dealer_draw=None
            if draw is None
            else DealerDrawOut(discard=str(draw.discard), draw=str(draw.draw)),
            boxes=[BoxOut.of(box) for box in view.boxes],
            results=[ResultOut.of(i, result) for i, result in enumerate(view.results, 1)],
            net=view.balance - row.balance if view.seed is not None else None,
        )


# ------------------------------------------------------------------------- the wallet


class LimitsOut(_Out):
    min_ante: int
    max_ante: int
    boxes: int
    start_balance: int
    refill_below: int


class StateOut(_Out):
    """The player's balance, the commitment of their next shuffle, their hand in progress
    (or ``None``) and the table's limits."""

    balance: int
    refills: int
    hands: int
    next_commitment: str
    can_refill: bool
    hand: HandOut | None
    limits: LimitsOut

    @classmethod
    def of(
        cls,
        wallet: WalletRow,
        next_commitment: str,
        hand: HandOut | None,
        *,
        start_balance: int,
        refill_below: int,
    ) -> StateOut:
        return cls(
            balance=wallet.balance if hand is None else hand.balance,
            refills=wallet.refills,
            hands=wallet.hands,
            next_commitment=next_commitment,
            can_refill=hand is None and wallet.balance < refill_below,
            hand=hand,
            limits=LimitsOut(
                min_ante=MIN_ANTE,
                max_ante=MAX_ANTE,
                boxes=MAX_BOXES,
                start_balance=start_balance,
                refill_below=refill_below,
            ),
        )


# ------------------------------------------------------------------------- the advisor


class HintOptionOut(_Out):
    """One option of a casino decision, valued by the advisor."""

    option: str
    ev: float
    error: float
    method: str
    cases: int

    @classmethod
    def of(cls, option: OptionValue) -> HintOptionOut:
        return cls.model_validate(option.to_json())


class CasinoHintOut(_Out):
    """The advisor's values of every option of the decision awaited on box ``box``."""

    box: int
    phase: str
    cards: list[str]
    up: str
    best: str
    options: list[HintOptionOut]
    considered: int
    seconds: float
    compiled: bool

    @classmethod
    def of(cls, view: HandView, advice: Advice) -> CasinoHintOut:
        return cls.model_validate(
            {"box": (view.to_act or 0) + 1, "phase": str(view.phase), **advice.to_json()}
        )


# ------------------------------------------------------------------------- finished hands


class SettledOut(_Out):
    """A box's line in a hand's record (``raspisnoy casino settle --json`` and its box)."""

    box: int
    net: int
    outcome: str
    pays: int


class HistoryHandOut(_Out):
    """A finished hand for the history: its record's figures and how to verify it."""

    id: str
    number: int
    antes: list[int]
    balance: int
    final_balance: int | None
    net: int | None
    commitment: str
    seed: str
    boxes: list[list[str]] | None
    dealer: list[str] | None
    dealer_draw: str | None
    results: list[SettledOut] | None
    finished_at: str | None
    record_url: str
    file: str
    verify: str

    @classmethod
    def of(cls, row: HandRow) -> HistoryHandOut:
        record: dict[str, Any] = row.record or {}
        file = record_file(row.number)
        return cls(
            id=row.id,
            number=row.number,
            antes=list(row.antes),
            balance=row.balance,
            final_balance=record.get("final_balance"),
            net=row.net,
            commitment=row.commitment,
            seed=row.seed,
            boxes=record.get("boxes"),
            dealer=record.get("dealer"),
            dealer_draw=record.get("dealer_draw"),
            results=record.get("results"),
            finished_at=None if row.finished_at is None else row.finished_at.isoformat(),
            record_url=f"/api/casino/hands/{row.id}/record",
            file=file,
            verify=f"raspisnoy casino verify {file}",
        )


class CasinoHistoryOut(_Out):
    hands: list[HistoryHandOut]


class DecisionOut(_Out):
    box: int
    action: str


class HandRecordOut(_Out):
    """A finished hand's ``russian-poker-hand/1`` record (docs/casino.md)."""

    format: str
    commitment: str
    seed: str
    balance: int
    antes: list[int]
    actions: list[DecisionOut]
    boxes: list[list[str]]
    dealer: list[str]
    dealer_draw: str | None
    results: list[SettledOut]
    final_balance: int
