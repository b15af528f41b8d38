"""The review of a recorded game and the hint for one decision, by the expert's search.

For every bid and card a seat chose (a forced move is no choice and is left out), the
expert searches that seat's ``View`` at that moment (``raspisnoy.bots.expert.root_values``
with the budget of the review) and reports the expected round points of the move made
and of the search's own choice, the difference (the points the move lost) and a class.

A review is fast because most moves are plainly fine: every move is first **screened**
by a small search (``Budget.screen`` iterations over ``SCREEN_WORLDS`` deals), and only
a move that the screen sees losing points (``FLAG_SHARE`` of an inaccuracy or more) is
searched again with the whole budget, which then decides its class alone (or, when its
loss lies near the threshold of a mistake or a blunder, a search of ``CONFIRM_FACTOR``
times the budget does).
Only views are searched: a review never reads a hand the seat could not see, so it
judges a move by what its player knew, never by the cards that turned up later.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from raspisnoy.bots.expert import WORLDS, RootValue, root_values, searched_equivalent
from raspisnoy.bots.heuristic import choose_control
from raspisnoy.bots.master import MASTER_ITERATIONS
from raspisnoy.core import (
    Bid,
    ControlRound,
    Game,
    InvalidInputError,
    Phase,
    Play,
    Record,
    RoundKind,
    Rules,
    View,
    replay,
    round_points,
)
from raspisnoy.review.reasons import Reason, reason_for

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_SCREEN",
    "FLAG_SHARE",
    "REVIEW_FORMAT",
    "Budget",
    "Hint",
    "Moment",
    "Reason",
    "Review",
    "Severity",
    "Thresholds",
    "decisions",
    "hint",
    "judge",
    "review_game",
]

#: Search iterations of the deep search of a move the screen doubts, by default.
DEFAULT_ITERATIONS = 6_000
#: Search iterations of the quick screen of every move, by default (docs/review.md,
#: "Time": a 28-round game's seat in a few seconds on one core).
DEFAULT_SCREEN = 800
#: Deals of the hidden cards the screen searches (the deep search deals ``WORLDS``).
SCREEN_WORLDS = 150
#: A move the screen sees losing this share of an inaccuracy's loss or more is searched
#: again deeply; below it, the screen's verdict stands.
FLAG_SHARE = 0.5
#: A deep verdict whose loss lies within this share of the stake of the mistake's or the
#: blunder's threshold is searched once more with ``CONFIRM_FACTOR`` times the budget:
#: the estimate's noise decides such a class, and a longer search settles it.
CONFIRM_SHARE = 0.05
CONFIRM_FACTOR = 3
#: The least iterations a budget may have: enough for the search to try every root action
#: (a joker's modes and a hand of cards are far fewer) before judging any.
MIN_ITERATIONS = 64
#: A review's class thresholds as shares of one trick's stake (``Thresholds.stake``).
INACCURACY_SHARE = 0.1
MISTAKE_SHARE = 0.25
BLUNDER_SHARE = 0.5

#: A move made that the search visited less than this share of the budget is measured
#: again by a search of twice that share that starts every iteration with it.
SHARP_SHARE = 0.25

#: ``progress(done, total)``: called after each decision reviewed.
Progress = Callable[[int, int], None]
#: ``partial(review)``: the review of the decisions so far, after each (before
#: ``progress``), so that a caller can show the first mistakes while the rest runs.
Partial = Callable[["Review"], None]


@dataclass(frozen=True, slots=True)
class Budget:
    """The search budget of each decision: ``iterations``, optionally cut short by
    ``time_ms`` (the result then depends on the machine's speed), the ``seed`` of its
    random choices (a review with no time limit is a function of the record and seed),
    and the iterations of the quick ``screen`` of every move (``None``, or as many as
    ``iterations``: no screen, every move searched with the whole budget; a hint never
    screens)."""

    iterations: int = DEFAULT_ITERATIONS
    time_ms: float | None = None
    seed: int | str = 0
    screen: int | None = DEFAULT_SCREEN

    def __post_init__(self) -> None:
        if type(self.iterations) is not int or self.iterations < MIN_ITERATIONS:
            raise InvalidInputError(
                f"a review needs at least {MIN_ITERATIONS} iterations a move, "
                f"not {self.iterations!r}"
            )
        if self.time_ms is not None and not self.time_ms > 0:
            raise InvalidInputError(f"a time budget must be positive, not {self.time_ms!r} ms")
        if self.screen is not None and (
            type(self.screen) is not int or self.screen < MIN_ITERATIONS
        ):
            raise InvalidInputError(
                f"a screen needs at least {MIN_ITERATIONS} iterations a move, not {self.screen!r}"
            )

    @classmethod
    def master(cls, seed: int | str = 0) -> Budget:
        """The ``master`` level's budget (``bots.master``): its iterations for every
        move, no screen. The reference the fast review is measured against, ten times
        its deep budget (docs/review.md, "Time"); ``raspisnoy review --master``."""
        return cls(MASTER_ITERATIONS, seed=seed, screen=None)

    @property
    def screens(self) -> bool:
        """Whether moves are screened first (a screen smaller than the budget)."""
        return self.screen is not None and self.screen < self.iterations

    def to_json(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "time_ms": self.time_ms,
            "seed": self.seed,
            "screen": self.screen if self.screens else None,
        }


class Severity(StrEnum):
    """How much a move cost, by the thresholds of ``Thresholds``."""

    #: The move the search itself would play (or one it treats as the same).
    BEST = "best"
    #: Less than an inaccuracy's loss.
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The losses (in round points) from which a move is an inaccuracy, a mistake or a
    blunder: shares of the ruleset's ``stake``, the points between making a bid of one
    and missing it by that trick, so they mean the same under every score table
    (raspisnoy.com: 20 points; 2, 5 and 10)."""

    stake: int
    inaccuracy: float
    mistake: float
    blunder: float

    @classmethod
    def of(cls, rules: Rules) -> Thresholds:
        made = round_points(rules, RoundKind.NORMAL, 1, 1, cards=2)
        missed = round_points(rules, RoundKind.NORMAL, 1, 0, cards=2)
        stake = max(abs(made - missed), 1)
        return cls(stake, stake * INACCURACY_SHARE, stake * MISTAKE_SHARE, stake * BLUNDER_SHARE)

    def classify(self, loss: float) -> Severity:
        for severity, threshold in (
            (Severity.BLUNDER, self.blunder),
            (Severity.MISTAKE, self.mistake),
            (Severity.INACCURACY, self.inaccuracy),
        ):
            if loss >= threshold:
                return severity
        return Severity.GOOD

    def to_json(self) -> dict[str, Any]:
        return {
            "stake": self.stake,
            "inaccuracy": self.inaccuracy,
            "mistake": self.mistake,
            "blunder": self.blunder,
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's suggestion for one decision, and the choices it searched (most
    visited first, each with the seat's expected round points; none for a control
    round, which the heuristic chooses)."""

    suggested: Bid | Play | ControlRound
    choices: tuple[RootValue, ...]
    #: Why the suggestion beats the runner-up (``None`` with a single choice searched).
    reason: Reason | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "suggested": str(self.suggested),
            "choices": _choices_json(self.choices),
            "reason": None if self.reason is None else self.reason.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Moment:
    """One reviewed decision: a seat's bid or card, the expected round points of the
    move made (``played_points``, for the search's stand-in of the move when it treats
    several cards as one) and of the search's choice (``best``), and the points lost."""

    round: int
    kind: RoundKind
    cards: int
    seat: int
    #: 0 for a bid, else the 1-based number of the trick the card went to.
    trick: int
    played: Bid | Play
    played_points: float
    best: Bid | Play
    best_points: float
    loss: float
    severity: Severity
    choices: tuple[RootValue, ...]
    #: Whether the deep search judged it (else the screen's verdict stood).
    deep: bool = False
    #: Why it lost points, for an inaccuracy or worse (``reasons``).
    reason: Reason | None = None

    @property
    def is_bid(self) -> bool:
        return isinstance(self.played, Bid)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "kind": str(self.kind),
            "cards": self.cards,
            "seat": self.seat,
            "phase": "bid" if self.is_bid else "play",
            "trick": self.trick or None,
            "played": str(self.played),
            "played_points": _points(self.played_points),
            "best": str(self.best),
            "best_points": _points(self.best_points),
            "loss": _points(self.loss),
            "class": str(self.severity),
            "choices": _choices_json(self.choices),
            "deep": self.deep,
            "reason": None if self.reason is None else self.reason.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of the ``seats`` of a game: its moments in the order played."""

    players: tuple[str, ...]
    seats: tuple[int, ...]
    budget: Budget
    thresholds: Thresholds
    moments: tuple[Moment, ...]
    #: The seats' real points per reviewed round, by round number then seat.
    round_points: dict[int, tuple[int, ...] | None]

    def worst(self) -> tuple[Moment, ...]:
        """The moments that lost points, the costliest first (ties in game order)."""
        lost = [moment for moment in self.moments if moment.loss > 0]
        return tuple(sorted(lost, key=lambda moment: -moment.loss))

    def to_json(self) -> dict[str, Any]:
        """The ``raspisnoy review --json`` object (docs/review.md)."""
        index = {id(moment): i for i, moment in enumerate(self.moments)}
        return {
            "format": REVIEW_FORMAT,
            "players": list(self.players),
            "seats": list(self.seats),
            "budget": self.budget.to_json(),
            "thresholds": self.thresholds.to_json(),
            "moments": [moment.to_json() for moment in self.moments],
            "worst": [index[id(moment)] for moment in self.worst()],
            "rounds": self._rounds_json(),
            "summary": [self._seat_json(seat) for seat in self.seats],
        }

    def _rounds_json(self) -> list[dict[str, Any]]:
        out = []
        for number, points in self.round_points.items():
            for seat in self.seats:
                moments = [m for m in self.moments if m.round == number and m.seat == seat]
                if not moments:
                    continue
                out.append(
                    {
                        "round": number,
                        "kind": str(moments[0].kind),
                        "cards": moments[0].cards,
                        "seat": seat,
                        "points": None if points is None else points[seat],
                        **_losses(moments),
                    }
                )
        return out

    def _seat_json(self, seat: int) -> dict[str, Any]:
        moments = [moment for moment in self.moments if moment.seat == seat]
        counts = {
            key: sum(moment.severity is severity for moment in moments)
            for key, severity in _COUNTED.items()
        }
        return {"seat": seat, "name": self.players[seat], **_losses(moments), **counts}


REVIEW_FORMAT = "raspisnoy-review/1"
#: The classes a moment gets a reason for.
_EXPLAINED = frozenset({Severity.INACCURACY, Severity.MISTAKE, Severity.BLUNDER})
#: The classes counted in a seat's summary, by their key there.
_COUNTED = {
    "inaccuracies": Severity.INACCURACY,
    "mistakes": Severity.MISTAKE,
    "blunders": Severity.BLUNDER,
}


def hint(view: View, budget: Budget | None = None) -> Hint:
    """The expert's suggestion for the seat of ``view`` on its turn (docstring of the
    module): from its view alone, with the seat's expected points of each choice."""
    budget = budget or Budget()
    if view.phase is Phase.CHOOSE and view.my_turn:
        return Hint(choose_control(view), ())
    choices = _search(view, budget)
    reason = None
    if len(choices) > 1:
        runner_up = choices[1]
        reason = reason_for(view, runner_up.action, choices[0], runner_up.points, choices)
    return Hint(choices[0].action, choices, reason)


