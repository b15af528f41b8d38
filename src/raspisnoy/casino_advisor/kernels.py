"""The advisor's arithmetic on card indexes: its enumeration and sampling loops over every
hand the dealer may hold.

A card is its ``raspisnoy.core.cards`` index (``raspisnoy.casino.ranking``, whose hand
keys and pays these loops use). Every function here uses integers, floats, tuples and
indexable sequences only, so the same source runs as plain Python (the reference the
tests check) and compiled by Numba (``raspisnoy.casino_advisor.fast``, the advisor's
fast path). Buffers are allocated by the caller.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

from raspisnoy.casino.ranking import QUALIFYING_KEY, combination_codes, popcount, rank5

# Box results in antes, before any exchange cost (docs/casino.md, *The rules*).
FOLD_NET = -1.0
LOSE_NET = -3.0
DEALER_OUT_NET = 1.0
#: A bought dealer game that still does not qualify: bet back, ante and purchase lost.
BET_BACK_NET = -2.0


def versus(key: int, pays: int, dealer_key: int) -> float:
    """A betting box's net in antes against a qualifying dealer: the bet paid ``pays``
    times on a win (the ante back unpaid), nothing on a tie, ante and bet lost on a loss."""
    if key > dealer_key:
        return 2.0 * pays
    if key == dealer_key:
        return 0.0
    return LOSE_NET


# ----------------------------------------------------------------- the advisor's tables
#
# ``Tables`` is what the advisor's kernels share about one decision point, in this
# order: every dealer hand's key and positions (``fill_dealer_table``), the sorted key
# lists and how many hands of each list do not qualify (``fill_subset_lists``), the
# purchase rows, their sorted qualifying keys, their counts, each hand's row and each
# row's hand (``fill_purchase_table``), and the rows again in decreasing order of their
# qualifying draws, so that the purchases worth looking at come first: the row, its
# hand's mask, its qualifying draws' count, highest key and positions as a bit mask
# (``fill_purchase_order``).
Tables = tuple[Sequence[int], ...]  # the fourteen arrays above, in that order
#
# A decision point's unknown cards (``count`` of them, at most 47) are addressed by their
# positions 0..count-1. The dealer's possible hands are the 4-subsets of positions, indexed
# in colex order; ``masks[h]`` is hand h's positions as a bit mask.


def binomial(x: int, r: int) -> int:
    """C(x, r) for 0 <= r <= 4, in closed form (it indexes every table lookup)."""
    if x < r:
        return 0
    if r == 0:
        return 1
    if r == 1:
        return x
    if r == 2:
        return x * (x - 1) // 2
    if r == 3:
        return x * (x - 1) * (x - 2) // 6
    return x * (x - 1) * (x - 2) * (x - 3) // 24


def dealer_index(i: int, j: int, k: int, m: int) -> int:
    """The colex index of positions ``i < j < k < m`` among all 4-subsets."""
    return i + binomial(j, 2) + binomial(k, 3) + binomial(m, 4)


def fill_dealer_table(
    up: int,
    unknown: Sequence[int],
    count: int,
    keys: MutableSequence[int],
    masks: MutableSequence[int],
    highest: MutableSequence[int],
) -> None:
    """Every hand the dealer may hold: ``up`` and 4 of the ``count`` unknown cards, in colex
    order: its key, its hidden positions as a bit mask, and the position of its highest
    card (-1 when that is the up card), which he discards when his game is bought."""
    for m in range(3, count):
        for k in range(2, m):
            for j in range(1, k):
                for i in range(j):
                    h = dealer_index(i, j, k, m)
                    keys[h] = rank5(up, unknown[i], unknown[j], unknown[k], unknown[m])
                    masks[h] = 1 << i | 1 << j | 1 << k | 1 << m
                    top, where = up % 13, -1
                    for position in (i, j, k, m):
                        if unknown[position] % 13 > top:
                            top, where = unknown[position] % 13, position
                    highest[h] = where


def subset_list_sizes(count: int) -> tuple[int, int, int, int]:
    """How many dealer hands hold a given set of 0, 1, 2 or 3 positions."""
    return binomial(count, 4), binomial(count - 1, 3), binomial(count - 2, 2), count - 3


def subset_list_offset(count: int, positions: Sequence[int], size: int) -> int:
    """Where the sorted keys of the hands holding ``positions[:size]`` (increasing) start
    in the flat array ``fill_subset_lists`` fills: all hands, then per position, per pair,
    per triple."""
    every, single, pair, _triple = subset_list_sizes(count)
    if size == 0:
        return 0
    if size == 1:
        return every + positions[0] * single
    base = every + count * single
    if size == 2:
        return base + (positions[0] + binomial(positions[1], 2)) * pair
    base += binomial(count, 2) * pair
    index = positions[0] + binomial(positions[1], 2) + binomial(positions[2], 3)
    return base + index * (count - 3)


def subset_list_id(count: int, positions: Sequence[int], size: int) -> int:
    """The number of the list of hands holding ``positions[:size]`` (see
    ``subset_list_offset``): 0 for all hands, then one per position, pair and triple."""
    if size == 0:
        return 0
    if size == 1:
        return 1 + positions[0]
    if size == 2:
        return 1 + count + positions[0] + binomial(positions[1], 2)
    index = positions[0] + binomial(positions[1], 2) + binomial(positions[2], 3)
    return 1 + count + binomial(count, 2) + index


def subset_list_count(count: int) -> int:
    """How many lists ``fill_subset_lists`` fills."""
    return 1 + count + binomial(count, 2) + binomial(count, 3)


def fill_subset_lists(
    order: Sequence[int],
    keys: Sequence[int],
    masks: Sequence[int],
    count: int,
    lists: MutableSequence[int],
    filled: MutableSequence[int],
    list_out: MutableSequence[int],
) -> None:
    """Sorted keys of the dealer hands that hold each set of up to three positions, from
    the hands in increasing key order (``order``): what ``bet_value`` searches.
    ``filled`` and ``list_out`` are zeroed buffers of ``subset_list_count(count)``
    entries; ``list_out`` gets how many hands of each list do not qualify."""
    every = binomial(count, 4)
    held = [0, 0, 0, 0]
    chosen = [0, 0, 0]
    for rank in range(every):
        h = order[rank]
        key = keys[h]
        found = 0
        for position in range(count):
            if masks[h] >> position & 1:
                held[found] = position
                found += 1
        for subset in range(15):
            size = popcount(subset)
            if size == 4:
                continue
            found = 0
            for bit in range(4):
                if subset >> bit & 1:
                    chosen[found] = held[bit]
                    found += 1
            offset = subset_list_offset(count, chosen, size)
            slot = subset_list_id(count, chosen, size)
            lists[offset + filled[slot]] = key
            filled[slot] += 1
            if key < QUALIFYING_KEY:
                list_out[slot] += 1


def count_below(
    sorted_keys: Sequence[int], offset: int, size: int, key: int, inclusive: bool
) -> int:
    """How many of ``sorted_keys[offset:offset + size]`` are below ``key`` (or equal too)."""
    low, high = 0, size
    while low < high:
        middle = (low + high) // 2
        value = sorted_keys[offset + middle]
        if value < key or (inclusive and value == key):
            low = middle + 1
        else:
            high = middle
    return low


def sort_in_place(values: MutableSequence[int], offset: int, size: int) -> None:
    """Insertion sort of ``values[offset:offset + size]`` (rows of a few dozen keys)."""
    for i in range(offset + 1, offset + size):
        value = values[i]
        j = i - 1
        while j >= offset and values[j] > value:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = value


def fill_purchase_table(
    up: int,
    unknown: Sequence[int],
    count: int,
    keys: Sequence[int],
    masks: Sequence[int],
    highest: Sequence[int],
    rows: MutableSequence[int],
    sorted_rows: MutableSequence[int],
    row_qualifying: MutableSequence[int],
    row_of: MutableSequence[int],
    row_hand: MutableSequence[int],
    row_draws: MutableSequence[int],
) -> int:
    """For every dealer hand that does not qualify (row ``row_of[h]``; -1 for the others;
    ``row_hand[row]`` is the hand): his key after his game is bought for each position he
    may draw (``rows``, -1 at his own cards), the qualifying ones sorted (``sorted_rows``),
    their number and their positions as a bit mask (``row_draws``). Returns the most
    qualifying draws of any row."""
    row = 0
    most = 0
    kept = [0, 0, 0, 0]
    for h in range(binomial(count, 4)):
        if keys[h] >= QUALIFYING_KEY:
            row_of[h] = -1
            continue
        row_of[h] = row
        row_hand[row] = h
        found = 0
        if highest[h] >= 0:
            kept[0] = up
            found = 1
        for position in range(count):
            if masks[h] >> position & 1 and position != highest[h]:
                kept[found] = unknown[position]
                found += 1
        base = row * count
        qualifying = 0
        draws_mask = 0
        for position in range(count):
            if masks[h] >> position & 1:
                rows[base + position] = -1
                continue
            key = rank5(kept[0], kept[1], kept[2], kept[3], unknown[position])
            rows[base + position] = key
            if key >= QUALIFYING_KEY:
                sorted_rows[base + qualifying] = key
                qualifying += 1
                draws_mask |= 1 << position
        sort_in_place(sorted_rows, base, qualifying)
        row_qualifying[row] = qualifying
        row_draws[row] = draws_mask
        most = max(most, qualifying)
        row += 1
    return most


def fill_purchase_order(
    order: Sequence[int],
    count: int,
    masks: Sequence[int],
    sorted_rows: Sequence[int],
    row_qualifying: Sequence[int],
    row_hand: Sequence[int],
    row_draws: Sequence[int],
    buy_rows: MutableSequence[int],
    buy_masks: MutableSequence[int],
    buy_counts: MutableSequence[int],
    buy_tops: MutableSequence[int],
    buy_draws: MutableSequence[int],
) -> None:
    """The purchase rows in decreasing order of qualifying draws (``order`` is their
    increasing order), with what ``bet_value`` reads of each side by side: its hand's
    mask, its qualifying draws' count, their highest key (-1: none) and positions."""
    rows = len(row_hand)
    for rank in range(rows):
        row = order[rows - 1 - rank]
        qualifying = row_qualifying[row]
        buy_rows[rank] = row
        buy_masks[rank] = masks[row_hand[row]]
        buy_counts[rank] = qualifying
        buy_tops[rank] = sorted_rows[row * count + qualifying - 1] if qualifying else -1
        buy_draws[rank] = row_draws[row]


