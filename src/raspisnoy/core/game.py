"""The game state machine: deal, bid, play tricks, score, next round, to the end of the plan.

``Game`` follows pokerkit's pattern: every action kind (deal, bid, play, choose_control)
has ``verify_x()`` (raises ``IllegalActionError`` saying why), ``can_x()`` (bool) and
``x()`` (applies it and returns the immutable ``Event`` it appended to the log).
``legal_actions()`` lists what the player to act may do; ``apply()`` takes any action;
``view(seat)`` is all a seat may know. Trick winners are ``tricks``' business.

Hands are bit masks (see ``cards``), so legality is a few integer operations. Every change
of state computes the legal set at once, as a tuple of interned actions and as a mask that
``apply`` checks a play or bid against, so ``legal_actions()`` only returns it. A lead picks
one of the precomputed ``_TrickKind`` tables (trump, suit led, "highest"), and a follower's
legal set and a plain trick's winner are lookups in it, kept play by play. The game keeps
values, not logs: the shuffles are the cards' bits, so a hand's mask is a sum; the deal's
cards, the finished rounds' ``RoundResult`` and the log (``events``) are made from them
when asked for. Only the hands and the trick in progress (appended to, play by play) are
lists; the rest are ints, tuples and shared objects (``_Setup``, ``_Round``), so
``clone()`` copies two lists and a few references.
A game built with a ``seed`` deals itself from its own ``random.Random``; one built without
waits in ``Phase.DEAL`` for ``deal()``, which is how records are replayed. After the plan,
a ``control_game`` may add rounds chosen in ``Phase.CHOOSE``.
Figures: README, "Benchmarks" (``benchmarks/engine.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from itertools import repeat, starmap
from operator import add, attrgetter, getitem, itemgetter

from raspisnoy.core.actions import (
    BID_BIT,
    CONTROL_KINDS,
    PLAIN_PLAYS,
    Action,
    Bid,
    ControlRound,
    JokerMode,
    Play,
)
from raspisnoy.core.bidding import forbidden_bid, zero_bid_banned
from raspisnoy.core.cards import ALL_CARDS, SUIT_MASKS, Card, Suit, cards_in_mask, mask_of
from raspisnoy.core.errors import IllegalActionError, InvalidInputError, NotYourTurnError, count
from raspisnoy.core.events import Deal, Event, Phase, RoundResult, Trick
from raspisnoy.core.kinds import RoundKind
from raspisnoy.core.plan import RoundSpec, round_plan
from raspisnoy.core.rules import Rules, deck_cards, max_cards, resolve_rules
from raspisnoy.core.scoring import leaders, round_points
from raspisnoy.core.tricks import NO_TRUMP, SUIT_OF, rotated_trump, winner_of
from raspisnoy.core.view import OwnView, View

__all__ = [
    "Deal",
    "Event",
    "Game",
    "Phase",
    "RoundResult",
    "Trick",
    "player_names",
]

_JOKER_MASK = 0b111 << 52
#: The first joker's bit: a mask below it holds no joker.
_JOKER_BITS = 1 << 52
_SUITS = tuple(Suit)
_BIDS = tuple(Bid(n) for n in range(64))
#: Builds a named tuple from a plain one without the Python-level ``__new__``: on the
#: hot paths this halves the cost of an ``Event``.
_new_tuple = tuple.__new__
_BIT = attrgetter("bit")
#: A finished trick as the game keeps it: ``(leader, plays, winner)``, a plain tuple, made
#: into a ``Trick`` only when read (``_tricks_of``): a named tuple costs three times as much
#: to make, and a playout reads none.
TrickRecord = tuple[int, tuple[Play, ...], int]
_TRICK_OF = partial(_new_tuple, Trick)


def _tricks_of(records: tuple[TrickRecord, ...]) -> tuple[Trick, ...]:
    """The ``Trick`` of each trick record."""
    return tuple(map(_TRICK_OF, records))


#: Each card by its bit (``Card.bit``): a shuffled deck's bits back to cards.
_CARD_OF_BIT = {card.bit: card for card in ALL_CARDS}

# Enum members looked up once: a class attribute lookup costs more than a global.
_PHASE_DEAL, _PHASE_BID, _PHASE_PLAY, _PHASE_OVER = Phase.DEAL, Phase.BID, Phase.PLAY, Phase.OVER
_PHASE_CHOOSE = Phase.CHOOSE
_HIGHEST, _TAKE, _DISCARD = JokerMode.HIGHEST, JokerMode.TAKE, JokerMode.DISCARD


def _joker_plays(card: Card, modes: Sequence[JokerMode]) -> tuple[Play, ...]:
    plays = [Play(card, mode, suit) for mode in modes for suit in _SUITS]
    return tuple(plays)


def _by_joker_bits(plays_by_joker: Sequence[tuple[Play, ...]]) -> tuple[tuple[Play, ...], ...]:
    """The plays of every set of jokers a hand may hold, indexed by the mask's joker bits
    (``mask >> 52``), in card order, from each joker's plays (by index - 52)."""
    return tuple(
        tuple(play for joker in range(3) if bits >> joker & 1 for play in plays_by_joker[joker])
        for bits in range(8)
    )


_LEAD_PLAYS = [_joker_plays(j, (JokerMode.HIGHEST, JokerMode.DISCARD)) for j in ALL_CARDS[52:]]
#: The jokers' legal plays when they lead (highest S, discard S; with the option
#: ``joker_lead_take`` also take) and when they follow (take, discard S), by ``mask >> 52``.
_LEAD_JOKER_PLAYS = _by_joker_bits(_LEAD_PLAYS)
_LEAD_JOKER_PLAYS_WITH_TAKE = _by_joker_bits(
    [
        (Play(j, JokerMode.TAKE), *plays)
        for j, plays in zip(ALL_CARDS[52:], _LEAD_PLAYS, strict=True)
    ]
)
_FOLLOW_JOKER_PLAYS = _by_joker_bits(
    [(Play(j, JokerMode.TAKE), *_joker_plays(j, (JokerMode.DISCARD,))) for j in ALL_CARDS[52:]]
)


MAX_NAME_LENGTH = 40
#: The most seats a game has (``max_players`` allows at most 10): ``Game._best`` keeps a
#: seat in 4 bits.
MAX_SEATS = 10


def player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """Seat names from a count (``Player 1``…) or a list: printable, distinct, 1-40 characters."""
    if isinstance(players, int) and not isinstance(players, bool):
        return tuple(f"Player {seat + 1}" for seat in range(players))
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidInputError(f"players must be a number or a list of names, not {players!r}")
    for name in players:
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise InvalidInputError(
                f"players: {name!r} is not a name (printable text)",
                code="player_name",
                params={"name": repr(name)},
            )
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidInputError(
                f"players: {name!r} is longer than {MAX_NAME_LENGTH}",
                code="player_name_length",
                params={"name": repr(name), "count": MAX_NAME_LENGTH},
            )
    if len(set(players)) != len(players):
        raise InvalidInputError("players: names must be different", code="player_names_twice")
    return tuple(players)


def _is_seat(seat: object, players: int) -> bool:
    return type(seat) is int and 0 <= seat < players


def _check_deal_types(hands: object, trump_card: object) -> None:
    """Refuse a deal that is not hands of ``Card`` values (e.g. card texts)."""
    if not isinstance(hands, Sequence) or not all(
        isinstance(hand, Sequence) and all(isinstance(card, Card) for card in hand)
        for hand in hands
    ):
        raise InvalidInputError("a deal needs a list of hands of Card values (see Card.parse)")
    if trump_card is not None and not isinstance(trump_card, Card):
        raise InvalidInputError(f"the trump card must be a Card or None, not {trump_card!r}")


def _random_keys(rng: random.Random) -> Callable[[object], float]:
    """A sort key that ignores its argument and returns ``rng.random()``, the next draw:
    ``next(starmap(random, repeat(())), card)``, called in C. ``sorted`` computes the keys
    of the items in order, so sorting by it gives the very order of ``key=lambda _card:
    rng.random()`` (the records' deals), about a quarter cheaper than that Python call
    per card."""
    return partial(next, starmap(rng.random, repeat(())))


def _shuffled(seed: str, deck: tuple[Card, ...]) -> tuple[int, ...]:
    """A uniform shuffle of ``deck`` from ``random.Random(seed)``, as the cards' bits."""
    return tuple(sorted(map(_BIT, deck), key=_random_keys(random.Random(f"raspisnoy/{seed}"))))


