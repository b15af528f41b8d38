"""A compiled simulator of one round's bids and card play, for the expert's search.

The engine (``raspisnoy.core.Game``) is exact but costs microseconds per action in
Python; the expert's search needs hundreds of thousands of actions per decision. This
module keeps one round as a flat ``numpy.int64`` vector (the *state*, layout below) with
bit-mask hands, and plays it with Numba-compiled functions that follow the engine's
rules exactly for the options that matter in card play (differentially tested against
the engine on every preset, ``tests/bots/test_fastsim.py``).

State layout (indexes into the state vector):

- scalars at ``S_*``;
- per seat, ``MAX_PLAYERS`` entries from ``HANDS`` (bit masks of card indexes, as in
  ``raspisnoy.core.cards``), ``BIDS`` (-1: not bid, or no bids this round), ``TAKEN``,
  ``ZERO_STREAK`` (0 bids in a row before this round, for ``max_zero_bids_in_a_row``);
- the current trick, by position from its leader: ``TRICK_CARD`` (card index),
  ``TRICK_MODE`` (``M_*``) and ``TRICK_SUIT`` (the joker's named suit, else -1).

Rules vector (``rules_vector``): ``R_*`` flags and numbers of the rules and round kind.

Action codes: a bid of n is ``BID_BASE + n``; a play is ``index * 16 + mode * 4 + suit``
(``mode`` one of ``M_*``, ``suit`` the joker's named suit or 0).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from raspisnoy.bots import simulator
from raspisnoy.bots.knowledge import JOKER_MASK, trick_context
from raspisnoy.core import Bid, Card, Game, JokerMode, Phase, Play, RoundKind, Rules, Suit, View
from raspisnoy.core import round_points as points_of
from raspisnoy.core.fast import SUIT_MASKS, card_at, mask_of

__all__ = [
    "apply_action",
    "below",
    "decode_action",
    "encode_action",
    "encode_game",
    "hand_value",
    "legal_actions",
    "play_out",
    "play_out_tricks",
    "policy_action",
    "random_play_out",
    "round_points",
    "rules_vector",
    "score_table",
    "world_state",
]

Int64s = npt.NDArray[np.int64]
_F = TypeVar("_F", bound=Callable[..., Any])
#: ``numba.njit`` with caching, typed so that compiled functions keep their signatures.
compiled = cast(Callable[[_F], _F], numba.njit(cache=True, nogil=True))
#: ``compiled``, and inlined into its callers: for the small helpers of the hot loops,
#: where a call's overhead (reference counting of array arguments) costs more than the
#: helper's work.
inlined = cast(Callable[[_F], _F], numba.njit(cache=True, nogil=True, inline="always"))

MAX_PLAYERS = 10
MAX_ACTIONS = 64
BID_BASE = 1024

# Scalars.
S_PLAYERS = 0
S_CARDS = 1  # cards dealt to each player this round
S_TO_ACT = 2
S_LEADER = 3
S_PHASE = 4  # PHASE_BID, PHASE_PLAY or PHASE_OVER
S_TRUMP = 5  # the round's trump suit, -1: none
S_TRICK_TRUMP = 6  # the current trick's trump (differs with rotating trumps)
S_FOLLOW = 7  # the suit to follow in the current trick, -1: none (yet)
S_DEMAND = 8  # 1 when a joker led "highest" demands everyone's highest card of S_FOLLOW
S_PLAYED = 9  # plays in the current trick
S_TRICKS = 10  # tricks finished this round
S_BID_COUNT = 11
S_BID_SUM = 12
S_DEALER = 13
# Per-seat blocks.
HANDS = 16
BIDS = HANDS + MAX_PLAYERS
TAKEN = BIDS + MAX_PLAYERS
ZERO_STREAK = TAKEN + MAX_PLAYERS
TRICK_CARD = ZERO_STREAK + MAX_PLAYERS
TRICK_MODE = TRICK_CARD + MAX_PLAYERS
TRICK_SUIT = TRICK_MODE + MAX_PLAYERS
STATE_SIZE = TRICK_SUIT + MAX_PLAYERS

PHASE_BID, PHASE_PLAY, PHASE_OVER = 0, 1, 2
#: Play modes: a plain card, and the joker's three.
M_PLAIN, M_TAKE, M_DISCARD, M_HIGHEST = 0, 1, 2, 3

# Rules vector.
R_TRUMP_WHEN_VOID = 0
R_HIGHEST_BEATEN_BY_TRUMP = 1
R_ROTATING_TRUMPS = 2
R_JOKER_LEAD_TAKE = 3
R_DISCARD_UNFOLLOWED_JOKER_WINS = 4  # joker_discard_lead_unfollowed == "joker_wins"
R_HAS_TRUMP = 5  # the round kind has a trump
R_HAS_BIDS = 6  # the round kind has bids
R_DEALER_CONSTRAINT = 7
R_MAX_ZERO_BIDS = 8  # max_zero_bids_in_a_row (0: no limit)
R_MISERE = 9  # the round is a misère: the policy ducks everything
R_GOLDEN = 10  # the round is golden: the policy takes everything
RULES_SIZE = 11

#: The card of an unused slot of the trick (whose mode is ``M_PLAIN`` and suit -1). When a
#: trick is finished its slots are emptied, the suit to follow and the demand cleared and
#: the trick's trump set back to the round's, so a state between tricks does not depend on
#: the trick before (the engine keeps those until the next lead, where they are reset).
NO_CARD = -1

#: Bit masks of the four suits, as in ``raspisnoy.core.cards``.
_SUIT_MASKS = np.array(SUIT_MASKS, dtype=np.int64)
#: A de Bruijn sequence and the table that turns ``(bit * _DE_BRUIJN) >> 58`` back into the
#: bit's index: a card's index from its bit in a few operations.
_DE_BRUIJN = 0x03F79D71B4CB0A89
_BIT_INDEX = np.zeros(64, dtype=np.int64)
_BIT_INDEX[[((_DE_BRUIJN << i) & ((1 << 64) - 1)) >> 58 for i in range(64)]] = np.arange(64)
#: Quick trick values of each standard card as a trump and as a side card, and of a joker,
#: read off ``simulator.hand_value`` itself so that the two cannot drift apart.
_TRUMP_VALUE = np.array([simulator.hand_value(1 << i, i // 13) for i in range(52)])
_SIDE_VALUE = np.array([simulator.hand_value(1 << i, -1) for i in range(52)])
_JOKER_VALUE = simulator.hand_value(1 << 52, -1)

_MODE_CODES: dict[JokerMode | None, int] = {
    None: M_PLAIN,
    JokerMode.TAKE: M_TAKE,
    JokerMode.DISCARD: M_DISCARD,
    JokerMode.HIGHEST: M_HIGHEST,
}
_JOKER_MODES = {code: mode for mode, code in _MODE_CODES.items() if mode is not None}
#: A state before anything is filled in: no bids, an empty trick.
_BLANK = [0] * STATE_SIZE
_BLANK[S_FOLLOW] = -1
_BLANK[BIDS : BIDS + MAX_PLAYERS] = [-1] * MAX_PLAYERS
_BLANK[TRICK_CARD : TRICK_CARD + MAX_PLAYERS] = [NO_CARD] * MAX_PLAYERS
_BLANK[TRICK_SUIT : TRICK_SUIT + MAX_PLAYERS] = [-1] * MAX_PLAYERS


# ----------------------------------------------------------------- actions and rules


def encode_action(action: Bid | Play) -> int:
    """The action code of a bid or a play (see the module docstring)."""
    if isinstance(action, Bid):
        return BID_BASE + action.amount
    suit = 0 if action.suit is None else int(action.suit)
    return action.card.index * 16 + _MODE_CODES[action.mode] * 4 + suit


def decode_action(code: int) -> Bid | Play:
    """The bid or play of an action code: ``encode_action``'s inverse."""
    if code >= BID_BASE:
        return Bid(code - BID_BASE)
    card, mode = card_at(code >> 4), code >> 2 & 3
    if mode == M_PLAIN:
        return Play.of(card)
    return Play(card, _JOKER_MODES[mode], None if mode == M_TAKE else Suit(code & 3))