def bought_net(key: int, pays: int, dealer_key: int) -> float:
    """A box's net once it bought the dealer's game and he drew to ``dealer_key``."""
    if dealer_key >= QUALIFYING_KEY:
        return versus(key, pays, dealer_key) - 1.0
    return BET_BACK_NET


def purchase_value(
    key: int,
    pays: int,
    row: int,
    excluded: int,
    count: int,
    rows: Sequence[int],
    sorted_rows: Sequence[int],
    row_qualifying: Sequence[int],
) -> float:
    """A box's mean net in antes when it buys the dealer's game (the purchase counted),
    over the draws of his hand's ``row`` that the ``excluded`` positions leave."""
    base = row * count
    qualifying = row_qualifying[row]
    below = count_below(sorted_rows, base, qualifying, key, False)
    up_to = count_below(sorted_rows, base, qualifying, key, True)
    total = below * (2.0 * pays - 1.0) - (up_to - below) + (qualifying - up_to) * (LOSE_NET - 1.0)
    total += (count - 4 - qualifying) * BET_BACK_NET
    draws = count - 4
    rest = excluded
    while rest:
        position = popcount((rest & -rest) - 1)
        rest &= rest - 1
        if rows[base + position] >= 0:
            total -= bought_net(key, pays, rows[base + position])
            draws -= 1
    return total / draws


