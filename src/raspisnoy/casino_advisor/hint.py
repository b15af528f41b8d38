"""The advisor's values for the decision a hand awaits, from what the player may know.

``advice_for`` reads a ``HandView`` only (never the hand itself), so a hint can hold
nothing the player could not know: the box's cards, the dealer's up card (or his whole
hand once he shows it), the other boxes' cards that are shown, and the money left. The
terminal game (``raspisnoy casino play``) and the server (``GET /api/casino/hand/hint``)
both ask it.
"""

from __future__ import annotations

from raspisnoy.casino.actions import Phase
from raspisnoy.casino.view import HandView
from raspisnoy.casino_advisor.advisor import Advice, advise, advise_purchase
from raspisnoy.core import IllegalActionError

__all__ = ["advice_for"]


def advice_for(view: HandView, *, seed: int = 0) -> Advice:
    """The value of every option of the box to act (``IllegalActionError`` once the hand
    is over); ``seed`` seeds the sampling of large changes."""
    if view.to_act is None:
        raise IllegalActionError("the hand is over: nothing to decide")
    mine = view.boxes[view.to_act]
    cards = mine.cards or ()
    others = [c for b in view.boxes if b.number != mine.number for c in (b.cards or ())]
    if view.phase is Phase.PURCHASE and view.dealer is not None:
        return advise_purchase(cards, view.dealer, seen=others)
    return advise(
        cards,
        view.up_card,
        seen=others,
        money=view.balance / mine.ante,
        exchange=not mine.exchanged,
        seed=seed,
    )
