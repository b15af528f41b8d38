"""Random whole games of every preset and player count, checked against the rule book.

Every game is ``Game(preset, players=n, seed=s)`` played to the end with actions drawn by
``random.Random(s)`` from ``legal_actions()``, for every preset of ``raspisnoy.core.PRESETS``
and every n from its ``min_players`` to its ``max_players``. A failing check names the
preset, the player count, the seed, the round and the trick, so any failure can be
replayed by hand. Checks do not stop at the first problem: every game is played to the
end and each test reports how many games failed, grouped by check, with examples.

The reference values come from ``RuleBook``, computed here independently of the engine
from RULES.md 1-3, docs/rules-decisions.md and each option's description in
docs/rules-reference.md: the deck (lowest rank, jokers X or X1/X2), the round plan
(deal sequences, ``descending``, special rounds, ``custom_plan``: what ``raspisnoy
schedule`` prints), the trump card's source (``max_deal_trump``), the legal plays (follow
suit, joker modes, "highest S", compulsory trumping: ``trump_when_void`` and
``joker_highest_beaten_by_trump``), the trick winner (3.1 and
``joker_discard_lead_unfollowed``, a trump over "highest S", the later of two jokers'
"take") and the points (every scoring option, the ``*_percent`` multipliers rounded half
away from zero, ``percent_multiplier``). The random-game checks never call the engine's
``round_points``, ``trick_winner`` nor ``round_plan`` (``trick_winner`` is called only on
the pinned 3.1 tricks). The options a preset may set that the references do not model
(rotating trumps, a control game…) are listed by ``unmodelled_options``: no preset may
set one (``test_presets_use_only_modelled_options``); a new preset that does needs the
references extended first. ``test_reference_*`` pin the references to the worked
examples and values of RULES.md, the presets and docs/rules-decisions.md.

What is checked where. Per preset and player count, ``games_of(preset)`` fully checked
games (seeds 0..) + round-checked games (the following seeds): for ``raspisnoy.com``
6 + 670 for each of 3, 4 and 5 players, 2,028 whole games; for ``classic`` (3-6 players),
``ukrainian`` (2-10), ``georgian`` (3-6) and ``oh-hell`` (3-7), 1 + 40 per player count,
22 × 41 = 902 games. Plus 100 Hypothesis games of a short custom plan with every kind of
round, drawn over every preset and player count. The whole file takes about 1 min 50 s on
one core (the engine alone needs 5-15 ms a game, the per-round checks about twice as
much again; a view costs ~20 µs to build and ~35 µs to walk, so walking every seat's view
before every action, 0.3-2.5 s a game, is kept to the fully checked and Hypothesis games).

Every game (``test_random_games_round_checks`` and ``test_random_games_every_action``):
  * the plan: the rounds' cards and kinds are the rule book's (for raspisnoy.com RULES.md
    1's table: 26/28/31 rounds), the deck is the rule book's, the first leader / bidder
    is the dealer's left, the deal passes clockwise;
  * at each deal: hands disjoint, inside the deck, each of the round's size; the trump card
    is in no hand while cards are left undealt; when every card is dealt it is in the
    dealer's hand (``max_deal_trump = "dealer_shows"``) or there is none (``"none"``); no
    card and no trump in no-trump rounds; the trump suit is the card's suit (none for a
    joker); misère and golden rounds start with play, not bids; ``rounds()`` agrees; at the
    first deal and at the first deal of a blind and of a forehead round, the views (below)
    of every seat and a spectator are walked for hidden cards;
  * at every bid: the bidder is the next seat clockwise, ``legal_actions()`` is exactly
    0..cards, less, for the dealer (``dealer_constraint``), the one bid making the sum
    equal the cards;
  * at each round's end, from ``rounds()``: tricks = cards, each trick has N plays and one
    winner, equal to the reference winner; the first trick is led by the dealer's left and
    each winner leads the next; taken = tricks won, sum of taken = cards; every card dealt
    is played exactly once, every play was legal for the hand held at the time (reference
    legality, replayed from the dealt hands); bids are in 0..cards and do not sum to the
    cards; misère/golden have no bids; the points are the rule book's and the running
    totals match ``totals`` and the spectator view's ``scores``/``totals``;
  * at the end: the plan was played out, ``winners()`` are the seats with the top total,
    nothing is offered any more, the log's deals are the rounds' hands and trump cards.

Every ``RECORD_EVERY``-th round-checked game, every fully checked game, every
Hypothesis game:
  * ``replay_report`` agrees with the reference points, totals and winners;
  * record round trip: ``replay(loads_record(dumps_record(game_to_record(game))))`` has
    the same events, ``replay_report`` and totals, and writes the same record again;
  * a record cut at a random action of the game (a game in progress) replays to the
    same report as the game had then and to a prefix of its event log, then, fed the rest
    of the original log (deals included), ends in the very same game; an illegal play and
    bid tried while that replayed game waits for a deal change nothing.

Fully checked games only (``test_random_games_every_action`` and the Hypothesis games),
before every action:
  * cards conserved: hands disjoint, hands + cards played this round = cards dealt, each
    seat holds cards − cards it played, the view's tricks hold what was played;
  * ``legal_actions()`` equals the reference legal set (no duplicates);
  * the view of every seat and of a spectator: ``hand`` is the seat's hand (``None`` for a
    spectator, and for everyone while a blind or forehead round is bid; in a blind round
    ``trump_card`` and ``trump`` are hidden too); ``shown_hands`` is every other seat's
    hand while a forehead round is bid, else nothing; every ``Card`` reachable from the
    view (all its fields, walked generically: hand, shown hands, trump card, trick, tricks,
    legal actions…) is the seat's own visible hand, a hand shown to it, a card played this
    round, or the shown trump card; ``legal_actions`` is non-empty only for the seat to act
    and then equals ``game.legal_actions()``;
  * on every third state: ``can_bid``/``can_play`` accept every legal action (with and
    without the right seat) and reject the same action from another seat, every card held
    but not legal (every joker mode not legal), a card of another hand, out-of-range and
    forbidden bids, and bids during play / plays during bidding;
  * once per round (at the second bidder's turn, or the second play of a bid-less round):
    illegal actions sent through ``apply`` raise ``IllegalActionError`` and leave no
    trace: a clone that received them behaves exactly like the game to the end of the
    round.

Hypothesis:
  * any ``st.integers()`` seed, any preset and player count it allows: a game of the
    preset with the custom plan ``SHORT_PLAN`` (normal, blind, misère, golden, no-trump,
    forehead and percent rounds) passes every check above (all of them after every action);
  * per preset, any seed, player count and prefix length: every action of
    ``legal_actions()`` is applied without error on a clone (with the seat), logs exactly
    that action, and leaves the original untouched; two clones given the same action agree.

``test_found_*`` pin the failures these games found in the engine (see their comments).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from enum import Enum
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raspisnoy.core import (
    PRESETS,
    Bid,
    Card,
    Deal,
    Game,
    IllegalActionError,
    JokerMode,
    Phase,
    Play,
    RoundKind,
    RoundResult,
    Rules,
    Suit,
    resolve_rules,
    trick_winner,
)
from raspisnoy.core.record import (
    dumps_record,
    game_to_record,
    loads_record,
    replay,
    replay_report,
)

#: The engine's presets (docs/rules-reference.md, "Presets").
PRESET_NAMES = tuple(PRESETS)
#: Games per player count, by preset: (checked after every action, seeds 0..; checked per
#: deal, bid and round, the following seeds). raspisnoy.com: 3 × 676 = 2,028 games.
GAMES = {"raspisnoy.com": (6, 670)}
#: The other presets, per player count they allow.
OTHER_GAMES = (1, 40)
#: Of the round-checked games, every RECORD_EVERY-th also gets the record checks.
RECORD_EVERY = 20
#: Examples shown when a test fails.
SHOWN = 12

SHORT_PLAN = ("3", "3:blind", "3:misere", "3:golden", "3:no-trump", "1:forehead", "3:percent")

#: The options the references below read. Rules that set any other option away from its
#: default are not modelled: ``RuleBook`` refuses them, and
#: ``test_presets_use_only_modelled_options`` names the option a preset sets.
MODELLED_OPTIONS = frozenset(
    {
        # players, deck and plan
        "min_players",
        "max_players",
        "lowest_rank",
        "jokers",
        "extra_jokers",
        "descending",
        "deal_sequence",
        "special_rounds",
        "custom_plan",
        # bidding, trump and play
        "dealer_constraint",
        "max_deal_trump",
        "trump_when_void",
        "joker_highest_beaten_by_trump",
        "joker_discard_lead_unfollowed",
        # scoring
        "exact_per_trick",
        "exact_bonus",
        "exact_zero",
        "bid_all_multiplier",
        "undertrick_per_trick",
        "undertrick_counts",
        "overtrick_per_trick",
        "overtrick_counts",
        "miss_scoring",
        "miss_per_trick",
        "khishti_penalty",
        "misere_zero",
        "misere_per_trick",
        "misere_all_tricks",
        "golden_zero",
        "golden_per_trick",
        "forehead_exact",
        "forehead_miss",
        "percent_multiplier",
        "blind_percent",
        "no_trump_percent",
        "misere_percent",
        "golden_percent",
    }
)

_SUITS = tuple(Suit)
_RANK_LETTERS = "23456789TJQKA"  # ranks 2..14 (RECORD.md card notation)
_HIGHEST, _DISCARD, _TAKE = JokerMode.HIGHEST, JokerMode.DISCARD, JokerMode.TAKE
_NO_BIDS = (RoundKind.MISERE, RoundKind.GOLDEN)
#: Rounds whose bids are made without seeing one's own hand.
_HIDDEN_WHILE_BIDDING = (RoundKind.BLIND, RoundKind.FOREHEAD)
#: The ``*_percent`` option of each kind of round that has one.
_PERCENT_OPTIONS = {
    RoundKind.BLIND: "blind_percent",
    RoundKind.NO_TRUMP: "no_trump_percent",
    RoundKind.MISERE: "misere_percent",
    RoundKind.GOLDEN: "golden_percent",
}


def player_counts(preset: str) -> range:
    return resolve_rules(preset).player_counts


def games_of(preset: str) -> tuple[int, int]:
    """(fully checked, round-checked) games per player count of ``preset``."""
    return GAMES.get(preset, OTHER_GAMES)


def unmodelled_options(rules: Rules) -> list[str]:
    """The options ``rules`` sets away from their defaults that the references ignore."""
    return [
        f"{f.name}={getattr(rules, f.name)!r}"
        for f in dataclasses.fields(Rules)
        if f.name != "preset"
        and f.name not in MODELLED_OPTIONS
        and getattr(rules, f.name) != f.default
    ]


# ----------------------------------------------------------------------------- references


def plan_of(custom: Sequence[str]) -> list[tuple[int, RoundKind]]:
    """A ``custom_plan``: ``CARDS`` or ``CARDS:KIND`` per round."""
    plan = []
    for text in custom:
        cards, _, kind = text.partition(":")
        plan.append((int(cards), RoundKind(kind or "normal")))
    return plan


def round_half_away(points: int, percent: int) -> int:
    """``points × percent / 100``, halves rounded away from zero (docs/rules-decisions.md:
    ×1.5 of −15 is −23)."""
    exact = Decimal(points * percent) / 100
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))  # ties away from zero


class RuleBook:
    """The rules of one resolved ruleset, computed here from RULES.md and from each option's
    description in docs/rules-reference.md, never from the engine's plan, scoring or trick
    functions. ``trump`` arguments are the round's trump suit (``None``: no trump)."""

    def __init__(self, rules: Rules):
        unmodelled = unmodelled_options(rules)
        assert not unmodelled, f"the references do not model {unmodelled}"
        self.rules = rules
        self.deck = self._deck()
        #: A player void in the suit to follow must trump (RULES.md 2; the joker may still
        #: be played instead): always, or only after a joker led "highest S".
        self.trump_when_void = rules.trump_when_void
        self.highest_beaten_by_trump = rules.joker_highest_beaten_by_trump
        self.unfollowed_discard_joker_wins = rules.joker_discard_lead_unfollowed == "joker_wins"

    # ---------------------------------------------------------------- deck, plan, trump

    def _deck(self) -> frozenset[Card]:
        """RULES.md 1 "Players and deck" and 2: the four suits from ``lowest_rank`` to the
        ace; the cards named in ``jokers`` become jokers, ``extra_jokers`` are added; one
        joker is X, two are X1 and X2."""
        rules = self.rules
        named = {Card.parse(text) for text in rules.jokers}
        ranks = _RANK_LETTERS[rules.lowest_rank - 2 :]
        cards = {Card.parse(rank + suit.letter) for rank in ranks for suit in _SUITS} - named
        jokers = {0: (), 1: ("X",), 2: ("X1", "X2")}[len(named) + rules.extra_jokers]
        return frozenset(cards | {Card.parse(name) for name in jokers})

    def cap(self, players: int) -> int:
        """RULES.md 1, "Hand-size cap": M = deck // N."""
        return len(self.deck) // players

    def plan(self, players: int) -> list[tuple[int, RoundKind]]:
        """RULES.md 1 "Round plan" and 2 (deal sequences, special rounds), as the options
        ``deal_sequence``, ``descending``, ``special_rounds`` and ``custom_plan`` describe
        them (what ``raspisnoy schedule`` prints)."""
        rules = self.rules
        if rules.custom_plan:
            return plan_of(rules.custom_plan)
        top = self.cap(players)
        up, down = list(range(1, top)), list(range(top - 1, 0, -1))
        full_round = [top] * players  # every player deals the maximum once
        sequence = {
            # ascending 1..M, descending M−1..1 (table option), then N−1 more of M
            "raspisnoy.com": [*up, top, *(down if rules.descending else []), *full_round[1:]],
            "classic": [*up, *full_round, *down],
            "georgian": [*up, *full_round, *down, *full_round],
        }[rules.deal_sequence]
        plan = [(cards, RoundKind.NORMAL) for cards in sequence]
        for name in rules.special_rounds:
            kind = RoundKind(name)
            # forehead («лобовая»): 1 card each; percent («проценты»): 4 cards
            cards = {RoundKind.FOREHEAD: 1, RoundKind.PERCENT: min(4, top)}.get(kind, top)
            plan += [(cards, kind)] * players
        return plan

    def trump_source(self, kind: RoundKind, cards: int, players: int) -> str:
        """RULES.md 1 "Trump" and ``max_deal_trump``: ``"none"`` (no card sets the trump),
        ``"undealt"`` (the top of the undealt rest) or ``"dealer"`` (a card the dealer
        shows from their hand, every card being dealt)."""
        if kind is RoundKind.NO_TRUMP:
            return "none"
        if players * cards < len(self.deck):
            return "undealt"
        return "dealer" if self.rules.max_deal_trump == "dealer_shows" else "none"

    # ---------------------------------------------------------------- scoring

    def points(self, kind: RoundKind, bid: int | None, taken: int, cards: int) -> int:
        """RULES.md 1 "Scoring" and 2, with the scoring options of docs/rules-reference.md."""
        rules = self.rules
        if kind is RoundKind.PERCENT:
            return self._bid_points(bid, taken, cards) * rules.percent_multiplier
        if kind is RoundKind.MISERE:
            if taken == 0:
                points = rules.misere_zero
            elif taken == cards and rules.misere_all_tricks:
                points = rules.misere_all_tricks
            else:
                points = rules.misere_per_trick * taken
        elif kind is RoundKind.GOLDEN:
            points = rules.golden_zero if taken == 0 else rules.golden_per_trick * taken
        elif kind is RoundKind.FOREHEAD:
            points = rules.forehead_exact if taken == bid else rules.forehead_miss
        else:
            points = self._bid_points(bid, taken, cards)
        option = _PERCENT_OPTIONS.get(kind)
        return points if option is None else round_half_away(points, getattr(rules, option))

    def _bid_points(self, bid: int | None, taken: int, cards: int) -> int:
        """A round with bids, before the round kind's multiplier."""
        rules = self.rules
        assert bid is not None
        if taken == bid == 0:
            return rules.exact_zero
        if taken == bid:
            points = rules.exact_per_trick * bid + rules.exact_bonus
            return points * (rules.bid_all_multiplier if bid == cards > 1 else 1)
        if taken == 0 and rules.khishti_penalty:  # «хишти»: a bid of 1 or more, no trick
            return rules.khishti_penalty
        if rules.miss_scoring == "per_trick_taken":
            return rules.miss_per_trick * taken
        if taken < bid:
            missing = bid - taken if rules.undertrick_counts == "missing" else bid
            return rules.undertrick_per_trick * missing
        counted = taken if rules.overtrick_counts == "taken" else taken - bid
        return rules.overtrick_per_trick * counted

    # ---------------------------------------------------------------- play

    def playable_cards(
        self, hand: Iterable[Card], prior: Sequence[Play], trump: Suit | None
    ) -> list[Card]:
        """RULES.md 1 "Play" and "The joker", and 2 (compulsory trumping): the cards a
        player holding ``hand`` may play after ``prior`` (the joker always)."""
        hand = list(hand)
        if not prior:
            return hand
        lead = prior[0]
        demand = lead.mode is _HIGHEST
        suit = lead.suit if lead.card.is_joker else lead.card.suit
        jokers = [card for card in hand if card.is_joker]
        suited = [card for card in hand if card.suit is suit and suit is not None]
        if suited:
            return ([max(suited, key=lambda card: card.rank)] if demand else suited) + jokers
        must_trump = self.trump_when_void or (demand and self.highest_beaten_by_trump)
        trumps = [card for card in hand if card.suit is trump and trump is not None]
        if must_trump and trumps:
            return trumps + jokers
        return hand

    def legal(self, hand: Iterable[Card], prior: Sequence[Play], trump: Suit | None) -> set[Play]:
        """Every legal play: one per card, each mode a joker may announce."""
        plays: set[Play] = set()
        for card in self.playable_cards(hand, prior, trump):
            plays |= _joker_plays(card, not prior) if card.is_joker else {Play(card)}
        return plays

    def is_legal(
        self, hand: set[Card], prior: Sequence[Play], play: Play, trump: Suit | None
    ) -> bool:
        """``play in self.legal(hand, prior, trump)``, quicker (checked for every card of
        every game)."""
        card = play.card
        if card not in hand:
            return False
        if card.is_joker:
            return play.mode in ((_TAKE, _DISCARD) if prior else (_HIGHEST, _DISCARD))
        if not prior:
            return True
        lead = prior[0]
        led = lead.card.suit if lead.suit is None else lead.suit  # Suit.SPADES is falsy
        if card.suit is led and lead.mode is not _HIGHEST:
            return True  # following the suit led: always legal
        return card in self.playable_cards(hand, prior, trump)

    def winner(self, plays: Sequence[Play], leader: int, trump: Suit | None) -> int:
        """RULES.md 1 "Play" and "The joker", 2 and 3.1, and docs/rules-decisions.md (two
        jokers): the seat that wins the whole trick ``plays``."""

        def seat(position: int) -> int:
            return (leader + position) % len(plays)

        def best(suit: Suit | None) -> int | None:
            """Position of the highest card of ``suit`` in the trick, if any."""
            ranked = [(p.card.rank, i) for i, p in enumerate(plays) if p.card.suit is suit]
            return max(ranked)[1] if ranked and suit is not None else None

        first = plays[0]
        takes = [i for i, play in enumerate(plays) if i and play.mode is _TAKE]
        if takes:  # a joker "take" wins, the later of two: also over a led "highest S"
            return seat(takes[-1])
        if first.mode is _HIGHEST:
            beaten = self.highest_beaten_by_trump and first.suit is not trump
            trumped = best(trump) if beaten else None
            return leader if trumped is None else seat(trumped)
        lead = first.suit if first.card.is_joker else first.card.suit
        for suit in (trump, lead):
            position = best(suit)
            if position is not None:
                return seat(position)
        # 3.1: the joker led as "discard S", nobody played S nor a trump.
        assert first.card.is_joker and first.mode is _DISCARD, plays
        if self.unfollowed_discard_joker_wins:
            return leader
        # The highest card of the suit of the first card played after the joker decides
        # (a second joker is no card of a suit: the first suited card after it).
        after = next((play.card.suit for play in plays[1:] if not play.card.is_joker), None)
        position = best(after)
        return leader if position is None else seat(position)