def rules_vector(rules: Rules, kind: RoundKind) -> Int64s:
    """The rules vector of a round of ``kind`` played by ``rules`` (``R_*`` entries)."""
    vector = np.zeros(RULES_SIZE, dtype=np.int64)
    vector[R_TRUMP_WHEN_VOID] = rules.trump_when_void
    vector[R_HIGHEST_BEATEN_BY_TRUMP] = rules.joker_highest_beaten_by_trump
    vector[R_ROTATING_TRUMPS] = rules.rotating_trumps
    vector[R_JOKER_LEAD_TAKE] = rules.joker_lead_take
    vector[R_DISCARD_UNFOLLOWED_JOKER_WINS] = rules.joker_discard_lead_unfollowed == "joker_wins"
    vector[R_HAS_TRUMP] = kind.has_trump
    vector[R_HAS_BIDS] = kind.has_bids
    vector[R_DEALER_CONSTRAINT] = rules.dealer_constraint
    vector[R_MAX_ZERO_BIDS] = rules.max_zero_bids_in_a_row
    vector[R_MISERE] = kind is RoundKind.MISERE
    vector[R_GOLDEN] = kind is RoundKind.GOLDEN
    return vector


def score_table(rules: Rules, kind: RoundKind, cards: int) -> Int64s:
    """Points by ``[bid, taken]`` for a round of ``kind`` with ``cards`` cards, from
    ``core.scoring.round_points``; row ``cards + 1`` is a seat without a bid, which only
    rounds without bids have (in a round with bids that row is never read and holds 0).
    A new array each time, from a table computed once per rules, kind and size."""
    return np.array(_score_rows(rules, kind, cards), dtype=np.int64)


