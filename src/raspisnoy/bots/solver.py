"""An exact solver of the card play of a round whose hands are all known, compiled with
Numba beside ``raspisnoy.bots.fastsim``.

``solve(state, rules, score, seat, table)`` is the round points ``seat`` ends the round
with from the fastsim ``state`` (card play under way, every hand in it known) when it
plays for its own points and every other seat plays against them: the *paranoid* value
of the round for ``seat``, a two-sided game that alpha-beta search solves exactly. (The
others are not really allied, but a lone player who can make its contract against any
defence can make it against the real one, and the two-sided game is what a fast exact
solver can search: perfect-information Monte Carlo in Skat solves its sampled deals the
same way.)

What makes it fast:

- **Alpha-beta** with fail-soft bounds, cut short where the points ``seat`` can still end
  with, whoever takes the tricks left, all lie on one side of the window (or are one).
- **Card equivalence.** Of cards of one suit adjacent in rank among the cards still in
  play (in a hand or on the table), all in one hand, playing any one is the same: only
  the lowest is searched. A following joker's four discards are one, and of two jokers
  in one hand only the first is searched.
- **A transposition table** at the start of each trick, keyed by the position up to
  equivalence: each card is replaced by its rank among the cards of its suit still in
  play (so positions reached through different earlier tricks meet), with the seat to
  lead, ``seat``'s bid and tricks. The table keeps each position's lower and upper bound,
  so a search with another window reuses what it proved. Its keys do not hold the
  rules, so a table serves one rules vector, score table and seat at a time.

Every rule and joker mode is the simulator's own (``fastsim.legal_actions``,
``fastsim.apply_action``): blind, misère, golden and forehead rounds are scored by the
score table (``fastsim.score_table``) like any other. ``tests/bots/test_solver.py`` checks
the solver against a brute force over the engine on small deals of every preset.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots.fastsim import Int64s, compiled, inlined
from raspisnoy.bots.knowledge import JOKER_MASK
from raspisnoy.core.fast import SUIT_MASKS

__all__ = ["Table", "solve"]

#: Larger than any round's points: the bounds of a window that is not narrowed yet.
_INFINITY = 1 << 40
#: Entries of a transposition table (a power of two): 4 MiB of keys and bounds.
TABLE_SIZE = 1 << 17
_SUITS = np.array(SUIT_MASKS, dtype=np.int64)
#: The most plays a solve goes deep: every card of a round of ``fs.MAX_PLAYERS`` seats.
_MAX_DEPTH = 128


@dataclass(slots=True)
class Table:
    """A transposition table: two 64-bit hashes of each stored position (its key; the
    second guards against collisions of the first) and its proven lower and upper bound
    of the value. Reuse one for many solves with the same rules, score table and seat
    (different deals share no positions, so it simply fills up and entries are
    replaced); ``clear`` it before solving for another seat or rules."""

    keys: Int64s
    bounds: Int64s

    @classmethod
    def empty(cls, size: int = TABLE_SIZE) -> Table:
        """A table of ``size`` entries (a power of two)."""
        if size & (size - 1):
            raise ValueError(f"a table's size is a power of two, not {size}")
        return cls(np.zeros((size, 2), dtype=np.int64), np.zeros((size, 2), dtype=np.int64))

    def clear(self) -> None:
        """Forget every stored position."""
        self.keys[:] = 0


def solve(state: Int64s, rules: Int64s, score: Int64s, seat: int, table: Table) -> int:
    """The paranoid value for ``seat`` of the round ``state`` (see the module docstring),
    using and filling ``table``: ``score[bid, taken]`` (``fastsim.score_table``) of the
    tricks ``seat`` ends with. ``state`` is left as it was."""
    if state[fs.S_PHASE] == fs.PHASE_BID:
        raise ValueError("the solver plays cards: the bidding must be over")
    return int(solve_arrays(state, rules, score, seat, table.keys, table.bounds))


@compiled
def solve_arrays(
    state: Int64s, rules: Int64s, score: Int64s, seat: int, keys: Int64s, bounds: Int64s
) -> int:
    """``solve`` on the table's arrays, for compiled callers: fail-soft alpha-beta, one
    frame per ply on an explicit stack (Numba's cache does not reload recursive functions
    safely: a cached recursive version crashed the next process)."""
    bid = state[fs.BIDS + seat]
    row = bid if bid >= 0 else state[fs.S_CARDS] + 1
    states = np.empty((_MAX_DEPTH, fs.STATE_SIZE), dtype=np.int64)
    moves = np.empty((_MAX_DEPTH, fs.MAX_ACTIONS), dtype=np.int64)
    # Per ply: the window, the best value so far, the moves and the next one to try,
    # where in the table the position goes (-1: not stored) with its key, and the
    # window it was searched in.
    frames = np.empty((_MAX_DEPTH, _FRAME), dtype=np.int64)
    states[0] = state
    frames[0, _ALPHA], frames[0, _BETA] = -_INFINITY, _INFINITY
    done, value = _enter(states, moves, frames, 0, rules, score, seat, row, keys, bounds)
    if done:
        return value
    depth = 0
    while True:
        frame = frames[depth]
        if frame[_NEXT] < frame[_COUNT] and frame[_ALPHA] < frame[_BETA]:
            child = states[depth + 1]
            child[:] = states[depth]
            fs.apply_action(child, rules, moves[depth, frame[_NEXT]])
            frame[_NEXT] += 1
            frames[depth + 1, _ALPHA], frames[depth + 1, _BETA] = frame[_ALPHA], frame[_BETA]
            done, value = _enter(
                states, moves, frames, depth + 1, rules, score, seat, row, keys, bounds
            )
            if done:
                _back(frame, value, states[depth][fs.S_TO_ACT] == seat)
            else:
                depth += 1
            continue
        value = frame[_BEST]
        if frame[_SLOT] >= 0:
            _store(keys, bounds, frame, value)
        if depth == 0:
            return int(value)
        depth -= 1
        _back(frames[depth], value, states[depth][fs.S_TO_ACT] == seat)


#: A frame's entries.
_ALPHA, _BETA, _BEST, _COUNT, _NEXT, _SLOT, _FIRST, _SECOND, _LOW, _HIGH = range(10)
_FRAME = 10


@inlined
def _enter(
    states: Int64s,
    moves: Int64s,
    frames: Int64s,
    depth: int,
    rules: Int64s,
    score: Int64s,
    seat: int,
    row: int,
    keys: Int64s,
    bounds: Int64s,
) -> tuple[bool, int]:
    """Open the frame of ``states[depth]`` in its window (set in ``frames[depth]``):
    ``(True, value)`` when the position is decided without a search (the round is over,
    the points left to win are settled or outside the window, the table knows enough),
    else ``(False, 0)`` with its moves generated and the window narrowed by the table."""
    state, frame = states[depth], frames[depth]
    alpha, beta = frame[_ALPHA], frame[_BETA]
    if state[fs.S_PHASE] == fs.PHASE_OVER:
        return True, int(score[row, state[fs.TAKEN + seat]])
    low, high = _reachable(state, score, seat, row)
    if low == high or low >= beta:
        return True, low
    if high <= alpha:
        return True, high
    frame[_SLOT] = -1
    if state[fs.S_PLAYED] == 0:
        first, second = _key(state, seat, row)
        slot = first & (keys.shape[0] - 1)
        frame[_SLOT], frame[_FIRST], frame[_SECOND] = slot, first, second
        if keys[slot, 0] == first and keys[slot, 1] == second:
            low, high = bounds[slot, 0], bounds[slot, 1]
            if low >= beta or low == high:
                return True, int(low)
            if high <= alpha:
                return True, int(high)
            alpha, beta = max(alpha, low), min(beta, high)
    frame[_ALPHA], frame[_BETA], frame[_LOW], frame[_HIGH] = alpha, beta, alpha, beta
    frame[_COUNT] = _distinct_moves(state, rules, moves[depth])
    frame[_NEXT] = 0
    frame[_BEST] = -_INFINITY if state[fs.S_TO_ACT] == seat else _INFINITY
    return False, 0


@inlined
def _back(frame: Int64s, value: int, taking: bool) -> None:
    """Take a child's ``value`` into its parent's frame: the best so far and the window
    (``taking``: the parent's seat to act is the solver's seat, which maximises)."""
    if taking:
        if value > frame[_BEST]:
            frame[_BEST] = value
            frame[_ALPHA] = max(frame[_ALPHA], value)
    elif value < frame[_BEST]:
        frame[_BEST] = value
        frame[_BETA] = min(frame[_BETA], value)


@inlined
def _reachable(state: Int64s, score: Int64s, seat: int, row: int) -> tuple[int, int]:
    """The least and most points ``seat`` can end with, whoever takes the tricks left:
    bounds that cut the search short once its contract is settled (made or lost for
    good) or out of the window."""
    taken = state[fs.TAKEN + seat]
    left = state[fs.S_CARDS] - state[fs.S_TRICKS]
    low, high = _INFINITY, -_INFINITY
    for tricks in range(taken, taken + left + 1):
        low, high = min(low, score[row, tricks]), max(high, score[row, tricks])
    return int(low), int(high)


@inlined
def _store(keys: Int64s, bounds: Int64s, frame: Int64s, value: int) -> None:
    """Record what the search of ``frame`` in its window proved of its position: an upper
    bound when it failed low, a lower bound when it failed high, else the exact value
    (kept together with the bounds already known of the same position)."""
    slot, first, second = frame[_SLOT], frame[_FIRST], frame[_SECOND]
    low, high = -_INFINITY, _INFINITY
    if keys[slot, 0] == first and keys[slot, 1] == second:
        low, high = bounds[slot, 0], bounds[slot, 1]
    if value <= frame[_LOW]:
        high = min(high, value)
    elif value >= frame[_HIGH]:
        low = max(low, value)
    else:
        low = high = value
    keys[slot, 0], keys[slot, 1] = first, second
    bounds[slot, 0], bounds[slot, 1] = low, high


@inlined
def _mix(hash_: int, value: int, multiplier: int) -> int:
    """Fold ``value`` into ``hash_`` (a multiply-xorshift step; wrapping arithmetic)."""
    hash_ = (hash_ ^ value) * multiplier
    return hash_ ^ (hash_ >> 29)


@compiled
def _key(state: Int64s, seat: int, row: int) -> tuple[int, int]:
    """Two independent hashes of the position between tricks up to card equivalence:
    suit by suit, the holder of each card still in play from the lowest up (so a card's
    rank counts only among the cards left), then the jokers' holders, the seat to lead,
    ``seat``'s score row and tricks."""
    players = state[fs.S_PLAYERS]
    first, second = 0x243F6A8885A308D3, 0x13198A2E03707344
    one, two = -0x61C8864680B583EB, -0x3C6EF372FE94F82B
    live = 0
    for s in range(players):
        live |= state[fs.HANDS + s]
    for suit in range(4):
        cards = live & _SUITS[suit]
        while cards:
            bit = cards & -cards
            cards ^= bit
            holder = _holder(state, players, bit)
            first, second = _mix(first, holder, one), _mix(second, holder, two)
        first, second = _mix(first, 16 + suit, one), _mix(second, 16 + suit, two)
    jokers = live & JOKER_MASK
    while jokers:
        bit = jokers & -jokers
        jokers ^= bit
        holder = _holder(state, players, bit)
        first, second = _mix(first, 32 + holder, one), _mix(second, 32 + holder, two)
    tail = (state[fs.S_LEADER] * 64 + row) * 64 + state[fs.TAKEN + seat]
    return _mix(first, tail, one), _mix(second, tail, two)


