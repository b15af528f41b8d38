"""A six-card hand whose second combination could be named two ways that pay the same:
``JH 3H KD AH 6H KH`` is a flush, and besides it both one pair (K K) and ace-king pay 1.
The higher combination is the one named (issue 28: dropping the tie-break named ace-king
and no test noticed)."""

from __future__ import annotations

from raspisnoy.casino import Combination, evaluate, parse_cards


def test_a_pair_is_named_over_ace_king_that_pays_the_same() -> None:
    hand = evaluate(parse_cards("JH 3H KD AH 6H KH"))
    assert hand.combination is Combination.FLUSH
    assert Combination.ONE_PAIR.pays == Combination.ACE_KING.pays  # the tie to break
    assert hand.second is Combination.ONE_PAIR
    assert hand.to_json()["second"] == "one-pair"
    assert hand.pays == Combination.FLUSH.pays + Combination.ONE_PAIR.pays