def beaten_purchase_value(pays: int, qualifying: int, draws: int) -> float:
    """A box's mean net when it buys the dealer's game and beats every qualifying hand he
    may draw to: ``qualifying`` of his ``draws`` qualify, the others give the bet back."""
    return (qualifying * (2.0 * pays - 1.0) + (draws - qualifying) * BET_BACK_NET) / draws


def may_buy(pays: int, qualifying: int, draws: int) -> bool:
    """Whether buying the dealer's game can beat taking the ante (+1): the purchase is at
    most worth what it would be if every qualifying draw were a win."""
    return beaten_purchase_value(pays, min(qualifying, draws), draws) > DEALER_OUT_NET


def not_qualified_value(
    key: int,
    pays: int,
    row: int,
    excluded: int,
    count: int,
    rows: Sequence[int],
    sorted_rows: Sequence[int],
    row_qualifying: Sequence[int],
) -> float:
    """A betting box's net when the dealer's hand of ``row`` does not qualify: the ante,
    or buying his game where that is worth more."""
    draws = count - 4 - popcount(excluded)
    if not may_buy(pays, row_qualifying[row], draws):
        return DEALER_OUT_NET
    value = purchase_value(key, pays, row, excluded, count, rows, sorted_rows, row_qualifying)
    return max(DEALER_OUT_NET, value)