@functools.lru_cache(maxsize=64)
def rule_book(rules: Rules) -> RuleBook:
    return RuleBook(rules)


def _joker_plays(joker: Card, leading: bool) -> set[Play]:
    if leading:
        return {Play(joker, mode, suit) for mode in (_HIGHEST, _DISCARD) for suit in _SUITS}
    return {Play(joker, _TAKE)} | {Play(joker, _DISCARD, suit) for suit in _SUITS}


def _all_joker_plays(joker: Card) -> set[Play]:
    return _joker_plays(joker, True) | _joker_plays(joker, False)


def total_actions(plan: Sequence[tuple[int, RoundKind]], players: int) -> int:
    return sum(players * cards + (0 if kind in _NO_BIDS else players) for cards, kind in plan)


# ----------------------------------------------------------------------------- view walk

_LEAF_TYPES = (str, int, float, bool, type(None), Enum)
#: Per type met, see ``_kind_of``.
_KINDS: dict[type, Any] = {}


def _kind_of(kind: type) -> Any:
    """How the walk treats a type: ``"leaf"``, ``"card"``, ``"unknown"``, or a triple
    (immutable?, a record: a dataclass or NamedTuple?, how to list its parts; ``None``:
    iterate it)."""
    found = _KINDS.get(kind)
    if found is not None:
        return found
    if kind is Card:
        found = "card"
    elif issubclass(kind, _LEAF_TYPES):
        found = "leaf"
    elif issubclass(kind, (tuple, frozenset)):
        found = (True, hasattr(kind, "_fields"), None)  # a NamedTuple is a record
    elif issubclass(kind, (list, set)):
        found = (False, False, None)
    elif issubclass(kind, dict):
        found = (False, False, lambda obj: [*obj.keys(), *obj.values()])
    elif dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in dataclasses.fields(kind))
        frozen = kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
        found = (frozen, True, lambda obj, names=names: [getattr(obj, name) for name in names])
    else:
        found = "unknown"
    _KINDS[kind] = found
    return found