def review_game(
    record: Record,
    seat: int | Sequence[int] | None = None,
    budget: Budget | None = None,
    progress: Progress | None = None,
    partial: Partial | None = None,
) -> Review:
    """Review the bids and cards of ``seat`` (a seat, several, or ``None``: every seat)
    in ``record``, which is replayed (and so checked) first; after each decision
    ``partial(review so far)`` and ``progress(done, total)`` are called."""
    budget = budget or Budget()
    game = replay(record)
    seats = _seats(seat, game.players)
    chosen = list(decisions(record, seats, game))
    thresholds = Thresholds.of(record.rules)
    rounds = game.rounds()

    def review_of(moments: Sequence[Moment]) -> Review:
        return Review(
            players=game.names,
            seats=seats,
            budget=budget,
            thresholds=thresholds,
            moments=tuple(moments),
            round_points={
                number: rounds[number - 1].points for number in sorted({m.round for m in moments})
            },
        )

    moments: list[Moment] = []
    for done, (view, played) in enumerate(chosen, start=1):
        moments.append(judge(view, played, budget, thresholds))
        if partial is not None:
            partial(review_of(moments))
        if progress is not None:
            progress(done, len(chosen))
    return review_of(moments)


def _seats(seat: int | Sequence[int] | None, players: int) -> tuple[int, ...]:
    chosen = range(players) if seat is None else (seat,) if isinstance(seat, int) else seat
    seats = tuple(sorted(set(chosen)))
    for each in seats:
        if type(each) is not int or not 0 <= each < players:
            raise InvalidInputError(f"seat {each!r} is not a seat (0 to {players - 1})")
    return seats


