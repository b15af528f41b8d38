"""Random whole games of every preset and player count, checked against the rule book.

Every game is ``Game(preset, players=n, seed=s)`` played to the end with actions drawn by
``random.Random(s)`` from ``legal_actions()``, for every preset of ``raspisnoy.core.PRESETS``
and every n from its ``min_players`` to its ``max_players``. A failing check names the
preset, the player count, the seed, the round and the trick, so any failure can be
replayed by hand. Checks do not stop at the first problem: every game is played to the
end and each test reports how many games failed, grouped by check, with examples.

The reference values come from ``RuleBook`` (tests/core/oracle.py), computed independently
of the engine from docs/rules.md alone: the deck (lowest rank, jokers X or X1/X2), the
round plan (deal sequences, ``descending``, special rounds, ``custom_plan``: what
``raspisnoy schedule`` prints), the trump card's source (``max_deal_trump``), the legal
plays (follow suit, joker modes, "highest S", compulsory trumping: ``trump_when_void`` and
``joker_highest_beaten_by_trump``), the trick winner (3.1 and
``joker_discard_lead_unfollowed``, a trump over "highest S", the later of two jokers'
"take") and the points (each preset's score table transcribed from docs/rules.md 1 and
2.8, with the multipliers of the kinds of round rounded half away from zero). The checker
(tests/core/checker.py) plays and checks the games. The random-game checks never call the
engine's ``round_points``, ``trick_winner`` nor ``round_plan`` (``trick_winner`` is called
only on the pinned 3.1 tricks). The options a preset may set that the references do not
model (rotating trumps, a control game…) are listed by ``unmodelled_options``: no preset
may set one (``test_presets_use_only_modelled_options``); a new preset that does needs the
references extended first. ``test_reference_*`` pin the references to the worked examples
and values of docs/rules.md, and ``test_engine_scores_as_the_tables`` checks the engine's
``round_points`` against the score tables for every small result.

What is checked where. Per preset and player count, ``games_of(preset)`` fully checked
games (seeds 0..) + round-checked games (the following seeds): for ``raspisnoy.com``
6 + 670 for each of 3, 4 and 5 players, 2,028 whole games; for ``classic`` (3-6 players),
``ukrainian`` (2-10), ``georgian`` (3-6) and ``oh-hell`` (3-7), 1 + 40 per player count,
22 × 41 = 902 games. Plus 100 Hypothesis games of a short custom plan with every kind of
round, drawn over every preset and player count. The whole file takes about 50 s on
one core (the engine alone needs 5-15 ms a game, the per-round checks about twice as
much again; a view costs ~20 µs to build and ~35 µs to walk, so walking every seat's view
before every action, 0.3-2.5 s a game, is kept to the fully checked and Hypothesis games).

Every game (``test_random_games_round_checks`` and ``test_random_games_every_action``):
  * the plan: the rounds' cards and kinds are the rule book's (for raspisnoy.com docs/rules.md
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

import random
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import pytest
from checker import Problem, assert_no_problems, play_checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import SCORE_TABLES, RuleBook, round_half_away, rule_book, unmodelled_options

from raspisnoy.core import (
    PRESETS,
    Card,
    Deal,
    Game,
    IllegalActionError,
    JokerMode,
    Phase,
    Play,
    RoundKind,
    Suit,
    max_cards,
    resolve_rules,
    round_points,
    trick_winner,
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

SHORT_PLAN = ("3", "3:blind", "3:misere", "3:golden", "3:no-trump", "1:forehead", "3:percent")
_TAKE = JokerMode.TAKE


def player_counts(preset: str) -> range:
    return resolve_rules(preset).player_counts


def games_of(preset: str) -> tuple[int, int]:
    """(fully checked, round-checked) games per player count of ``preset``."""
    return GAMES.get(preset, OTHER_GAMES)


#: Every preset with every player count it allows.
CASES = [(preset, players) for preset in PRESET_NAMES for players in player_counts(preset)]
CASE_PARAMS = [pytest.param(preset, n, id=f"{preset}-{n}") for preset, n in CASES]


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
    # The player counts docs/rules.md 2.8 gives the presets.
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
    """The rule book's decks and plans are those docs/rules.md 1 and 2 describe."""
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
    """The score tables agree with the worked examples and values of docs/rules.md."""
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
    assert points(default, RoundKind.FOREHEAD, "1/1 0/1", cards=1) == [50, -50]
    assert points(default, RoundKind.PERCENT, "2/2 0/0 2/0", cards=4) == [60, 15, -60]
    assert points(ukrainian, RoundKind.PERCENT, "4/4 2/3", cards=4) == [240, 3]
    halves = [Fraction(-15 * 3, 2), Fraction(15 * 3, 2), Fraction(-15, 2), Fraction(3, 2)]
    assert [round_half_away(points) for points in halves] == [-23, 23, -8, 2]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_engine_scores_as_the_tables(preset: str) -> None:
    """The engine's ``round_points`` gives every result of every kind of round, for 1, 2,
    3 and M cards, what the preset's score table gives."""
    rules, book = resolve_rules(preset), book_of(preset)
    top = max_cards(rules, rules.min_players)
    wrong = []
    for kind in RoundKind:
        for cards in sorted({1, 2, 3, top}):
            bids: Iterable[int | None] = range(cards + 1) if kind.has_bids else [None]
            for bid in bids:
                for taken in range(cards + 1):
                    engine = round_points(rules, kind, bid, taken, cards=cards)
                    expected = book.points(kind, bid, taken, cards)
                    if engine != expected:
                        wrong.append(f"{kind} {bid}/{taken} of {cards}: {engine}, not {expected}")
    assert wrong == []


def test_score_tables_cover_every_preset() -> None:
    assert set(SCORE_TABLES) == set(PRESETS)
    with pytest.raises(AssertionError, match="other scoring options"):
        book_of(exact_zero=6).points(RoundKind.NORMAL, 0, 0, 1)


def _trick(text: str) -> list[Play]:
    return [Play.parse(play) for play in text.split()]


def _legal(book: RuleBook, hand: str, prior: str, trump: Suit | None) -> list[str]:
    cards = [Card.parse(card) for card in hand.split()]
    return sorted(str(play) for play in book.legal(cards, _trick(prior), trump))


def test_reference_tricks() -> None:
    """The rule book's legal plays and trick winners agree with docs/rules.md 1, 2.5 and
    3.1-3.4."""
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


# Tricks the random games found scored wrongly (docs/rules.md 3.1: the joker led as "discard S",
# nobody follows S nor trumps), as (plays, leader, trump, winner by docs/rules.md, where found).
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
