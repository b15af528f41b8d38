"""The paper score sheet («расписная»): bids and tricks typed in by people, scored by core.

A ``Sheet`` is an immutable value: the ruleset, the players in seating order, the first
dealer and the rounds entered so far. Building one checks every round against the rules
(bidding order from the dealer's left, the range 0..cards, the dealer's forbidden bid, the
zero-bid limit, no bids in misère and golden rounds, tricks adding up to the cards dealt,
control rounds «контрольная» only while first place is tied) and scores it with core's
``round_plan`` and ``round_points``, so a ``Sheet`` that exists is a valid one. Entries
(``bid``, ``take``, ``choose_control``), edits of any past round (``edit_round``) and
``undo`` return a new ``Sheet``, or raise ``SheetError`` with the round, the player and
the problem and leave the old one as it was. ``next_entry`` says what the table has to
enter next and which values are allowed: what a prompt or a row of buttons needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from raspisnoy.core import (
    CONTROL_KINDS,
    RoundKind,
    RoundSpec,
    Rules,
    check_players,
    forbidden_bid,
    leaders,
    max_cards,
    player_names,
    resolve_rules,
    round_plan,
    round_points,
    zero_bid_banned,
)
from raspisnoy.scorekeeper.errors import SheetError

__all__ = ["Entry", "EntryKind", "ScoredRound", "Sheet", "SheetRound"]

Seats = tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class SheetRound:
    """One round as written on the sheet, by seat: ``bids`` (``None`` in a round without
    bids, or before the first bid) and ``taken``, with ``None`` for what is not entered yet.
    ``kind`` and ``dealer`` are set on control rounds (chosen, not planned)."""

    bids: Seats | None
    taken: Seats
    kind: RoundKind | None = None
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """A round of the sheet as scored: ``points`` is ``None`` until every entry is in;
    ``totals`` are the running totals after it (before it while it is unfinished)."""

    number: int
    dealer: int
    cards: int
    kind: RoundKind
    bids: Seats | None
    taken: Seats
    points: tuple[int, ...] | None
    totals: tuple[int, ...]
    control: bool

    def to_json(self) -> dict[str, Any]:
        """The round of ``raspisnoy score --json`` (docs/sheet-format.md)."""
        return {
            "round": self.number,
            "dealer": self.dealer,
            "cards": self.cards,
            "kind": str(self.kind),
            "points": None if self.points is None else list(self.points),
        }


class EntryKind(StrEnum):
    """What the table enters next."""

    BID = "bid"
    TAKEN = "taken"
    #: The last-placed player chooses a control round («контрольная»): kind and dealer.
    CONTROL = "control"


@dataclass(frozen=True, slots=True)
class Entry:
    """The next entry the sheet expects: who (``seat``), in which round, and the values
    allowed. For a bid, ``choices`` are the legal bids, ``forbidden`` the dealer's
    forbidden bid and ``zero_banned`` whether 0 is out by the zero-bid limit; for tricks,
    the counts still possible; for a control round, ``kinds`` (any seat may deal)."""

    kind: EntryKind
    round: int
    seat: int
    cards: int
    #: The round's kind and dealer; ``None`` for a control round, until it is chosen.
    round_kind: RoundKind | None
    dealer: int | None
    choices: tuple[int, ...] = ()
    forbidden: int | None = None
    zero_banned: bool = False
    kinds: tuple[RoundKind, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON object, for an API."""
        return {
            "entry": str(self.kind),
            "round": self.round,
            "seat": self.seat,
            "cards": self.cards,
            "kind": None if self.round_kind is None else str(self.round_kind),
            "dealer": self.dealer,
            "choices": list(self.choices),
            "forbidden": self.forbidden,
            "zero_banned": self.zero_banned,
            "kinds": [str(kind) for kind in self.kinds],
        }


@dataclass(frozen=True, slots=True)
class _Score:
    """What checking a sheet yields: the scored rounds, the totals, the zero-bid streaks
    and the next entry."""

    rows: tuple[ScoredRound, ...]
    totals: tuple[int, ...]
    streaks: tuple[int, ...]
    next_entry: Entry | None


