"""Points for one player's round (RULES.md 1, "Scoring")."""

from __future__ import annotations

from raspisnoy.core.errors import InvalidInputError
from raspisnoy.core.kinds import RoundKind
from raspisnoy.core.rules import Rules

__all__ = ["round_points"]

_MISERE, _GOLDEN = RoundKind.MISERE, RoundKind.GOLDEN


def round_points(rules: Rules, kind: RoundKind, bid: int | None, taken: int) -> int:
    """Points for taking ``taken`` tricks after bidding ``bid`` (``None``: no bids this round)."""
    if kind is _MISERE:
        return rules.misere_zero if taken == 0 else rules.misere_per_trick * taken
    if kind is _GOLDEN:
        return rules.golden_zero if taken == 0 else rules.golden_per_trick * taken
    if bid is None:
        raise InvalidInputError(f"a {kind} round is scored against a bid")
    if taken == bid:
        return rules.exact_zero if bid == 0 else rules.exact_per_trick * bid
    if taken < bid:
        return rules.undertrick_per_trick * (bid - taken)
    return rules.overtrick_per_trick * taken