def _draw_shuffles(
    seed: int | str, players: int, deck: tuple[Card, ...], rounds: int
) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The first dealer and every round's shuffled deck (the cards' bits, so that a hand's
    mask is the sum of its slice), from one ``random.Random(seed)``.

    The dealer is always drawn first, so the shuffles do not depend on whether the caller
    chose the dealer. Each deck is sorted by random keys: a uniform shuffle (a tie, at
    odds of about 2**-43, keeps deck order) that runs mostly in C.
    """
    rng = random.Random(f"raspisnoy/{seed}")
    dealer = rng.randrange(players)
    keys, bits = _random_keys(rng), tuple(map(_BIT, deck))
    return dealer, tuple(tuple(sorted(bits, key=keys)) for _ in range(rounds))


@lru_cache(maxsize=16)
def _control_choices(players: int) -> tuple[ControlRound, ...]:
    """Every control round the last-placed player may choose: kind × dealer."""
    return tuple(ControlRound(kind, dealer) for kind in CONTROL_KINDS for dealer in range(players))


#: A bid of 0's bit in ``Game._legal_mask`` (``Bid.mask_bit``), above every card's: an
#: action whose mask bit is at least this is a bid.
_BID_ONE = 1 << BID_BIT


@lru_cache(maxsize=1024)
def _bid_choices(cards: int, forbidden: int, zero_banned: bool) -> tuple[tuple[Bid, ...], int]:
    """Bids 0..cards without the forbidden one (-1: none), and without 0 when banned; and
    the same as a mask (``Game._legal_mask``: each bid's ``mask_bit``)."""
    bids = tuple(
        bid
        for bid in _BIDS[: cards + 1]
        if bid.amount != forbidden and not (zero_banned and bid.amount == 0)
    )
    return bids, sum(bid.mask_bit for bid in bids)


def _forbidden(rules: Rules, cards: int, bid_sum: int, *, dealer: bool) -> int:
    """``forbidden_bid``, -1 for none (``_bid_choices``' ``forbidden``)."""
    forbidden = forbidden_bid(rules, cards, bid_sum, dealer=dealer)
    return -1 if forbidden is None else forbidden


#: ``_bid_choices`` of a player with neither rule in the way (every bid but the dealer's,
#: unless 0 is banned), by the round's cards: a tuple index, not a cache lookup.
_OPEN_BIDS = tuple(_bid_choices(cards, -1, False) for cards in range(len(_BIDS)))


#: Bit 20 and above in ``Game._best``: a joker led the trick, and ``winner_of`` decides it.
_JOKER_TRICK = 1 << 20
#: Bit 19 in ``Game._best``: a joker following a standard card took the trick so far (any
#: card's strength is below it; the later of two "take" jokers wins, so it is set, not
#: compared).
_JOKER_TAKES = 1 << 19


def _strength_table(trump: int, follow: int) -> tuple[int, ...]:
    """Each card index's strength in a trick of the suit ``follow`` under ``trump`` (-1:
    none), shifted left by 4 to leave room for the seat: a trump 100 + rank, a card of the
    suit led its rank, any other card -1. So is a joker: one that follows takes the trick
    (``Game._joker_play``) or loses it, and one that leads sets ``_JOKER_TRICK``."""
    strengths = []
    for card in ALL_CARDS:
        suit = SUIT_OF[card.index]
        if suit < 0 or suit not in (trump, follow):
            strengths.append(-1 << 4)
        else:
            strengths.append((100 if suit == trump else 0) + card.rank << 4)
    return tuple(strengths)


_SLICE = 0x1FFF
#: Spades and clubs, the low half of a mask (``_plays_of``); in the high half (``mask >>
#: 26``: diamonds, hearts, jokers) the first joker's bit.
_LOW_HALF = (1 << 26) - 1
_HIGH_JOKERS = 1 << 26


#: The plain plays of one suit's cards, by suit, indexed by the suit's 13-bit slice of a
#: mask; filled on demand (``None`` until then: a list, whose index is cheaper than a
#: dict's). A legal set is at most four such slices and the jokers, so it is assembled
#: from them rather than cached whole: a hand that leads is seldom seen twice.
_SUIT_PLAYS: tuple[list[tuple[Play, ...] | None], ...] = tuple(
    [(), *[None] * _SLICE] for _suit in range(4)
)
_SPADE_PLAYS, _CLUB_PLAYS, _DIAMOND_PLAYS, _HEART_PLAYS = _SUIT_PLAYS


class _TrickKind:
    """What a trick is judged by once led, one shared value per trump, suit led and
    "highest" (``_TRICK_KINDS``), so a lead sets one field and a play reads its tables:

    - ``trump`` and ``follow``: the trick's trump and the suit to follow (-1: none);
    - ``highest``: a joker led "highest" demands each player's highest card of ``follow``;
    - ``plain_below``: a hand below it (one without a joker) in a plain trick (``follow``
      set, not ``highest``), where a player with the suit just follows it; 0, which no
      hand is below, in any other trick;
    - ``strength``: each card index's strength (``_strength_table``); a plain trick's
      winner is the highest ``strength | seat`` of its plays, kept up to date play by play;
    - ``suit_mask``, ``shift``, ``suit_plays``: the suit's bits, where its slice starts,
      and its slices' plays (``_SUIT_PLAYS``): a follower's legal set is one lookup.
    """

    __slots__ = (
        "follow",
        "highest",
        "plain_below",
        "shift",
        "strength",
        "suit_mask",
        "suit_plays",
        "trump",
    )

    def __init__(self, trump: int, follow: int, highest: bool, strength: tuple[int, ...]) -> None:
        self.trump, self.follow, self.highest = trump, follow, highest
        self.plain_below = _JOKER_BITS if follow >= 0 and not highest else 0
        self.strength = strength
        self.suit_mask = SUIT_MASKS[follow] if follow >= 0 else 0
        self.shift = 13 * follow if follow >= 0 else 0
        self.suit_plays = _SUIT_PLAYS[follow] if follow >= 0 else None

    def __repr__(self) -> str:
        return f"_TrickKind(trump={self.trump}, follow={self.follow}, highest={self.highest})"


def _trick_kinds() -> tuple[tuple[tuple[_TrickKind, ...], ...], ...]:
    """Every ``_TrickKind``, by ``trump + 1``, ``follow + 1`` and ``highest``."""
    kinds = []
    for trump in range(-1, 4):
        by_follow = []
        for follow in range(-1, 4):
            strength = _strength_table(trump, follow)
            pair = tuple(_TrickKind(trump, follow, highest, strength) for highest in (False, True))
            by_follow.append(pair)
        kinds.append(tuple(by_follow))
    return tuple(kinds)


_TRICK_KINDS = _trick_kinds()

#: The trick a standard card led makes, by the card's index: under each fixed trump (by
#: ``trump + 1``), and under rotating trumps in a round with a trump (where the trump is
#: the suit after the suit led; without one, the trick has none, as under a fixed -1).
_FIXED_LEADS = tuple(
    tuple(by_follow[SUIT_OF[index] + 1][False] for index in range(52)) for by_follow in _TRICK_KINDS
)
_ROTATING_LEADS = tuple(
    _TRICK_KINDS[rotated_trump(SUIT_OF[index], True) + 1][SUIT_OF[index] + 1][False]
    for index in range(52)
)


def _fill_suit_plays(mask: int) -> None:
    """Fill the entries of ``_SUIT_PLAYS`` for the slices of ``mask``."""
    for suit, slices in enumerate(_SUIT_PLAYS):
        chunk = mask >> 13 * suit & _SLICE
        if slices[chunk] is None:
            base = 13 * suit
            plays = [PLAIN_PLAYS[base + bit] for bit in range(13) if chunk >> bit & 1]
            slices[chunk] = tuple(plays)  # type: ignore[arg-type]


def _plays_of(mask: int, joker_plays: tuple[tuple[Play, ...], ...]) -> tuple[Play, ...]:
    """Every play of the cards in ``mask``, in card order: one per standard card, and
    ``joker_plays[mask >> 52]`` for the jokers (their legal modes where they are played).
    Unrolled over the four suits: this runs for every lead. The mask (55 bits: two of
    Python's 30-bit digits) is split once into halves of one digit each, so that the
    suits' slices are cut by the interpreter's fast path for small ints."""
    low, high = mask & _LOW_HALF, mask >> 26
    try:
        plays = (  # (a None slice raises TypeError, caught below)
            _SPADE_PLAYS[low & _SLICE]  # type: ignore[operator]
            + _CLUB_PLAYS[low >> 13]
            + _DIAMOND_PLAYS[high & _SLICE]
            + _HEART_PLAYS[high >> 13 & _SLICE]
        )
    except TypeError:  # a slice not seen yet (None): fill it in
        _fill_suit_plays(mask)
        return _plays_of(mask, joker_plays)
    if high >= _HIGH_JOKERS:
        plays += joker_plays[high >> 26]
    return plays


class _RulesTables:
    """What every game of one ruleset shares, filled on demand (``_rules_tables``): the
    points tables (``_points_table``) by round kind and cards, and the ``_DealPlan`` of
    each round of the plan, by the number of players, then by the round's index."""

    __slots__ = ("plans", "points")

    def __init__(self) -> None:
        self.points: dict[tuple[RoundKind, int], tuple[tuple[int, ...], ...]] = {}
        self.plans: dict[int, list[_DealPlan | None]] = {}


@lru_cache(maxsize=32)
def _rules_tables(rules: Rules) -> _RulesTables:
    """The ``_RulesTables`` of ``rules``: one per ruleset, so every game shares them."""
    return _RulesTables()


def _points_table(rules: Rules, kind: RoundKind, cards: int) -> tuple[tuple[int, ...], ...]:
    """``round_points`` of a round, by the seat's byte of ``Game._bids`` (0: no bid, in a
    round without bids; n + 1: a bid of n) and tricks taken: a round's points are then a
    lookup per seat, straight from the packed bids."""

    def row(bid: int | None) -> tuple[int, ...]:
        return tuple(
            round_points(rules, kind, bid, taken, cards=cards) for taken in range(cards + 1)
        )

    if not kind.has_bids:
        return (row(None),)
    return ((), *map(row, range(cards + 1)))


class _DealPlan:
    """What dealing one round of the plan takes, the same in every game of these rules and
    players, so made once (``_Setup.deal_plan``), not every round: the plan entry, the
    cards dealt in all, ``trump_at``, the place in the shuffled deck of the card that sets
    the trump (``_trump_source``; -1: none), whether a joker there means a new deal,
    whether the trump rotates (the rules' rotating trumps, in a round with a trump), the
    points table (``_points_table``), the round number's log entries (``_event_rows``),
    by dealer the seats' slices of a shuffled deck as one ``itemgetter`` (a hand's mask
    is the sum of its slice), and ``dealer_bids``: the dealer's bids (``_bid_choices``)
    by the sum of the others' bids, when no run of 0 bids is in the way."""

    __slots__ = (
        "dealer_bids",
        "dealt",
        "events",
        "hands",
        "points",
        "redeal_on_joker",
        "rotating",
        "spec",
        "trump_at",
    )

    def __init__(self, setup: _Setup, spec: RoundSpec) -> None:
        players, rules = len(setup.names), setup.rules
        dealt = self.dealt = players * spec.cards
        self.spec, source = spec, _trump_source(rules, players, len(setup.deck), spec)
        self.trump_at = {"undealt": dealt, "dealer": dealt - 1}.get(source, -1)
        if self.trump_at >= len(setup.deck):  # (no card left to turn up)
            self.trump_at = -1
        self.redeal_on_joker = rules.trump_source == "dealer_last" and spec.has_trump
        self.rotating = rules.rotating_trumps and spec.has_trump
        self.points = setup.points_table(spec)
        self.dealer_bids = tuple(
            _bid_choices(spec.cards, _forbidden(rules, spec.cards, bids, dealer=True), False)
            for bids in range((players - 1) * spec.cards + 1)
        )
        number = spec.number
        self.events = _EVENT_ROWS[number] if number < len(_EVENT_ROWS) else _event_rows(number)
        # The dealer's left-hand neighbour gets the first card (players >= 2: a tuple).
        self.hands = tuple(
            itemgetter(
                *[slice((seat - dealer - 1) % players, dealt, players) for seat in range(players)]
            )
            for dealer in range(players)
        )


def _trump_source(rules: Rules, players: int, deck_size: int, spec: RoundSpec) -> str:
    """Where the trump card of a round ``spec`` comes from: "undealt" (the top of the
    rest), "dealer" (the dealer's last card), or "none" (no card sets the trump)."""
    if not spec.has_trump or rules.rotating_trumps:
        return "none"
    if rules.trump_source == "dealer_last":
        return "dealer"
    if players * spec.cards < deck_size:
        return "undealt"
    return "dealer" if rules.max_deal_trump == "dealer_shows" else "none"


class _Setup:
    """What a game and all its clones share and never change: the rules, names, deck and
    seed, every round's shuffle, the rules' points tables and deal plans
    (``_rules_tables``), and what the hot paths ask of the rules, looked up once."""

    __slots__ = (
        "deck",
        "free_when_void",
        "lead_jokers",
        "names",
        "plans",
        "points",
        "rotating_trumps",
        "rules",
        "seed",
        "shuffles",
        "zero_runs",
    )

    def __init__(
        self,
        rules: Rules,
        names: tuple[str, ...],
        deck: tuple[Card, ...],
        seed: int | str | None,
        shuffles: tuple[tuple[int, ...], ...],
    ) -> None:
        self.rules, self.names, self.deck, self.seed, self.shuffles = (
            rules,
            names,
            deck,
            seed,
            shuffles,
        )
        tables = _rules_tables(rules)
        self.points = tables.points
        #: The ``_DealPlan`` of each round of the plan (``deal_plan``), shared by every
        #: game of these rules and players.
        plans = tables.plans.get(len(names))
        if plans is None:
            plans = tables.plans[len(names)] = [None] * len(round_plan(rules, len(names)))
        self.plans = plans
        self.rotating_trumps = rules.rotating_trumps
        #: Whether each seat's run of 0 bids is counted (only when the rules limit it).
        self.zero_runs = rules.max_zero_bids_in_a_row > 0
        #: Whether a player void in the suit of a plain trick may play any card.
        self.free_when_void = not rules.trump_when_void
        #: The jokers' legal plays as they lead (``_plays_of``), by the rules.
        self.lead_jokers = (
            _LEAD_JOKER_PLAYS_WITH_TAKE if rules.joker_lead_take else _LEAD_JOKER_PLAYS
        )

    def points_table(self, spec: RoundSpec) -> tuple[tuple[int, ...], ...]:
        """``_points_table`` of a round of this game's rules."""
        key = spec.kind, spec.cards
        table = self.points.get(key)
        if table is None:
            table = self.points[key] = _points_table(self.rules, spec.kind, spec.cards)
        return table

    def deal_plan(self, index: int, spec: RoundSpec) -> _DealPlan:
        """The ``_DealPlan`` of round ``spec``, the plan's round ``index``: shared by the
        games of these rules and players, made anew for a control round beyond the plan."""
        if index >= len(self.plans):
            return _DealPlan(self, spec)
        plan = self.plans[index]
        if plan is None:
            plan = self.plans[index] = _DealPlan(self, spec)
        return plan


class _Round:
    """One round's deal, shared by clones and replaced, never changed: its plan entry (and
    number), its dealer, the hands dealt as masks, the trump card and the trump (-1:
    none). Until the deal the hands are empty and there is no trump. The hands as cards
    (``dealt``) are made when first asked for: only records, replays and reviews read them.

    For ``Game.apply``: ``leads``, the ``_TrickKind`` each standard card led makes (under
    rotating trumps, the suit led's), ``events``, this round number's shared log
    entries (``_event_rows``), ``next_seat``, each seat's left-hand neighbour (who plays
    after it), ``cards``, the tricks in the round, and ``plan``, its ``_DealPlan``."""

    __slots__ = (
        "_dealt",
        "cards",
        "dealer",
        "events",
        "leads",
        "masks",
        "next_seat",
        "number",
        "plan",
        "spec",
        "trump",
        "trump_card",
    )

    def __init__(
        self,
        plan: _DealPlan,
        dealer: int,
        next_seat: tuple[int, ...],
        masks: Sequence[int] = (),
        trump_card: Card | None = None,
    ) -> None:
        spec = self.spec = plan.spec
        self.plan, self.dealer, self.masks, self.trump_card = plan, dealer, masks, trump_card
        self.number, self.cards, self.next_seat = spec.number, spec.cards, next_seat
        self.events = plan.events
        # (a joker turned up sets no trump: its suit is -1, NO_TRUMP)
        trump = self.trump = NO_TRUMP if trump_card is None else SUIT_OF[trump_card.index]
        self.leads = _ROTATING_LEADS if plan.rotating else _FIXED_LEADS[trump + 1]
        self._dealt: tuple[tuple[Card, ...], ...] | None = None

    def event(self, seat: int, action: Bid | Play, slot: int) -> Event:
        """This round's log entry of ``seat``'s ``action``, kept in ``events`` at ``slot``
        unless a joker's (whose mode and suit its slot does not say)."""
        event = _new_tuple(Event, (self.number, seat, action))
        if slot < _FIRST_JOKER or slot >= _BID_EVENT:
            self.events[seat][slot] = event
        return event

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """The hands dealt, each sorted by card index."""
        if self._dealt is None:
            self._dealt = tuple(map(cards_in_mask, self.masks))
        return self._dealt


class _Finished:
    """A finished round as the game keeps it: what its ``RoundResult`` is made of (the
    bids and tricks taken packed as in ``Game``), and the result itself, made when first
    asked for (``rounds()``), not at the end of each round; ``scores``: the points of
    every round so far, this one last (a view's ``scores``)."""

    __slots__ = ("_log", "_result", "bids", "points", "round", "scores", "taken", "tricks")

    def __init__(
        self,
        round_: _Round,
        bids: int,
        taken: int,
        tricks: tuple[TrickRecord, ...],
        points: tuple[int, ...],
        scores: tuple[tuple[int, ...], ...],
    ) -> None:
        self.round, self.bids, self.taken, self.tricks, self.points = (
            round_,
            bids,
            taken,
            tricks,
            points,
        )
        scores += (points,)  # (faster than unpacking)
        self.scores = scores
        self._result: RoundResult | None = None
        self._log: tuple[Event, ...] | None = None

    def log(self) -> tuple[Event, ...]:
        """The round's entries of the game's log (``_round_log``)."""
        if self._log is None:
            self._log = tuple(_round_log(self.result()))
        return self._log

    def result(self) -> RoundResult:
        if self._result is None:
            players = len(self.points)
            bids, taken = _unpacked_bids(self.bids, players), tuple(_bytes(self.taken, players))
            tricks = _tricks_of(self.tricks)
            self._result = _round_result(self.round, bids, taken, tricks, self.points)
        return self._result


class _Ledger:
    """What changes only between rounds, one value that clones share and that the end of
    a round (or a control-round choice) replaces: the plan (one round longer for each
    control round chosen), the control-round choices made (their log entries; the rest
    of the log is the rounds themselves, see ``Game.events``), the finished rounds, the
    running totals and each seat's run of 0 bids. One slot of ``Game`` instead of five
    keeps ``clone`` short."""

    __slots__ = ("controls", "history", "plan", "totals", "zero_streaks")

    def __init__(
        self,
        plan: tuple[RoundSpec, ...],
        controls: tuple[Event, ...],
        history: tuple[_Finished, ...],
        totals: tuple[int, ...],
        zero_streaks: tuple[int, ...],
    ) -> None:
        self.plan, self.controls, self.history = plan, controls, history
        self.totals, self.zero_streaks = totals, zero_streaks


def _round_result(
    round_: _Round,
    bids: tuple[int | None, ...],
    taken: tuple[int, ...],
    tricks: tuple[Trick, ...],
    points: tuple[int, ...] | None,
) -> RoundResult:
    """A round as played so far (``points``: ``None`` until it is over)."""
    spec, trump = round_.spec, round_.trump
    return RoundResult(
        spec.number,
        round_.dealer,
        spec.cards,
        spec.kind,
        round_.dealt,
        round_.trump_card,
        None if trump < 0 else _SUITS[trump],
        bids if spec.has_bids else None,
        taken,
        tricks,
        points,
    )


_FIRST_JOKER = 52
#: Where a bid of n is kept in a row of ``_event_rows``: ``_BID_EVENT + n``, after the cards.
_BID_EVENT = len(ALL_CARDS)
#: ``_event_rows`` by round number, grown on demand.
_EVENT_ROWS: list[tuple[list[Event | None], ...]] = []


def _event_rows(number: int) -> tuple[list[Event | None], ...]:
    """The log entries of round ``number`` that ``apply`` hands out, by seat, then by card
    index or ``_BID_EVENT + bid``; ``None`` until first made (``_Round.event``). Events are
    values, so every game shares them rather than building one per action."""
    while len(_EVENT_ROWS) <= number:
        size = _BID_EVENT + len(_BIDS)
        _EVENT_ROWS.append(tuple([None] * size for _seat in range(MAX_SEATS)))
    return _EVENT_ROWS[number]


#: Bids and tricks taken are kept one seat a byte of an int (``Game._bids``,
#: ``Game._taken``): a round deals at most 27 cards. A seat's byte is ``_SEAT_ONE[seat]``.
_SEAT_BITS = 8
_SEAT_ONE = tuple(1 << _SEAT_BITS * seat for seat in range(MAX_SEATS))
#: Each seat's left-hand neighbour at a table of n players, by n: ``_NEXT_SEATS[n][seat]``.
_NEXT_SEATS = tuple(
    tuple((seat + 1) % players for seat in range(players)) for players in range(MAX_SEATS + 1)
)


#: A bid from its byte in ``Game._bids`` (bid + 1; 0: none yet).
_BID_OF_BYTE: tuple[int | None, ...] = (None, *range(255))


def _bytes(packed: int, players: int) -> bytes:
    """Each seat's byte of ``packed``."""
    return packed.to_bytes(players, "little")


def _unpacked_bids(packed: int, players: int) -> tuple[int | None, ...]:
    """Each seat's bid from ``Game._bids``."""
    return tuple([_BID_OF_BYTE[byte] for byte in _bytes(packed, players)])


def _round_log(result: RoundResult) -> list[Event]:
    """The log entries of one round so far: its deal, the bids made (from the dealer's
    left) and the cards played, each with its seat."""
    number, players = result.number, len(result.taken)
    log = [Event(number, None, Deal(result.hands, result.trump_card))]
    if result.bids is not None:
        for turn in range(1, players + 1):
            seat = (result.dealer + turn) % players
            bid = result.bids[seat]
            if bid is None:
                break
            log.append(Event(number, seat, _BIDS[bid]))
    for trick in result.tricks:
        log += [
            Event(number, (trick.leader + position) % players, play)
            for position, play in enumerate(trick.plays)
        ]
    return log


class Game:
    """One game of raspisnoy from the first deal to the final totals."""

    __slots__ = (
        "_best",
        "_bids",
        "_hands",
        "_leader",
        "_ledger",
        "_legal",
        "_legal_mask",
        "_phase",
        "_plays",
        "_round",
        "_setup",
        "_taken",
        "_to_act",
        "_trick",
        "_tricks",
        "is_over",
        "players",
    )
    players: int
    #: Whether the game is over (``phase`` is ``Phase.OVER``): a field, not a property,
    #: since a playout asks before every action.
    is_over: bool
    #: The trick's winner so far: ``strength | seat`` (see ``_TrickKind``), or
    #: ``_JOKER_TAKES | seat`` after a joker that follows and takes, or at least
    #: ``_JOKER_TRICK`` when a joker leads.
    _best: int
    #: Bids (bid + 1, 0 until made) and tricks taken, one seat a byte (``_SEAT_BITS``):
    #: ints, not lists, so that clones share them.
    _bids: int
    _taken: int
    _hands: list[int]
    _leader: int
    _ledger: _Ledger
    #: What the player to act may do, kept up to date by every change of state, and the
    #: same as a mask: bit i for card i they may play, bit ``BID_BIT + n`` for a bid of n
    #: (so a play is checked without looking at the phase).
    _legal: tuple[Action, ...]
    _legal_mask: int
    _phase: Phase
    #: The trick in progress: a list, appended to play by play, and a new one each trick.
    _plays: list[Play]
    #: This round's deal and the game's constants: values that clones share.
    _round: _Round
    _setup: _Setup
    _to_act: int
    #: What the trick in progress is judged by (the last trick's until a card is led).
    _trick: _TrickKind
    #: The round's finished tricks (see ``TrickRecord``).
    _tricks: tuple[TrickRecord, ...]

    def __init__(
        self,
        rules: Rules | str | None = None,
        players: int | Sequence[str] = 4,
        *,
        seed: int | str | random.Random | None = None,
        first_dealer: int | None = None,
    ) -> None:
        """Start a game.

        ``players`` is a count or the names in seat order. With ``seed`` the game shuffles
        and deals every round itself, and draws the first dealer unless one is given;
        without it, each round waits for ``deal()``. A ``random.Random`` passed as ``seed``
        supplies the seed. The shuffles of all rounds are drawn up front from one
        ``random.Random(seed)`` (see ``_draw_shuffles``), so clones share them and have no
        generator state to copy.
        """
        resolved = resolve_rules(rules)
        names = player_names(players)
        self.players = len(names)
        plan = round_plan(resolved, self.players)
        deck = deck_cards(resolved)
        if isinstance(seed, random.Random):
            seed = seed.getrandbits(64)
        if (seed is not None and not isinstance(seed, int | str)) or isinstance(seed, bool):
            raise InvalidInputError(f"a seed is a whole number or a text, not {seed!r}")
        shuffles: tuple[tuple[int, ...], ...] = ()
        if seed is not None:
            drawn_dealer, shuffles = _draw_shuffles(seed, self.players, deck, len(plan))
            first_dealer = drawn_dealer if first_dealer is None else first_dealer
        elif first_dealer is None:
            first_dealer = 0
        if not _is_seat(first_dealer, self.players):
            raise InvalidInputError(f"first dealer {first_dealer} is not a seat")
        self._setup = _Setup(resolved, names, deck, seed, shuffles)
        zeros = (0,) * self.players
        self._ledger = _Ledger(plan, (), (), zeros, zeros)
        self.is_over = False
        self._start_round(first_dealer)

    @classmethod
    def from_events(
        cls,
        rules: Rules | str | None,
        players: int | Sequence[str],
        events: Sequence[Event],
        *,
        seed: int | str | None = None,
        first_dealer: int | None = None,
    ) -> Game:
        """Rebuild a game from its log (``game.events``): a game is rules + seed + actions."""
        game = cls(rules, players, seed=seed, first_dealer=first_dealer)
        for event in events:
            game.apply_event(event)
        return game

    def apply_event(self, event: Event) -> None:
        """Apply one logged event. A seeded game deals itself, so its deals are only compared."""
        action = event.action
        if not isinstance(action, Deal):
            self.apply(action, event.seat)
        elif self._phase is _PHASE_DEAL:
            self.deal(action.hands, action.trump_card)
        elif not self._just_dealt() or self._deal_event() != event:
            raise self._error("the logged deal differs from this game's own deal")

    # ----------------------------------------------------------------- read-only state

    @property
    def rules(self) -> Rules:
        return self._setup.rules

    @property
    def names(self) -> tuple[str, ...]:
        return self._setup.names

    @property
    def deck(self) -> tuple[Card, ...]:
        return self._setup.deck

    @property
    def seed(self) -> int | str | None:
        return self._setup.seed

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> int | None:
        """The seat whose bid or card is awaited; ``None`` while dealing or when over."""
        phase = self._phase
        acting = phase is _PHASE_BID or phase is _PHASE_PLAY or phase is _PHASE_CHOOSE
        return self._to_act if acting else None

    @property
    def round(self) -> RoundSpec:
        """The current round (the last one once the game is over)."""
        return self._round.spec

    @property
    def dealer(self) -> int:
        return self._round.dealer

    @property
    def trump(self) -> Suit | None:
        trump = self._round.trump
        return None if trump < 0 else _SUITS[trump]

    @property
    def trump_card(self) -> Card | None:
        return self._round.trump_card

    @property
    def bids(self) -> tuple[int | None, ...]:
        return _unpacked_bids(self._bids, self.players)

    @property
    def taken(self) -> tuple[int, ...]:
        return tuple(_bytes(self._taken, self.players))

    @property
    def plan(self) -> tuple[RoundSpec, ...]:
        """The rounds of the game, in order, a control round last once it is chosen."""
        return self._ledger.plan

    @property
    def totals(self) -> tuple[int, ...]:
        """Running totals of the finished rounds."""
        return self._ledger.totals

    @property
    def events(self) -> tuple[Event, ...]:
        """The log: every deal, bid, card and control-round choice, in order. Made from the
        rounds on demand (``_round_log``, kept once a round is over): the game keeps no list
        to append to or to copy."""
        ledger = self._ledger
        controls = {event.round: event for event in ledger.controls}
        log: list[Event] = []
        for finished in ledger.history:
            if finished.round.number in controls:
                log.append(controls[finished.round.number])
            log += finished.log()
        number = self._round.number
        if number in controls and len(ledger.history) < number:  # the round in progress
            log.append(controls[number])
        if self._phase is _PHASE_BID or self._phase is _PHASE_PLAY:
            log += _round_log(self._round_result())
        return tuple(log)

    @property
    def trick(self) -> Trick:
        """The trick in progress (its plays so far; no winner yet)."""
        return _new_tuple(Trick, (self._leader, tuple(self._plays), None))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds. Full state: only for core, tests and the table actor."""
        return cards_in_mask(self._hands[seat])

    def winners(self, *, final: bool = True) -> tuple[int, ...]:
        """Seats with the highest total once the game is over (ties share the win); with
        ``final=False``, the leaders so far."""
        if final and not self.is_over:
            return ()
        return leaders(self._setup.rules, self._ledger.totals)

    def rounds(self) -> tuple[RoundResult, ...]:
        """Every round dealt so far: the finished ones, then the one in progress."""
        if self._phase in (Phase.BID, Phase.PLAY):
            return (*self._finished(), self._round_result())
        return self._finished()

    def _scores(self) -> tuple[tuple[int, ...], ...]:
        """The points of every finished round."""
        history = self._ledger.history
        return history[-1].scores if history else ()

    def _finished(self) -> tuple[RoundResult, ...]:
        return tuple([finished.result() for finished in self._ledger.history])

    # ----------------------------------------------------------------- actions

    def legal_actions(self) -> tuple[Action, ...]:
        """What the player to act may do now, in a fixed order (empty while dealing or over).

        The tuple is immutable, and often shared with other states that have the same
        choices. Every change of state computes it (``_refresh_legal``), so asking is free.
        """
        return self._legal

    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Apply a bid, a play or a control-round choice; with ``seat``, also check that it
        is that seat's turn. A legal play, the common case, is applied here, all inline,
        and so are the end of a trick (its winner from the strengths kept play by play,
        or from ``winner_of`` when a joker is in it) and the next player's choices in a
        plain trick (their cards of the suit, or when void and free, their hand). So is a
        legal bid, and the next bidder's choices when neither bidding rule is in their way
        (``_bid_options``). Anything else goes the long way (``_apply_other``), which says
        why it is refused.

        One test tells a legal bid or standard card from everything else: the action's
        ``mask_bit`` in the mask of what may be done now (``_legal_mask``). A joker's mask
        bit is 0, so its mode is checked apart (``_joker_allowed``); an object without one
        is not a bid or a play."""
        # (Which kind of action this is, the mask bit says: mypy cannot follow that, hence
        # the ignored "union-attr" errors below.)
        try:
            bit = action.mask_bit  # type: ignore[union-attr]
        except AttributeError:  # a control-round choice, or not an action at all
            return self._apply_other(action, seat)
        player = self._to_act
        if not (self._legal_mask & bit and (seat is None or seat == player)):
            if bit or not self._joker_allowed(action, seat):
                return self._apply_other(action, seat)
            bit = action.card.bit  # type: ignore[union-attr]  # a joker that may be played now
        elif bit >= _BID_ONE:
            amount, round_ = action.amount, self._round  # type: ignore[union-attr]
            self._bids += (amount + 1) * _SEAT_ONE[player]
            event = round_.events[player][_BID_EVENT + amount]
            if event is None:
                event = round_.event(player, _BIDS[amount], _BID_EVENT + amount)
            self._to_act = round_.next_seat[player]
            if player == round_.dealer:  # the dealer bids last
                self._phase = _PHASE_PLAY
                self._play_choices()
            else:
                self._bid_options()
            return event
        index = action.index  # type: ignore[union-attr]
        hands = self._hands
        hands[player] = hands[player] - bit  # (it is in the hand: "-" is a specialized int op)
        plays, round_ = self._plays, self._round
        if plays:
            trick = self._trick
            key = trick.strength[index] + player  # (strengths leave the low 4 bits 0)
            if key > self._best:
                self._best = key
        elif index < _FIRST_JOKER:
            trick = self._trick = round_.leads[index]
            self._best = trick.strength[index] + player
        else:
            trick = self._lead(action, index, player)  # type: ignore[arg-type]
        plays.append(action)  # type: ignore[arg-type]
        event = round_.events[player][index]
        if event is None:
            event = round_.event(player, action, index)  # type: ignore[arg-type]
        player = round_.next_seat[player]
        if player == self._leader:  # the trick is complete: score it
            best, played = self._best, tuple(plays)
            if best < _JOKER_TRICK:
                winner = best & 0xF
            else:  # a joker's mode and the options decide
                winner = winner_of(played, player, trick.trump, self._setup.rules)
            self._tricks += ((player, played, winner),)  # (a Trick when read; clones share it)
            self._taken += _SEAT_ONE[winner]
            self._plays = []
            self._leader = self._to_act = winner
            hand = hands[winner]
            if not hand:  # every hand is played out: the round is over
                self._finish_round()
                return event
            # The winner leads: any card of their hand.
            joker_plays = self._setup.lead_jokers
        else:
            self._to_act = player
            hand = hands[player]
            if hand >= trick.plain_below:  # a joker in hand, or not a plain trick
                self._play_choices()
                return event
            suited = hand & trick.suit_mask
            if suited:  # following suit, the most common case of all
                legal = trick.suit_plays[suited >> trick.shift]  # type: ignore[index]
                if legal is None:  # (a slice not seen yet)
                    self._play_choices()
                else:
                    self._legal, self._legal_mask = legal, suited
                return event
            if not self._setup.free_when_void:  # void, and a trump may be demanded
                self._play_choices()
                return event
            joker_plays = _FOLLOW_JOKER_PLAYS  # void, and no trump demanded: any card
        # Any card of ``hand``: a lead or a void follower's.
        self._legal_mask = hand
        self._legal = _plays_of(hand, joker_plays)
        return event

    def _lead(self, play: Play, index: int, player: int) -> _TrickKind:
        """Start a trick with the joker ``play`` (a standard card's trick is a lookup in
        ``_Round.leads``): what it is judged by (the suit to follow, "highest", the trump;
        see ``_TrickKind``), returned, and its first strength."""
        suit = play.suit
        if suit is None:
            follow, highest = SUIT_OF[index], False
        else:
            follow, highest = suit, play.mode is _HIGHEST
        trump = self._round.trump
        if self._setup.rotating_trumps:
            trump = rotated_trump(follow, self._round.spec.has_trump)
        trick = self._trick = _TRICK_KINDS[trump + 1][follow + 1][highest]
        self._best = _JOKER_TRICK + player
        return trick

    def _apply_other(self, action: Action, seat: int | None) -> Event:
        """``apply`` for a control-round choice, and for a play or bid that is refused,
        saying why. The turn is checked first, whatever the action, so a seat acting out of
        turn always gets ``NotYourTurnError``."""
        if seat is not None and self.to_act is not None:
            self._check_turn(seat, f"bid {action.amount}" if type(action) is Bid else action)
        if type(action) is Play:
            self.verify_play(action, seat)  # raises, saying why
        if type(action) is Bid:
            return self.bid(action.amount, seat)
        if type(action) is ControlRound:
            return self.choose_control(action, seat)
        raise InvalidInputError(f"{action!r} is not an action")

    def verify_choose_control(self, choice: ControlRound, seat: int | None = None) -> None:
        """Raise unless the last-placed player (``seat``) may choose this control round."""
        if type(choice) is not ControlRound:
            raise InvalidInputError(f"{choice!r} is not a control-round choice")
        if self._phase is not _PHASE_CHOOSE:
            raise self._error(f"not a time to choose a control round: {self._awaiting()}")
        self._check_turn(seat, choice)
        if not _is_seat(choice.dealer, self.players):
            raise self._error(f"{choice}: seat {choice.dealer} is not at this table")

    def can_choose_control(self, choice: ControlRound, seat: int | None = None) -> bool:
        return self._can(self.verify_choose_control, choice, seat)

    def choose_control(self, choice: ControlRound, seat: int | None = None) -> Event:
        """Play one more round of ``choice.kind`` with M cards, dealt by ``choice.dealer``."""
        self.verify_choose_control(choice, seat)
        ledger = self._ledger
        event = Event(len(ledger.plan) + 1, self._to_act, choice)
        cards = max_cards(self._setup.rules, self.players)
        plan = (*ledger.plan, RoundSpec(len(ledger.plan) + 1, cards, choice.kind))
        self._ledger = _Ledger(
            plan, (*ledger.controls, event), ledger.history, ledger.totals, ledger.zero_streaks
        )
        self._start_round(choice.dealer)
        return event

    def verify_bid(self, amount: int, seat: int | None = None) -> None:
        """Raise ``IllegalActionError`` unless the player to act (``seat``) may bid ``amount``."""
        if type(amount) is not int:
            raise InvalidInputError(f"{amount!r} is not a bid (a whole number)")
        if self._phase is not _PHASE_BID:
            raise self._error(f"not a time to bid (bid {amount}): {self._awaiting()}")
        if seat is not None:
            self._check_turn(seat, f"bid {amount}")
        cards = self._round.spec.cards
        if not 0 <= amount <= cards:
            name = self.names[self._to_act]
            raise self._error(f"{name} may not bid {amount}: bids are 0 to {cards}")
        forbidden = self._forbidden_bid()
        if amount == forbidden:
            name = self.names[self._to_act]
            raise self._error(
                f"{name} (dealer) may not bid {amount}: the bids would sum to the "
                f"{count(cards, 'card')} dealt"
            )
        if amount == 0 and self._zero_banned(forbidden):
            name = self.names[self._to_act]
            limit = self._setup.rules.max_zero_bids_in_a_row
            raise self._error(
                f"{name} may not bid 0: at most {count(limit, 'round')} of 0 bids in a row"
            )

    def can_bid(self, amount: int, seat: int | None = None) -> bool:
        return self._can(self.verify_bid, amount, seat)

    def bid(self, amount: int, seat: int | None = None) -> Event:
        """Bid ``amount`` tricks for the player to act."""
        self.verify_bid(amount, seat)
        return self.apply(_BIDS[amount], seat)

    def verify_play(self, play: Play, seat: int | None = None) -> None:
        """Raise ``IllegalActionError`` unless the player to act (``seat``) may make ``play``."""
        if type(play) is not Play:
            raise InvalidInputError(f"{play!r} is not a card play")
        if self._phase is not Phase.PLAY:
            raise self._error(f"not a time to play a card ({play}): {self._awaiting()}")
        self._check_turn(seat, play)
        if not self._legal_mask >> play.card.index & 1:
            raise self._error(self._why_not_playable(play))
        if play.card.is_joker and not self._joker_mode_allowed(play):
            raise self._error(self._why_not_joker_mode(play))

    def _joker_allowed(self, play: Action, seat: int | None) -> bool:
        """``apply``'s check of a play whose mask bit is 0: whether it is a joker that the
        player to act (``seat``) may play now, its mode included (``_joker_mode_allowed``).
        When it is, the play is made, so a "take" that follows a standard card is recorded
        here as the trick's winner so far (``_JOKER_TAKES``): a plain trick's winner stays
        a lookup, not ``winner_of``."""
        player = self._to_act
        if not (
            type(play) is Play
            and self._legal_mask & play.card.bit
            and (seat is None or seat == player)
            and self._joker_mode_allowed(play)
        ):
            return False
        if play.mode is _TAKE and self._plays and self._best < _JOKER_TRICK:
            self._best = _JOKER_TAKES | player
        return True

    def _joker_mode_allowed(self, play: Play) -> bool:
        """Whether a joker may be played with ``play``'s mode now: ``play`` is one of
        ``_FOLLOW_JOKER_PLAYS`` or ``_Setup.lead_jokers``, told by its mode alone (a
        ``Play`` names a suit exactly when its mode needs one), without comparing plays."""
        mode = play.mode
        if self._plays:
            return mode is _TAKE or mode is _DISCARD
        if mode is _TAKE:
            return self._setup.rules.joker_lead_take
        return mode is _HIGHEST or mode is _DISCARD

    def can_play(self, play: Play, seat: int | None = None) -> bool:
        return self._can(self.verify_play, play, seat)

    def play(self, play: Play, seat: int | None = None) -> Event:
        """Play a card (a joker with its mode) for the player to act."""
        if type(play) is not Play:
            self.verify_play(play, seat)  # raises, saying why
        return self.apply(play, seat)

    def verify_deal(self, hands: Sequence[Sequence[Card]], trump_card: Card | None) -> None:
        """Raise unless these hands and trump card are a possible deal of the current round."""
        if self._phase is not Phase.DEAL:
            raise self._error(f"not a time to deal: {self._awaiting()}")
        _check_deal_types(hands, trump_card)
        spec = self._round.spec
        if len(hands) != self.players:
            raise self._error(f"{len(hands)} hands dealt for {self.players} players")
        seen: set[Card] = set()
        for seat, hand in enumerate(hands):
            name = self.names[seat]
            if len(hand) != spec.cards:
                raise self._error(f"{name}'s hand has {len(hand)} cards, expected {spec.cards}")
            for card in hand:
                self._check_in_deck(card, f"{name}'s hand")
                if card in seen:
                    raise self._error(f"{name}'s hand: {card} is dealt twice")
                seen.add(card)
        self._verify_trump_card(trump_card, hands, seen)

    def can_deal(self, hands: Sequence[Sequence[Card]], trump_card: Card | None) -> bool:
        return self._can(self.verify_deal, hands, trump_card)

    def deal(self, hands: Sequence[Sequence[Card]], trump_card: Card | None) -> Event:
        """Deal the current round: ``hands`` by seat and the card that sets the trump."""
        self.verify_deal(hands, trump_card)
        masks = [mask_of(hand) for hand in hands]
        round_ = self._round
        dealt = _Round(round_.plan, round_.dealer, round_.next_seat, tuple(masks), trump_card)
        self._apply_deal(dealt, masks)
        return self._deal_event()

    # ----------------------------------------------------------------- copies and views

    def clone(self) -> Game:
        """An independent copy: same seed, own hands, bids, tricks and log. Everything but
        the hands and the trick in progress is a value the copy shares (see the slots), so
        this copies two lists."""
        other = _new_game(Game)
        other._setup, other.players, other._ledger = self._setup, self.players, self._ledger
        other._round, other._phase = self._round, self._phase
        other._to_act, other._legal, other._legal_mask = self._to_act, self._legal, self._legal_mask
        other._hands, other._bids, other._taken = self._hands[:], self._bids, self._taken
        other._tricks, other._plays, other._leader = self._tricks, self._plays[:], self._leader
        other._trick, other._best, other.is_over = self._trick, self._best, self.is_over
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """``copy.deepcopy`` of a game is its ``clone``: as independent (what it shares is
        never changed, or is a cache filled the same way by every game), without copying
        the rules, the shuffles and the tables object by object. OpenSpiel's Python games
        clone a state by deep-copying its fields, a ``Game`` among them."""
        return self.clone()

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now (``None``: a spectator). See ``raspisnoy.core.view``."""
        if seat is not None and not _is_seat(seat, self.players):
            raise InvalidInputError(f"{seat} is not a seat of this game")
        spec = self._round.spec
        blind_bidding = self._phase is Phase.BID and spec.kind is RoundKind.BLIND
        own = self._own_view(seat)
        return View(
            seat=seat,
            names=self.names,
            rules=self._setup.rules,
            phase=self._phase,
            round=spec.number,
            cards=spec.cards,
            kind=spec.kind,
            dealer=self._round.dealer,
            to_act=self.to_act,
            hand=own.hand,
            shown_hands=own.shown_hands,
            trump_card=None if blind_bidding else self._round.trump_card,
            trump=None if blind_bidding else self.trump,
            trump_hidden=blind_bidding,
            bids=self.bids if spec.has_bids else None,
            taken=self.taken,
            hand_sizes=tuple(mask.bit_count() for mask in self._hands),
            trick=self.trick,
            tricks=_tricks_of(self._tricks),
            scores=self._scores(),
            totals=self._ledger.totals,
            legal_actions=own.legal_actions,
        )

    def own_view(self, seat: int) -> OwnView:
        """What ``view(seat)`` holds that the spectator's view does not: the seat's hand,
        the hands shown to it, its legal actions; the same values, made without the rest."""
        if not _is_seat(seat, self.players):
            raise InvalidInputError(f"{seat} is not a seat of this game")
        return self._own_view(seat)

    def _own_view(self, seat: int | None) -> OwnView:
        spec = self._round.spec
        bidding = self._phase is Phase.BID
        blind_bidding = bidding and spec.kind is RoundKind.BLIND
        forehead_bidding = bidding and spec.kind is RoundKind.FOREHEAD
        own_hidden = seat is None or blind_bidding or forehead_bidding
        hand = None if own_hidden else cards_in_mask(self._hands[seat])  # type: ignore[index]
        shown = tuple(
            cards_in_mask(mask) if forehead_bidding and seat not in (None, other) else None
            for other, mask in enumerate(self._hands)
        )
        legal = self.legal_actions() if seat is not None and seat == self.to_act else ()
        return OwnView(hand, shown, legal)

    # ----------------------------------------------------------------- internals

    def _start_round(self, dealer: int) -> None:
        """Start the next round of the plan, dealt by ``dealer``; deal at once when the game
        has its own random source, else wait for ``deal()``."""
        index, setup, rounds = len(self._ledger.history), self._setup, self._ledger.plan
        plan = setup.deal_plan(index, rounds[index])
        self._bids = self._taken = self._best = 0
        self._tricks, self._plays = (), []
        next_seat = _NEXT_SEATS[self.players]
        self._leader = self._to_act = next_seat[dealer]
        shuffles = setup.shuffles
        if not shuffles:
            self._round = _Round(plan, dealer, next_seat)
            self._phase = _PHASE_DEAL
            self._hands = [0] * self.players
            self._trick = _TRICK_KINDS[0][0][0]
            self._legal, self._legal_mask = (), 0
        elif index < len(shuffles):
            self._deal_shuffled(plan, dealer, shuffles[index])
        else:  # a control round, beyond the plan the shuffles were drawn for
            order = _shuffled(f"{self.seed}/round {index + 1}", self.deck)
            self._deal_shuffled(plan, dealer, order)

    def _deal_shuffled(self, plan: _DealPlan, dealer: int, order: tuple[int, ...]) -> None:
        """Deal one card at a time from the dealer's left; the dealer gets the last card.
        ``order`` is the shuffled deck as the cards' bits, so a hand's mask is the sum of
        its cards (they are distinct): of its slice of ``order`` (``_DealPlan.hands``)."""
        dealt, redeals = plan.dealt, 0
        while plan.redeal_on_joker and order[dealt - 1] & _JOKER_MASK:
            # The trump is the dealer's last card, and a joker there means a new deal.
            redeals += 1
            number = plan.spec.number
            order = _shuffled(f"{self.seed}/round {number}/redeal {redeals}", self.deck)
        masks = tuple(map(sum, plan.hands[dealer](order)))
        trump_card = _CARD_OF_BIT[order[plan.trump_at]] if plan.trump_at >= 0 else None
        round_ = _Round(plan, dealer, _NEXT_SEATS[self.players], masks, trump_card)
        self._apply_deal(round_, list(masks))

    def _trump_source(self, spec: RoundSpec) -> str:
        """``_trump_source`` of a round ``spec`` of this game."""
        return _trump_source(self._setup.rules, self.players, len(self.deck), spec)

    def _why_no_trump_card(self) -> str:
        spec = self._round.spec
        if not spec.has_trump:
            return f"a {spec.kind} round turns up no card"
        if self._setup.rules.rotating_trumps:
            return "with rotating trumps no card is turned up"
        return "every card is dealt, so no trump card"

    def _apply_deal(self, dealt: _Round, masks: list[int]) -> None:
        """Start playing the round ``dealt``, whose hands are ``masks``."""
        self._round = dealt
        self._hands = masks
        self._trick = _TRICK_KINDS[dealt.trump + 1][0][0]
        if dealt.spec.has_bids:
            self._phase = _PHASE_BID
            self._bid_options()
        else:
            self._phase = _PHASE_PLAY
            self._play_choices()

    def _just_dealt(self) -> bool:
        """Whether the last entry of the log is this round's deal: dealt, nothing since."""
        if self._phase is not _PHASE_BID and self._phase is not _PHASE_PLAY:
            return False
        return not self._bids and not self._plays and not self._tricks

    def _deal_event(self) -> Event:
        """This round's deal as a log entry."""
        deal = Deal(self._round.dealt, self._round.trump_card)
        return Event(self._round.spec.number, None, deal)

    def _verify_trump_card(
        self, trump_card: Card | None, hands: Sequence[Sequence[Card]], dealt: set[Card]
    ) -> None:
        source = self._trump_source(self._round.spec)
        if source == "none":
            if trump_card is not None:
                raise self._error(f"{self._why_no_trump_card()}, not {trump_card}")
            return
        if trump_card is None:
            raise self._error("the trump card is missing")
        self._check_in_deck(trump_card, "trump card")
        if source == "undealt":
            if trump_card in dealt:
                raise self._error(f"the trump card {trump_card} is also in a hand")
            return
        dealer = self.names[self._round.dealer]
        if trump_card not in hands[self._round.dealer]:
            why = (
                "the trump"
                if self._setup.rules.trump_source == "dealer_last"
                else "every card is dealt, so the trump"
            )
            raise self._error(
                f"{why} card must be one the dealer {dealer} shows from their hand, "
                f"not {trump_card}"
            )
        if self._setup.rules.trump_source == "dealer_last" and trump_card.is_joker:
            raise self._error(f"the dealer {dealer} shows a joker: the cards must be dealt again")

    def _check_in_deck(self, card: Card, where: str) -> None:
        if card not in self.deck:
            note = ""
            if str(card) in self._setup.rules.jokers:
                joker = "X" if len(self._setup.rules.jokers) == 1 else "X1 or X2"
                note = f" (that card is the joker {joker})"
            raise self._error(f"{where}: {card} is not in this deck{note}")

    def _refresh_legal(self) -> None:
        """Compute ``_legal`` and ``_legal_mask`` for the state now: called by every change."""
        phase = self._phase
        if phase is _PHASE_PLAY:
            self._play_choices()
        elif phase is _PHASE_BID:
            self._bid_options()
        else:
            self._legal = _control_choices(self.players) if phase is _PHASE_CHOOSE else ()
            self._legal_mask = 0

    def _bid_options(self) -> None:
        """``_refresh_legal`` in the bidding: the bids the player to act may make. Only the
        dealer has a forbidden bid, and only a player who bid 0 last round can be barred
        from 0: the others skip both rules' calls."""
        seat, round_ = self._to_act, self._round
        streak = self._ledger.zero_streaks[seat]
        if not streak:
            if seat != round_.dealer:
                self._legal, self._legal_mask = _OPEN_BIDS[round_.cards]
            else:  # the dealer bids last: each other seat's byte is its bid + 1
                bid_sum = sum(self._bids.to_bytes(self.players, "little")) - self.players + 1
                self._legal, self._legal_mask = round_.plan.dealer_bids[bid_sum]
            return
        forbidden = self._forbidden_bid() if seat == round_.dealer else -1
        zero_banned = streak > 0 and self._zero_banned(forbidden)
        self._legal, self._legal_mask = _bid_choices(round_.spec.cards, forbidden, zero_banned)

    def _play_choices(self) -> None:
        """``_refresh_legal`` in the play phase: the cards the player to act may play."""
        hand = self._hands[self._to_act]
        jokers = hand & _JOKER_MASK
        trick = self._trick
        if self._plays and trick.follow >= 0:  # (a joker led "take" asks for no suit)
            suited = hand & trick.suit_mask
            if suited:
                if trick.highest:
                    suited = 1 << (suited.bit_length() - 1)
                self._legal_mask = suited | jokers
                plays = trick.suit_plays[suited >> trick.shift]  # type: ignore[index]
                if plays is None or jokers:  # (a slice not seen yet, or jokers to add)
                    plays = _plays_of(suited | jokers, _FOLLOW_JOKER_PLAYS)
                self._legal = plays
                return  # following suit, the most common case of all
            # Void in the suit: a trump where the rules say so.
            trump, rules = trick.trump, self._setup.rules
            trumps = hand & SUIT_MASKS[trump] if trump >= 0 else 0
            if trumps and (
                rules.trump_when_void or (trick.highest and rules.joker_highest_beaten_by_trump)
            ):
                hand = trumps | jokers
        self._legal_mask = hand
        joker_plays = _FOLLOW_JOKER_PLAYS if self._plays else self._setup.lead_jokers
        self._legal = _plays_of(hand, joker_plays)

    def _forbidden_bid(self) -> int:
        """The dealer's forbidden bid, or -1 when there is none (docs/rules.md 1, "Bidding")."""
        made = self._bids.to_bytes(self.players, "little")  # bid + 1 a seat, 0: none yet
        bid_sum = sum(made) - len(made) + made.count(0)
        dealer = self._to_act == self._round.dealer
        return _forbidden(self._setup.rules, self._round.cards, bid_sum, dealer=dealer)

    def _zero_banned(self, forbidden: int) -> bool:
        """Whether the player to act has bid 0 too often in a row to bid it again (given
        the dealer's ``forbidden`` bid, -1 for none)."""
        return zero_bid_banned(
            self._setup.rules,
            self._round.spec.cards,
            None if forbidden < 0 else forbidden,
            self._ledger.zero_streaks[self._to_act],
        )

    def _finish_round(self) -> None:
        """Score the round from the points table, then start the next one, or let the
        last-placed player choose a control round, or end the game."""
        round_, players = self._round, self.players
        made, taken = (
            self._bids.to_bytes(players, "little"),
            self._taken.to_bytes(players, "little"),
        )
        rows = map(round_.plan.points.__getitem__, made)  # (each seat's row, by its bid)
        points = tuple(map(getitem, rows, taken))
        ledger = self._ledger
        streaks = ledger.zero_streaks
        if self._setup.zero_runs and round_.spec.has_bids:  # (else the runs are never read)
            runs = zip(streaks, made, strict=True)
            streaks = tuple([run + 1 if bid == 1 else 0 for run, bid in runs])
        history = ledger.history
        scores = history[-1].scores if history else ()
        finished = _Finished(round_, self._bids, self._taken, self._tricks, points, scores)
        history += (finished,)
        totals = tuple(map(add, ledger.totals, points))
        self._ledger = _Ledger(ledger.plan, ledger.controls, history, totals, streaks)
        if len(history) < len(ledger.plan):
            self._start_round(round_.next_seat[round_.dealer])
        elif self._setup.rules.control_game and len(self.winners(final=False)) > 1:
            # «Контрольная»: the last-placed player (the first of them in seat order) chooses.
            self._phase = _PHASE_CHOOSE
            self._to_act = totals.index(min(totals))
            self._refresh_legal()
        else:
            self._phase = _PHASE_OVER
            self.is_over = True
            self._refresh_legal()

    def _round_result(self) -> RoundResult:
        """The round in progress, its trick so far among its tricks."""
        tricks = _tricks_of(self._tricks)
        if self._plays:
            tricks += (self.trick,)
        return _round_result(self._round, self.bids, self.taken, tricks, None)

    def _check_turn(self, seat: int | None, what: object) -> None:
        if seat is not None and not _is_seat(seat, self.players):
            raise InvalidInputError(f"{seat!r} is not a seat of this game")
        if seat is not None and seat != self._to_act:
            raise self._error(
                f"it is {self.names[self._to_act]}'s turn, not {self._name(seat)}'s ({what})",
                NotYourTurnError,
            )

    def _name(self, seat: int) -> str:
        return self.names[seat]

    def _awaiting(self) -> str:
        if self._phase is Phase.OVER:
            return "the game is over"
        if self._phase is Phase.DEAL:
            return "the cards are not dealt yet"
        name = self.names[self._to_act]
        if self._phase is Phase.BID:
            return f"waiting for {name}'s bid"
        if self._phase is Phase.CHOOSE:
            return f"waiting for {name} to choose a control round"
        spec = self._round.spec
        if not spec.has_bids and not self._tricks and not self._plays:
            return f"a {spec.kind} round has no bids; waiting for {name}'s card"
        return f"waiting for {name}'s card"

    def _why_not_playable(self, play: Play) -> str:
        name = self.names[self._to_act]
        card = play.card
        if not self._hands[self._to_act] >> card.index & 1:
            return f"{name} does not hold {card}"
        trick = self._trick
        suit = _SUITS[trick.follow]
        if not self._hands[self._to_act] & trick.suit_mask:
            trump = _SUITS[trick.trump]
            return f"{name} has no {suit.symbol}, so must trump ({trump.symbol}), not play {card}"
        if trick.highest:
            highest = cards_in_mask(self._legal_mask & ~_JOKER_MASK)[0]
            return f"{name} must play the highest {suit.symbol} ({highest}) and may not play {card}"
        return f"{name} must follow {suit.symbol} and may not play {card}"

    def _why_not_joker_mode(self, play: Play) -> str:
        name = self.names[self._to_act]
        if self._plays:
            return f"{name} follows, so the joker may only take or discard, not {play}"
        return f"{name} leads, so the joker must demand the highest or discard, not {play}"

    def _error(
        self, message: str, kind: type[IllegalActionError] = IllegalActionError
    ) -> IllegalActionError:
        """An ``IllegalActionError`` (or the subclass ``kind``) whose message starts with
        the round and trick."""
        if self._phase is Phase.OVER:
            return kind(message)
        where = f"round {len(self._ledger.history) + 1}"
        if self._phase is Phase.PLAY:
            where += f", trick {len(self._tricks) + 1}"
        return kind(f"{where}: {message}")

    @staticmethod
    def _can(verify: Callable[..., None], *args: object) -> bool:
        try:
            verify(*args)
        except IllegalActionError:
            return False
        return True


_new_game = object.__new__