@dataclass(frozen=True, slots=True)
class Sheet:
    """A score sheet; build a new one with ``Sheet.start``. Invalid sheets do not exist:
    the constructor raises ``SheetError``."""

    rules: Rules
    players: tuple[str, ...]
    first_dealer: int = 0
    rounds: tuple[SheetRound, ...] = ()
    _score: _Score = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_score", _check(self))

    @classmethod
    def start(
        cls,
        rules: Rules | str | Mapping[str, Any] | None,
        players: Sequence[str],
        first_dealer: int = 0,
    ) -> Sheet:
        """An empty sheet for these rules (a preset name, an options object or ``Rules``),
        players in seating order and first dealer's seat."""
        return cls(resolve_rules(rules), tuple(players), first_dealer)

    # ------------------------------------------------------------------ reading

    @property
    def plan(self) -> tuple[RoundSpec, ...]:
        """core's round plan for these rules and players (control rounds come after it)."""
        return round_plan(self.rules, len(self.players))

    @property
    def scored(self) -> tuple[ScoredRound, ...]:
        """Every round entered so far, scored."""
        return self._score.rows

    @property
    def totals(self) -> tuple[int, ...]:
        """Totals of the finished rounds, by seat."""
        return self._score.totals

    @property
    def next_entry(self) -> Entry | None:
        """What the table enters next; ``None`` once the game is complete."""
        return self._score.next_entry

    @property
    def complete(self) -> bool:
        """Whether the whole game (the plan and any control rounds) is entered."""
        return self._score.next_entry is None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total once the game is complete (ties share the win)."""
        return leaders(self.rules, self.totals) if self.complete else ()

    # ------------------------------------------------------------------ entries

    def bid(self, seat: int, amount: int) -> Sheet:
        """Enter ``seat``'s bid in the round being played (or the next one)."""
        entry = self._expect(EntryKind.BID, seat)
        rounds, current = self._current_round(entry)
        bids = list(current.bids or (None,) * len(self.players))
        bids[seat] = amount
        return replace(self, rounds=(*rounds, replace(current, bids=tuple(bids))))

    def take(self, seat: int, tricks: int) -> Sheet:
        """Enter (or correct) how many tricks ``seat`` took in the round being played."""
        entry = self._expect(EntryKind.TAKEN, seat)
        rounds, current = self._current_round(entry)
        taken = list(current.taken)
        taken[seat] = tricks
        return replace(self, rounds=(*rounds, replace(current, taken=tuple(taken))))

    def choose_control(self, kind: RoundKind | str, dealer: int) -> Sheet:
        """Start the control round the last-placed player chose: its kind and dealer."""
        self._expect(EntryKind.CONTROL, None)
        chosen = _control_kind(kind, len(self.rounds) + 1)
        empty = (None,) * len(self.players)
        return replace(self, rounds=(*self.rounds, SheetRound(None, empty, chosen, dealer)))

    def edit_round(self, number: int, bids: Seats | None, taken: Seats) -> Sheet:
        """The sheet with round ``number`` (1-based) rewritten; every later round is checked
        again and the totals follow. A control round keeps its kind and dealer."""
        if not 1 <= number <= len(self.rounds):
            raise SheetError("no_round", round=number, number=number)
        rounds = list(self.rounds)
        rounds[number - 1] = replace(rounds[number - 1], bids=bids, taken=tuple(taken))
        return replace(self, rounds=tuple(rounds))

    def undo(self) -> Sheet:
        """The sheet without its last entry: the last trick count in bidding order, else the
        last bid, else the choice of a control round; a round left empty is removed."""
        if not self.rounds:
            raise SheetError("nothing_to_undo")
        last, row = self.rounds[-1], self.scored[-1]
        order = _order(row.dealer, len(self.players))
        taken, bids = list(last.taken), list(last.bids or ())
        entered_taken = [seat for seat in order if taken[seat] is not None]
        entered_bids = [seat for seat in order if bids and bids[seat] is not None]
        if entered_taken:
            taken[entered_taken[-1]] = None
        elif entered_bids:
            bids[entered_bids[-1]] = None
        else:  # a control round chosen, nothing entered in it yet: the choice goes
            return replace(self, rounds=self.rounds[:-1])
        undone = replace(last, bids=tuple(bids) if last.bids else None, taken=tuple(taken))
        left_empty = last.kind is None and all(v is None for v in (*taken, *bids))
        rest = self.rounds[:-1] if left_empty else (*self.rounds[:-1], undone)
        return replace(self, rounds=rest)

    def _expect(self, kind: EntryKind, seat: int | None) -> Entry:
        """The next entry, if it is of this kind (for a bid: also ``seat``'s turn)."""
        entry = self.next_entry
        if entry is None:
            number = len(self.rounds) + 1
            raise SheetError("game_over", round=number, rounds=len(self.rounds))
        if seat is not None and not _is_seat(seat, len(self.players)):
            last = len(self.players) - 1
            raise SheetError("not_seat", round=entry.round, seat=None, last=last, value=seat)
        player = self._name(seat)
        if entry.kind is not kind:
            if kind is EntryKind.TAKEN and entry.kind is EntryKind.BID:
                first = self.players[entry.seat]
                raise SheetError(
                    "taken_early", round=entry.round, seat=seat, player=player, first=first
                )
            raise SheetError(f"{kind}_not_expected", round=entry.round, seat=seat, player=player)
        if kind is EntryKind.BID and seat != entry.seat:
            first = self.players[entry.seat]
            raise SheetError("bid_turn", round=entry.round, seat=seat, player=player, first=first)
        return entry

    def _current_round(self, entry: Entry) -> tuple[tuple[SheetRound, ...], SheetRound]:
        """The rounds before the one ``entry`` belongs to, and that round (new if need be)."""
        if entry.round <= len(self.rounds):
            return self.rounds[:-1], self.rounds[-1]
        return self.rounds, SheetRound(None, (None,) * len(self.players))

    def _name(self, seat: int | None) -> str | None:
        return None if seat is None else self.players[seat]