class CardWalk:
    """Finds every ``Card`` reachable from a value, generically: through the fields of
    dataclasses, tuples (NamedTuples included), lists, sets and dicts. What an immutable
    record below the root, or any immutable value two or more levels below it, holds is
    remembered by identity (the value is kept alive, so its identity is not reused): the
    root's tuples are mostly fresh each time, records and deeper values (the rules, past
    tricks, past scores, interned plays) mostly shared. Values
    with mutable parts are walked every time."""

    def __init__(self) -> None:
        self.memo: dict[int, tuple[object, frozenset[Card], tuple[str, ...]]] = {}

    def forget(self) -> None:
        """Drop what is remembered once it grows large (a game keeps its values alive)."""
        if len(self.memo) > 50_000:
            self.memo.clear()

    def cards(self, root: object) -> tuple[set[Card], list[str]]:
        found: set[Card] = set()
        unknown: list[str] = []
        self._visit(root, found, unknown, 0)
        return found, unknown

    def _visit(self, obj: object, found: set[Card], unknown: list[str], depth: int) -> bool:
        """Add the cards under ``obj`` to ``found``; true when all of ``obj`` is immutable."""
        kind = _KINDS.get(type(obj)) or _kind_of(type(obj))
        if kind == "leaf":
            return True
        if kind == "card":
            found.add(obj)  # type: ignore[arg-type]
            return True
        if kind == "unknown":
            unknown.append(type(obj).__name__)
            return False
        immutable, record, parts = kind
        remember = depth >= 2 or (record and depth == 1)
        memo = self.memo
        kinds = _KINDS
        inner: set[Card] = set() if remember else found
        odd: list[str] = [] if remember else unknown
        for part in obj if parts is None else parts(obj):  # type: ignore[attr-defined]
            part_kind = kinds.get(type(part))
            if part_kind == "leaf":
                continue
            if part_kind == "card":
                inner.add(part)
                continue
            hit = memo.get(id(part))
            if hit is not None:
                inner |= hit[1]
                odd += hit[2]
            elif not self._visit(part, inner, odd, depth + 1):
                immutable = False
        if remember:
            if immutable:
                memo[id(obj)] = (obj, frozenset(inner), tuple(odd))
            found |= inner
            unknown += odd
        return immutable


# ----------------------------------------------------------------------------- the checker


