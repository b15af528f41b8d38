"""The strategy advisor: the expected net, in antes, of every option at a decision point.

At a box's decision the options are fold (-1, exact), bet, buy a sixth card and each of
the 31 changes; at the purchase decision, buying the dealer's game or declining it.
Values count what the box may still win or lose from the decision on, the ante and the
cost of the option included, exchange costs already paid excluded; betting assumes the
best purchase decision later (buy his game only when that is worth more than the ante).

Method (``docs/casino.md``): every hand the dealer may hold (his up card and 4 of the
unknown cards, C(46, 4) = 163,185 for one box) is enumerated once, with its key and, when
it does not qualify, every card he may draw when his game is bought. Betting is then an
exact sum; so are the exchanges with few draws (a sixth card, one or two changed cards:
46 or 1,035 draws, each an exact bet-or-fold). Larger changes are screened by sampling
on common random numbers (``kernels.sample_exchange``: a clear fold costs nothing, a
close call is summed exactly, a clear bet meets a sampled dealer); then, while the
sampled change with the highest mean is above the best exact value, it is enumerated
exactly (three or four cards: 15,180 or 163,185 draws), so the best option is exact
unless it is a change of all five cards, which stays sampled, its error the 95%
interval's half-width.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Collection, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from raspisnoy.casino import ranking
from raspisnoy.casino.cards import DECK, Card, require_distinct
from raspisnoy.casino.evaluate import evaluate
from raspisnoy.casino.settle import dealer_after_purchase
from raspisnoy.casino_advisor import kernels
from raspisnoy.casino_advisor.fast import compiled
from raspisnoy.core import InvalidInputError

__all__ = ["Advice", "OptionValue", "advise", "advise_purchase", "warm_up"]

#: Exchanges with at most this many possible draws (a buy, changes of one or two cards
#: from a full deck) are always enumerated exactly.
EXACT_DRAWS = 1_035
#: Larger exchanges with at most this many draws (changes of three or four cards) are
#: enumerated exactly when their sampled mean is above the best exact value known.
EXACT_CONTENDERS = 163_185
#: Samples per sampled exchange in the first round, and the most for any one.
SCREEN_SAMPLES = 4_000
#: Samples that the screened exchanges whose interval reaches the best value get before
#: the leaders are enumerated (fewer leaders by chance).
CONTENDER_SAMPLES = 32_000
MAX_SAMPLES = 400_000
#: Stop refining once every contender's 95% half-width is below this (antes).
TARGET_ERROR = 0.01
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option and its expected net in antes."""

    #: ``fold``, ``bet``, ``buy``, ``change 8C 9S``, ``buy-dealer`` or ``decline``.
    option: str
    value: float
    #: Half-width of the 95% confidence interval; 0 when exact.
    error: float
    #: ``exact`` (every case enumerated) or ``sampled``.
    method: str
    #: Cases enumerated (draws) or samples drawn; 1 for fold and decline.
    cases: int

    def to_json(self) -> dict[str, object]:
        return {
            "option": self.option,
            "ev": round(self.value, 4),
            "error": round(self.error, 4),
            "method": self.method,
            "cases": self.cases,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Every option of a decision point, best first, and how long it took."""

    cards: tuple[Card, ...]
    up: Card
    options: tuple[OptionValue, ...]
    #: Options valued in all (the listing may leave out changes far from the best).
    considered: int
    #: Processor time the advice took (one core; the advisor runs in one thread).
    seconds: float
    compiled: bool

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    def to_json(self) -> dict[str, object]:
        return {
            "cards": [str(card) for card in self.cards],
            "up": str(self.up),
            "best": self.best.option,
            "options": [option.to_json() for option in self.options],
            "considered": self.considered,
            "seconds": round(self.seconds, 3),
            "compiled": self.compiled,
        }


class _PureArrays:
    """The kernels' buffers as lists, for the pure kernels."""

    @staticmethod
    def ints(size: int) -> MutableSequence[int]:
        return [0] * size

    @staticmethod
    def floats(size: int) -> MutableSequence[float]:
        return [0.0] * size

    @staticmethod
    def of(values: Sequence[int]) -> Sequence[int]:
        return list(values)

    @staticmethod
    def order(keys: Sequence[int]) -> Sequence[int]:
        return sorted(range(len(keys)), key=keys.__getitem__)

    @staticmethod
    def uniforms(rng: random.Random, size: int) -> Sequence[float]:
        return [rng.random() for _ in range(size)]


class _Backend:
    """The kernels and their buffers: compiled with NumPy arrays, or pure with lists."""

    def __init__(self, fast: bool | None) -> None:
        jit = compiled() if fast is not False else None
        if fast and jit is None:
            raise InvalidInputError("the compiled advisor needs NumPy and Numba")
        self.kernels: Any = jit if jit is not None else kernels
        self.compiled = jit is not None
        arrays: Any = jit.arrays if jit is not None else _PureArrays
        self.ints: Callable[[int], MutableSequence[int]] = arrays.ints
        self.floats: Callable[[int], MutableSequence[float]] = arrays.floats
        self.of: Callable[[Sequence[int]], Sequence[int]] = arrays.of
        #: The indexes of keys in increasing key order.
        self.order: Callable[[Sequence[int]], Sequence[int]] = arrays.order
        self.uniforms: Callable[[random.Random, int], Sequence[float]] = arrays.uniforms
        if self.compiled:
            _warm_up(self)


_warmed: list[bool] = []


def _warm_up(backend: _Backend) -> None:
    """Run every compiled kernel once on a tiny decision point (most of the deck seen),
    so that loading or compiling them is not counted in the first advice's budget."""
    if _warmed:
        return
    _warmed.append(True)
    box, up, seen = DECK[:5], DECK[5], DECK[6:42]
    tables = _tables(backend, up, _unknown([*box, up, *seen]))
    for shortcuts in (True, False):
        _bet(backend, tables, box, True, shortcuts)
        _exact_exchange(backend, tables, box[:4], 5, True, "warm-up", 1, shortcuts)
    option = _Sampled("warm-up", box[:2], 5, 1)
    _sample(backend, tables, option, True, backend.uniforms(random.Random(0), 9), 1)


def warm_up() -> None:
    """Load the compiled kernels (compiling them the first time after installing; Numba
    keeps them in its on-disk cache for the next start) and run each once, so that no
    player's first hint waits for the compiler. The server runs it in the background as
    it starts; without Numba, or with ``RASPISNOY_NO_JIT``, there is nothing to load."""
    _Backend(None)


@dataclass(slots=True)
class _Tables:
    """Every dealer hand of one decision point (see ``kernels``' advisor tables)."""

    unknown: Sequence[int]
    keys: Sequence[int]
    masks: Sequence[int]
    lists: Sequence[int]
    list_out: Sequence[int]
    #: How many hands do not qualify, and the most qualifying draws of any of them.
    out: int
    most_qualifying: int
    rows: Sequence[int]
    sorted_rows: Sequence[int]
    row_qualifying: Sequence[int]
    row_of: Sequence[int]
    row_hand: Sequence[int]
    buy_rows: Sequence[int]
    buy_masks: Sequence[int]
    buy_counts: Sequence[int]
    buy_tops: Sequence[int]
    buy_draws: Sequence[int]

    @property
    def count(self) -> int:
        return len(self.unknown)

    @property
    def arrays(self) -> kernels.Tables:
        """The arrays as the kernels take them (``kernels.Tables``)."""
        return (
            self.keys,
            self.masks,
            self.lists,
            self.list_out,
            self.rows,
            self.sorted_rows,
            self.row_qualifying,
            self.row_of,
            self.row_hand,
            self.buy_rows,
            self.buy_masks,
            self.buy_counts,
            self.buy_tops,
            self.buy_draws,
        )


def _tables(backend: _Backend, up: Card, unknown: Sequence[Card]) -> _Tables:
    count = len(unknown)
    hands = kernels.binomial(count, 4)
    cards = backend.of([card.index for card in unknown])
    keys, masks, highest = backend.ints(hands), backend.ints(hands), backend.ints(hands)
    backend.kernels.fill_dealer_table(up.index, cards, count, keys, masks, highest)
    lists, list_out = backend.ints(hands * 15), backend.ints(kernels.subset_list_count(count))
    backend.kernels.fill_subset_lists(
        backend.order(keys),
        keys,
        masks,
        count,
        lists,
        backend.ints(kernels.subset_list_count(count)),
        list_out,
    )
    out = int(list_out[0])
    rows, sorted_rows = backend.ints(out * count), backend.ints(out * count)
    row_qualifying, row_of, row_hand = backend.ints(out), backend.ints(hands), backend.ints(out)
    row_draws = backend.ints(out)
    most = backend.kernels.fill_purchase_table(
        up.index,
        cards,
        count,
        keys,
        masks,
        highest,
        rows,
        sorted_rows,
        row_qualifying,
        row_of,
        row_hand,
        row_draws,
    )
    buy = [backend.ints(out) for _ in range(5)]
    backend.kernels.fill_purchase_order(
        backend.order(row_qualifying),
        count,
        masks,
        sorted_rows,
        row_qualifying,
        row_hand,
        row_draws,
        *buy,
    )
    return _Tables(
        unknown=cards,
        keys=keys,
        masks=masks,
        lists=lists,
        list_out=list_out,
        out=out,
        most_qualifying=int(most),
        rows=rows,
        sorted_rows=sorted_rows,
        row_qualifying=row_qualifying,
        row_of=row_of,
        row_hand=row_hand,
        buy_rows=buy[0],
        buy_masks=buy[1],
        buy_counts=buy[2],
        buy_tops=buy[3],
        buy_draws=buy[4],
    )


def _unknown(known: Sequence[Card]) -> tuple[Card, ...]:
    require_distinct(known, "the cards known")
    seen = set(known)
    return tuple(card for card in DECK if card not in seen)


def _check(cards: Sequence[Card], size: int, field: str) -> tuple[Card, ...]:
    if len(cards) != size or not all(isinstance(c, Card) and not c.is_joker for c in cards):
        raise InvalidInputError(f"{field}: {size} cards of the 52-card deck wanted")
    return tuple(cards)


def advise(
    cards: Sequence[Card],
    up: Card,
    *,
    seen: Sequence[Card] = (),
    money: float | None = None,
    exchange: bool = True,
    seed: int = 0,
    fast: bool | None = None,
    exact_draws: int = EXACT_DRAWS,
    exact_contenders: int = EXACT_CONTENDERS,
    budget_s: float = 0.5,
    only: Collection[str] | None = None,
    reference: bool = False,
) -> Advice:
    """Value every option of a box's decision: its five ``cards``, the dealer's ``up``
    card, other cards the player has seen (other boxes, cards changed away), and the
    ``money`` left in antes after the ante (``None``: enough for anything).
    ``exchange=False`` for a box that has bought or changed already: only bet or fold,
    and the box may hold six cards. Exchanges with up to ``exact_draws`` draws are
    enumerated exactly, and those with up to ``exact_contenders`` draws once their
    screening says they may be the best; the others are sampled, seeded by ``seed``,
    refining until ``budget_s`` seconds. ``only`` values just the options named (fold
    always), and lists them all. ``reference`` computes without ``kernels.bet_value``'s
    shortcuts (the same values, slower: what the benchmark checks against)."""
    box = _check(cards, 5 if exchange or len(cards) != 6 else 6, "cards")
    backend = _Backend(fast)
    started = time.process_time()
    tables = _tables(backend, up, _unknown([*box, up, *seen]))
    may_bet = money is None or money >= 2
    may_exchange = exchange and (money is None or money >= 3)
    # A purchase costs one more ante on top of the bet (and of an exchange).
    buys_after_bet = money is None or money >= 3
    buys_after_exchange = money is None or money >= 4
    values = [OptionValue("fold", kernels.FOLD_NET, 0.0, "exact", 1)]
    if may_bet and (only is None or "bet" in only):
        values.append(_bet(backend, tables, box, buys_after_bet, not reference))
    if may_exchange:
        plan = _Plan(
            exact_draws, exact_contenders, buys_after_exchange, not reference, started + budget_s
        )
        values += _exchanges(
            backend, tables, box, plan, random.Random(seed), only, max(o.value for o in values)
        )
    values.sort(key=lambda option: -option.value)
    return Advice(
        box,
        up,
        tuple(values) if only is not None else _worth_listing(values),
        len(values),
        time.process_time() - started,
        backend.compiled,
    )


def _bet(
    backend: _Backend, tables: _Tables, box: tuple[Card, ...], can_buy: bool, shortcuts: bool
) -> OptionValue:
    key, _first, _second, pays = ranking.combination_codes([c.index for c in box], len(box))
    value = backend.kernels.bet_value(
        key,
        pays,
        0,
        tables.count,
        can_buy,
        tables.most_qualifying,
        tables.arrays,
        shortcuts,
    )
    return OptionValue("bet", float(value), 0.0, "exact", kernels.binomial(tables.count, 4))


@dataclass(slots=True)
class _Sampled:
    """A sampled exchange's running sums."""

    name: str
    kept: tuple[Card, ...]
    size: int
    #: How many sets of cards the exchange may draw.
    draws: int
    total: float = 0.0
    squares: float = 0.0
    samples: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.samples

    @property
    def error(self) -> float:
        variance = max(0.0, self.squares / self.samples - self.mean**2)
        return Z95 * math.sqrt(variance / max(1, self.samples - 1))

    def value(self) -> OptionValue:
        return OptionValue(self.name, self.mean, self.error, "sampled", self.samples)


@dataclass(frozen=True, slots=True)
class _Plan:
    """How the exchanges of one advice are valued (see ``advise``)."""

    exact_draws: int
    exact_contenders: int
    can_buy: bool
    shortcuts: bool
    deadline: float


def _exchanges(
    backend: _Backend,
    tables: _Tables,
    box: tuple[Card, ...],
    plan: _Plan,
    rng: random.Random,
    only: Collection[str] | None,
    floor: float,
) -> list[OptionValue]:
    """Every buy and change (or those in ``only``): exact where the draws are few; the
    others screened by sampling, those whose interval reaches the best value sampled
    further, and then, while the sampled option with the highest mean is above the best
    exact value, that one enumerated exactly (or, with too many draws, sampled until
    precise): so the best option is exact unless it is a change of all five cards.
    ``floor`` is the best exact value known (fold or bet)."""
    choices: list[tuple[str, tuple[Card, ...], int]] = [("buy", box, 6)]
    for size in range(1, 6):
        for change in itertools.combinations(box, size):
            kept = tuple(card for card in box if card not in change)
            choices.append((" ".join(["change", *map(str, change)]), kept, 5))
    if only is not None:
        choices = [choice for choice in choices if choice[0] in only]
    values: list[OptionValue] = []
    sampled: list[_Sampled] = []
    for name, kept, size in choices:
        draws = math.comb(tables.count, size - len(kept))
        if draws <= plan.exact_draws:
            values.append(_exact(backend, tables, plan, name, kept, size, draws))
        else:
            sampled.append(_Sampled(name, kept, size, draws))
    best = max([floor, *(option.value for option in values)])
    if not sampled:
        return values
    _sample_all(backend, tables, sampled, plan.can_buy, rng, SCREEN_SAMPLES)
    _sample_all(
        backend,
        tables,
        [o for o in sampled if o.mean + o.error >= best],
        plan.can_buy,
        rng,
        CONTENDER_SAMPLES - SCREEN_SAMPLES,
    )
    while sampled:
        leader = max(sampled, key=lambda o: o.mean)
        if leader.mean <= best:
            break
        if leader.draws > plan.exact_contenders:
            _refine(backend, tables, [leader], plan.can_buy, rng, best, plan.deadline)
            break
        exact = _exact(backend, tables, plan, leader.name, leader.kept, leader.size, leader.draws)
        values.append(exact)
        sampled.remove(leader)
        best = max(best, exact.value)
    _refine(backend, tables, sampled, plan.can_buy, rng, best, plan.deadline)
    return values + [option.value() for option in sampled]


def _sample_all(
    backend: _Backend,
    tables: _Tables,
    options: list[_Sampled],
    can_buy: bool,
    rng: random.Random,
    samples: int,
) -> None:
    """``samples`` more draws for each of ``options``, on common random numbers."""
    if options:
        uniforms = backend.uniforms(rng, 9 * samples)
        for option in options:
            _sample(backend, tables, option, can_buy, uniforms, samples)


def _exact(
    backend: _Backend,
    tables: _Tables,
    plan: _Plan,
    name: str,
    kept: tuple[Card, ...],
    size: int,
    draws: int,
) -> OptionValue:
    """An exchange enumerated exactly: every set of cards it may draw."""
    return _exact_exchange(backend, tables, kept, size, plan.can_buy, name, draws, plan.shortcuts)


def _exact_exchange(
    backend: _Backend,
    tables: _Tables,
    kept: tuple[Card, ...],
    size: int,
    can_buy: bool,
    name: str,
    draws: int,
    shortcuts: bool,
) -> OptionValue:
    hand = backend.ints(6)
    for position, card in enumerate(kept):
        hand[position] = card.index
    value = backend.kernels.exact_exchange(
        hand,
        len(kept),
        size,
        tables.unknown,
        tables.count,
        can_buy,
        tables.most_qualifying,
        tables.arrays,
        shortcuts,
        backend.ints(10 * kernels.PENDING + tables.count + 2),
        backend.floats(3 * kernels.PENDING),
    )
    return OptionValue(name, float(value), 0.0, "exact", draws)


def _refine(
    backend: _Backend,
    tables: _Tables,
    sampled: list[_Sampled],
    can_buy: bool,
    rng: random.Random,
    best_exact: float,
    deadline: float,
) -> None:
    """Keep doubling the samples of the screened exchanges whose 95% interval reaches the
    best option's until they are precise enough, or time is up."""
    batch = max([SCREEN_SAMPLES, *(o.samples for o in sampled)])
    while time.process_time() <= deadline:
        best = max([best_exact, *(o.mean - o.error for o in sampled)])
        contenders = [
            o
            for o in sampled
            if o.mean + o.error >= best and o.error > TARGET_ERROR and o.samples < MAX_SAMPLES
        ]
        if not contenders:
            return
        batch = min(2 * batch, MAX_SAMPLES)
        _sample_all(backend, tables, contenders, can_buy, rng, batch)


def _sample(
    backend: _Backend,
    tables: _Tables,
    option: _Sampled,
    can_buy: bool,
    uniforms: Sequence[float],
    samples: int,
) -> None:
    hand = backend.ints(6)
    for position, card in enumerate(option.kept):
        hand[position] = card.index
    total, squares = backend.kernels.sample_exchange(
        hand,
        len(option.kept),
        option.size,
        tables.unknown,
        tables.count,
        uniforms,
        samples,
        can_buy,
        tables.most_qualifying,
        tables.out,
        tables.arrays,
        backend.of(range(tables.count)),
    )
    option.total += float(total)
    option.squares += float(squares)
    option.samples += samples


def _worth_listing(values: list[OptionValue]) -> tuple[OptionValue, ...]:
    """Fold, bet and the buy always; changes among the best five or within half an ante
    of the best option."""
    best = values[0].value
    changes = [v for v in values if v.option.startswith("change")]
    listed = {v.option for v in changes[:5]} | {v.option for v in changes if v.value >= best - 0.5}
    return tuple(v for v in values if not v.option.startswith("change") or v.option in listed)


def advise_purchase(
    cards: Sequence[Card], dealer: Sequence[Card], *, seen: Sequence[Card] = ()
) -> Advice:
    """Value buying the dealer's game for a box that bet holding ``cards`` (5 or 6, after
    any exchange) when his ``dealer`` hand (5 cards, the up card last) did not qualify:
    every card he may draw is enumerated."""
    started = time.process_time()
    box = tuple(cards)
    evaluation = evaluate(box)
    hand = _check(dealer, 5, "dealer")
    if evaluate(hand).qualifies:
        raise InvalidInputError("dealer: he qualifies; his game cannot be bought")
    unknown = _unknown([*box, *hand, *seen])
    outcomes: list[float] = []
    for draw in unknown:
        after = evaluate(dealer_after_purchase(hand, draw))
        if after.qualifies:
            outcomes.append(kernels.versus(evaluation.key, evaluation.pays, after.key) - 1.0)
        else:
            outcomes.append(kernels.BET_BACK_NET)
    buy = OptionValue("buy-dealer", sum(outcomes) / len(outcomes), 0.0, "exact", len(outcomes))
    decline = OptionValue("decline", kernels.DEALER_OUT_NET, 0.0, "exact", 1)
    options = sorted([buy, decline], key=lambda option: -option.value)
    return Advice(box, hand[4], tuple(options), 2, time.process_time() - started, False)
