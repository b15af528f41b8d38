"""A cheap strategy that plays like the advisor: its decisions looked up by kind of hand.

The advisor (``raspisnoy.casino_advisor.advisor``) values every option of a decision in a
fraction of a second, which is too slow to play a million hands. This strategy looks
the decision up instead, in a table built offline from the advisor's exact values
(``exact_values``: every dealer hand and every draw enumerated, nothing sampled) at a
fixed list of decision points (``build_table``; the command is in ``docs/casino.md``)
and stored in ``casino_advisor/data/strategy.json``.

**The box's decision.** A decision point (five cards and the dealer's up card) is
described by its *kind*, at several levels from fine to coarse (``kinds``): the
combination held, the ranks that matter for it (the pair, the trips, the top cards of a
hand without a pair), the draws (four or three cards of a suit, the ranks that would
complete a straight) and the up card's rank, exact or in six bands. What to do is one of
the ``RULES``, each of which names a decision by what the box keeps, so that one rule
means the same thing for every hand of a kind: fold, bet, buy a sixth card, keep the
paired cards (and the best one or two others), keep a four-card flush or straight draw
or a three-card flush draw, keep the top one to four cards, change all five. The table
ranks the rules of each kind by the mean of their exact values over the positions of
that kind it was built from; the strategy takes the best-ranked rule that is legal for the
hand and the money left, at the finest level that any position went into.

**After a buy or a change** the box may only bet or fold: it bets where betting is worth
more than folding against every hand the dealer may hold with his up card (the box's
own cards not removed, his game bought never): the table holds, for each up rank and
total pays, the lowest key that bets (``after_exchange``).

**The dealer's game** is bought exactly as the advisor says (``advise_purchase``,
every card he may draw enumerated): that decision is cheap already.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from raspisnoy.casino import ranking
from raspisnoy.casino.cards import DECK, Card
from raspisnoy.casino_advisor import kernels
from raspisnoy.core import InvalidInputError

__all__ = [
    "RULES",
    "STRATEGY_FORMAT",
    "PlayedBox",
    "Strategy",
    "build_table",
    "exact_values",
    "kinds",
    "load_strategy",
    "option_of",
    "sample_positions",
]

STRATEGY_FORMAT = "raspisnoy-casino-strategy/1"

#: The decisions a table ranks, each defined by what the box keeps (``kept``).
RULES = (
    "fold",
    "bet",
    "buy",
    "paired",
    "paired+1",
    "paired+2",
    "flush4",
    "straight4",
    "flush3",
    "top1",
    "top2",
    "top3",
    "top4",
    "all",
)
#: Rules that bet or stand on the cards as they are.
_STANDING = {"fold": "fold", "bet": "bet", "buy": "buy"}
#: Up ranks (0 = two … 12 = ace) in six bands: 2-6, 7-9, T-J, Q, K, A.
_BANDS = (0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5)
#: The rank sets of the ten straights, highest first (the wheel A-2-3-4-5 last).
_WINDOWS = tuple(
    [frozenset(range(top - 4, top + 1)) for top in range(12, 3, -1)] + [frozenset({12, 0, 1, 2, 3})]
)
#: A kind's ranking is used once this many positions of it went into the table: the
#: finest kind seen decides (5-fold cross-validation on the build's values preferred it
#: to 2-12, and these levels to coarser ones).
MIN_POSITIONS = 1
#: Total pays above this share the last after-exchange threshold.
MAX_PAYS = 8
#: A showdown's outcome by the sign of its net before costs.
_OUTCOMES = {1: "win", 0: "tie", -1: "lose"}
#: A position: the box's five card indexes and the up card's.
Position = tuple[tuple[int, ...], int]


def _rank(card: int) -> int:
    return card % 13


def _by_rank(cards: Sequence[int], positions: Iterable[int]) -> list[int]:
    """Positions ordered by their card's rank, highest first (then by position)."""
    return sorted(positions, key=lambda p: (-_rank(cards[p]), p))