class Checker:
    """Plays one game with the given action source and records every broken invariant."""

    def __init__(self, game: Game, rng: random.Random, label: str):
        self.game = game
        self.rng = rng
        self.label = label
        self.n = game.players
        self.book = rule_book(game.rules)
        self.plan = self.book.plan(self.n)
        self.deck = self.book.deck
        #: The current round's trump suit, from its trump card (checked at the deal).
        self.trump: Suit | None = None
        self.problems: list[tuple[str, str, str]] = []
        self.totals = [0] * self.n
        self.scores: list[tuple[int, ...]] = []
        self.dealer: int | None = None
        self.round_plays: list[Card] = []
        self.dealt: set[Card] = set()
        self.plays_by_seat = [0] * self.n
        self.actions = 0
        self.shadow: Shadow | None = None
        self.full = False
        self.walk = CardWalk()
        self.shadow_round = 0
        #: The kinds of round bid unseen whose first deal had its views walked.
        self.walked_kinds: set[RoundKind] = set()

    # ---------------------------------------------------------------- reporting

    def where(self) -> str:
        game = self.game
        text = f"{self.label} round {game.round.number}"
        if game.phase is Phase.PLAY:
            text += f" trick {len(game.view(None).tricks) + 1}"
        return text

    def fail(self, code: str, message: str, where: str | None = None) -> None:
        self.problems.append((code, self.label, f"{where or self.where()}: {message}"))

    # ---------------------------------------------------------------- the game

    def run(self, *, full: bool, records: bool) -> None:
        game = self.game
        self.full = full
        cut = -1
        if records:
            cut = random.Random(f"cut/{self.label}").randrange(total_actions(self.plan, self.n))
        snapshot = None
        self.check_plan()
        self.on_deal()
        rng, round_plays, plays_by_seat = self.rng, self.round_plays, self.plays_by_seat
        while not game.is_over:
            if self.actions == cut:
                snapshot = self.snapshot()
            spec = game.round
            legal = game.legal_actions()
            if full:
                self.check_state(legal)
            action = rng.choice(legal)
            seat = game.to_act
            assert seat is not None
            bidding = type(action) is Bid
            if bidding:
                self.check_bidding(legal, seat)
            else:
                round_plays.append(action.card)
                plays_by_seat[seat] += 1
            try:
                game.apply(action, seat)
            except Exception as error:
                self.fail("apply-legal", f"{action} from legal_actions() raised {error!r}")
                return
            self.actions += 1
            if self.shadow is not None:
                self.shadow.follow(action, seat, game)
            if game.round is not spec or game.is_over:
                self.shadow = None
                self.on_round_end(spec.number)
                if not game.is_over:
                    self.on_deal()
                    round_plays, plays_by_seat = self.round_plays, self.plays_by_seat
        if full:
            self.check_state([])
        self.on_game_end()
        if records:
            report = replay_report(game)
            self.check_report(report)
            self.check_round_trip(report)
            if snapshot is not None:
                self.check_partial(*snapshot, report)

    # ---------------------------------------------------------------- the plan and deals

    def check_plan(self) -> None:
        plan = [(spec.cards, spec.kind) for spec in self.game.plan]
        if plan != self.plan:
            self.fail("plan", f"plan {plan} is not the rule book's {self.plan}")
        if frozenset(self.game.deck) != self.deck or len(self.game.deck) != len(self.deck):
            self.fail("deck", f"deck {sorted(map(str, self.game.deck))}")
        numbers = [spec.number for spec in self.game.plan]
        if numbers != list(range(1, len(plan) + 1)):
            self.fail("plan", f"round numbers {numbers}")

    def on_deal(self) -> None:
        game = self.game
        spec = game.round
        if self.dealer is not None and game.dealer != (self.dealer + 1) % self.n:
            self.fail("dealer", f"dealer {game.dealer} after dealer {self.dealer}")
        self.dealer = game.dealer
        self.walk.forget()
        self.round_plays = []
        self.plays_by_seat = [0] * self.n
        hands = [game.hand(seat) for seat in range(self.n)]
        seen: set[Card] = set()
        for seat, hand in enumerate(hands):
            cards = set(hand)
            if len(hand) != spec.cards:
                self.fail("deal", f"seat {seat} holds {len(hand)} cards, not {spec.cards}")
            if len(cards) != len(hand) or not seen.isdisjoint(cards):
                self.fail("deal", f"seat {seat}'s hand {hand} overlaps another or itself")
            if not cards <= self.deck:
                self.fail("deal", f"seat {seat}'s hand {hand} has cards outside the deck")
            seen |= cards
        self.dealt = seen
        current = game.rounds()[-1]
        if list(current.hands) != hands:
            self.fail("deal", f"rounds() hands {current.hands} differ from hand() {hands}")
        trump_card = game.trump_card
        source = self.book.trump_source(spec.kind, spec.cards, self.n)
        self.trump = None if trump_card is None else trump_card.suit
        if source == "none":
            if trump_card is not None or game.trump is not None:
                self.fail("trump", f"{spec.cards} {spec.kind}: shows {trump_card} / {game.trump}")
        elif trump_card is None or trump_card not in self.deck:
            self.fail("trump", f"trump card {trump_card}")
        else:
            if source == "undealt" and trump_card in seen:
                self.fail("trump", f"turned-up {trump_card} is also in a hand")
            if source == "dealer" and trump_card not in hands[game.dealer]:
                self.fail("trump", f"every card dealt, but {trump_card} is not the dealer's")
            if game.trump is not self.trump:
                self.fail("trump", f"trump {game.trump} for the card {trump_card}")
        if current.trump_card != trump_card or current.trump is not game.trump:
            self.fail("trump", "rounds() disagrees with trump_card/trump")
        first = (game.dealer + 1) % self.n
        expected_phase = Phase.PLAY if spec.kind in _NO_BIDS else Phase.BID
        if game.phase is not expected_phase:
            self.fail("no-bids", f"a {spec.kind} round starts in phase {game.phase}")
        if game.to_act != first:
            self.fail("leader", f"seat {game.to_act} acts first, not the dealer's left {first}")
        first_unseen = spec.kind in _HIDDEN_WHILE_BIDDING and spec.kind not in self.walked_kinds
        if not self.full and (spec.number == 1 or first_unseen):
            self.walked_kinds.add(spec.kind)
            self.check_views()  # fully checked games walk the views at every action

    # ---------------------------------------------------------------- bids

    def check_bidding(self, legal: Sequence[Any], seat: int) -> None:
        game = self.game
        spec = game.round
        if spec.kind in _NO_BIDS:
            self.fail("no-bids", f"a {spec.kind} round asks seat {seat} for a bid")
        bids = game.bids
        placed = sum(bid is not None for bid in bids)
        if seat != (game.dealer + 1 + placed) % self.n or bids[seat] is not None:
            self.fail("bid-order", f"seat {seat} bids after {placed} bids, dealer {game.dealer}")
        amounts = [action.amount for action in legal if type(action) is Bid]
        if len(amounts) != len(legal) or len(set(amounts)) != len(amounts):
            self.fail("bids", f"legal bids {legal}")
        expected = set(range(spec.cards + 1))
        if seat == game.dealer and self.book.rules.dealer_constraint:
            expected.discard(spec.cards - sum(bid for bid in bids if bid is not None))
        if set(amounts) != expected:
            self.fail(
                "dealer-constraint",
                f"seat {seat} (dealer {game.dealer}) after bids {bids}: legal {sorted(amounts)},"
                f" expected {sorted(expected)}",
            )

    # ---------------------------------------------------------------- round end

    def on_round_end(self, number: int) -> None:
        game = self.game
        rounds = game.rounds()
        where = f"{self.label} round {number}"
        self.check_result(rounds[number - 1], where)
        if len(rounds) != (number if game.is_over else number + 1):
            self.fail("rounds", f"rounds() has {len(rounds)} rounds", where)
        if tuple(self.totals) != game.totals:
            self.fail("totals", f"totals {game.totals}, expected {tuple(self.totals)}", where)
        spectator = game.view(None)
        if spectator.totals != game.totals or list(spectator.scores) != self.scores:
            self.fail(
                "totals", f"view scores {spectator.scores} / totals {spectator.totals}", where
            )

    def check_result(self, result: RoundResult, where: str) -> None:
        n, cards, kind, book = self.n, result.cards, result.kind, self.book
        trump = None if result.trump_card is None else result.trump_card.suit
        if result.trump is not trump:
            self.fail(
                "trump", f"rounds() trump {result.trump} for the card {result.trump_card}", where
            )
        if result.number - 1 < len(self.plan) and (cards, kind) != self.plan[result.number - 1]:
            self.fail("plan", f"round is {cards} {kind}", where)
        if len(result.tricks) != cards:
            self.fail("tricks", f"{len(result.tricks)} tricks for {cards} cards", where)
        hands = [set(hand) for hand in result.hands]
        dealt = set().union(*hands)
        played: list[Card] = []
        taken = [0] * n
        leader = (result.dealer + 1) % n
        for t, trick in enumerate(result.tricks, start=1):
            at = f"{where} trick {t}"
            if trick.leader != leader:
                self.fail("leader", f"led by {trick.leader}, not {leader}", at)
            if len(trick.plays) != n:
                self.fail("tricks", f"{len(trick.plays)} plays {trick.plays}", at)
                continue
            for position, play in enumerate(trick.plays):
                seat = (trick.leader + position) % n
                if play.card not in hands[seat]:
                    self.fail("conservation", f"seat {seat} played {play}, not in its hand", at)
                    continue
                if not book.is_legal(hands[seat], trick.plays[:position], play, trump):
                    self.fail(
                        "legality",
                        f"seat {seat} played {play} after {list(map(str, trick.plays[:position]))}"
                        f" holding {sorted(map(str, hands[seat]))}",
                        at,
                    )
                hands[seat].discard(play.card)
                played.append(play.card)
            winner = book.winner(trick.plays, trick.leader, trump)
            if trick.winner != winner:
                self.fail(
                    "trick-winner",
                    f"plays {[str(p) for p in trick.plays]} led by seat {trick.leader}, trump "
                    f"{trump}: winner {trick.winner}, the rule book says {winner}",
                    at,
                )
            if trick.winner is not None and 0 <= trick.winner < n:
                taken[trick.winner] += 1
                leader = trick.winner
            else:
                self.fail("trick-winner", f"winner {trick.winner!r}", at)
        if len(played) != len(set(played)) or set(played) != dealt or len(played) != n * cards:
            self.fail("conservation", f"played {len(played)} cards, dealt {len(dealt)}", where)
        if list(result.taken) != taken or sum(result.taken) != cards:
            self.fail("taken", f"taken {result.taken}, tricks won {taken}", where)
        bids = result.bids
        if kind in _NO_BIDS:
            if bids is not None:
                self.fail("no-bids", f"a {kind} round has bids {bids}", where)
        elif bids is None or len(bids) != n or any(b is None or not 0 <= b <= cards for b in bids):
            self.fail("bids", f"bids {bids} for {cards} cards", where)
        elif sum(bids) == cards and book.rules.dealer_constraint:  # type: ignore[arg-type]
            self.fail("dealer-constraint", f"bids {bids} sum to the {cards} cards", where)
        if kind not in _NO_BIDS and (bids is None or None in bids):
            return
        points = tuple(
            book.points(kind, None if bids is None else bids[s], taken[s], cards) for s in range(n)
        )
        if result.points != points:
            self.fail(
                "points",
                f"{cards} {kind}, bids {bids} taken {taken}: points {result.points}, the rule book "
                f"{points}",
                where,
            )
        self.scores.append(points)
        self.totals = [total + value for total, value in zip(self.totals, points, strict=True)]

    # ---------------------------------------------------------------- game end

    def on_game_end(self) -> None:
        game = self.game
        where = f"{self.label} end"
        if len(game.rounds()) != len(self.plan) or len(self.scores) != len(self.plan):
            self.fail("rounds", f"{len(game.rounds())} rounds, plan {len(self.plan)}", where)
        top = max(self.totals)
        winners = tuple(seat for seat, total in enumerate(self.totals) if total == top)
        if game.winners() != winners:
            self.fail("winners", f"winners {game.winners()}, expected {winners}", where)
        if game.legal_actions() or game.to_act is not None:
            self.fail("over", "a finished game still offers actions", where)
        rounds = game.rounds()
        deals = [e for e in game.events if isinstance(e.action, Deal)]
        if [(e.round, e.action.hands, e.action.trump_card) for e in deals] != [  # type: ignore[union-attr]
            (r.number, r.hands, r.trump_card) for r in rounds
        ]:
            self.fail("deal", "the log's deals differ from rounds()", where)

    def check_report(self, report: dict[str, Any]) -> None:
        """``replay_report`` (RECORD.md) of the finished game agrees with the references."""
        where = f"{self.label} end"
        winners = [seat for seat, total in enumerate(self.totals) if total == max(self.totals)]
        if [r["points"] for r in report["rounds"]] != [list(p) for p in self.scores]:
            self.fail("report", "replay_report points differ from the rule book", where)
        if report["totals"] != self.totals or report["winners"] != winners:
            self.fail("report", f"report totals {report['totals']} {report['winners']}", where)
        if not report["complete"]:
            self.fail("report", "complete is false for a finished game", where)

    # ---------------------------------------------------------------- records

    def snapshot(self) -> tuple[str, dict[str, Any], int]:
        game = self.game
        text = dumps_record(game_to_record(game), indent=None)
        return text, replay_report(game), len(game.events)

    def check_round_trip(self, report: dict[str, Any]) -> None:
        game = self.game
        where = f"{self.label} record"
        text = dumps_record(game_to_record(game))
        try:
            again = replay(loads_record(text))
        except Exception as error:
            self.fail("record", f"replaying the record raised {error!r}", where)
            return
        if replay_report(again) != report:
            self.fail("record", "the replayed report differs", where)
        if json.loads(json.dumps(report)) != report:
            self.fail("record", "the report does not survive JSON", where)
        if again.totals != game.totals or not again.is_over:
            self.fail("record", f"replayed totals {again.totals} vs {game.totals}", where)
        if again.events != game.events:
            self.fail("record", "the replayed event log differs", where)
        if dumps_record(game_to_record(again), indent=None) != dumps_record(
            game_to_record(game), indent=None
        ):
            self.fail("record", "the replayed game writes another record", where)

    def check_partial(
        self, text: str, report: dict[str, Any], events: int, final: dict[str, Any]
    ) -> None:
        game = self.game
        where = f"{self.label} record cut after {events} events"
        try:
            partial = replay(loads_record(text))
        except Exception as error:
            self.fail("partial-record", f"replay raised {error!r}", where)
            return
        if replay_report(partial) != report:
            self.fail("partial-record", "the report differs from the game's at the cut", where)
        if report["complete"] or report["winners"] or partial.is_over:
            self.fail("partial-record", "a partial record reads as complete", where)
        log = game.events
        if partial.events != log[: len(partial.events)] or len(partial.events) != events:
            self.fail("partial-record", f"{len(partial.events)} events, not a prefix", where)
            return
        probed = False
        for index in range(events, len(log)):
            event = log[index]
            action = event.action
            try:
                if isinstance(action, Deal):
                    if not probed:
                        probed = True
                        self.probe_before_deal(partial, log, index, where)
                    partial.deal(action.hands, action.trump_card)
                else:
                    partial.apply(action, event.seat)
            except Exception as error:
                self.fail("partial-record", f"continuing with {event} raised {error!r}", where)
                return
        if partial.events != log or replay_report(partial) != final:
            self.fail("partial-record", "continued to the end, it is another game", where)

    def probe_before_deal(self, waiting: Game, log: Sequence[Any], index: int, where: str) -> None:
        """An illegal play and bid sent to a game waiting for a deal must leave no trace."""
        clone = waiting.clone()
        card = log[index].action.hands[clone.to_act if clone.to_act is not None else 0][0]
        attempts: list[Any] = [Play.of(card) if not card.is_joker else Play(card, _TAKE), Bid(0)]
        for attempt in attempts:
            try:
                clone.apply(attempt)
            except IllegalActionError:
                continue
            except Exception as error:
                self.fail("illegal-no-trace", f"{attempt} before a deal raised {error!r}", where)
                return
            self.fail("illegal-no-trace", f"{attempt} before a deal was accepted", where)
            return
        number = clone.round.number
        for event in log[index:]:
            if event.round != number:
                break
            action = event.action
            try:
                if isinstance(action, Deal):
                    clone.deal(action.hands, action.trump_card)
                else:
                    clone.apply(action, event.seat)
            except Exception as error:
                self.fail(
                    "illegal-no-trace",
                    f"after {[str(a) for a in attempts]} were refused while waiting for the deal"
                    f" of round {number}, the legal {event.action} by seat {event.seat} raised "
                    f"{error!r}",
                    where,
                )
                return

    # ---------------------------------------------------------------- every action

    def check_state(self, legal: Sequence[Any]) -> None:
        self.check_conservation()
        self.check_views()
        game = self.game
        if game.is_over:
            return
        if len(set(legal)) != len(legal):
            self.fail("legal-actions", f"duplicates in {legal}")
        if game.phase is Phase.PLAY:
            hand = game.hand(game.to_act)  # type: ignore[arg-type]
            expected = self.book.legal(hand, game.trick.plays, self.trump)
            if set(legal) != expected:
                self.fail(
                    "legality",
                    f"seat {game.to_act} holding {list(map(str, hand))} after "
                    f"{list(map(str, game.trick.plays))}: legal_actions "
                    f"{sorted(map(str, legal))}, the rule book {sorted(map(str, expected))}",
                )
        if self.actions % 3 == 0:
            self.check_can(legal)
        spec = game.round
        if self.shadow_round != spec.number:
            bids = sum(b is not None for b in game.bids)
            plays = len(self.round_plays)
            if (spec.kind.has_bids and bids == 1) or (not spec.kind.has_bids and plays == 1):
                self.shadow_round = spec.number
                self.shadow = Shadow(self, legal)

    def check_conservation(self) -> None:
        game = self.game
        if game.is_over:
            return
        hands = [game.hand(seat) for seat in range(self.n)]
        held = [card for hand in hands for card in hand]
        dealt = self.dealt
        cards = game.round.cards
        view = game.view(None)
        in_view = [play.card for trick in (*view.tricks, view.trick) for play in trick.plays]
        if in_view != self.round_plays:
            self.fail("conservation", f"the view's tricks {in_view}, played {self.round_plays}")
        if (
            len(held) != len(set(held))
            or set(held) & set(self.round_plays)
            or set(held) | set(self.round_plays) != dealt
            or len(held) + len(self.round_plays) != self.n * cards
        ):
            self.fail("conservation", f"hands {hands} + played {self.round_plays} != dealt")
        for seat, hand in enumerate(hands):
            if len(hand) != cards - self.plays_by_seat[seat]:
                self.fail("conservation", f"seat {seat} holds {len(hand)} cards")

    def check_views(self) -> None:
        game = self.game
        bidding = game.phase is Phase.BID
        blind_bidding = bidding and game.round.kind is RoundKind.BLIND
        forehead_bidding = bidding and game.round.kind is RoundKind.FOREHEAD
        hands = [game.hand(seat) for seat in range(self.n)]
        played = set(self.round_plays)
        for seat in (*range(self.n), None):
            view = game.view(seat)
            who = "spectator" if seat is None else f"seat {seat}"
            hidden = seat is None or blind_bidding or forehead_bidding
            own = None if hidden else hands[seat]
            if view.hand != own:
                self.fail("view-hand", f"{who} sees hand {view.hand}, expected {own}")
            # Forehead («лобовая») bidding: every other seat's cards, not one's own.
            others = tuple(
                hand if forehead_bidding and seat not in (None, other) else None
                for other, hand in enumerate(hands)
            )
            if view.shown_hands != others:
                self.fail("view-hand", f"{who} is shown the hands {view.shown_hands}")
            shown = game.trump_card
            if blind_bidding:
                if view.trump_card is not None or view.trump is not None or not view.trump_hidden:
                    self.fail("view-trump", f"{who} sees the blind trump {view.trump_card}")
                shown = None
            elif view.trump_card != shown or view.trump is not game.trump or view.trump_hidden:
                self.fail("view-trump", f"{who} sees trump {view.trump_card} / {view.trump}")
            allowed = played | set(own or ()) | {card for hand in others for card in hand or ()}
            if shown is not None:
                allowed.add(shown)
            found, unknown = self.walk.cards(view)
            if unknown:
                self.fail("view-walk", f"{who}'s view holds unknown values {unknown}")
            leaked = found - allowed
            if leaked:
                self.fail(
                    "view-leak",
                    f"{who} (phase {game.phase}, {game.round.kind}) can see "
                    f"{sorted(map(str, leaked))}",
                )
            mine = seat is not None and seat == game.to_act
            if view.legal_actions != (game.legal_actions() if mine else ()):
                self.fail("view-legal", f"{who}'s view offers {view.legal_actions}")

    def check_can(self, legal: Sequence[Any]) -> None:
        game = self.game
        seat = game.to_act
        assert seat is not None
        other = (seat + 1) % self.n
        cards = game.round.cards
        other_hand = game.hand(other)
        foreign = next((c for c in other_hand if not c.is_joker), None)
        wrong: list[tuple[str, bool]] = []
        if game.phase is Phase.BID:
            amounts = {action.amount for action in legal}
            for amount in range(-1, cards + 2):
                ok = amount in amounts
                wrong += [
                    (f"can_bid({amount})", game.can_bid(amount) != ok),
                    (f"can_bid({amount}, {seat})", game.can_bid(amount, seat) != ok),
                    (f"can_bid({amount}, other {other})", game.can_bid(amount, other)),
                ]
            for card in game.hand(seat)[:2]:
                play = Play(card, _TAKE) if card.is_joker else Play.of(card)
                wrong.append((f"can_play({play}) while bidding", game.can_play(play)))
        else:
            for action in legal:
                wrong += [
                    (f"can_play({action})", not game.can_play(action)),
                    (f"can_play({action}, {seat})", not game.can_play(action, seat)),
                    (f"can_play({action}, other {other})", game.can_play(action, other)),
                ]
            legal_set = set(legal)
            for card in game.hand(seat):
                options = _all_joker_plays(card) if card.is_joker else {Play.of(card)}
                for play in options - legal_set:
                    wrong.append((f"can_play({play}) not legal", game.can_play(play)))
                    if not card.is_joker:
                        try:
                            game.verify_play(play)
                        except IllegalActionError as error:
                            if str(card) not in str(error) or "round" not in str(error):
                                self.fail("messages", f"verify_play({play}): {error}")
            if foreign is not None:
                wrong.append(
                    (f"can_play({foreign}) of seat {other}", game.can_play(Play.of(foreign)))
                )
            wrong.append(("can_bid(0) while playing", game.can_bid(0)))
        for what, bad in wrong:
            if bad:
                self.fail("can", f"{what} disagrees with legal_actions() {sorted(map(str, legal))}")