@lru_cache(maxsize=256)
def _score_rows(rules: Rules, kind: RoundKind, cards: int) -> tuple[tuple[int, ...], ...]:
    """``score_table``'s rows, computed once (a hundred calls of ``round_points`` for a
    9-card round: a share of a quick decision worth saving)."""
    table = [[0] * (cards + 1) for _ in range(cards + 2)]
    for taken in range(cards + 1):
        for bid in range(cards + 1):
            table[bid][taken] = points_of(rules, kind, bid, taken, cards=cards)
        if not kind.has_bids:
            table[cards + 1][taken] = points_of(rules, kind, None, taken, cards=cards)
    return tuple(tuple(row) for row in table)


# ----------------------------------------------------------------- states from the engine


def encode_game(game: Game) -> Int64s:
    """The state of ``game``'s current round (bidding or playing) at this moment."""
    hands = [mask_of(game.hand(seat)) for seat in range(game.players)]
    trump = -1 if game.trump is None else int(game.trump)
    return _encode(game.view(None), hands, trump, _zero_streaks(game))


def _zero_streaks(game: Game) -> list[int]:
    """The 0 bids each seat made in a row before the current round (rounds without bids
    leave a streak as it is), as the engine counts them for ``max_zero_bids_in_a_row``."""
    streaks = [0] * game.players
    for result in game.rounds():
        if result.points is not None and result.bids is not None:
            streaks = [
                s + 1 if bid == 0 else 0 for s, bid in zip(streaks, result.bids, strict=True)
            ]
    return streaks


def world_state(view: View, hands: list[int], trump_card: Card | None) -> Int64s:
    """The state of ``view``'s round where each seat holds ``hands[seat]`` now and the
    trump card is ``trump_card``: ``encode_game(simulator.round_game(view, hands,
    trump_card))``, built straight from the view (no zero streaks: the simulated round is
    played without the zero-bid limit, as ``round_game``'s is)."""
    trump = -1 if trump_card is None or trump_card.suit is None else int(trump_card.suit)
    return _encode(view, hands, trump, None)