def _counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * 13
    for card in cards:
        counts[_rank(card)] += 1
    return counts


def _suit_group(cards: Sequence[int]) -> list[int]:
    """The positions of the box's largest group of one suit (the lowest suit on a tie)."""
    groups: list[list[int]] = [[], [], [], []]
    for position, card in enumerate(cards):
        groups[card // 13].append(position)
    return max(groups, key=len)


def _straight_window(cards: Sequence[int]) -> tuple[list[int], int]:
    """Four cards of distinct ranks within five consecutive ranks (the highest such
    window; the wheel A-2-3-4-5 lowest) and how many ranks would complete a straight
    with them (1 inside, 2 open-ended); ``([], 0)`` when there is none."""
    held = {_rank(card) for card in cards}
    for window in _WINDOWS:
        inside = held & window
        if len(inside) != 4:
            continue
        positions: list[int] = []
        for rank in sorted(inside, reverse=True):
            positions.append(next(p for p, c in enumerate(cards) if _rank(c) == rank))
        outs = sum(1 for rank in range(13) if rank not in held and _makes_straight(inside | {rank}))
        return positions, outs
    return [], 0


def _makes_straight(ranks: set[int]) -> bool:
    return ranks in _WINDOWS


def kept(rule: str, cards: Sequence[int]) -> tuple[int, ...] | None:
    """The positions the box keeps under an exchange ``rule`` (``None``: the rule does
    not apply to these cards, or would keep all five)."""
    counts = _counts(cards)
    paired = [p for p, c in enumerate(cards) if counts[_rank(c)] >= 2]
    single = _by_rank(cards, (p for p, c in enumerate(cards) if counts[_rank(c)] == 1))
    result: list[int] | None = None
    if rule.startswith("paired") and paired:
        extra = int(rule[7:]) if "+" in rule else 0
        if len(single) > extra:
            result = paired + single[:extra]
    elif rule.startswith("flush"):
        group = _suit_group(cards)
        if len(group) == int(rule[5:]):
            result = group
    elif rule == "straight4":
        window, _outs = _straight_window(cards)
        if window and ranking.rank5(*cards) >> ranking.CATEGORY_SHIFT < ranking.STRAIGHT:
            result = window
    elif rule.startswith("top") and not paired:
        result = single[: int(rule[3:])]
    elif rule == "all":
        result = []
    return None if result is None else tuple(sorted(result))


def option_of(rule: str, cards: Sequence[int]) -> str | None:
    """The advisor's name of the decision ``rule`` takes on these cards (``fold``,
    ``bet``, ``buy`` or ``change …`` with the changed cards in the box's order), or
    ``None`` where the rule does not apply."""
    if rule in _STANDING:
        return _STANDING[rule]
    keep = kept(rule, cards)
    if keep is None:
        return None
    return " ".join(["change", *(str(DECK[c]) for p, c in enumerate(cards) if p not in keep)])


def kinds(cards: Sequence[int], up: int) -> tuple[str, ...]:
    """The kinds of a decision point, finest first (see the module's docstring)."""
    category = ranking.rank5(*cards) >> ranking.CATEGORY_SHIFT
    u, band = _rank(up), _BANDS[_rank(up)]
    counts = _counts(cards)
    by_count = sorted(range(13), key=lambda r: (-counts[r], -r))
    top = by_count[0]
    if category >= ranking.STRAIGHT and category != ranking.FOUR_OF_A_KIND:
        return (f"c{category} u{u}", f"c{category}")
    if category in (ranking.FOUR_OF_A_KIND, ranking.THREE_OF_A_KIND, ranking.TWO_PAIRS):
        # The quad, the trips or the high pair (and the low pair) decide.
        fine = f"{top} {by_count[1]}" if category == ranking.TWO_PAIRS else f"{top}"
        return (
            f"c{category} {fine} u{u}",
            f"c{category} {top} b{band}",
            f"c{category} {_BANDS[top]}",
            f"c{category}",
        )
    group = len(_suit_group(cards))
    _window, outs = _straight_window(cards)
    draws = f"g{group if group >= 3 else 0} s{outs}"
    if category == ranking.ONE_PAIR:
        kicker = by_count[1]
        kick = kicker if kicker >= 10 else "x"
        side = ">" if top > u else "<="
        return (
            f"c2 {top} {kicker} {draws} u{u}",
            f"c2 {top} {kick} {draws} b{band}",
            f"c2 {top} {draws} b{band}",
            f"c2 {top} {side} {draws}",
            f"c2 {_BANDS[top]} {side} {draws}",
            f"c2 {draws}",
            "c2",
        )
    tops = sorted((_rank(c) for c in cards), reverse=True)
    return (
        f"c{category} {tops[0]} {tops[1]} {tops[2]} {draws} u{u}",
        f"c{category} {tops[0]} {tops[1]} {draws} b{band}",
        f"c{category} {tops[0]} {draws} b{band}",
        f"c{category} {tops[0]} {draws}",
        f"c{category} {_BANDS[tops[0]]} {draws} b{band}",
        f"c{category} {draws}",
        f"c{category}",
    )


@dataclass(frozen=True, slots=True)
class PlayedBox:
    """One box played by ``Strategy.play``: its net and the chips it put in, in antes,
    and the rule of its decision."""

    net: float
    wagered: int
    rule: str
    #: ``fold``, ``win``, ``tie``, ``lose``, ``ante`` (the dealer did not qualify) or
    #: ``bet-back`` (his game bought, still no qualification), as ``settle`` names them.
    outcome: str
    #: Whether the box bought the dealer's game.
    bought: bool = False


class _Evaluator:
    """Hand keys and pays: the compiled kernels where Numba is installed, else the pure."""

    def __init__(self) -> None:
        from raspisnoy.casino_advisor.fast import compiled

        jit = compiled()
        self._codes: Callable[..., tuple[int, int, int, int]] = (
            jit.combination_codes if jit is not None else ranking.combination_codes
        )
        self._of: Callable[[Sequence[int]], Sequence[int]] = (
            jit.arrays.of if jit is not None else list
        )
        self._rank5: Callable[..., int] = jit.rank5 if jit is not None else ranking.rank5

    def codes(self, cards: Sequence[int]) -> tuple[int, int]:
        """The key and total pays of 5 or 6 cards."""
        key, _first, _second, pays = self._codes(self._of(cards), len(cards))
        return int(key), int(pays)

    def key5(self, cards: Sequence[int]) -> int:
        return int(self._rank5(cards[0], cards[1], cards[2], cards[3], cards[4]))


@cache
def _evaluator() -> _Evaluator:
    return _Evaluator()


@dataclass(frozen=True, slots=True)
class Strategy:
    """A built table: the rules ranked per kind, and the after-exchange thresholds."""

    #: Kind → (positions it was built from, rules best first).
    rankings: Mapping[str, tuple[int, tuple[str, ...]]]
    #: Per up rank, per total pays 0..MAX_PAYS: the lowest key that bets (-1: never).
    thresholds: tuple[tuple[int, ...], ...]

    def ranking(self, cards: Sequence[int], up: int) -> tuple[str, tuple[str, ...]]:
        """The kind used for a decision point and its rules, best first."""
        levels = kinds(cards, up)
        for level in levels:
            entry = self.rankings.get(level)
            if entry is not None and (entry[0] >= MIN_POSITIONS or level == levels[-1]):
                return level, entry[1]
        raise InvalidInputError(f"the strategy table has no kind {levels[-1]}")

    def rule(self, cards: Sequence[int], up: int, money: float | None = None) -> str:
        """The best-ranked rule that applies to the box's five card indexes and is legal
        with ``money`` antes left after the ante (``None``: enough for anything)."""
        _kind, rules = self.ranking(cards, up)
        for rule in rules:
            if rule == "bet" and money is not None and money < 2:
                continue
            if rule not in ("fold", "bet") and money is not None and money < 3:
                continue
            if option_of(rule, cards) is not None:
                return rule
        return "fold"

    def decide(self, cards: Sequence[Card], up: Card, money: float | None = None) -> str:
        """The decision for a box's five ``cards`` and the dealer's ``up`` card, with
        ``money`` antes left after the ante (``None``: enough for anything): ``fold``,
        ``bet``, ``buy`` or ``change …``, named as the advisor names them."""
        if len(cards) != 5 or not all(isinstance(c, Card) and not c.is_joker for c in cards):
            raise InvalidInputError("cards: 5 cards of the 52-card deck wanted")
        indexes = [card.index for card in cards]
        option = option_of(self.rule(indexes, up.index, money), indexes)
        assert option is not None  # rule() returns only rules that apply
        return option

    def bets(self, key: int, pays: int, up: int) -> bool:
        """Whether a box of ``key`` and total ``pays`` that has bought or changed bets
        against the up card of index ``up``."""
        threshold = self.thresholds[_rank(up)][min(pays, MAX_PAYS)]
        return threshold >= 0 and key >= threshold

    def after_exchange(self, cards: Sequence[Card], up: Card, money: float | None = None) -> str:
        """``bet`` or ``fold`` for a box that has bought or changed (5 or 6 ``cards``)."""
        key, pays = _evaluator().codes([card.index for card in cards])
        may_bet = money is None or money >= 2
        return "bet" if may_bet and self.bets(key, pays, up.index) else "fold"

    def purchase(
        self,
        cards: Sequence[Card],
        dealer: Sequence[Card],
        seen: Sequence[Card] = (),
        money: float | None = None,
    ) -> str:
        """``buy-dealer`` or ``decline`` for a box that bet holding ``cards`` when the
        ``dealer`` (his five, the up card last) did not qualify: the advisor's choice
        (``seen``: cards changed away), where ``money`` (antes on hand) pays for it."""
        from raspisnoy.casino_advisor.advisor import advise_purchase

        if money is not None and money < 1:
            return "decline"
        return advise_purchase(cards, dealer, seen=seen).best.option

    def play(self, deck: Sequence[int]) -> PlayedBox:
        """Play one box of ante 1 on a deck of card indexes in the engine's order (the
        box's five, the dealer's five with the up card last, then the stock) with this
        strategy, and settle it; fast, for the house-edge benchmark. The purchase of the
        dealer's game is decided as ``purchase`` decides it, on compiled evaluations."""
        evaluator = _evaluator()
        box, dealer, up = list(deck[:5]), list(deck[5:10]), deck[9]
        rule = self.rule(box, up)
        if rule == "fold":
            return PlayedBox(kernels.FOLD_NET, 1, rule, "fold")
        cards, seen, stock, cost = box, [], 10, 0
        if rule != "bet":
            keep = kept(rule, box) if rule != "buy" else tuple(range(5))
            assert keep is not None
            drawn = 1 if rule == "buy" else 5 - len(keep)
            seen = [card for p, card in enumerate(box) if p not in keep]
            cards = [box[p] for p in keep] + list(deck[10 : 10 + drawn])
            stock, cost = 10 + drawn, 1
        key, pays = evaluator.codes(cards)
        if rule != "bet" and not self.bets(key, pays, up):
            return PlayedBox(kernels.FOLD_NET - cost, 1 + cost, rule, "fold")
        wagered = 3 + cost
        dealer_key = evaluator.key5(dealer)
        if dealer_key >= ranking.QUALIFYING_KEY:
            net = kernels.versus(key, pays, dealer_key)
            return PlayedBox(net - cost, wagered, rule, _OUTCOMES[(net > 0) - (net < 0)])
        known = set(cards) | set(dealer) | set(seen)
        highest = max(range(5), key=lambda p: dealer[p] % 13)
        nets = []
        for draw in range(52):
            if draw not in known:
                after = [*dealer[:highest], draw, *dealer[highest + 1 :]]
                nets.append(kernels.bought_net(key, pays, evaluator.key5(after)))
        if statistics.fmean(nets) < kernels.DEALER_OUT_NET:
            return PlayedBox(kernels.DEALER_OUT_NET - cost, wagered, rule, "ante")
        after = [*dealer[:highest], deck[stock], *dealer[highest + 1 :]]
        dealer_key = evaluator.key5(after)
        net = kernels.bought_net(key, pays, dealer_key)
        if dealer_key < ranking.QUALIFYING_KEY:
            outcome = "bet-back"
        else:
            outcome = _OUTCOMES[(net + 1 > 0) - (net + 1 < 0)]
        return PlayedBox(net - cost, wagered + 1, rule, outcome, bought=True)

    def to_json(self) -> dict[str, object]:
        return {
            "format": STRATEGY_FORMAT,
            "min_positions": MIN_POSITIONS,
            "thresholds": [list(row) for row in self.thresholds],
            "kinds": {
                kind: [count, " ".join(rules)]
                for kind, (count, rules) in sorted(self.rankings.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Strategy:
        if data.get("format") != STRATEGY_FORMAT:
            raise InvalidInputError(f"format: {STRATEGY_FORMAT} wanted")
        rankings = {
            kind: (int(count), tuple(rules.split()))
            for kind, (count, rules) in data["kinds"].items()
        }
        thresholds = tuple(tuple(int(key) for key in row) for row in data["thresholds"])
        return cls(rankings, thresholds)


@cache
def load_strategy() -> Strategy:
    """The table shipped with the package (``casino_advisor/data/strategy.json``)."""
    text = resources.files("raspisnoy.casino_advisor").joinpath("data/strategy.json").read_text()
    return Strategy.from_json(json.loads(text))


# ----------------------------------------------------------------- building the table


def sample_positions(count: int, seed: int) -> list[Position]:
    """``count`` random decision points, dealt from a full deck; one in eight is dealt
    until it holds two pairs or better (a different combination in turn), so that the
    rarer hands have positions of their own."""
    rng = random.Random(seed)
    strong = (
        ranking.TWO_PAIRS,
        ranking.THREE_OF_A_KIND,
        ranking.STRAIGHT,
        ranking.FLUSH,
        ranking.FULL_HOUSE,
        ranking.FOUR_OF_A_KIND,
        ranking.STRAIGHT_FLUSH,
        ranking.ROYAL_FLUSH,
    )
    positions: list[Position] = []
    for number in range(count):
        wanted = strong[number // 8 % len(strong)] if number % 8 == 7 else None
        positions.append(_deal(rng, wanted))
    return positions


def _deal(rng: random.Random, category: int | None) -> Position:
    if category in (ranking.STRAIGHT_FLUSH, ranking.ROYAL_FLUSH):
        top = 12 if category == ranking.ROYAL_FLUSH else rng.randrange(3, 12)
        suit = rng.randrange(4)
        # The wheel (top 3, the five) takes the ace as its lowest card.
        straight = [13 * suit + (top - step if top - step >= 0 else 12) for step in range(5)]
        up = rng.choice([card for card in range(52) if card not in straight])
        return tuple(straight), up
    while True:
        deal = rng.sample(range(52), 6)
        box = tuple(deal[:5])
        if category is None or ranking.rank5(*box) >> ranking.CATEGORY_SHIFT == category:
            return box, deal[5]


#: The most draws of any exchange from a decision point (a change of all five cards
#: from the 46 unknown cards): every exchange up to it is enumerated, none sampled.
EVERY_DRAW = math.comb(46, 5)


def exact_values(position: Position, rules: Collection[str] = RULES) -> dict[str, float]:
    """The exact values of the options the ``rules`` name at a position: every hand the
    dealer may hold, every set of cards an exchange may draw (a change of all five
    cards: 1,370,754) and every card he may draw when his game is bought enumerated, so
    the values depend on no seed. ``rules`` lets a build value the costly change of all
    five cards apart from the others."""
    from raspisnoy.casino_advisor.advisor import advise

    cards, up = position
    options = {option for rule in rules if (option := option_of(rule, cards)) is not None}
    box = [DECK[c] for c in cards]
    advice = advise(box, DECK[up], budget_s=0.0, only=options, exact_draws=EVERY_DRAW)
    assert all(option.method == "exact" for option in advice.options)
    return {option.option: option.value for option in advice.options}


def rule_values(position: Position, values: Mapping[str, float]) -> dict[str, float]:
    """Each rule that applies at a position and its value from the advisor's ``values``;
    a change not valued there (the change of all five cards where a build has not
    reached it yet) gets the lowest value listed, which fold's -1 bounds from above, so
    it never ranks before fold, which is always legal."""
    floor = min(values.values())
    found: dict[str, float] = {}
    for rule in RULES:
        option = option_of(rule, position[0])
        if option is not None:
            found[rule] = values.get(option, floor)
    return found


def build_table(
    positions: Sequence[Position],
    valued: Sequence[Mapping[str, float]],
    thresholds: tuple[tuple[int, ...], ...] | None = None,
) -> Strategy:
    """The table from positions and the advisor's values at each: every kind of every
    position ranks the rules by their mean value over its positions (a rule that does
    not apply at some of them by the mean where it does), and the after-exchange
    thresholds (``bet_thresholds()`` unless given)."""
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    counts: dict[str, int] = defaultdict(int)
    for position, values in zip(positions, valued, strict=True):
        rules = rule_values(position, values)
        for kind in kinds(*position):
            counts[kind] += 1
            for rule, value in rules.items():
                sums[kind][rule].append(value)
    rankings = {
        kind: (
            counts[kind],
            tuple(
                sorted(rules, key=lambda rule: (-statistics.fmean(rules[rule]), RULES.index(rule)))
            ),
        )
        for kind, rules in sums.items()
    }
    return Strategy(rankings, bet_thresholds() if thresholds is None else thresholds)


@cache
def bet_thresholds() -> tuple[tuple[int, ...], ...]:
    """Per up rank and total pays (0..MAX_PAYS), the lowest key of a box for which
    betting beats folding against every hand the dealer may hold with an up card of that
    rank (his four others from the other 51 cards; the purchase of his game left out,
    which only ever adds to a bet): -1 where no key does."""
    from raspisnoy.casino_advisor.fast import compiled

    jit = compiled()
    rows: list[tuple[int, ...]] = []
    for up in range(13):  # the up card of each rank, in the first suit
        unknown = [card for card in range(52) if card != up]
        hands = kernels.binomial(51, 4)
        if jit is None:
            keys, masks, highest = [0] * hands, [0] * hands, [0] * hands
            kernels.fill_dealer_table(up, unknown, 51, keys, masks, highest)
        else:
            keys, masks, highest = (
                jit.arrays.ints(hands),
                jit.arrays.ints(hands),
                jit.arrays.ints(hands),
            )
            jit.fill_dealer_table(up, jit.arrays.of(unknown), 51, keys, masks, highest)
        ordered = sorted(int(key) for key in keys)
        rows.append(tuple(_threshold(ordered, pays) for pays in range(MAX_PAYS + 1)))
    return tuple(rows)


def _threshold(ordered: Sequence[int], pays: int) -> int:
    """The lowest key whose rough bet value (``kernels.rough_bet_value``) over the
    sorted dealer keys beats folding, or -1. The value rises with the key, so the lowest
    is found by bisection over the dealer's keys and the keys just above them."""
    hands = len(ordered)
    out = kernels.count_below(ordered, 0, hands, ranking.QUALIFYING_KEY, False)
    candidates = sorted(set(ordered) | {key + 1 for key in ordered})
    if kernels.rough_bet_value(candidates[-1], pays, ordered, hands, out) <= kernels.FOLD_NET:
        return -1
    low, high = 0, len(candidates) - 1
    while low < high:
        middle = (low + high) // 2
        if (
            kernels.rough_bet_value(candidates[middle], pays, ordered, hands, out)
            > kernels.FOLD_NET
        ):
            high = middle
        else:
            low = middle + 1
    return candidates[low]