class Shadow:
    """A clone of the game that was sent illegal actions; it must behave like the game."""

    def __init__(self, checker: Checker, legal: Sequence[Any]):
        game = checker.game
        self.checker = checker
        self.clone = game.clone()
        self.number = game.round.number
        seat = game.to_act
        assert seat is not None
        other = (seat + 1) % checker.n
        attempts: list[tuple[Any, int | None]] = []
        # Cards of other hands (the next seats') and of the player's own hand.
        for holder in (other, (seat + 2) % checker.n, seat):
            for card in game.hand(holder)[:1]:
                attempts.append((Play(card, _TAKE) if card.is_joker else Play.of(card), None))
        if game.phase is Phase.BID:
            attempts += [(Bid(game.round.cards + 1), None), (legal[0], other)]
            forbidden = [n for n in range(game.round.cards + 1) if Bid(n) not in legal]
            attempts += [(Bid(n), None) for n in forbidden]
        else:
            attempts += [(Bid(0), None), (legal[0], other)]
            for card in game.hand(seat):
                if not card.is_joker and Play.of(card) not in legal:
                    attempts.append((Play.of(card), None))
                    break
        self.attempts = [
            f"{action}" + ("" if s is None else f" as seat {s}") for action, s in attempts
        ]
        for action, who in attempts:
            if who is None and action in legal:
                continue
            try:
                self.clone.apply(action, who)
            except IllegalActionError:
                continue
            except Exception as error:
                checker.fail("illegal-no-trace", f"illegal {action} raised {error!r}")
                continue
            checker.fail("illegal-no-trace", f"illegal {action} (seat {who}) was accepted")
        self.alive = True
        self.compare(game)

    def follow(self, action: Any, seat: int, game: Game) -> None:
        if not self.alive:
            return
        try:
            self.clone.apply(action, seat)
        except Exception as error:
            self.report(f"the legal {action} of seat {seat} raised {error!r}")
            return
        self.compare(game)

    def compare(self, game: Game) -> None:
        clone = self.clone
        if clone.events != game.events:
            self.report("its event log differs")
        elif not game.is_over and game.round.number == self.number:
            if clone.legal_actions() != game.legal_actions() or clone.to_act != game.to_act:
                self.report(
                    f"it offers {sorted(map(str, clone.legal_actions()))} to seat "
                    f"{clone.to_act}, the game {sorted(map(str, game.legal_actions()))} "
                    f"to seat {game.to_act}"
                )
            elif any(clone.hand(s) != game.hand(s) for s in range(game.players)):
                self.report("its hands differ")

    def report(self, what: str) -> None:
        self.alive = False
        self.checker.fail(
            "illegal-no-trace",
            f"after the illegal {self.attempts} were refused in round {self.number}, {what}",
        )