# ---------------------------------------------------------------------- checking


def _is_seat(seat: object, players: int) -> bool:
    return type(seat) is int and 0 <= seat < players


def _order(dealer: int, players: int) -> tuple[int, ...]:
    """Seats in bidding order: from the dealer's left, the dealer last."""
    return tuple((dealer + 1 + k) % players for k in range(players))


def _control_kind(kind: RoundKind | str, number: int) -> RoundKind:
    kinds = ", ".join(CONTROL_KINDS)
    try:
        chosen = RoundKind(kind)
    except ValueError:
        raise SheetError("control_kind", round=number, kinds=kinds, kind=str(kind)) from None
    if chosen not in CONTROL_KINDS:
        raise SheetError("control_kind", round=number, kinds=kinds, kind=str(chosen))
    return chosen


def _bid_problem(
    rules: Rules, cards: int, amount: int, *, dealer: bool, bid_sum: int, streak: int
) -> tuple[str, dict[str, Any]] | None:
    """Why this bid is not allowed (problem code and parameters), or ``None``: the same
    checks, in the same order, as ``Game.verify_bid`` (docs/rules.md 1, "Bidding";
    2.4)."""
    if not 0 <= amount <= cards:
        return "bid_range", {"cards": cards, "bid": amount}
    forbidden = forbidden_bid(rules, cards, bid_sum, dealer=dealer)
    if amount == forbidden:
        return "dealer_bid", {"bid": amount, "cards": cards}
    limit = rules.max_zero_bids_in_a_row
    if amount == 0 and zero_bid_banned(rules, cards, forbidden, streak):
        return "zero_streak", {"limit": limit}
    return None