def bet_value(
    key: int,
    pays: int,
    excluded: int,
    count: int,
    can_buy: bool,
    most_qualifying: int,
    tables: Tables,
    shortcuts: bool,
) -> float:
    """The exact mean net in antes of betting a box of ``key`` and ``pays``, over every
    dealer hand that holds none of the ``excluded`` positions (the box's draws): the
    showdowns and the ante (``showdown_total``) and, where the box may buy the dealer's
    game, what buying it gains over taking the ante (``purchase_gains``)."""
    total, hands, draws = showdown_total(key, pays, excluded, count, tables, shortcuts)
    if can_buy and may_buy(pays, most_qualifying, draws):
        total += purchase_gains(key, pays, excluded, count, draws, tables, shortcuts)
    return total / hands


def showdown_total(
    key: int, pays: int, excluded: int, count: int, tables: Tables, shortcuts: bool
) -> tuple[float, int, int]:
    """Betting's total net in antes over the dealer hands that hold none of the
    ``excluded`` positions, the ante taken whenever he does not qualify; the number of
    those hands, and of the cards he may draw if his game is bought.

    The hands that lose, tie, win or do not qualify are counted by inclusion-exclusion
    over the subsets of the excluded positions, in the sorted lists of hands that hold
    them. ``shortcuts`` takes the same counts faster: the hands that do not qualify
    counted once per list (``list_out``), no search for a box without a combination
    (which every qualifying hand beats), ties counted on from the first search. Without
    them (the reference the benchmark checks against) every count is a search."""
    keys, _masks, lists, list_out = tables[:4]
    positions = [0, 0, 0, 0, 0]
    drawn = 0
    rest = excluded
    while rest:
        positions[drawn] = popcount((rest & -rest) - 1)
        rest &= rest - 1
        drawn += 1
    sizes = subset_list_sizes(count)
    chosen = [0, 0, 0, 0]
    hands = out = below = up_to = 0
    for subset in range(1 << drawn):
        size = popcount(subset)
        if size > 4:
            continue
        found = 0
        for bit in range(drawn):
            if subset >> bit & 1:
                chosen[found] = positions[bit]
                found += 1
        sign = -1 if size % 2 else 1
        if size == 4:
            dealer_key = keys[dealer_index(chosen[0], chosen[1], chosen[2], chosen[3])]
            hands += sign
            out += sign * (dealer_key < QUALIFYING_KEY)
            below += sign * (dealer_key < key)
            up_to += sign * (dealer_key <= key)
            continue
        offset = subset_list_offset(count, chosen, size)
        hands += sign * sizes[size]
        if not shortcuts:
            out += sign * count_below(lists, offset, sizes[size], QUALIFYING_KEY, False)
            below += sign * count_below(lists, offset, sizes[size], key, False)
            up_to += sign * count_below(lists, offset, sizes[size], key, True)
            continue
        out += sign * list_out[subset_list_id(count, chosen, size)]
        if key < QUALIFYING_KEY:
            continue  # below and up_to count none but hands that do not qualify
        lower = count_below(lists, offset, sizes[size], key, False)
        equal = lower
        while equal < sizes[size] and lists[offset + equal] == key:
            equal += 1
        below += sign * lower
        up_to += sign * equal
    # Hands below the box's key include those that do not qualify.
    wins = max(below, out) - out
    losses = hands - max(up_to, out)
    total = out * DEALER_OUT_NET + wins * 2.0 * pays + losses * LOSE_NET
    return total, hands, count - 4 - drawn


