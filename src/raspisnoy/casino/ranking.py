"""Hand ranking on card indexes: the keys that order hands, the combinations and the pay
table (docs/casino.md, *The rules*), the arithmetic of ``raspisnoy.casino.evaluate``.

A card is its ``raspisnoy.core.cards`` index, ``13 * suit + rank - 2``, so ``index % 13``
is the rank (0 = two … 12 = ace) and ``index // 13`` the suit. Every function here uses
integers, tuples and indexable sequences only, so the same source runs as plain Python
(what the rules run) and compiled by Numba: the advisor (``raspisnoy.casino_advisor``)
compiles it with its own loops, which call it for every dealer hand.

A hand's **key** orders hands as poker does: ``category << 20`` and then up to five
4-bit ranks, most significant first (the quad, trips or pairs before the kickers; a
straight only by its top card, the wheel A-2-3-4-5 by its five).
"""

from __future__ import annotations

from collections.abc import Sequence

# Categories, lowest first; ``CATEGORY_PAYS`` is the pay table on the bet (docs/casino.md).
NO_HAND = 0
ACE_KING = 1
ONE_PAIR = 2
TWO_PAIRS = 3
THREE_OF_A_KIND = 4
STRAIGHT = 5
FLUSH = 6
FULL_HOUSE = 7
FOUR_OF_A_KIND = 8
STRAIGHT_FLUSH = 9
ROYAL_FLUSH = 10
CATEGORY_PAYS = (0, 1, 1, 2, 3, 4, 5, 7, 20, 50, 100)

CATEGORY_SHIFT = 20
#: The lowest key that qualifies the dealer: any ace-king.
QUALIFYING_KEY = ACE_KING << CATEGORY_SHIFT
ACE = 12
KING = 11
_WHEEL = 1 << ACE | 0b1111
_ACE_KING_BITS = 1 << ACE | 1 << KING


def popcount(bits: int) -> int:
    """The number of set bits of a mask below 2**62, without a loop or a branch (the
    advisor's inner loops count bits of every purchase row)."""
    bits -= bits >> 1 & 0x5555555555555555
    bits = (bits & 0x3333333333333333) + (bits >> 2 & 0x3333333333333333)
    bits = bits + (bits >> 4) & 0x0F0F0F0F0F0F0F0F
    bits += bits >> 8
    bits += bits >> 16
    bits += bits >> 32
    return bits & 0x7F


def ranks_high_to_low(mask: int) -> int:
    """The ranks of a rank mask as 4-bit fields, highest first (a key's kickers)."""
    packed = 0
    for rank in range(12, -1, -1):
        if mask >> rank & 1:
            packed = packed << 4 | rank
    return packed


def rank_multiplicities(ranks: Sequence[int], count: int) -> tuple[int, int, int, int]:
    """Rank masks of the ranks seen at least once, twice, three and four times."""
    once = twice = thrice = four = 0
    for position in range(count):
        bit = 1 << ranks[position]
        if thrice & bit:
            four |= bit
        elif twice & bit:
            thrice |= bit
        elif once & bit:
            twice |= bit
        else:
            once |= bit
    return once, twice, thrice, four


def rank5(a: int, b: int, c: int, d: int, e: int) -> int:
    """The key of the five cards with these indexes."""
    ranks = (a % 13, b % 13, c % 13, d % 13, e % 13)
    suit = a // 13
    flush = b // 13 == suit and c // 13 == suit and d // 13 == suit and e // 13 == suit
    once, twice, thrice, four = rank_multiplicities(ranks, 5)
    if twice == 0:
        top = -1
        if once == _WHEEL:
            top = 3
        else:
            low = once & -once
            if once == low * 0b11111:
                top = popcount(low - 1) + 4
        if top >= 0:
            category = STRAIGHT
            if flush:
                category = ROYAL_FLUSH if top == ACE else STRAIGHT_FLUSH
            return category << CATEGORY_SHIFT | top
        if flush:
            category = FLUSH
        elif once & _ACE_KING_BITS == _ACE_KING_BITS:
            category = ACE_KING
        else:
            category = NO_HAND
        return category << CATEGORY_SHIFT | ranks_high_to_low(once)
    if four:
        return (
            FOUR_OF_A_KIND << CATEGORY_SHIFT
            | ranks_high_to_low(four) << 16
            | (ranks_high_to_low(once & ~four) << 12)
        )
    if thrice:
        pair = twice & ~thrice
        if pair:
            return (
                FULL_HOUSE << CATEGORY_SHIFT
                | ranks_high_to_low(thrice) << 16
                | (ranks_high_to_low(pair) << 12)
            )
        return (
            THREE_OF_A_KIND << CATEGORY_SHIFT
            | ranks_high_to_low(thrice) << 16
            | (ranks_high_to_low(once & ~thrice) << 8)
        )
    if popcount(twice) == 2:
        return (
            TWO_PAIRS << CATEGORY_SHIFT
            | ranks_high_to_low(twice) << 12
            | (ranks_high_to_low(once & ~twice) << 8)
        )
    return (
        ONE_PAIR << CATEGORY_SHIFT
        | ranks_high_to_low(twice) << 16
        | (ranks_high_to_low(once & ~twice) << 4)
    )