# ----------------------------------------------------------------------------- running


Problem = tuple[str, str, str]  # (check, game label, message)

#: Every preset with every player count it allows.
CASES = [(preset, players) for preset in PRESET_NAMES for players in player_counts(preset)]
CASE_PARAMS = [pytest.param(preset, n, id=f"{preset}-{n}") for preset, n in CASES]


def play_checked(
    rules: Rules | str, players: int, seed: int, *, full: bool, records: bool
) -> list[Problem]:
    game = Game(rules, players=players, seed=seed)
    custom = " custom_plan" if game.rules.custom_plan else ""
    checker = Checker(
        game, random.Random(seed), f"{game.rules.preset}{custom} players={players} seed={seed}"
    )
    try:
        checker.run(full=full, records=records)
    except Exception as error:  # an engine exception the checks did not expect
        checker.fail("crash", f"{type(error).__name__}: {error}")
    return checker.problems


def assert_no_problems(problems: list[Problem], games: int) -> None:
    if not problems:
        return
    by_code = Counter(code for code, _, _ in problems)
    failing_games = {label for _, label, _ in problems}
    shown: list[str] = []
    for code in by_code:
        shown += [f"[{code}] {m}" for c, _, m in problems if c == code][:3]
    lines = [
        f"{len(problems)} broken invariants in {len(failing_games)} of {games} games: "
        + ", ".join(f"{code} ×{count}" for code, count in by_code.most_common()),
        *shown[:SHOWN],
    ]
    pytest.fail("\n".join(lines), pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CASE_PARAMS)
