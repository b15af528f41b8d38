"""The rule book the random games are checked against, written from docs/rules.md alone.

``RuleBook`` computes, for one resolved ruleset, what the engine must do: the deck, the
round plan, where the trump card comes from, the legal plays, the trick winner and the
points. It never calls the engine's plan, trick or scoring functions, and it is not
modelled on their code: the deck, plan and play follow the option descriptions of
docs/rules.md 1 and 2, and the points come from ``SCORE_TABLES``, one table per preset
transcribed row by row from the scoring tables of docs/rules.md 1 and 2.8 (what each
preset changes from ``raspisnoy.com``), with the kinds of round of 2.2 and the rounding
of 2.6. A scoring mistake in the engine cannot be copied here: the tables are the rule
text, and every result must match exactly one of their rows.

The options a preset may set that ``RuleBook`` does not model (rotating trumps, a control
game…) are named by ``unmodelled_options``; the scoring options are modelled at their
presets' values only (``points`` refuses other values).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from raspisnoy.core import Card, JokerMode, Play, RoundKind, Rules, Suit, resolve_rules

__all__ = [
    "MODELLED_OPTIONS",
    "SCORE_TABLES",
    "RuleBook",
    "joker_plays",
    "plan_of",
    "round_half_away",
    "rule_book",
    "unmodelled_options",
]

#: The options ``RuleBook`` reads for the deck, the plan and the play. A ruleset that
#: sets any other option away from its default is not modelled: ``RuleBook`` refuses it.
PLAY_OPTIONS = frozenset(
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
    }
)
#: The scoring options: modelled by ``SCORE_TABLES`` at each preset's values.
SCORING_OPTIONS = frozenset(
    {
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
MODELLED_OPTIONS = PLAY_OPTIONS | SCORING_OPTIONS

_SUITS = tuple(Suit)
_RANK_LETTERS = "23456789TJQKA"  # ranks 2..14 (docs/record.md card notation)
_HIGHEST, _DISCARD, _TAKE = JokerMode.HIGHEST, JokerMode.DISCARD, JokerMode.TAKE


def unmodelled_options(rules: Rules) -> list[str]:
    """The options ``rules`` sets away from their defaults that the references ignore."""
    return [
        f"{f.name}={getattr(rules, f.name)!r}"
        for f in dataclasses.fields(Rules)
        if f.name != "preset"
        and f.name not in MODELLED_OPTIONS
        and getattr(rules, f.name) != f.default
    ]


def plan_of(custom: Sequence[str]) -> list[tuple[int, RoundKind]]:
    """A ``custom_plan``: ``CARDS`` or ``CARDS:KIND`` per round."""
    plan = []
    for text in custom:
        cards, _, kind = text.partition(":")
        plan.append((int(cards), RoundKind(kind or "normal")))
    return plan


# ----------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a scoring table: the result as the rule text words it, when it applies
    (from the bid, the tricks taken and the cards dealt) and its points."""

    result: str
    applies: Callable[[int, int, int], bool]
    points: Callable[[int, int, int], int]


#: A preset's scoring: the rows of each kind of round, and each kind's multiplier.
ScoreTable = tuple[dict[RoundKind, tuple[Row, ...]], dict[RoundKind, Fraction]]

# docs/rules.md 1, "Scoring": the rounds with bids (bid b, taken t, cards c).
_RASPISNOY_BIDS = (
    Row(
        "took exactly the bid, bid above 0: +10 × bid",
        lambda b, t, c: t == b > 0,
        lambda b, t, c: 10 * b,
    ),
    Row("bid 0 and took 0: +5", lambda b, t, c: t == b == 0, lambda b, t, c: 5),
    Row("took fewer: −10 per missing trick", lambda b, t, c: t < b, lambda b, t, c: -10 * (b - t)),
    Row("took more: +1 per trick taken", lambda b, t, c: t > b, lambda b, t, c: t),
)
# Misère and golden rounds have no bid (b is ignored).
_RASPISNOY_MISERE = (
    Row("no trick: +100", lambda b, t, c: t == 0, lambda b, t, c: 100),
    Row("−20 per trick taken", lambda b, t, c: t > 0, lambda b, t, c: -20 * t),
)
_RASPISNOY_GOLDEN = (
    Row("no trick: −100", lambda b, t, c: t == 0, lambda b, t, c: -100),
    Row("+20 per trick taken", lambda b, t, c: t > 0, lambda b, t, c: 20 * t),
)
# docs/rules.md 2.2: forehead rounds score exact +50, miss −50 in every preset.
_FOREHEAD = (
    Row("exact: +50", lambda b, t, c: t == b, lambda b, t, c: 50),
    Row("missed: −50", lambda b, t, c: t != b, lambda b, t, c: -50),
)