def purchase_gains(
    key: int,
    pays: int,
    excluded: int,
    count: int,
    draws: int,
    tables: Tables,
    shortcuts: bool,
) -> float:
    """What buying the dealer's game, wherever it is worth more than the ante, adds to
    betting's total net over the dealer hands that hold none of the ``excluded``
    positions (``draws`` cards left for him to draw). Summed row by row, from the rows
    with the most qualifying draws down, while a purchase can be worth it;
    ``shortcuts`` values a purchase where no qualifying draw beats the box from the
    number of qualifying draws that the box's draws leave (else draw by draw)."""
    rows, sorted_rows, row_qualifying = tables[4], tables[5], tables[6]
    buy_rows, buy_masks, buy_counts, buy_tops, buy_draws = tables[9:]
    fewest = fewest_to_buy(pays, draws)
    gains = 0.0
    for rank in range(len(buy_rows)):
        if buy_counts[rank] < fewest:
            break
        if buy_masks[rank] & excluded:
            continue
        if shortcuts and buy_tops[rank] < key:
            value = beaten_row_value(
                pays, buy_counts[rank], buy_draws[rank], excluded, draws, fewest
            )
        else:
            value = purchase_value(
                key, pays, buy_rows[rank], excluded, count, rows, sorted_rows, row_qualifying
            )
        if value > DEALER_OUT_NET:
            gains += value - DEALER_OUT_NET
    return gains


def fewest_to_buy(pays: int, draws: int) -> int:
    """The fewest qualifying draws with which buying the dealer's game can beat taking
    the ante (``draws + 1``: never). The purchase rows come by decreasing qualifying
    draws, so once one has fewer, all the rest have."""
    fewest = 0
    while fewest <= draws and not may_buy(pays, fewest, draws):
        fewest += 1
    return fewest


def beaten_row_value(
    pays: int, qualifying: int, qualifying_draws: int, excluded: int, draws: int, fewest: int
) -> float:
    """The purchase's value for a row none of whose ``qualifying`` draws (positions
    ``qualifying_draws``) beats the box: how many of them the ``excluded`` positions leave
    is all that counts; ``DEALER_OUT_NET`` where that is fewer than ``fewest``."""
    left = qualifying - popcount(qualifying_draws & excluded)
    if left < fewest:
        return DEALER_OUT_NET
    return beaten_purchase_value(pays, left, draws)


# ----------------------------------------------------------------- exchanges


#: How far from folding's value (-1) the rough value of betting must be for the sampler
#: to trust it over an exact computation (removal effects are far smaller).
ROUGH_MARGIN = 0.2


def rough_bet_value(key: int, pays: int, lists: Sequence[int], hands: int, out: int) -> float:
    """Betting's value against every dealer hand of the decision point, ignoring what the
    box's draws remove and the purchase of his game: a cheap first guess at bet or fold.
    ``lists`` starts with all hands' keys sorted; ``out`` of them do not qualify."""
    below = max(count_below(lists, 0, hands, key, False), out) - out
    above = hands - max(count_below(lists, 0, hands, key, True), out)
    return (out * DEALER_OUT_NET + 2.0 * pays * below + LOSE_NET * above) / hands


def sort4(a: int, b: int, c: int, d: int) -> tuple[int, int, int, int]:
    """Four numbers in increasing order."""
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return a, b, c, d