def test_random_games_every_action(preset: str, players: int) -> None:
    full, _ = games_of(preset)
    problems: list[Problem] = []
    for seed in range(full):
        problems += play_checked(preset, players, seed, full=True, records=True)
    assert_no_problems(problems, full)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CASE_PARAMS)
def test_random_games_round_checks(preset: str, players: int) -> None:
    full, checked = games_of(preset)
    problems: list[Problem] = []
    for seed in range(full, full + checked):
        problems += play_checked(
            preset, players, seed, full=False, records=seed % RECORD_EVERY == 0
        )
    assert_no_problems(problems, checked)


def test_game_count() -> None:
    full, checked = games_of("raspisnoy.com")
    assert len(player_counts("raspisnoy.com")) * (full + checked) >= 2000
    # The player counts RULES.md and docs/rules-decisions.md give the presets.
    documented = {
        "raspisnoy.com": range(3, 6),
        "classic": range(3, 7),
        "ukrainian": range(2, 11),
        "georgian": range(3, 7),
        "oh-hell": range(3, 8),
    }
    assert {preset: player_counts(preset) for preset in documented} == documented


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_presets_use_only_modelled_options(preset: str) -> None:
    assert unmodelled_options(resolve_rules(preset)) == []


def book_of(preset: str = "raspisnoy.com", **options: Any) -> RuleBook:
    return rule_book(resolve_rules(preset, **options))


def _deals(
    *parts: Iterable[int], kind: RoundKind = RoundKind.NORMAL
) -> list[tuple[int, RoundKind]]:
    return [(cards, kind) for part in parts for cards in part]


def _specials(kinds: str, players: int, cards: int) -> list[tuple[int, RoundKind]]:
    return [(cards, RoundKind(kind)) for kind in kinds.split() for _ in range(players)]


def test_reference_decks_and_plans() -> None:
    """The rule book's decks and plans are those RULES.md 1 and 2 and the presets describe."""
    cards = {
        preset: sorted(str(card) for card in book_of(preset).deck if card.is_joker or card.rank < 8)
        for preset in PRESET_NAMES
    }
    assert cards["raspisnoy.com"] == sorted(["6S", "6C", "6D", "6H", "7C", "7D", "7H", "X"])
    assert cards["georgian"] == sorted(["X1", "X2", "6D", "6H", "7S", "7C", "7D", "7H"])
    assert len(cards["oh-hell"]) == 24 and "X" not in cards["oh-hell"]
    assert [len(book_of(preset).deck) for preset in PRESET_NAMES] == [36, 36, 36, 36, 52]
    default = book_of()
    assert [len(default.plan(n)) for n in (3, 4, 5)] == [26, 28, 31]
    assert default.plan(3) == _deals(range(1, 13), [12, 12]) + _specials(
        "no-trump blind misere golden", 3, 12
    )
    assert book_of(descending=True).plan(3) == _deals(
        range(1, 13), range(11, 0, -1), [12, 12]
    ) + _specials("no-trump blind misere golden", 3, 12)
    # georgian: 1..8, 4 × 9, 8..1, 4 × 9 (24 deals, 4 players)
    assert book_of("georgian").plan(4) == _deals(range(1, 9), [9] * 4, range(8, 0, -1), [9] * 4)
    assert book_of("classic").plan(4) == _deals(range(1, 9), [9] * 4, range(8, 0, -1)) + _specials(
        "blind no-trump golden misere", 4, 9
    )
    assert book_of("ukrainian").plan(2) == _deals(
        range(1, 18), [18, 18], range(17, 0, -1)
    ) + _specials("no-trump blind misere golden", 2, 18)
    assert book_of("oh-hell").plan(4) == _deals(range(1, 13), [13] * 4, range(12, 0, -1))
    assert book_of(special_rounds=("forehead", "percent")).plan(5)[-10:] == _specials(
        "forehead", 5, 1
    ) + _specials("percent", 5, 4)
    assert book_of("classic").trump_source(RoundKind.NORMAL, 9, 4) == "none"  # 36 dealt
    assert book_of("oh-hell").trump_source(RoundKind.NORMAL, 13, 4) == "dealer"
    assert default.trump_source(RoundKind.BLIND, 11, 3) == "undealt"
    assert default.trump_source(RoundKind.NO_TRUMP, 1, 3) == "none"


def test_reference_points() -> None:
    """The rule book's points agree with RULES.md's worked examples and the presets' values."""
    normal, blind, no_trump = RoundKind.NORMAL, RoundKind.BLIND, RoundKind.NO_TRUMP
    misere, golden = RoundKind.MISERE, RoundKind.GOLDEN

    def points(book: RuleBook, kind: RoundKind, results: str, cards: int = 9) -> list[int]:
        """``results``: ``BID/TAKEN`` (or ``TAKEN`` without bids) separated by spaces."""
        scored = []
        for result in results.split():
            bid, _, taken = result.rpartition("/")
            scored.append(book.points(kind, int(bid) if bid else None, int(taken), cards))
        return scored

    default = book_of()
    assert points(default, normal, "3/3 0/0 2/0 1/4") == [30, 5, -20, 4]
    assert points(default, misere, "0 2") == [100, -40]
    assert points(default, golden, "0 2") == [-100, 40]
    assert points(default, blind, "3/3 2/5") == [30, 5]
    classic = book_of("classic")  # blind and no-trump × 2; misère and golden 0 for no trick
    assert points(classic, blind, "3/3 0/0 2/0 1/4") == [60, 10, -40, 8]
    assert points(classic, no_trump, "2/2") == [40]
    assert points(classic, misere, "0 2") == [0, -40]
    assert points(classic, golden, "0 2") == [0, 40]
    ukrainian = book_of("ukrainian")  # ×1.5 specials; bid = cards > 1 made: ×2; extra tricks
    assert points(ukrainian, normal, "5/5 1/3 3/1", cards=5) == [100, 2, -20]
    assert points(ukrainian, normal, "1/1", cards=1) == [10]
    assert points(ukrainian, blind, "3/3 1/2 3/0", cards=3) == [90, 2, -45]
    assert points(ukrainian, no_trump, "0/0 2/3") == [8, 2]  # 7.5 and 1.5, away from zero
    assert points(ukrainian, misere, "0 1") == [75, -30]
    assert points(ukrainian, golden, "0 1") == [-150, 30]
    georgian = book_of("georgian")  # exact 50 × bid + 50, zero 50, a miss 10 per trick
    assert points(georgian, normal, "3/3 0/0 2/1 2/0 1/4") == [200, 50, 10, 0, 40]
    oh_hell = book_of("oh-hell")  # 1 per trick + 10 for an exact bid
    assert points(oh_hell, normal, "3/3 0/0 2/1 2/5") == [13, 10, 1, 5]
    options = book_of(
        undertrick_counts="bid", khishti_penalty=-200, misere_all_tricks=150, exact_bonus=5
    )
    assert points(options, normal, "3/1 3/0 2/2 0/0", cards=3) == [-30, -200, 25, 5]
    assert points(options, misere, "0 1 3", cards=3) == [100, -20, 150]
    assert points(default, RoundKind.FOREHEAD, "1/1 0/1", cards=1) == [50, -50]
    assert points(default, RoundKind.PERCENT, "2/2 0/0 2/0", cards=4) == [60, 15, -60]
    assert [round_half_away(p, 150) for p in (-15, 15, -5, 1, -1, -20)] == [-23, 23, -8, 2, -2, -30]