def _encode(view: View, hands: list[int], trump: int, streaks: list[int] | None) -> Int64s:
    """The state of ``view``'s round with these hands, trump and zero streaks."""
    to_act = view.to_act
    if to_act is None or view.phase is Phase.CHOOSE:
        raise ValueError(f"only a round being bid or played has a state, not {view.phase}")
    players, trick = view.players, view.trick
    plays = trick.plays
    state = _BLANK.copy()
    state[S_PLAYERS] = players
    state[S_CARDS] = view.cards
    state[S_TO_ACT] = to_act
    state[S_LEADER] = trick.leader
    state[S_PHASE] = PHASE_BID if view.phase is Phase.BID else PHASE_PLAY
    state[S_TRUMP] = state[S_TRICK_TRUMP] = trump
    state[S_PLAYED] = len(plays)
    state[S_TRICKS] = len(view.tricks)
    state[S_DEALER] = view.dealer
    state[HANDS : HANDS + players] = hands
    state[TAKEN : TAKEN + players] = view.taken
    if streaks is not None:
        state[ZERO_STREAK : ZERO_STREAK + players] = streaks
    if view.bids is not None:
        for seat, bid in enumerate(view.bids):
            if bid is not None:
                state[BIDS + seat] = bid
                state[S_BID_COUNT] += 1
                state[S_BID_SUM] += bid
    if plays:
        context = trick_context(view, plays)
        state[S_FOLLOW], state[S_DEMAND] = context.follow, int(context.demand_highest)
        if view.rules.rotating_trumps:
            state[S_TRICK_TRUMP] = context.trump
        for position, play in enumerate(plays):
            state[TRICK_CARD + position] = play.card.index
            state[TRICK_MODE + position] = _MODE_CODES[play.mode]
            if play.suit is not None:
                state[TRICK_SUIT + position] = int(play.suit)
    return np.array(state, dtype=np.int64)


# ----------------------------------------------------------------- compiled: the rules


@inlined
def _bit_index(bit: int) -> int:
    """The index of the one bit set in ``bit``."""
    return int(_BIT_INDEX[((bit * _DE_BRUIJN) >> 58) & 63])


@inlined
def _legal_mask(state: Int64s, rules: Int64s) -> int:
    """The cards the seat to act may play (``Game._legal_mask_now``): the suit to follow
    (only its highest card when a led joker demands it), else a trump where trumping is
    compulsory (``Game._must_trump``), else anything; a joker always."""
    hand = state[HANDS + state[S_TO_ACT]]
    follow = state[S_FOLLOW]
    if state[S_PLAYED] == 0 or follow < 0:
        return int(hand)
    suited = hand & _SUIT_MASKS[follow]
    if suited:
        if state[S_DEMAND]:
            while suited & (suited - 1):
                suited &= suited - 1  # drop the lowest card until the highest is left
        return int(suited | (hand & JOKER_MASK))
    trump = state[S_TRICK_TRUMP]
    if trump >= 0 and (
        rules[R_TRUMP_WHEN_VOID] or (state[S_DEMAND] and rules[R_HIGHEST_BEATEN_BY_TRUMP])
    ):
        trumps = hand & _SUIT_MASKS[trump]
        if trumps:
            return int(trumps | (hand & JOKER_MASK))
    return int(hand)


@inlined
def _add_joker_plays(out: Int64s, count: int, base: int, mode: int) -> int:
    """Append a joker's plays in ``mode`` naming each suit in turn; the new count."""
    for suit in range(4):
        out[count + suit] = base + mode * 4 + suit
    return count + 4


@inlined
def _forbidden_bid(state: Int64s, rules: Int64s) -> int:
    """The dealer's forbidden bid (``core.bidding.forbidden_bid``), -1 when none."""
    cards, bid_sum = state[S_CARDS], state[S_BID_SUM]
    if state[S_TO_ACT] != state[S_DEALER] or not rules[R_DEALER_CONSTRAINT] or bid_sum > cards:
        return -1
    return int(cards - bid_sum)