@inlined
def _holder(state: Int64s, players: int, bit: int) -> int:
    """The seat whose hand holds the card ``bit``."""
    for s in range(players):
        if state[fs.HANDS + s] & bit:
            return s
    return -1


@compiled
def _distinct_moves(state: Int64s, rules: Int64s, out: Int64s) -> int:
    """The legal plays of the seat to act (``fastsim.legal_actions``) without those that
    cannot differ in effect from one kept: a card whose next lower card still in play is
    in the same hand and as legal; a following joker's discards but the first; a second
    joker's plays when the first joker is in the same hand."""
    count = fs.legal_actions(state, rules, out)
    live = 0
    for s in range(state[fs.S_PLAYERS]):
        live |= state[fs.HANDS + s]
    for position in range(state[fs.S_PLAYED]):
        live |= np.int64(1) << state[fs.TRICK_CARD + position]
    legal_cards = 0
    for i in range(count):
        legal_cards |= np.int64(1) << (out[i] >> 4)
    following = state[fs.S_PLAYED] > 0
    kept, last_joker, discard_kept = 0, -1, False
    for i in range(count):
        code = out[i]
        card = code >> 4
        if card < 52:
            lower = live & _SUITS[card // 13] & ((np.int64(1) << card) - 1)
            while lower & (lower - 1):
                lower &= lower - 1  # drop the lowest until the nearest lower card is left
            if lower & legal_cards:
                continue
        else:
            if last_joker >= 0 and card != last_joker:
                continue  # the hand's second joker plays as its first
            last_joker = card
            if following and (code >> 2 & 3) == fs.M_DISCARD:
                if discard_kept:
                    continue
                discard_kept = True
        out[kept] = code
        kept += 1
    return kept