def subset_key(cards: Sequence[int], subset: int) -> int:
    """The key of the five cards of ``cards`` at the positions set in ``subset``."""
    picked = [0, 0, 0, 0, 0]
    found = 0
    for position in range(6):
        if subset >> position & 1:
            picked[found] = cards[position]
            found += 1
    return rank5(picked[0], picked[1], picked[2], picked[3], picked[4])


def pure_category(cards: Sequence[int], subset: int) -> int:
    """The combination whose defining cards are exactly ``subset`` (positions in ``cards``),
    or -1: a pair, ace-king, trips, two pairs or quads, or a five-card combination (a
    straight or better) whose defining cards are all five."""
    size = popcount(subset)
    if size == 5:
        category = subset_key(cards, subset) >> CATEGORY_SHIFT
        return category if category >= STRAIGHT and category != FOUR_OF_A_KIND else -1
    ranks = [0, 0, 0, 0, 0]
    found = 0
    for position in range(6):
        if subset >> position & 1:
            ranks[found] = cards[position] % 13
            found += 1
    once, twice, thrice, four = rank_multiplicities(ranks, size)
    if size == 2:
        if twice:
            return ONE_PAIR
        return ACE_KING if once == _ACE_KING_BITS else -1
    if size == 3:
        return THREE_OF_A_KIND if thrice else -1
    if size == 4:
        if four:
            return FOUR_OF_A_KIND
        return TWO_PAIRS if popcount(twice) == 2 and thrice == 0 else -1
    return -1


def defining_cards(cards: Sequence[int], subset: int, category: int) -> int:
    """The positions of the cards that define ``category`` in the 5-card ``subset``:
    all five from a straight up, the ace and the king of ace-king, else the paired ranks'
    cards (the quad, the trips, both pairs, the pair)."""
    if category >= STRAIGHT and category != FOUR_OF_A_KIND:
        return subset
    ranks = [0, 0, 0, 0, 0]
    found = 0
    for position in range(6):
        if subset >> position & 1:
            ranks[found] = cards[position] % 13
            found += 1
    _once, twice, _thrice, _four = rank_multiplicities(ranks, found)
    wanted = _ACE_KING_BITS if category == ACE_KING else twice
    defining = 0
    for position in range(6):
        if subset >> position & 1 and wanted >> cards[position] % 13 & 1:
            defining |= 1 << position
    return defining


def best_key(cards: Sequence[int], count: int) -> int:
    """The key of the best 5 of ``count`` (5 or 6) cards."""
    a, b, c, d, e = cards[0], cards[1], cards[2], cards[3], cards[4]
    if count == 5:
        return rank5(a, b, c, d, e)
    f = cards[5]
    return max(
        rank5(b, c, d, e, f),
        rank5(a, c, d, e, f),
        rank5(a, b, d, e, f),
        rank5(a, b, c, e, f),
        rank5(a, b, c, d, f),
        rank5(a, b, c, d, e),
    )


def five_card_second(cards: Sequence[int], first: int) -> int:
    """The second combination of five cards whose best hand is of category ``first``
    (``combination_codes``' shortcut for five cards): ace-king or none (-1). From a
    straight up the first's defining cards are all five; ace-king's are its only ace and
    king; a pair, two pairs, trips or quads leave out cards of ranks held once, and the
    only combination such a card can define is ace-king: with its ace or king outside the
    first's cards, which fails only for two pairs of aces and kings."""
    if first < ONE_PAIR or (first >= STRAIGHT and first != FOUR_OF_A_KIND):
        return -1
    seen = paired = 0
    for position in range(5):
        bit = 1 << cards[position] % 13
        paired |= seen & bit
        seen |= bit
    if seen & _ACE_KING_BITS == _ACE_KING_BITS and paired & _ACE_KING_BITS != _ACE_KING_BITS:
        return ACE_KING
    return -1


def combination_codes(cards: Sequence[int], count: int) -> tuple[int, int, int, int]:
    """What 5 or 6 cards are worth (docs/casino.md): ``(key, first, second, pays)``.

    ``key`` is the best 5-card hand's key and ``first`` its category; ``second`` is the
    category of the second combination (-1: none) and ``pays`` the total multiplier on
    the bet. The second is the best-paying combination whose defining cards are not all
    among the first's; where the best hand can be taken in several ways (6 cards), the
    way with the larger total counts; equal pays name the higher category.
    """
    full = (1 << count) - 1
    best = best_key(cards, count)
    first = best >> CATEGORY_SHIFT
    if first == NO_HAND:
        return best, NO_HAND, -1, 0
    if count == 5:
        second = five_card_second(cards, first)
        return best, first, second, CATEGORY_PAYS[first] + (second == ACE_KING)
    best_second, best_pay = -1, -1
    for way in range(full + 1):
        if popcount(way) != 5 or subset_key(cards, way) != best:
            continue
        defining = defining_cards(cards, way, first)
        for subset in range(1, full + 1):
            size = popcount(subset)
            if subset & ~defining == 0 or size < 2 or size > 5:
                continue
            category = pure_category(cards, subset)
            if category < 0:
                continue
            pay = CATEGORY_PAYS[category]
            if pay > best_pay or (pay == best_pay and category > best_second):
                best_second, best_pay = category, pay
    if best_second < 0:
        return best, first, -1, CATEGORY_PAYS[first]
    return best, first, best_second, CATEGORY_PAYS[first] + best_pay