@inlined
def _legal_bids(state: Int64s, rules: Int64s, out: Int64s) -> int:
    """The bids 0..cards without the dealer's forbidden one, and without 0 for a seat at
    the zero-bid limit unless it is the only bid left (``core.bidding.zero_bid_banned``)."""
    cards = state[S_CARDS]
    forbidden = _forbidden_bid(state, rules)
    limit = rules[R_MAX_ZERO_BIDS]
    above_zero = cards - (1 if forbidden > 0 else 0)  # bids above 0 the seat may make
    zero_banned = limit > 0 and state[ZERO_STREAK + state[S_TO_ACT]] >= limit and above_zero > 0
    count = 0
    for amount in range(cards + 1):
        if amount != forbidden and not (amount == 0 and zero_banned):
            out[count] = BID_BASE + amount
            count += 1
    return count


@compiled
def legal_actions(state: Int64s, rules: Int64s, out: Int64s) -> int:
    """Write the codes of the legal actions of the seat to act into ``out`` in the
    engine's order (``Game.legal_actions``) and return how many there are (0 when the
    round is over). A joker leading may demand the highest or discard naming any suit
    (and take, with ``joker_lead_take``); following, it takes or discards."""
    phase = state[S_PHASE]
    if phase == PHASE_BID:
        return _legal_bids(state, rules, out)
    if phase == PHASE_OVER:
        return 0
    mask = _legal_mask(state, rules)
    leading = state[S_PLAYED] == 0
    count = 0
    while mask:
        bit = mask & -mask
        mask ^= bit
        base = _bit_index(bit) * 16
        if base < 52 * 16:
            out[count] = base
            count += 1
        elif leading:
            if rules[R_JOKER_LEAD_TAKE]:
                out[count] = base + M_TAKE * 4
                count += 1
            count = _add_joker_plays(out, count, base, M_HIGHEST)
            count = _add_joker_plays(out, count, base, M_DISCARD)
        else:
            out[count] = base + M_TAKE * 4
            count = _add_joker_plays(out, count + 1, base, M_DISCARD)
    return count


@inlined
def _best_position(state: Int64s, plays: int, lead_suit: int, trump: int) -> int:
    """Position of the winning play among the first ``plays`` of the trick: the last joker
    that takes, else the highest trump, else the highest card of ``lead_suit``; -1 when
    none qualifies (``core.tricks._best_position``)."""
    best, best_position, take_position = -1, -1, -1
    for position in range(plays):
        card = state[TRICK_CARD + position]
        if card >= 52:
            if state[TRICK_MODE + position] == M_TAKE:
                take_position = position  # of two jokers taking, the later wins
            continue
        suit = card // 13
        if suit == trump:
            strength = 100 + card % 13
        elif suit == lead_suit:
            strength = card % 13
        else:
            continue
        if strength > best:
            best, best_position = strength, position
    return take_position if take_position >= 0 else best_position


@inlined
def _winning_position(state: Int64s, rules: Int64s, plays: int, trump: int) -> int:
    """Position (from the leader) of the play that wins the first ``plays`` plays of the
    trick with ``trump`` (``core.tricks.winner_of``)."""
    first_mode = state[TRICK_MODE]
    if first_mode in (M_HIGHEST, M_TAKE):
        # A led joker that wins, unless a later joker takes or, with the option
        # joker_highest_beaten_by_trump, a trump beats a "highest S" where S is not trump.
        for position in range(plays - 1, 0, -1):
            if state[TRICK_MODE + position] == M_TAKE:
                return position
        if (
            first_mode == M_HIGHEST
            and rules[R_HIGHEST_BEATEN_BY_TRUMP]
            and state[TRICK_SUIT] != trump
        ):
            return max(_best_position(state, plays, trump, trump), 0)
        return 0
    lead_suit = state[TRICK_SUIT]
    if lead_suit < 0:
        lead_suit = state[TRICK_CARD] // 13
    position = _best_position(state, plays, lead_suit, trump)
    if position >= 0:
        return position
    # A joker led as "discard S" that nobody followed or trumped: it wins, or the suit of
    # the first card played after it decides (docs/rules.md 3.1).
    if rules[R_DISCARD_UNFOLLOWED_JOKER_WINS]:
        return 0
    lead_suit = -1
    for position in range(1, plays):
        card = state[TRICK_CARD + position]
        if card < 52:
            lead_suit = card // 13
            break
    return max(_best_position(state, plays, lead_suit, trump), 0)