def _table(
    bids: tuple[Row, ...] = _RASPISNOY_BIDS,
    misere: tuple[Row, ...] = _RASPISNOY_MISERE,
    golden: tuple[Row, ...] = _RASPISNOY_GOLDEN,
    multipliers: dict[RoundKind, Fraction] | None = None,
) -> ScoreTable:
    """A preset's table: ``raspisnoy.com``'s rows and multipliers but for what it changes.
    Percent rounds score as the rounds with bids, ×3 (docs/rules.md 2.2)."""
    rows = {
        RoundKind.NORMAL: bids,
        RoundKind.NO_TRUMP: bids,
        RoundKind.BLIND: bids,
        RoundKind.PERCENT: bids,
        RoundKind.FOREHEAD: _FOREHEAD,
        RoundKind.MISERE: misere,
        RoundKind.GOLDEN: golden,
    }
    return rows, {RoundKind.PERCENT: Fraction(3), **(multipliers or {})}


_DOUBLE, _HALF_AGAIN = Fraction(2), Fraction(3, 2)

#: docs/rules.md 2.8, the presets' table, row by row.
SCORE_TABLES: dict[str, ScoreTable] = {
    "raspisnoy.com": _table(),
    # The Russian rules sheet: blind and no-trump count double; misère and golden
    # score nothing for no trick.
    "classic": _table(
        misere=(
            Row("no trick: 0", lambda b, t, c: t == 0, lambda b, t, c: 0),
            _RASPISNOY_MISERE[1],
        ),
        golden=(
            Row("no trick: 0", lambda b, t, c: t == 0, lambda b, t, c: 0),
            _RASPISNOY_GOLDEN[1],
        ),
        multipliers={RoundKind.BLIND: _DOUBLE, RoundKind.NO_TRUMP: _DOUBLE},
    ),
    # Ukrainian: all tricks bid and taken (2 cards or more) ×2, overtricks count only the
    # extra tricks, misère +50 for no trick, the special rounds ×1.5.
    "ukrainian": _table(
        bids=(
            Row(
                "took exactly the bid, above 0, not every card: +10 × bid",
                lambda b, t, c: t == b > 0 and not b == c >= 2,
                lambda b, t, c: 10 * b,
            ),
            Row(
                "bid and took every card of 2 or more: +10 × bid, ×2",
                lambda b, t, c: t == b == c >= 2,
                lambda b, t, c: 2 * 10 * b,
            ),
            _RASPISNOY_BIDS[1],
            _RASPISNOY_BIDS[2],
            Row("took more: +1 per extra trick", lambda b, t, c: t > b, lambda b, t, c: t - b),
        ),
        misere=(
            Row("no trick: +50", lambda b, t, c: t == 0, lambda b, t, c: 50),
            _RASPISNOY_MISERE[1],
        ),
        multipliers={
            RoundKind.BLIND: _HALF_AGAIN,
            RoundKind.NO_TRUMP: _HALF_AGAIN,
            RoundKind.MISERE: _HALF_AGAIN,
            RoundKind.GOLDEN: _HALF_AGAIN,
        },
    ),
    # Georgian Joker: exact 50 × bid + 50, exact 0: 50, a missed bid +10 per trick taken.
    "georgian": _table(
        bids=(
            Row(
                "exact, above 0: 50 × bid + 50",
                lambda b, t, c: t == b > 0,
                lambda b, t, c: 50 * b + 50,
            ),
            Row("bid 0 and took 0: +50", lambda b, t, c: t == b == 0, lambda b, t, c: 50),
            Row("missed: +10 per trick taken", lambda b, t, c: t != b, lambda b, t, c: 10 * t),
        )
    ),
    # Oh Hell: 1 per trick taken, +10 for an exact bid.
    "oh-hell": _table(
        bids=(
            Row("exact: bid + 10", lambda b, t, c: t == b, lambda b, t, c: b + 10),
            Row("missed: +1 per trick taken", lambda b, t, c: t != b, lambda b, t, c: t),
        )
    ),
}


def round_half_away(points: Fraction) -> int:
    """A whole number of points, halves rounded away from zero (docs/rules.md 2.6: ×1.5 of
    −15 is −23)."""
    whole = int(abs(points) + Fraction(1, 2))  # int() truncates: this rounds halves up
    return whole if points >= 0 else -whole


# ----------------------------------------------------------------------------- the rule book