def decisions(
    record: Record, seats: Sequence[int], game: Game | None = None
) -> Iterator[tuple[View, Bid | Play]]:
    """Each of ``seats``' view before each of its bids and cards that was a choice, with
    the move made (what ``review_game`` judges, in order): the replayed game's log
    (``game``: ``replay(record)``, replayed here if not given) applied again one event at
    a time."""
    game = game or replay(record)
    first_dealer = record.rounds[0].dealer if record.rounds else 0
    again = Game(record.rules, record.players, first_dealer=first_dealer)
    for event in game.events:
        action = event.action
        if isinstance(action, Bid | Play) and event.seat in seats:
            view = again.view(event.seat)
            if len(view.legal_actions) > 1:
                yield view, action
        again.apply_event(event)


def judge(view: View, played: Bid | Play, budget: Budget, thresholds: Thresholds) -> Moment:
    """The judgement of one move made from ``view`` (``review_game``'s of each decision):
    by the screen alone when it sees the move lose less than ``FLAG_SHARE`` of an
    inaccuracy, else by the deep search (module docstring)."""
    stand_in = searched_equivalent(view, played)
    judged = None
    if budget.screens:
        assert budget.screen is not None
        judged = _judge(view, stand_in, budget, budget.screen, SCREEN_WORLDS)
        if judged[2] >= thresholds.inaccuracy * FLAG_SHARE:
            judged = None  # the screen doubts the move: the deep search decides
    deep = judged is None
    choices, made, loss = judged or _judge(view, stand_in, budget, budget.iterations, WORLDS)
    if deep and budget.screens and _near_a_threshold(loss, thresholds):
        longer = budget.iterations * CONFIRM_FACTOR
        choices, made, loss = _judge(view, stand_in, budget, longer, WORLDS)
    best = choices[0]
    severity = Severity.BEST if made is best else thresholds.classify(loss)
    reason = None
    if severity in _EXPLAINED:
        reason = reason_for(view, stand_in, best, made.points, choices, budget.seed)
    assert view.seat is not None
    return Moment(
        round=view.round,
        kind=view.kind,
        cards=view.cards,
        seat=view.seat,
        trick=0 if isinstance(played, Bid) else len(view.tricks) + 1,
        played=played,
        played_points=made.points,
        best=best.action,
        best_points=best.points,
        loss=loss,
        severity=severity,
        choices=choices,
        deep=deep,
        reason=reason,
    )


