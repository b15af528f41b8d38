"""Settlement of one box (docs/casino.md, *The rules*), and the box file of
``raspisnoy casino settle`` (docs/casino.md, *The command line*).

The net of a box is chips back minus chips put in: the ante, the bet, the cost of a buy
or a change and of buying the dealer's game, which are sunk whatever happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from raspisnoy.casino.cards import Card, parse_card, parse_cards
from raspisnoy.casino.evaluate import Evaluation, evaluate, hand_key
from raspisnoy.core import InvalidInputError

__all__ = [
    "BOX_FORMAT",
    "MAX_ANTE",
    "MIN_ANTE",
    "BoxRecord",
    "BoxResult",
    "Outcome",
    "dealer_after_purchase",
    "settle_box",
]

MIN_ANTE = 1
MAX_ANTE = 100
BOX_FORMAT = "russian-poker-box/1"


class Outcome(StrEnum):
    """How a box ended; the values are the CLI's names."""

    FOLD = "fold"
    WIN = "win"
    LOSE = "lose"
    TIE = "tie"
    #: The dealer did not qualify: the ante is paid 1:1 and the bet comes back.
    ANTE = "ante"
    #: The dealer's game was bought and he still did not qualify: the bet comes back only.
    BET_BACK = "bet-back"


@dataclass(frozen=True, slots=True)
class BoxResult:
    """A settled box: what it held, how it ended and its net in chips."""

    ante: int
    evaluation: Evaluation
    outcome: Outcome
    #: The multiplier paid on the bet: the box's total pays on a win, else 0.
    pays: int
    #: Chips paid for a buy or change and for the dealer's game (never returned).
    costs: int
    #: Chips back minus chips put in.
    net: int

    def to_json(self) -> dict[str, object]:
        """The ``raspisnoy casino settle --json`` object."""
        return {"net": self.net, "outcome": str(self.outcome), "pays": self.pays}


def dealer_after_purchase(dealer: Sequence[Card], draw: Card) -> tuple[Card, ...]:
    """The dealer's hand once his game is bought: his highest card (unique in a hand that
    does not qualify) replaced by ``draw``."""
    highest = max(dealer, key=lambda card: card.rank)
    return tuple(draw if card is highest else card for card in dealer)


def settle_box(
    ante: int,
    cards: Sequence[Card],
    dealer: Sequence[Card],
    *,
    folded: bool = False,
    exchanged: bool = False,
    dealer_bought: Sequence[Card] | None = None,
) -> BoxResult:
    """Settle a box of ``ante`` holding ``cards`` (after any exchange) against the
    ``dealer``'s hand; ``dealer_bought`` is his hand after this box bought his game."""
    evaluation = evaluate(cards)
    costs = ante * (exchanged + (dealer_bought is not None))
    if folded:
        return BoxResult(ante, evaluation, Outcome.FOLD, 0, costs, -ante - costs)
    if dealer_bought is not None:
        if evaluate(dealer).qualifies:
            raise InvalidInputError("the dealer's game can only be bought when he does not qualify")
        dealer = dealer_bought
    if not evaluate(dealer).qualifies:
        if dealer_bought is not None:
            return BoxResult(ante, evaluation, Outcome.BET_BACK, 0, costs, -ante - costs)
        return BoxResult(ante, evaluation, Outcome.ANTE, 0, costs, ante - costs)
    mine, theirs = evaluation.key, hand_key(dealer)
    if mine > theirs:
        net = 2 * ante * evaluation.pays - costs
        return BoxResult(ante, evaluation, Outcome.WIN, evaluation.pays, costs, net)
    if mine == theirs:
        return BoxResult(ante, evaluation, Outcome.TIE, 0, costs, -costs)
    return BoxResult(ante, evaluation, Outcome.LOSE, 0, costs, -3 * ante - costs)


def check_ante(ante: object, field: str = "ante") -> int:
    """An ante: a whole number of chips from 1 to 100."""
    if type(ante) is not int or not MIN_ANTE <= ante <= MAX_ANTE:
        raise InvalidInputError(
            f"{field}: {ante!r} is not an ante ({MIN_ANTE} to {MAX_ANTE} chips)"
        )
    return ante