@inlined
def _clear_slot(state: Int64s, position: int) -> None:
    """Empty the trick's slot ``position``."""
    state[TRICK_CARD + position] = NO_CARD
    state[TRICK_MODE + position] = M_PLAIN
    state[TRICK_SUIT + position] = -1


@inlined
def _put_play(state: Int64s, position: int, code: int) -> None:
    """Write the play ``code`` into the trick's slot ``position``."""
    mode = code >> 2 & 3
    state[TRICK_CARD + position] = code >> 4
    state[TRICK_MODE + position] = mode
    state[TRICK_SUIT + position] = code & 3 if mode in (M_DISCARD, M_HIGHEST) else -1


@inlined
def _finish_trick(state: Int64s, rules: Int64s) -> None:
    """Give the full trick to its winner, who leads the next; end the round after the last."""
    players = state[S_PLAYERS]
    position = _winning_position(state, rules, players, state[S_TRICK_TRUMP])
    winner = (state[S_LEADER] + position) % players
    state[TAKEN + winner] += 1
    for position in range(players):
        _clear_slot(state, position)
    state[S_PLAYED] = 0
    state[S_FOLLOW] = -1
    state[S_DEMAND] = 0
    state[S_TRICK_TRUMP] = state[S_TRUMP]
    state[S_LEADER] = state[S_TO_ACT] = winner
    state[S_TRICKS] += 1
    if state[S_TRICKS] == state[S_CARDS]:
        state[S_PHASE] = PHASE_OVER


@compiled
def apply_action(state: Int64s, rules: Int64s, code: int) -> None:
    """Make the seat to act bid or play ``code`` (a legal action: not checked), as
    ``Game.bid`` and ``Game.play`` do. A lead sets the suit to follow, the demand of a
    joker led "highest" and, with rotating trumps, the trick's trump (the suit after the
    suit led, none after a joker led "take" or in a round without trumps)."""
    seat, players = state[S_TO_ACT], state[S_PLAYERS]
    if code >= BID_BASE:
        amount = code - BID_BASE
        state[BIDS + seat] = amount
        state[S_BID_SUM] += amount
        state[S_BID_COUNT] += 1
        if state[S_BID_COUNT] == players:
            state[S_PHASE] = PHASE_PLAY
        state[S_TO_ACT] = (seat + 1) % players
        return
    state[HANDS + seat] &= ~(np.int64(1) << (code >> 4))
    position = state[S_PLAYED]
    _put_play(state, position, code)
    if position == 0:
        follow = state[TRICK_SUIT]
        if follow < 0 and code < 52 * 16:
            follow = (code >> 4) // 13
        state[S_FOLLOW] = follow
        state[S_DEMAND] = 1 if state[TRICK_MODE] == M_HIGHEST else 0
        if rules[R_ROTATING_TRUMPS]:
            has_trump = follow >= 0 and rules[R_HAS_TRUMP]
            state[S_TRICK_TRUMP] = (follow + 1) % 4 if has_trump else -1
    state[S_PLAYED] = position + 1
    if position + 1 == players:
        _finish_trick(state, rules)
    else:
        state[S_TO_ACT] = (seat + 1) % players


@compiled
def round_points(state: Int64s, score: Int64s, out: Int64s) -> None:
    """Write each seat's points for the round into ``out[seat]``: ``score[bid, taken]``
    (``score_table``), the row ``cards + 1`` for a seat without a bid."""
    for seat in range(state[S_PLAYERS]):
        bid = state[BIDS + seat]
        row = bid if bid >= 0 else state[S_CARDS] + 1
        out[seat] = score[row, state[TAKEN + seat]]