def sample_exchange(
    hand: MutableSequence[int],
    kept: int,
    size: int,
    unknown: Sequence[int],
    count: int,
    uniforms: Sequence[float],
    samples: int,
    can_buy: bool,
    most_qualifying: int,
    out: int,
    tables: Tables,
    work: MutableSequence[int],
) -> tuple[float, float]:
    """Sample an exchange: ``hand[:kept]`` are the cards kept, ``size - kept`` cards are
    drawn from the unknown ones (9 uniforms per sample). Returns the sum and the sum of
    squares of the box's net in antes, the exchange's cost counted. ``work`` holds the
    positions 0..count-1 in any order.

    After the draw the box folds (net -1, exactly) where betting is roughly worth far
    less (``rough_bet_value``, ``ROUGH_MARGIN``); is valued exactly, the better of bet
    and fold (``bet_value``), where the two are close; and otherwise bets against the
    dealer's hidden four, drawn from the rest. So every decision is the best one, and
    only clear bets carry the dealer's chance."""
    keys, _masks, lists, _list_out, rows, sorted_rows, row_qualifying, row_of = tables[:8]
    hands = binomial(count, 4)
    drawn = size - kept
    total = squares = 0.0
    for sample in range(samples):
        base = sample * 9
        for step in range(drawn + 4):
            pick = step + int(uniforms[base + step] * (count - step))
            work[step], work[pick] = work[pick], work[step]
        excluded = 0
        for step in range(drawn):
            hand[kept + step] = unknown[work[step]]
            excluded |= 1 << work[step]
        key, _first, _second, pays = combination_codes(hand, size)
        rough = rough_bet_value(key, pays, lists, hands, out)
        if rough < FOLD_NET - ROUGH_MARGIN:
            value = FOLD_NET
        elif rough < FOLD_NET + ROUGH_MARGIN:
            bet = bet_value(key, pays, excluded, count, can_buy, most_qualifying, tables, True)
            value = max(FOLD_NET, bet)
        else:
            i, j, k, m = sort4(work[drawn], work[drawn + 1], work[drawn + 2], work[drawn + 3])
            h = dealer_index(i, j, k, m)
            if keys[h] >= QUALIFYING_KEY:
                value = versus(key, pays, keys[h])
            elif can_buy:
                value = not_qualified_value(
                    key, pays, row_of[h], excluded, count, rows, sorted_rows, row_qualifying
                )
            else:
                value = DEALER_OUT_NET
        value -= 1.0
        total += value
        squares += value * value
    return total, squares


#: How many draws ``exact_exchange`` holds back at most before summing their purchases.
PENDING = 2048


def exact_exchange(
    hand: MutableSequence[int],
    kept: int,
    size: int,
    unknown: Sequence[int],
    count: int,
    can_buy: bool,
    most_qualifying: int,
    tables: Tables,
    shortcuts: bool,
    pending: MutableSequence[int],
    sums: MutableSequence[float],
) -> float:
    """The exact mean net in antes of an exchange (its cost counted): every set of
    ``size - kept`` unknown cards the box may draw, each followed by the better of bet
    and fold (``bet_value``, with or without its ``shortcuts``).

    With ``shortcuts``, the draws that may buy the dealer's game wait in batches
    (``pending``: ``10 * PENDING + count + 2`` ints, ``sums``: ``3 * PENDING`` floats)
    whose purchases are summed row by row (``settle_pending``): each purchase row is
    read once a batch instead of once a draw."""
    drawn = size - kept
    chosen = [0, 0, 0, 0, 0]
    for step in range(drawn):
        chosen[step] = step
    total, draws, waiting = 0.0, 0, 0
    while True:
        excluded = 0
        for step in range(drawn):
            hand[kept + step] = unknown[chosen[step]]
            excluded |= 1 << chosen[step]
        key, _first, _second, pays = combination_codes(hand, size)
        showdown, hands, left = showdown_total(key, pays, excluded, count, tables, shortcuts)
        if not (can_buy and may_buy(pays, most_qualifying, left)):
            total += max(FOLD_NET, showdown / hands) - 1.0
        elif shortcuts:
            pending[waiting] = excluded
            pending[PENDING + waiting] = key
            pending[2 * PENDING + waiting] = pays
            sums[waiting] = showdown
            waiting += 1
            if waiting == PENDING:
                total += settle_pending(waiting, hands, left, count, tables, pending, sums)
                waiting = 0
        else:
            showdown += purchase_gains(key, pays, excluded, count, left, tables, False)
            total += max(FOLD_NET, showdown / hands) - 1.0
        draws += 1
        # The next set of positions in lexicographic order.
        step = drawn - 1
        while step >= 0 and chosen[step] == count - drawn + step:
            step -= 1
        if step < 0:
            if waiting:
                total += settle_pending(waiting, hands, left, count, tables, pending, sums)
            return total / draws
        chosen[step] += 1
        for later in range(step + 1, drawn):
            chosen[later] = chosen[later - 1] + 1


