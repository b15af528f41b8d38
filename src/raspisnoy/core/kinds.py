"""The kinds of round (docs/rules.md 1, "The round plan"; 2.2)."""

from __future__ import annotations

from enum import StrEnum

from raspisnoy.core.errors import InvalidInputError

__all__ = ["SPECIAL_KINDS", "RoundKind", "parse_plan_entry"]


class RoundKind(StrEnum):
    """The kinds of round; the value is the name records and ``schedule --json`` use."""

    NORMAL = "normal"
    #: «бескозырка»: no trump, bids as usual.
    NO_TRUMP = "no-trump"
    #: «тёмная»: bids are made before seeing the hand or the trump.
    BLIND = "blind"
    #: «мизер»: no bids; every trick taken costs.
    MISERE = "misere"
    #: «золотая»: no bids; every trick taken pays.
    GOLDEN = "golden"
    #: «лобовая»: one card each; while bidding you see everyone's card but your own.
    FOREHEAD = "forehead"
    #: «проценты»: rounds of 4 cards whose points count several times over.
    PERCENT = "percent"

    @property
    def has_bids(self) -> bool:
        """Misère and golden rounds are played without bids."""
        return self not in (RoundKind.MISERE, RoundKind.GOLDEN)

    def cards(self, top: int) -> int:
        """Cards dealt in a special round of this kind when the cap is ``top``."""
        if self is RoundKind.FOREHEAD:
            return 1
        if self is RoundKind.PERCENT:
            return min(4, top)
        return top

    @property
    def has_trump(self) -> bool:
        """No-trump rounds turn up no card and have no trump."""
        return self is not RoundKind.NO_TRUMP


#: The kinds the ``special_rounds`` option may list.
SPECIAL_KINDS = tuple(kind.value for kind in RoundKind if kind is not RoundKind.NORMAL)


def parse_plan_entry(number: int, text: str) -> tuple[int, RoundKind]:
    """Cards and kind of one ``custom_plan`` entry: ``CARDS`` or ``CARDS:KIND`` (``9:blind``)."""
    cards_text, _, kind_text = text.partition(":")
    try:
        cards = int(cards_text)
        kind = RoundKind(kind_text.strip().lower() or "normal")
    except ValueError:
        kinds = ", ".join(kind.value for kind in RoundKind)
        raise InvalidInputError(
            f"custom_plan entry {number} {text!r}: expected CARDS or CARDS:KIND ({kinds})",
            code="plan_entry",
            params={"number": number, "entry": text, "kinds": kinds},
        ) from None
    if cards < 1:
        raise InvalidInputError(
            f"custom_plan entry {number} {text!r}: cards must be at least 1",
            code="plan_no_cards",
            params={"number": number, "entry": text},
        )
    return cards, kind
