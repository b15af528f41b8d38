"""One hand of casino Russian poker as a phase machine (docs/casino.md, *The rules*).

``CasinoHand`` has the shape of ``raspisnoy.core.Game``: every decision has
``verify_x()`` (raises ``IllegalActionError`` saying why), ``can_x()`` and ``x()``
(applies it and returns the ``Event`` appended to the log); ``legal_actions()`` lists
what the box to act may do; ``apply()`` takes any decision; ``view()`` is what the player
may know, which never holds an undealt card nor the dealer's hidden ones before he shows
them. The deck is shuffled from a secret seed whose hash is known before the deal
(``shuffle``), so a finished hand can be replayed and checked from its record.

Money: ``balance`` is the player's chips not on the table. Antes (and the closed third
box's bet) are taken at the deal; a decision that puts chips down takes them when made,
and settlement returns what each box wins back.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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
from raspisnoy.casino.cards import Card
from raspisnoy.casino.evaluate import evaluate
from raspisnoy.casino.settle import BoxResult, check_ante, dealer_after_purchase, settle_box
from raspisnoy.casino.shuffle import commitment, shuffled_deck
from raspisnoy.casino.view import BoxView, HandView
from raspisnoy.core import IllegalActionError, InvalidInputError

__all__ = ["HAND_FORMAT", "MAX_BOXES", "CasinoHand", "hand_cost"]

MAX_BOXES = 3
#: The box that plays closed when three are bought (0-based).
CLOSED_BOX = 2
HAND_FORMAT = "russian-poker-hand/1"


def hand_cost(antes: Sequence[int]) -> int:
    """Chips placed before the deal: every ante, and the closed third box's bet."""
    return sum(antes) + (2 * antes[CLOSED_BOX] if len(antes) > CLOSED_BOX else 0)


@dataclass(slots=True)
class _Box:
    """A box's state while the hand is played."""

    ante: int
    cards: list[Card]
    closed: bool
    bet: bool = False
    folded: bool = False
    exchanged: bool = False
    bought_dealer: bool | None = None
    drawn: list[Card] = field(default_factory=list)

    @property
    def decided(self) -> bool:
        return self.bet or self.folded