# ----------------------------------------------------------------- compiled: the policy


@inlined
def _bit_count(mask: int) -> int:
    """How many bits are set in ``mask``."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@compiled
def hand_value(mask: int, trump: int) -> float:
    """``simulator.hand_value``: a quick count of the tricks a hand should take, summed in
    the same order so that the floating-point result is the same."""
    value = _JOKER_VALUE * _bit_count(mask & JOKER_MASK)
    mask &= ~JOKER_MASK
    while mask:
        bit = mask & -mask
        mask ^= bit
        index = _bit_index(bit)
        value += _TRUMP_VALUE[index] if index // 13 == trump else _SIDE_VALUE[index]
    return value


@inlined
def _strength(code: int, trump: int) -> int:
    """``simulator._strength_key``: discarded jokers lowest, then side cards by rank,
    trumps, and jokers that take or lead "highest" above all."""
    card = code >> 4
    if card >= 52:
        return -1 if (code >> 2 & 3) == M_DISCARD else 200
    return card % 13 + 2 + (50 if card // 13 == trump else 0)


@inlined
def _quick_bid(state: Int64s, actions: Int64s, count: int) -> int:
    """``simulator._quick_bid``: the legal bid nearest the hand's quick trick count (of
    two as near, the lower)."""
    wanted = np.rint(hand_value(state[HANDS + state[S_TO_ACT]], state[S_TRUMP]))
    best, best_distance = actions[0], abs(actions[0] - BID_BASE - wanted)
    for i in range(1, count):
        distance = abs(actions[i] - BID_BASE - wanted)
        if distance < best_distance:
            best, best_distance = actions[i], distance
    return int(best)


@inlined
def _taking(state: Int64s, rules: Int64s, seat: int) -> bool:
    """``simulator._taking``: whether the seat wants tricks (short of its bid, or golden)."""
    if rules[R_MISERE]:
        return False
    bid = state[BIDS + seat]
    return bool(rules[R_GOLDEN]) or bid < 0 or state[TAKEN + seat] != bid


@inlined
def _lead(state: Int64s, actions: Int64s, count: int, taking: bool) -> int:
    """``simulator._lead``: the strongest play to take (a joker as "highest" of the trump
    or the first suit), the weakest to lose. Of equals, the first in the engine's order."""
    trump = state[S_TRUMP]
    best, best_key = actions[0], _strength(actions[0], trump)
    for i in range(1, count):
        key = _strength(actions[i], trump)
        if (key > best_key) if taking else (key < best_key):
            best, best_key = actions[i], key
    if taking and best >= 52 * 16:
        wanted = trump if trump >= 0 else 0
        for i in range(count):
            if actions[i] >= 52 * 16 and (actions[i] & 15) == M_HIGHEST * 4 + wanted:
                return int(actions[i])
    return int(best)


@inlined
def _greedy_play(state: Int64s, rules: Int64s, actions: Int64s, count: int) -> int:
    """``simulator._greedy_play``: a seat that wants tricks plays its strongest winner
    (the cheapest when it plays last), else its weakest card; one that does not plays
    its strongest loser, else its strongest card. Of equals, the first in the engine's
    order, as Python's ``min`` and ``max`` choose."""
    taking = _taking(state, rules, state[S_TO_ACT])
    played = state[S_PLAYED]
    if played == 0:
        return _lead(state, actions, count, taking)
    trump = state[S_TRICK_TRUMP]
    # The weakest and strongest winner and loser: codes and strengths.
    low_win, high_win, low_lose, high_lose = -1, -1, -1, -1
    low_win_key, high_win_key, low_lose_key, high_lose_key = 1000, -1000, 1000, -1000
    for i in range(count):
        code = actions[i]
        key = _strength(code, trump)
        wins = False
        if key >= 0:  # a joker discarding always loses
            _put_play(state, played, code)
            wins = _winning_position(state, rules, played + 1, trump) == played
        if wins:
            if key < low_win_key:
                low_win, low_win_key = code, key
            if key > high_win_key:
                high_win, high_win_key = code, key
        else:
            if key < low_lose_key:
                low_lose, low_lose_key = code, key
            if key > high_lose_key:
                high_lose, high_lose_key = code, key
    _clear_slot(state, played)
    if taking:
        if low_win >= 0:
            return int(low_win if played == state[S_PLAYERS] - 1 else high_win)
        return int(low_lose)
    return int(high_lose if high_lose >= 0 else high_win)