def settle_pending(
    waiting: int,
    hands: int,
    draws: int,
    count: int,
    tables: Tables,
    pending: MutableSequence[int],
    sums: MutableSequence[float],
) -> float:
    """The total net, each exchange's cost counted, of ``waiting`` draws held back by
    ``exact_exchange``: their excluded positions, keys and pays in ``pending``, their
    showdown totals in ``sums`` (each over ``hands`` dealer hands, ``draws`` cards left
    for his purchase), each bet with its purchases or folded.

    The same sums as ``purchase_gains``, with the loops turned round: rows outside, the
    draws inside, sorted by the qualifying draws they need, so that each row meets only
    the draws it can be worth buying for. Where no qualifying draw of the row beats the
    box, the purchase gains ``max(0, left * (2 * pays + 1) - 3 * draws) / draws`` over
    the ante (``beaten_purchase_value``, ``left`` qualifying draws left), summed as
    integers."""
    rows, sorted_rows, row_qualifying = tables[4], tables[5], tables[6]
    buy_rows, buy_masks, buy_counts, buy_tops, buy_draws = tables[9:]
    # The buffers' parts: the draws as held back, their fewest qualifying draws, their
    # order, the same draws sorted, the integer sums; then the buckets of the sort.
    fewest, order, excluded_at, key_at, pays_at = 3, 4, 5, 6, 7
    fewest_at, beaten_at, buckets = 8, 9, 10 * PENDING
    for bucket in range(count + 2):
        pending[buckets + bucket] = 0
    for j in range(waiting):
        need = fewest_to_buy(pending[2 * PENDING + j], draws)
        pending[fewest * PENDING + j] = need
        pending[buckets + need] += 1
    start = 0
    for bucket in range(count + 2):
        size = pending[buckets + bucket]
        pending[buckets + bucket] = start
        start += size
    for j in range(waiting):
        need = pending[fewest * PENDING + j]
        place = pending[buckets + need]
        pending[buckets + need] += 1
        pending[order * PENDING + place] = j
        pending[excluded_at * PENDING + place] = pending[j]
        pending[key_at * PENDING + place] = pending[PENDING + j]
        pending[pays_at * PENDING + place] = pending[2 * PENDING + j]
        pending[fewest_at * PENDING + place] = need
        pending[beaten_at * PENDING + place] = 0
        sums[PENDING + place] = sums[j]
        sums[2 * PENDING + place] = 0.0
    limit = waiting
    for rank in range(len(buy_masks)):
        qualifying = buy_counts[rank]
        while limit and pending[fewest_at * PENDING + limit - 1] > qualifying:
            limit -= 1
        if not limit:
            break
        mask, top, qualifying_draws = buy_masks[rank], buy_tops[rank], buy_draws[rank]
        for place in range(limit):
            excluded = pending[excluded_at * PENDING + place]
            key = pending[key_at * PENDING + place]
            pays = pending[pays_at * PENDING + place]
            if top < key:
                left = qualifying - popcount(qualifying_draws & excluded)
                gain = max(0, left * (2 * pays + 1) - 3 * draws)
                pending[beaten_at * PENDING + place] += gain * (mask & excluded == 0)
            elif mask & excluded == 0:
                value = purchase_value(
                    key, pays, buy_rows[rank], excluded, count, rows, sorted_rows, row_qualifying
                )
                if value > DEALER_OUT_NET:
                    sums[2 * PENDING + place] += value - DEALER_OUT_NET
    total = 0.0
    for place in range(waiting):
        bet = sums[PENDING + place] + sums[2 * PENDING + place]
        bet += pending[beaten_at * PENDING + place] / draws
        total += max(FOLD_NET, bet / hands) - 1.0
    return total