@dataclass(slots=True)
class _Walk:
    """The state carried from round to round while a sheet is checked."""

    sheet: Sheet
    plan: tuple[RoundSpec, ...]
    totals: list[int]
    streaks: list[int]
    rows: list[ScoredRound]

    @property
    def players(self) -> int:
        return len(self.sheet.players)

    def name(self, seat: int) -> str:
        return self.sheet.players[seat]

    def control_due(self) -> bool:
        """Whether the plan is played out and a control round must break a tie for first."""
        return (
            self.sheet.rules.control_game
            and len(self.rows) >= len(self.plan)
            and len(leaders(self.sheet.rules, tuple(self.totals))) > 1
        )

    def spec(self, index: int, entered: SheetRound) -> tuple[RoundSpec, int, bool]:
        """The round's plan entry (or the control round's), its dealer, and whether it is a
        control round."""
        number, rules = index + 1, self.sheet.rules
        if self.rows and self.rows[-1].points is None:
            raise SheetError("unfinished", round=number, previous=number - 1)
        if index < len(self.plan):
            spec = self.plan[index]
            dealer = (self.sheet.first_dealer + index) % self.players
            if entered.kind is not None and entered.kind is not spec.kind:
                raise SheetError(
                    "plan_kind", round=number, expected=str(spec.kind), kind=str(entered.kind)
                )
            if entered.dealer is not None and entered.dealer != dealer:
                raise SheetError(
                    "plan_dealer", round=number, expected=self.name(dealer), expected_seat=dealer
                )
            return spec, dealer, False
        if not self.control_due():
            raise SheetError("game_over", round=number, rounds=index)
        if entered.kind is None or entered.dealer is None:
            raise SheetError("control_needed", round=number)
        kind = _control_kind(entered.kind, number)
        if not _is_seat(entered.dealer, self.players):
            raise SheetError("not_seat", round=number, last=self.players - 1, value=entered.dealer)
        return RoundSpec(number, max_cards(rules, self.players), kind), entered.dealer, True

    def check_bids(self, spec: RoundSpec, dealer: int, bids: Seats | None) -> int | None:
        """Check the round's bids in bidding order; the first seat yet to bid, if any."""
        number = spec.number
        if not spec.has_bids:
            if bids is not None and any(bid is not None for bid in bids):
                raise SheetError("no_bids", round=number, kind=str(spec.kind))
            return None
        bids = bids or (None,) * self.players
        missing: int | None = None
        bid_sum = 0
        for seat in _order(dealer, self.players):
            amount = bids[seat]
            if amount is None:
                missing = seat if missing is None else missing
                continue
            if missing is not None:
                raise SheetError(
                    "bid_turn",
                    round=number,
                    seat=seat,
                    player=self.name(seat),
                    first=self.name(missing),
                )
            problem = _bid_problem(
                self.sheet.rules,
                spec.cards,
                amount,
                dealer=seat == dealer,
                bid_sum=bid_sum,
                streak=self.streaks[seat],
            )
            if problem is not None:
                code, params = problem
                raise SheetError(code, round=number, seat=seat, player=self.name(seat), **params)
            bid_sum += amount
        return missing

    def check_taken(
        self, spec: RoundSpec, dealer: int, taken: Seats, first_missing: int | None
    ) -> None:
        """Check the tricks taken (only once ``first_missing``, the first seat yet to bid,
        is ``None``): each 0..cards, together the cards dealt."""
        number, cards = spec.number, spec.cards
        order = _order(dealer, self.players)
        entered = [(seat, tricks) for seat in order if (tricks := taken[seat]) is not None]
        if entered and first_missing is not None:
            name = self.name(first_missing)
            raise SheetError(
                "taken_early", round=number, seat=first_missing, player=name, first=name
            )
        total = 0
        for seat, tricks in entered:
            if not 0 <= tricks <= cards:
                raise SheetError(
                    "taken_range",
                    round=number,
                    seat=seat,
                    player=self.name(seat),
                    cards=cards,
                    taken=tricks,
                )
            total += tricks
            if total > cards:
                raise SheetError(
                    "taken_sum",
                    round=number,
                    seat=seat,
                    player=self.name(seat),
                    total=total,
                    cards=cards,
                )
        if len(entered) == self.players and total != cards:
            last = order[-1]
            raise SheetError(
                "taken_sum",
                round=number,
                seat=last,
                player=self.name(last),
                total=total,
                cards=cards,
            )

    def check_shape(self, number: int, what: str, values: Seats) -> None:
        """Bids and taken have a whole number (or ``None``) for every seat."""
        if len(values) != self.players:
            detail = f"{what}: {len(values)} values for {self.players} players"
            raise SheetError("format", round=number, detail=detail)
        for seat, value in enumerate(values):
            if value is not None and type(value) is not int:
                detail = f"{what}: {value!r} is not a whole number"
                raise SheetError(
                    "format", round=number, seat=seat, player=self.name(seat), detail=detail
                )

    def add_round(self, index: int, entered: SheetRound) -> None:
        """Check one round of the sheet and score it if it is complete."""
        spec, dealer, control = self.spec(index, entered)
        for what, values in (("bids", entered.bids), ("taken", entered.taken)):
            if values is not None:
                self.check_shape(spec.number, what, values)
        first_missing = self.check_bids(spec, dealer, entered.bids)
        self.check_taken(spec, dealer, entered.taken, first_missing)
        points: tuple[int, ...] | None = None
        tricks = [taken for taken in entered.taken if taken is not None]
        if first_missing is None and len(tricks) == self.players:
            bids = entered.bids if spec.has_bids and entered.bids else (None,) * self.players
            points = tuple(
                round_points(self.sheet.rules, spec.kind, bid, taken, cards=spec.cards)
                for bid, taken in zip(bids, tricks, strict=True)
            )
            self.totals = [total + p for total, p in zip(self.totals, points, strict=True)]
            if spec.has_bids:
                self.streaks = [
                    streak + 1 if bid == 0 else 0
                    for streak, bid in zip(self.streaks, bids, strict=True)
                ]
        self.rows.append(
            ScoredRound(
                number=spec.number,
                dealer=dealer,
                cards=spec.cards,
                kind=spec.kind,
                bids=entered.bids if spec.has_bids else None,
                taken=entered.taken,
                points=points,
                totals=tuple(self.totals),
                control=control,
            )
        )

    def next_entry(self) -> Entry | None:
        """What the table enters next, after the rounds checked so far."""
        if self.rows and self.rows[-1].points is None:
            row = self.rows[-1]
            spec = RoundSpec(row.number, row.cards, row.kind)
            return self.entry_in(spec, row.dealer, row.bids, row.taken)
        index = len(self.rows)
        if index < len(self.plan):
            dealer = (self.sheet.first_dealer + index) % self.players
            return self.entry_in(self.plan[index], dealer, None, (None,) * self.players)
        if self.control_due():
            # The last-placed player, the first of them in seat order, chooses (as Game).
            chooser = self.totals.index(min(self.totals))
            cards = max_cards(self.sheet.rules, self.players)
            return Entry(
                EntryKind.CONTROL, index + 1, chooser, cards, None, None, kinds=CONTROL_KINDS
            )
        return None

    def entry_in(self, spec: RoundSpec, dealer: int, bids: Seats | None, taken: Seats) -> Entry:
        """The next entry of an unfinished round: the next bid, else the next trick count."""
        order = _order(dealer, self.players)
        common = (spec.number, spec.cards, spec.kind, dealer)
        if spec.has_bids:
            bids = bids or (None,) * self.players
            entered = [bid for bid in bids if bid is not None]
            for seat in order:
                if bids[seat] is None:
                    return self.bid_entry(seat, common, sum(entered))
        seat = next(seat for seat in order if taken[seat] is None)
        left = spec.cards - sum(t for t in taken if t is not None)
        missing = sum(t is None for t in taken)
        choices = (left,) if missing == 1 else tuple(range(left + 1))
        return Entry(EntryKind.TAKEN, spec.number, seat, *common[1:], choices=choices)

    def bid_entry(self, seat: int, common: tuple[int, int, RoundKind, int], bid_sum: int) -> Entry:
        """The bid ``seat`` is to make, with the allowed amounts."""
        number, cards, kind, dealer = common
        rules, streak = self.sheet.rules, self.streaks[seat]
        is_dealer = seat == dealer
        forbidden = forbidden_bid(rules, cards, bid_sum, dealer=is_dealer)
        choices = tuple(
            amount
            for amount in range(cards + 1)
            if _bid_problem(rules, cards, amount, dealer=is_dealer, bid_sum=bid_sum, streak=streak)
            is None
        )
        return Entry(
            EntryKind.BID,
            number,
            seat,
            cards,
            kind,
            dealer,
            choices=choices,
            forbidden=forbidden,
            zero_banned=zero_bid_banned(rules, cards, forbidden, streak),
        )


def _check(sheet: Sheet) -> _Score:
    """Check the whole sheet from its first round and score it (raises ``SheetError``)."""
    if not isinstance(sheet.rules, Rules):
        raise SheetError("format", detail="rules must be Rules (see Sheet.start)")
    rules, players = sheet.rules, len(sheet.players)
    try:
        player_names(sheet.players)
        check_players(rules, players)
        plan = round_plan(rules, players)  # a custom plan may deal more than each can get
    except ValueError as error:
        # Chained: the engine's error keeps its code, for a wording in the reader's language.
        raise SheetError("format", detail=str(error)) from error
    if not _is_seat(sheet.first_dealer, players):
        raise SheetError("not_seat", last=players - 1, value=sheet.first_dealer)
    walk = _Walk(sheet, plan, [0] * players, [0] * players, [])
    for index, entered in enumerate(sheet.rounds):
        walk.add_round(index, entered)
    return _Score(tuple(walk.rows), tuple(walk.totals), tuple(walk.streaks), walk.next_entry())
