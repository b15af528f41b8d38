"""Points for one player's round (docs/rules.md 1, "Scoring"; 2.6)."""

from __future__ import annotations

from raspisnoy.core.errors import InvalidInputError
from raspisnoy.core.kinds import RoundKind
from raspisnoy.core.rules import Rules

__all__ = ["leaders", "round_points"]

_MISERE, _GOLDEN, _FOREHEAD = RoundKind.MISERE, RoundKind.GOLDEN, RoundKind.FOREHEAD


def round_points(rules: Rules, kind: RoundKind, bid: int | None, taken: int, *, cards: int) -> int:
    """Points for taking ``taken`` of ``cards`` tricks after bidding ``bid`` (``None``: no bids
    this round), with the round kind's multiplier (``*_percent`` options), rounded half away
    from zero."""
    points = _unscaled_points(rules, kind, bid, taken, cards)
    if kind is RoundKind.PERCENT:
        return points * rules.percent_multiplier
    percent = _PERCENT_OPTION.get(kind)
    return points if percent is None else _scaled(points, getattr(rules, percent))


_PERCENT_OPTION = {
    RoundKind.BLIND: "blind_percent",
    RoundKind.NO_TRUMP: "no_trump_percent",
    RoundKind.MISERE: "misere_percent",
    RoundKind.GOLDEN: "golden_percent",
}


def _scaled(points: int, percent: int) -> int:
    whole, rest = divmod(abs(points) * percent, 100)
    whole += rest >= 50
    return whole if points >= 0 else -whole


def _unscaled_points(rules: Rules, kind: RoundKind, bid: int | None, taken: int, cards: int) -> int:
    if kind is _MISERE:
        if taken == 0:
            return rules.misere_zero
        if rules.misere_all_tricks and taken == cards:
            return rules.misere_all_tricks
        return rules.misere_per_trick * taken
    if kind is _GOLDEN:
        return rules.golden_zero if taken == 0 else rules.golden_per_trick * taken
    if bid is None:
        raise InvalidInputError(f"a {kind} round is scored against a bid")
    if kind is _FOREHEAD:
        return rules.forehead_exact if taken == bid else rules.forehead_miss
    if taken == bid:
        return _exact_points(rules, bid, cards)
    if taken == 0 and rules.khishti_penalty:
        return rules.khishti_penalty
    if rules.miss_scoring == "per_trick_taken":
        return rules.miss_per_trick * taken
    if taken < bid:
        missing = bid - taken if rules.undertrick_counts == "missing" else bid
        return rules.undertrick_per_trick * missing
    counted = taken if rules.overtrick_counts == "taken" else taken - bid
    return rules.overtrick_per_trick * counted


def _exact_points(rules: Rules, bid: int, cards: int) -> int:
    if bid == 0:
        return rules.exact_zero
    points = rules.exact_per_trick * bid + rules.exact_bonus
    if bid == cards > 1:
        points *= rules.bid_all_multiplier
    return points


def leaders(rules: Rules, totals: tuple[int, ...]) -> tuple[int, ...]:
    """The seats with the highest total (all of them on a tie, docs/rules.md 2.7 and 3.5); with the
    option ``zero_total_second`` a total of exactly 0 counts as second place and never
    leads."""
    if rules.zero_total_second and any(totals):
        top = max(total for total in totals if total)
    else:
        top = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == top)