def _near_a_threshold(loss: float, thresholds: Thresholds) -> bool:
    """Whether ``loss`` is too near the threshold of a mistake or a blunder for one
    search's noise to tell which side it lies on (``CONFIRM_SHARE``)."""
    margin = thresholds.stake * CONFIRM_SHARE
    return any(abs(loss - limit) < margin for limit in (thresholds.mistake, thresholds.blunder))


def _judge(
    view: View, stand_in: Bid | Play, budget: Budget, iterations: int, worlds: int
) -> tuple[tuple[RootValue, ...], RootValue, float]:
    """The search's choices with ``iterations`` over ``worlds`` deals, the value of the
    move made (``stand_in``), and the points it loses against the best choice."""
    choices = _search(view, budget, iterations, worlds=worlds)
    best = choices[0]
    made = next((choice for choice in choices if choice.action == stand_in), None)
    if made is not best and (made is None or made.visits < iterations * SHARP_SHARE):
        # The search spends few visits on a poor move: too few to measure it by.
        sharp = max(int(iterations * SHARP_SHARE * 2), MIN_ITERATIONS)
        (made,) = _search(view, budget, sharp, only=stand_in, worlds=worlds)
    return choices, made, max(0.0, best.points - made.points)


def _search(
    view: View,
    budget: Budget,
    iterations: int | None = None,
    only: Bid | Play | None = None,
    worlds: int = WORLDS,
) -> tuple[RootValue, ...]:
    """The search of ``budget`` (or of ``iterations``, with its seed and time limit)."""
    return root_values(
        view,
        budget.iterations if iterations is None else iterations,
        seed=budget.seed,
        time_ms=budget.time_ms,
        only=only,
        worlds=worlds,
    )


def _losses(moments: Sequence[Moment]) -> dict[str, Any]:
    bids = sum((moment.loss for moment in moments if moment.is_bid), 0.0)
    play = sum((moment.loss for moment in moments if not moment.is_bid), 0.0)
    return {
        "moves": len(moments),
        "bid_loss": _points(bids),
        "play_loss": _points(play),
        "loss": _points(bids + play),
    }


def _choices_json(choices: Sequence[RootValue]) -> list[dict[str, Any]]:
    return [
        {"action": str(choice.action), "visits": choice.visits, "points": _points(choice.points)}
        for choice in choices
    ]


def _points(value: float) -> float:
    """Expected points as written in JSON: to a hundredth of a point."""
    return round(value, 2)