@inlined
def _policy(state: Int64s, rules: Int64s, actions: Int64s) -> int:
    """``policy_action`` with a scratch buffer for the legal actions."""
    count = legal_actions(state, rules, actions)
    if count == 1:
        return int(actions[0])
    if state[S_PHASE] == PHASE_BID:
        return _quick_bid(state, actions, count)
    return _greedy_play(state, rules, actions, count)


@compiled
def policy_action(state: Int64s, rules: Int64s) -> int:
    """The playout policy's action for the seat to act: ``simulator.policy_action``, the
    same choice in every state (quick-count bids, greedy contract-aware plays)."""
    return _policy(state, rules, np.empty(MAX_ACTIONS, dtype=np.int64))


@compiled
def play_out(state: Int64s, rules: Int64s) -> None:
    """Play the round to its end with the playout policy."""
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    while state[S_PHASE] != PHASE_OVER:
        apply_action(state, rules, _policy(state, rules, actions))


@compiled
def play_out_tricks(state: Int64s, rules: Int64s, seat: int) -> int:
    """``play_out``, returning which of the round's tricks ``seat`` wins from now on: bit
    ``t`` is set for the trick ``t`` (0-based: ``S_TRICKS`` while it is played). What a
    review's reason cites as the trick a move loses or gives away (``expert.outcomes``);
    a sibling of ``play_out``, so that the search's playouts pay nothing for it."""
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    won = 0
    while state[S_PHASE] != PHASE_OVER:
        trick, taken = state[S_TRICKS], state[TAKEN + seat]
        apply_action(state, rules, _policy(state, rules, actions))
        if state[TAKEN + seat] != taken:
            won |= 1 << trick
    return won


@compiled
def noisy_play_out(
    state: Int64s, rules: Int64s, seat: int, noise: float, gen: np.random.Generator
) -> None:
    """Play the round to its end with the playout policy, except that every other seat
    plays a uniformly random legal card (drawn by ``gen``) ``noise`` of the time."""
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    while state[S_PHASE] != PHASE_OVER:
        _noisy_step(state, rules, seat, noise, gen, actions)


@compiled
def noisy_play_out_step(
    state: Int64s, rules: Int64s, seat: int, noise: float, gen: np.random.Generator
) -> None:
    """One action of ``noisy_play_out`` (the round is not over)."""
    _noisy_step(state, rules, seat, noise, gen, np.empty(MAX_ACTIONS, dtype=np.int64))


@inlined
def _noisy_step(
    state: Int64s,
    rules: Int64s,
    seat: int,
    noise: float,
    gen: np.random.Generator,
    actions: Int64s,
) -> None:
    """One action of ``noisy_play_out``, with a scratch buffer for the legal actions."""
    if state[S_PHASE] == PHASE_PLAY and state[S_TO_ACT] != seat and gen.random() < noise:
        count = legal_actions(state, rules, actions)
        apply_action(state, rules, actions[below(gen, count)])
    else:
        apply_action(state, rules, _policy(state, rules, actions))


@inlined
def below(gen: np.random.Generator, count: int) -> int:
    """A uniform random integer in 0..count-1 (``gen.random()`` scaled: an order of
    magnitude cheaper in compiled code than ``gen.integers``)."""
    return int(gen.random() * count)


@compiled
def random_play_out(state: Int64s, rules: Int64s, gen: np.random.Generator) -> None:
    """Play the round to its end with uniformly random legal actions drawn by ``gen``."""
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    while state[S_PHASE] != PHASE_OVER:
        count = legal_actions(state, rules, actions)
        apply_action(state, rules, actions[below(gen, count)])
