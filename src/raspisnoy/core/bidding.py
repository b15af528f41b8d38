"""Which bids a player may make: the dealer's constraint and the zero-bid limit
(docs/rules.md 1, "Bidding"; 2.4), as pure functions of the numbers, for
the game and for the score sheet of games played with real cards."""

from __future__ import annotations

from raspisnoy.core.rules import Rules

__all__ = ["forbidden_bid", "zero_bid_banned"]


def forbidden_bid(rules: Rules, cards: int, bid_sum: int, *, dealer: bool) -> int | None:
    """The dealer's forbidden bid, the one that would make the bids add up to the cards
    dealt; ``None`` for other players, without the constraint, or when the others' bids
    already exceed the cards."""
    if not dealer or not rules.dealer_constraint or bid_sum > cards:
        return None
    return cards - bid_sum


def zero_bid_banned(rules: Rules, cards: int, forbidden: int | None, streak: int) -> bool:
    """Whether a player who bid 0 in the last ``streak`` rounds may not bid 0 again. The
    dealer's rule wins a conflict: 0 stays allowed when it is the only bid left."""
    limit = rules.max_zero_bids_in_a_row
    if not limit or streak < limit:
        return False
    return any(amount != forbidden for amount in range(1, cards + 1))
