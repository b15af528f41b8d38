"""The checker of the random games: plays one game and records every broken invariant.

``Checker`` plays a game to the end with actions drawn from ``legal_actions()`` and checks
it against the rule book of ``oracle`` (see test_random_games.py for the list of checks):
the plan, every deal, bid and trick, the points, the views (every card reachable from a
view, found by ``CardWalk``), ``can_*`` against ``legal_actions()``, records and their
round trips, and, with ``Shadow``, that refused illegal actions leave no trace. Checks do
not stop at the first problem; ``play_checked`` returns them all and
``assert_no_problems`` reports them grouped by check.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Sequence
from enum import Enum
from typing import Any

import pytest
from oracle import joker_plays, rule_book

from raspisnoy.core import (
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
    dumps_record,
    game_to_record,
    loads_record,
    replay,
    replay_report,
)

__all__ = ["CardWalk", "Checker", "Problem", "Shadow", "assert_no_problems", "play_checked"]

#: Examples shown when a test fails.
SHOWN = 12

_TAKE = JokerMode.TAKE
_NO_BIDS = (RoundKind.MISERE, RoundKind.GOLDEN)
#: Rounds whose bids are made without seeing one's own hand.
_HIDDEN_WHILE_BIDDING = (RoundKind.BLIND, RoundKind.FOREHEAD)

Problem = tuple[str, str, str]  # (check, game label, message)


def total_actions(plan: Sequence[tuple[int, RoundKind]], players: int) -> int:
    """Bids and plays of a whole game of this plan."""
    return sum(players * cards + (0 if kind in _NO_BIDS else players) for cards, kind in plan)


def all_joker_plays(joker: Card) -> set[Play]:
    return joker_plays(joker, leading=True) | joker_plays(joker, leading=False)


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
        immutable: bool
        immutable, record, parts = kind
        remember = depth >= 2 or (record and depth == 1)
        memo = self.memo
        kinds = _KINDS
        inner: set[Card] = set() if remember else found
        odd: list[str] = [] if remember else unknown
        for part in obj if parts is None else parts(obj):  # type: ignore[union-attr]
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

    def __init__(self, game: Game, rng: random.Random, label: str) -> None:
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
            if type(action) is Bid:
                self.check_bidding(legal, seat)
            else:
                assert isinstance(action, Play), action  # no control rounds are modelled
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
        """``replay_report`` (docs/record.md) of the finished game agrees with the references."""
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

    def replayed(self, text: str, code: str, where: str) -> Game | None:
        """The game the record ``text`` replays to; ``None`` once its failure is recorded."""
        try:
            return replay(loads_record(text))
        except Exception as error:
            self.fail(code, f"replaying the record raised {error!r}", where)
            return None

    def check_round_trip(self, report: dict[str, Any]) -> None:
        game = self.game
        where = f"{self.label} record"
        again = self.replayed(dumps_record(game_to_record(game)), "record", where)
        if again is None:
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
        partial = self.replayed(text, "partial-record", where)
        if partial is None:
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
                options = all_joker_plays(card) if card.is_joker else {Play.of(card)}
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

    def __init__(self, checker: Checker, legal: Sequence[Any]) -> None:
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