class RuleBook:
    """The rules of one resolved ruleset, computed here from docs/rules.md, never from the
    engine's plan, scoring or trick functions. ``trump`` arguments are the round's trump
    suit (``None``: no trump)."""

    def __init__(self, rules: Rules) -> None:
        unmodelled = unmodelled_options(rules)
        assert not unmodelled, f"the references do not model {unmodelled}"
        self.rules = rules
        self.deck = self._deck()
        preset = resolve_rules(rules.preset)
        #: The preset's score table, if ``rules`` scores as its preset does.
        self.score_table: ScoreTable | None = None
        if all(getattr(rules, name) == getattr(preset, name) for name in SCORING_OPTIONS):
            self.score_table = SCORE_TABLES[rules.preset]
        #: A player void in the suit to follow must trump (docs/rules.md 2.5 and 3.4; the
        #: joker may still be played instead): always, or only after a joker led "highest S".
        self.trump_when_void = rules.trump_when_void
        self.highest_beaten_by_trump = rules.joker_highest_beaten_by_trump
        self.unfollowed_discard_joker_wins = rules.joker_discard_lead_unfollowed == "joker_wins"

    # ---------------------------------------------------------------- deck, plan, trump

    def _deck(self) -> frozenset[Card]:
        """docs/rules.md 1 "Players and deck" and 2.1: the four suits from ``lowest_rank`` to the
        ace; the cards named in ``jokers`` become jokers, ``extra_jokers`` are added; one
        joker is X, two are X1 and X2."""
        rules = self.rules
        named = {Card.parse(text) for text in rules.jokers}
        ranks = _RANK_LETTERS[rules.lowest_rank - 2 :]
        cards = {Card.parse(rank + suit.letter) for rank in ranks for suit in _SUITS} - named
        jokers = {0: (), 1: ("X",), 2: ("X1", "X2")}[len(named) + rules.extra_jokers]
        return frozenset(cards | {Card.parse(name) for name in jokers})

    def cap(self, players: int) -> int:
        """docs/rules.md 1, "Players and deck": the cap M = deck // N."""
        return len(self.deck) // players

    def plan(self, players: int) -> list[tuple[int, RoundKind]]:
        """docs/rules.md 1 "The round plan" and 2.2, as the options
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
        """docs/rules.md 1 "The trump" and 2.3 (``max_deal_trump``): ``"none"`` (no card sets
        the trump), ``"undealt"`` (the top of the undealt rest) or ``"dealer"`` (a card the
        dealer shows from their hand, every card being dealt)."""
        if kind is RoundKind.NO_TRUMP:
            return "none"
        if players * cards < len(self.deck):
            return "undealt"
        return "dealer" if self.rules.max_deal_trump == "dealer_shows" else "none"

    # ---------------------------------------------------------------- scoring

    # ---------------------------------------------------------------- scoring

    def points(self, kind: RoundKind, bid: int | None, taken: int, cards: int) -> int:
        """docs/rules.md 1 "Scoring", 2.2, 2.6 and 2.8: the one row of the preset's table
        that applies to this result, times the kind of round's multiplier."""
        assert self.score_table is not None, f"{self.rules.preset} with other scoring options"
        rows, multipliers = self.score_table
        assert (bid is None) is (kind in (RoundKind.MISERE, RoundKind.GOLDEN)), (kind, bid)
        amount = 0 if bid is None else bid
        matching = [row for row in rows[kind] if row.applies(amount, taken, cards)]
        assert len(matching) == 1, (
            f"{self.rules.preset} {kind} bid {bid} taken {taken} of {cards}: rows "
            f"{[row.result for row in matching]}"
        )
        points = matching[0].points(amount, taken, cards)
        multiplier = multipliers.get(kind)
        return points if multiplier is None else round_half_away(points * multiplier)

    # ---------------------------------------------------------------- play

    def playable_cards(
        self, hand: Iterable[Card], prior: Sequence[Play], trump: Suit | None
    ) -> list[Card]:
        """docs/rules.md 1 "Play" and "The joker", 2.5 and 3.4 (compulsory trumping): the cards a
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
            plays |= joker_plays(card, leading=not prior) if card.is_joker else {Play(card)}
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
        """docs/rules.md 1 "Play" and "The joker", 2.5, 3.1 and 3.2 (two jokers): the seat
        that wins the whole trick ``plays``."""

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
        # docs/rules.md 3.1: the joker led as "discard S", nobody played S nor a trump.
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


def joker_plays(joker: Card, *, leading: bool) -> set[Play]:
    """Every mode a joker may announce leading (``highest S``, ``discard S``) or following
    (``take``, ``discard S``), docs/rules.md 1 "The joker"."""
    if leading:
        return {Play(joker, mode, suit) for mode in (_HIGHEST, _DISCARD) for suit in _SUITS}
    return {Play(joker, _TAKE)} | {Play(joker, _DISCARD, suit) for suit in _SUITS}