class CasinoHand:
    """One hand: 1-3 boxes against the dealer, from the deal to the settlement."""

    __slots__ = (
        "_balance",
        "_boxes",
        "_dealer",
        "_dealer_draw",
        "_log",
        "_phase",
        "_results",
        "_stock",
        "_to_act",
        "antes",
        "commitment",
        "seed",
        "start_balance",
    )

    def __init__(self, antes: Sequence[int], balance: int, seed: str) -> None:
        """Deal a hand of ``antes`` (one per box, 1-3 boxes) for a player holding
        ``balance`` chips, shuffled from ``seed``."""
        if isinstance(antes, int | str) or not isinstance(antes, Sequence):
            raise InvalidInputError(f"antes: {antes!r} is not a list of antes")
        if not 1 <= len(antes) <= MAX_BOXES:
            raise InvalidInputError(f"antes: {len(antes)} boxes; a hand has 1 to {MAX_BOXES}")
        self.antes = tuple(check_ante(ante, f"antes[{i}]") for i, ante in enumerate(antes))
        if type(balance) is not int or balance < 0:
            raise InvalidInputError(f"balance: {balance!r} is not a number of chips")
        cost = hand_cost(self.antes)
        if cost > balance:
            raise IllegalActionError(
                f"the antes{' and the third bet' if len(antes) > CLOSED_BOX else ''} "
                f"need {cost} chips; the balance is {balance}"
            )
        self.commitment = commitment(seed)
        self.seed = seed
        self.start_balance = balance
        self._balance = balance - cost
        deck = shuffled_deck(seed)
        count = len(self.antes)
        self._boxes = [
            _Box(ante, list(deck[5 * i : 5 * i + 5]), closed=i == CLOSED_BOX)
            for i, ante in enumerate(self.antes)
        ]
        for box in self._boxes:
            box.bet = box.closed
        self._dealer = deck[5 * count : 5 * count + 5]
        self._stock = list(deck[5 * count + 5 :])
        self._dealer_draw: DealerDraw | None = None
        self._results: tuple[BoxResult, ...] = ()
        self._log = [Event(None, Deal(tuple(tuple(b.cards) for b in self._boxes), self._dealer))]
        self._phase = Phase.DECIDE
        self._to_act = -1
        self._advance()

    # ----------------------------------------------------------------- read-only state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def to_act(self) -> int | None:
        """The box (0-based) whose decision is awaited; ``None`` once the hand is over."""
        return None if self._phase is Phase.OVER else self._to_act

    @property
    def balance(self) -> int:
        """The player's chips not on the table; after settlement, the final balance."""
        return self._balance

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._log)

    @property
    def results(self) -> tuple[BoxResult, ...]:
        """Each box's settlement, once the hand is over."""
        return self._results

    @property
    def up_card(self) -> Card:
        return self._dealer[4]

    def box_cards(self, box: int) -> tuple[Card, ...]:
        """A box's cards now. Full state: for the engine, tests and the server only."""
        return tuple(self._boxes[box].cards)

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's five cards as dealt. Full state, like ``box_cards``."""
        return self._dealer

    # ----------------------------------------------------------------- decisions

    def legal_actions(self) -> tuple[Action, ...]:
        """What the box to act may do now (empty once the hand is over)."""
        if self._phase is Phase.PURCHASE:
            options: list[Action] = [Decline()]
            if self.can_buy_dealer():
                options.insert(0, BuyDealer())
            return tuple(options)
        if self._phase is not Phase.DECIDE:
            return ()
        box = self._boxes[self._to_act]
        actions: list[Action] = [Fold()]
        if self.can_bet():
            actions.append(Bet())
        if self.can_buy_card():
            actions.append(BuyCard())
            for size in range(1, 6):
                actions.extend(Change(c) for c in itertools.combinations(box.cards, size))
        return tuple(actions)

    def apply(self, action: Action | str) -> Event:
        """Apply any decision (or its text form) for the box to act."""
        if isinstance(action, str):
            action = parse_action(action)
        if isinstance(action, Fold):
            return self.fold()
        if isinstance(action, Bet):
            return self.bet()
        if isinstance(action, BuyCard):
            return self.buy_card()
        if isinstance(action, Change):
            return self.change(action.cards)
        if isinstance(action, BuyDealer):
            return self.buy_dealer()
        if isinstance(action, Decline):
            return self.decline()
        raise InvalidInputError(f"{action!r} is not a decision")

    def verify_fold(self) -> None:
        box = self._deciding("fold")
        if box.closed:
            raise self._error("the third box plays closed: it cannot fold")

    def can_fold(self) -> bool:
        return _can(self.verify_fold)

    def fold(self) -> Event:
        """Give up the box to act: its ante is lost."""
        self.verify_fold()
        self._boxes[self._to_act].folded = True
        return self._logged(Fold())

    def verify_bet(self) -> None:
        box = self._deciding("bet")
        self._require_chips(2 * box.ante, "the bet")

    def can_bet(self) -> bool:
        return _can(self.verify_bet)

    def bet(self) -> Event:
        """Bet twice the ante on the box to act and play its cards."""
        self.verify_bet()
        box = self._boxes[self._to_act]
        self._balance -= 2 * box.ante
        box.bet = True
        return self._logged(Bet())

    def verify_buy_card(self) -> None:
        self._verify_exchange("buy a sixth card")

    def can_buy_card(self) -> bool:
        return _can(self.verify_buy_card)

    def buy_card(self) -> Event:
        """Buy a sixth card for the box to act, for one ante."""
        self.verify_buy_card()
        return self._exchange((), 1, BuyCard())

    def verify_change(self, cards: Sequence[Card]) -> None:
        if not isinstance(cards, Sequence) or not all(isinstance(c, Card) for c in cards):
            raise InvalidInputError(f"{cards!r} is not a list of cards to change")
        change = Change(tuple(cards))
        box = self._verify_exchange(str(change))
        for card in change.cards:
            if card not in box.cards:
                raise self._error(f"{change}: {card} is not in box {self._to_act + 1}")

    def can_change(self, cards: Sequence[Card]) -> bool:
        return _can(self.verify_change, cards)

    def change(self, cards: Sequence[Card]) -> Event:
        """Change these cards of the box to act for as many from the deck, for one ante."""
        self.verify_change(cards)
        change = Change(tuple(cards))
        return self._exchange(change.cards, len(change.cards), change)

    def verify_buy_dealer(self) -> None:
        box = self._purchasing("buy the dealer's game")
        self._require_chips(box.ante, "buying the dealer's game")

    def can_buy_dealer(self) -> bool:
        return _can(self.verify_buy_dealer)

    def buy_dealer(self) -> Event:
        """Buy the dealer's game on the box to act, for one ante."""
        self.verify_buy_dealer()
        box = self._boxes[self._to_act]
        self._balance -= box.ante
        box.bought_dealer = True
        return self._logged(BuyDealer())

    def verify_decline(self) -> None:
        self._purchasing("decline the dealer's game")

    def can_decline(self) -> bool:
        return _can(self.verify_decline)

    def decline(self) -> Event:
        """Do not buy the dealer's game on the box to act."""
        self.verify_decline()
        self._boxes[self._to_act].bought_dealer = False
        return self._logged(Decline())

    # ----------------------------------------------------------------- the view

    def view(self) -> HandView:
        """All the player may know now: the boxes shown so far, the dealer's up card, his
        other cards once he shows them, and the seed once the hand is settled."""
        revealed = self._phase is not Phase.DECIDE
        boxes = tuple(
            BoxView(
                number=i + 1,
                ante=box.ante,
                cards=tuple(box.cards) if revealed or i <= self._to_act else None,
                closed=box.closed,
                bet=box.bet,
                folded=box.folded,
                exchanged=box.exchanged,
                bought_dealer=box.bought_dealer,
            )
            for i, box in enumerate(self._boxes)
        )
        return HandView(
            phase=self._phase,
            balance=self._balance,
            commitment=self.commitment,
            seed=self.seed if self.is_over else None,
            boxes=boxes,
            to_act=self.to_act,
            up_card=self.up_card,
            dealer=self._dealer if revealed else None,
            dealer_draw=self._dealer_draw,
            results=self._results,
            legal_actions=self.legal_actions(),
        )

    # ----------------------------------------------------------------- records

    def to_record(self) -> dict[str, object]:
        """The hand as JSON: enough to replay it from the seed and check it (``verify``)."""
        return {
            "format": HAND_FORMAT,
            "commitment": self.commitment,
            "seed": self.seed if self.is_over else None,
            "balance": self.start_balance,
            "antes": list(self.antes),
            "actions": [
                {"box": event.box + 1, "action": str(event.action)}
                for event in self._log
                if event.box is not None
            ],
            "boxes": [[str(card) for card in box.cards] for box in self._boxes],
            "dealer": [str(card) for card in self._dealer],
            "dealer_draw": None if self._dealer_draw is None else str(self._dealer_draw.draw),
            "results": [
                {"box": i + 1, **result.to_json()} for i, result in enumerate(self._results)
            ],
            "final_balance": self._balance if self.is_over else None,
        }

    # ----------------------------------------------------------------- internals

    def _error(self, message: str) -> IllegalActionError:
        where = "the hand is over" if self.is_over else f"box {self._to_act + 1}"
        return IllegalActionError(f"{where}: {message}")

    def _deciding(self, what: str) -> _Box:
        if self._phase is not Phase.DECIDE:
            raise self._error(f"cannot {what} now: {self._awaiting()}")
        return self._boxes[self._to_act]

    def _purchasing(self, what: str) -> _Box:
        if self._phase is not Phase.PURCHASE:
            raise self._error(f"cannot {what} now: {self._awaiting()}")
        return self._boxes[self._to_act]

    def _awaiting(self) -> str:
        if self._phase is Phase.DECIDE:
            return "its decision is fold, bet, buy or change"
        if self._phase is Phase.PURCHASE:
            return "the dealer did not qualify; buy his game or decline"
        return "nothing more to decide"

    def _require_chips(self, chips: int, what: str) -> None:
        if chips > self._balance:
            raise self._error(f"{what} needs {chips} chips; the balance is {self._balance}")

    def _verify_exchange(self, what: str) -> _Box:
        box = self._deciding(what)
        if box.closed:
            raise self._error("the third box plays closed: no buy or change")
        if box.exchanged:
            raise self._error(f"cannot {what}: one buy or change per box, then bet or fold")
        # The money rule: after paying, the balance must still cover this box's bet.
        if 3 * box.ante > self._balance:
            raise self._error(
                f"cannot {what}: after paying {box.ante} the balance of {self._balance} "
                f"would not cover the bet of {2 * box.ante}"
            )
        return box

    def _exchange(self, discard: tuple[Card, ...], draws: int, action: Action) -> Event:
        box = self._boxes[self._to_act]
        self._balance -= box.ante
        box.exchanged = True
        drawn = tuple(self._stock[:draws])
        del self._stock[:draws]
        kept = [card for card in box.cards if card not in discard]
        box.cards = kept + list(drawn)
        box.drawn = list(drawn)
        event = Event(self._to_act, action, drawn)
        self._log.append(event)
        return event

    def _logged(self, action: Action) -> Event:
        event = Event(self._to_act, action)
        self._log.append(event)
        self._advance()
        return event

    def _advance(self) -> None:
        """Move to the next decision: the next undecided box, then the dealer's reveal
        and the purchases, then the settlement."""
        if self._phase is Phase.DECIDE:
            for i, box in enumerate(self._boxes):
                if not box.decided:
                    self._to_act = i
                    return
            self._to_act = len(self._boxes) - 1
            if evaluate(self._dealer).qualifies:
                self._settle()
                return
            self._phase = Phase.PURCHASE
        for i, box in enumerate(self._boxes):
            if box.bet and not box.closed and box.bought_dealer is None:
                self._to_act = i
                return
        self._settle()

    def _settle(self) -> None:
        bought = None
        if any(box.bought_dealer for box in self._boxes):
            draw = self._stock.pop(0)
            bought = dealer_after_purchase(self._dealer, draw)
            discard = next(card for card in self._dealer if card not in bought)
            self._dealer_draw = DealerDraw(discard, draw)
            self._log.append(Event(None, self._dealer_draw, (draw,)))
        self._results = tuple(
            settle_box(
                box.ante,
                box.cards,
                self._dealer,
                folded=box.folded,
                exchanged=box.exchanged,
                dealer_bought=bought if box.bought_dealer else None,
            )
            for box in self._boxes
        )
        # Chips back: each box's stake and costs were taken when placed; net = back - in.
        for box, result in zip(self._boxes, self._results, strict=True):
            put_in = box.ante + (2 * box.ante if box.bet else 0) + result.costs
            self._balance += put_in + result.net
        self._phase = Phase.OVER


def _can(verify: Callable[..., None], *args: object) -> bool:
    try:
        verify(*args)
    except IllegalActionError:
        return False
    return True