def _trick(text: str) -> list[Play]:
    return [Play.parse(play) for play in text.split()]


def _legal(book: RuleBook, hand: str, prior: str, trump: Suit | None) -> list[str]:
    cards = [Card.parse(card) for card in hand.split()]
    return sorted(str(play) for play in book.legal(cards, _trick(prior), trump))


def test_reference_tricks() -> None:
    """The rule book's legal plays and trick winners agree with RULES.md 1, 2 and 3.1 and
    docs/rules-decisions.md."""
    default, classic, georgian = book_of(), book_of("classic"), book_of("georgian")
    clubs = Suit.CLUBS
    assert default.winner(_trick("KD AH QD"), 1, clubs) == 1
    assert default.winner(_trick("X:highest:D KD QD"), 2, clubs) == 2
    assert default.winner(_trick("AH 9C 6S"), 2, clubs) == 0
    # 3.1: the joker led as "discard D", nobody follows or trumps: the heart after it
    # decides, here the AH of the seat before the leader; in georgian the joker wins.
    assert default.winner(_trick("X:discard:D 6H AH"), 1, clubs) == 0
    assert georgian.winner(_trick("X1:discard:D 6H AH"), 1, clubs) == 1
    # A trump beats a joker led "highest S" (S not trump) in classic and georgian.
    assert classic.winner(_trick("X:highest:D KD 6C 9C"), 1, clubs) == 0
    assert classic.winner(_trick("X:highest:C 6C AC"), 1, clubs) == 1
    assert classic.winner(_trick("X:highest:D KD 6C"), 1, None) == 1
    assert default.winner(_trick("X:highest:D KD 6C"), 1, clubs) == 1
    # Two jokers: the later "take" wins, also over a led "highest S" or "discard S".
    assert georgian.winner(_trick("X1:highest:D KD X2:take AC"), 0, clubs) == 2
    assert georgian.winner(_trick("AH X1:take X2:take 6H"), 3, clubs) == 1
    assert georgian.winner(_trick("X2:discard:H X1:take 9H"), 1, None) == 2
    assert georgian.winner(_trick("X2:discard:H 9D X1:discard:S AD"), 2, None) == 2
    unfollowed = book_of("georgian", joker_discard_lead_unfollowed="first_follower_suit")
    assert unfollowed.winner(_trick("X2:discard:H X1:discard:S 9D AD"), 2, None) == 1

    jokers = [f"X:discard:{suit}" for suit in "SCDH"] + ["X:take"]
    jokers2 = [play.replace("X", "X2") for play in jokers]
    assert _legal(default, "6C AH X", "KD", clubs) == sorted(["6C", "AH", *jokers])
    assert _legal(classic, "6C AH X", "KD", clubs) == sorted(["6C", *jokers])
    assert _legal(classic, "6C AH", "KD", None) == ["6C", "AH"]
    assert _legal(georgian, "9D KD X2", "X1:highest:D", clubs) == sorted(["KD", *jokers2])
    assert _legal(classic, "6C 7C AH", "X:highest:D", clubs) == ["6C", "7C"]
    assert _legal(default, "6C AH", "X:highest:D", clubs) == ["6C", "AH"]
    alone = book_of(joker_highest_beaten_by_trump=True)  # must trump only after "highest"
    assert _legal(alone, "6C AH", "X:highest:D", clubs) == ["6C"]
    assert _legal(alone, "6C AH", "KD", clubs) == ["6C", "AH"]
    assert _legal(georgian, "9D KD X2", "X1:discard:D", clubs) == sorted(["9D", "KD", *jokers2])
    assert _legal(georgian, "9S AH X2", "X1:discard:D", clubs) == sorted(["9S", "AH", *jokers2])


# Tricks the random games found scored wrongly (RULES.md 3.1: the joker led as "discard S",
# nobody follows S nor trumps), as (plays, leader, trump, winner by RULES.md, where found).
FOUND_3_1_TRICKS = [
    ("X:discard:H JC 6D", 1, Suit.SPADES, 2, "players=3 seed=63 round 4 trick 2"),
    ("X:discard:C 8S 8D", 1, Suit.CLUBS, 2, "players=3 seed=127 round 2 trick 2"),
    ("X:discard:H 8D AD", 1, Suit.SPADES, 0, "players=3 seed=154 round 4 trick 2"),
    ("X:discard:C 8S 7H 6H QH", 3, Suit.CLUBS, 4, "players=5 seed=79 round 29 trick 5"),
    ("X:discard:H JC AD JD QC", 3, Suit.HEARTS, 2, "players=5 seed=363 round 18 trick 3"),
    ("X:discard:D QH AS TS AH", 1, None, 0, "players=5 seed=486 round 14 trick 3"),
]


@pytest.mark.parametrize(("plays", "leader", "trump", "winner", "found"), FOUND_3_1_TRICKS)
def test_found_unfollowed_discard_lead(
    plays: str, leader: int, trump: Suit | None, winner: int, found: str
) -> None:
    trick = _trick(plays)
    assert book_of().winner(trick, leader, trump) == winner
    assert trick_winner(trick, leader, trump, resolve_rules()) == winner, found


def _illegal_card_play(card: Card) -> Play:
    return Play(card, _TAKE) if card.is_joker else Play.of(card)


def test_found_play_refused_while_bidding_leaves_no_trace() -> None:
    """A card sent while the second player bids is refused and changes nothing (it used to
    leave that player's hand as the leader's legal cards: players=3 seed=0 round 1)."""
    game = Game("raspisnoy.com", players=3, seed=0)
    twin = game.clone()
    for copy in (game, twin):
        copy.bid(0)
    with pytest.raises(IllegalActionError):
        game.apply(_illegal_card_play(game.hand(game.to_act)[0]))  # type: ignore[arg-type]
    while game.phase is Phase.BID:
        bid = game.legal_actions()[0]
        game.apply(bid)
        twin.apply(bid)
    leader = game.to_act
    assert leader is not None
    assert set(game.legal_actions()) == book_of().legal(game.hand(leader), (), game.trump)
    assert game.legal_actions() == twin.legal_actions()
    game.apply(game.legal_actions()[0], leader)


def test_found_play_refused_before_the_deal_leaves_no_trace() -> None:
    """A card sent to a game waiting for its deal (a record being replayed) is refused and
    changes nothing (it used to leave no card legal for the leader afterwards)."""
    deal = Game("raspisnoy.com", players=3, seed=0).events[0].action
    assert isinstance(deal, Deal)
    game = Game("raspisnoy.com", players=3)
    with pytest.raises(IllegalActionError):
        game.apply(_illegal_card_play(deal.hands[1][0]))
    game.deal(deal.hands, deal.trump_card)
    while game.phase is Phase.BID:
        game.apply(game.legal_actions()[0])
    leader = game.to_act
    assert leader is not None
    assert set(game.legal_actions()) == book_of().legal(game.hand(leader), (), game.trump)
    game.apply(game.legal_actions()[0], leader)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers())
def test_short_plan_games_keep_the_invariants(case: tuple[str, int], seed: int) -> None:
    preset, players = case
    rules = resolve_rules(preset, custom_plan=SHORT_PLAN)
    assert_no_problems(play_checked(rules, players, seed, full=True, records=True), 1)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(), steps=st.integers(min_value=0, max_value=2000))
def test_every_legal_action_applies_on_a_clone(
    preset: str, data: st.DataObject, seed: int, steps: int
) -> None:
    counts = player_counts(preset)
    players = data.draw(st.integers(counts.start, counts.stop - 1), label="players")
    game = Game(preset, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    legal = game.legal_actions()
    if game.is_over:
        assert legal == ()
        return
    assert legal, "a game in progress offers no action"
    seat = game.to_act
    events, hands = game.events, [game.hand(s) for s in range(players)]
    for action in legal:
        clone = game.clone()
        event = clone.apply(action, seat)
        assert event.action == action and event.seat == seat
        assert clone.events[: len(events) + 1] == (*events, event)
        twin = game.clone()
        twin.apply(action, seat)
        assert twin.events == clone.events
        assert twin.legal_actions() == clone.legal_actions()
        assert game.events == events
        assert [game.hand(s) for s in range(players)] == hands
        assert game.legal_actions() == legal