@dataclass(frozen=True, slots=True)
class BoxRecord:
    """One box of a finished hand, as the ``settle`` file describes it (docs/casino.md)."""

    ante: int
    cards: tuple[Card, ...]
    #: The cards changed and those drawn for them (both empty without a change).
    change: tuple[Card, ...]
    draw: tuple[Card, ...]
    #: The sixth card bought, if any.
    bought: Card | None
    folded: bool
    dealer: tuple[Card, ...]
    #: The dealer's replacement card when this box bought his game.
    dealer_draw: Card | None

    @classmethod
    def from_json(cls, data: object) -> BoxRecord:
        """Read and check a box file; every broken rule is an error naming its field."""
        if not isinstance(data, Mapping):
            raise InvalidInputError("the box file must hold a JSON object")
        known = {"format", "ante", "cards", "exchange", "decision", "dealer", "buy_dealer"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInputError(f"{unknown[0]}: not a field of {BOX_FORMAT}")
        if data.get("format") != BOX_FORMAT:
            raise InvalidInputError(f"format: {data.get('format')!r} is not {BOX_FORMAT!r}")
        for field in ("ante", "cards", "decision", "dealer"):
            if field not in data:
                raise InvalidInputError(f"{field}: missing")
        ante = check_ante(data["ante"])
        cards = _card_list(data["cards"], "cards", 5)
        change, draw, bought = _exchange(data.get("exchange"), cards)
        decision = data["decision"]
        if decision not in ("bet", "fold"):
            raise InvalidInputError(f"decision: {decision!r} is not 'bet' or 'fold'")
        dealer = _card_list(data["dealer"], "dealer", 5)
        dealer_draw = _dealer_draw(data.get("buy_dealer"), decision, dealer)
        _require_distinct_across(
            {
                "cards": cards,
                "exchange.draw": draw,
                "exchange.buy": (bought,) if bought else (),
                "dealer": dealer,
                "buy_dealer.draw": (dealer_draw,) if dealer_draw else (),
            }
        )
        return cls(ante, cards, change, draw, bought, decision == "fold", dealer, dealer_draw)

    @property
    def final_cards(self) -> tuple[Card, ...]:
        """The box's cards after its change or buy."""
        if self.bought is not None:
            return (*self.cards, self.bought)
        kept = tuple(card for card in self.cards if card not in self.change)
        return kept + self.draw

    def settle(self) -> BoxResult:
        bought = None
        if self.dealer_draw is not None:
            bought = dealer_after_purchase(self.dealer, self.dealer_draw)
        return settle_box(
            self.ante,
            self.final_cards,
            self.dealer,
            folded=self.folded,
            exchanged=bool(self.change) or self.bought is not None,
            dealer_bought=bought,
        )


def _require_distinct_across(fields: Mapping[str, Sequence[Card]]) -> None:
    """Every card of the file once: a card in two fields is an error naming both (each
    field's own repeats are refused when it is read, naming it)."""
    where: dict[Card, str] = {}
    for field, cards in fields.items():
        for card in cards:
            if card in where:
                raise InvalidInputError(f"{field}: {card} is also in {where[card]}")
            where[card] = field


def _card_list(value: object, field: str, size: int) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidInputError(f"{field}: must be a list of cards")
    return parse_cards([parse_card(item, field) for item in value], field, (size,))


def _exchange(
    value: object, cards: tuple[Card, ...]
) -> tuple[tuple[Card, ...], tuple[Card, ...], Card | None]:
    """The ``exchange`` field: (cards changed, cards drawn, sixth card bought)."""
    if value is None:
        return (), (), None
    if not isinstance(value, Mapping):
        raise InvalidInputError("exchange: must be an object")
    if set(value) == {"buy"}:
        return (), (), parse_card(value["buy"], "exchange.buy")
    if set(value) != {"change", "draw"}:
        raise InvalidInputError(
            'exchange: must be {"change": [...], "draw": [...]} or {"buy": CARD}'
        )
    change_value, draw_value = value["change"], value["draw"]
    if not isinstance(change_value, list) or not 1 <= len(change_value) <= 5:
        raise InvalidInputError("exchange.change: must list 1 to 5 of the box's cards")
    change = _card_list(change_value, "exchange.change", len(change_value))
    for card in change:
        if card not in cards:
            raise InvalidInputError(f"exchange.change: {card} is not one of the box's cards")
    if not isinstance(draw_value, list) or len(draw_value) != len(change):
        raise InvalidInputError(f"exchange.draw: must list {len(change)} cards, one per change")
    return change, _card_list(draw_value, "exchange.draw", len(change)), None


def _dealer_draw(value: object, decision: object, dealer: tuple[Card, ...]) -> Card | None:
    """The ``buy_dealer`` field: the dealer's replacement card, if this box bought."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"draw"}:
        raise InvalidInputError('buy_dealer: must be {"draw": CARD}')
    if decision != "bet":
        raise InvalidInputError("buy_dealer: only a box that bet can buy the dealer's game")
    if evaluate(dealer).qualifies:
        raise InvalidInputError("buy_dealer: the dealer qualifies; his game cannot be bought")
    return parse_card(value["draw"], "buy_dealer.draw")
