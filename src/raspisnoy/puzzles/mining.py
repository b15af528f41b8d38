"""Mining puzzles («задачи») from real positions: decisions of expert self-play where one move
is clearly best (docs/review.md, "Puzzles").

A position is **mined** when a screening search of the deciding seat's ``View`` finds
its best move ahead of every other by at least ``Mining.margin`` of a trick's stake
(``Thresholds.stake``), and **verified** when a deeper search, over other deals of the
hidden cards (another seed) and with more iterations, agrees: the same best move (or
one the search treats as the same card) and every other move at least the margin
behind, each measured by a search of its own (a poor move's few visits in the shared
search are too few to measure it by). A candidate whose best move is not unique under
the deeper search is rejected.

A puzzle keeps only what the solver's seat knew (its ``View``, written by
``view_to_json``), the best move, the reason it beats the runner-up
(``raspisnoy.review.reasons``) and a ``Theme`` taken from the round and the move. It
needs seats, not people: its view names its seats neutrally (``Player 1``…, the engine's
names for a count: ``player_names``), whatever the game's names were, so neither its JSON
nor its id (a digest of them) holds anyone's name. Pure Python over ``raspisnoy.core``
and ``raspisnoy.bots``: every search reads the view only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from raspisnoy.bots.expert import ExpertBot, RootValue, root_values, searched_equivalent
from raspisnoy.core import (
    Action,
    Bid,
    Card,
    Game,
    InvalidInputError,
    Phase,
    Play,
    RoundKind,
    Rules,
    Suit,
    Trick,
    View,
    parse_action,
    player_names,
    resolve_rules,
)
from raspisnoy.review.engine import MIN_ITERATIONS, Thresholds
from raspisnoy.review.reasons import Reason, reason_for

__all__ = [
    "PUZZLE_FORMAT",
    "Mining",
    "Puzzle",
    "Theme",
    "game_puzzles",
    "is_solution",
    "mine_puzzles",
    "nameless",
    "puzzle_of",
    "verify",
    "view_from_json",
    "view_to_json",
]

PUZZLE_FORMAT = "raspisnoy-puzzle/1"

#: The share of the verifying budget that measures each move other than the best.
SHARP_SHARE = 0.25

#: The self-play bots' time budget: large, so that iterations alone bound them (and a
#: run is deterministic whatever the machine's load).
_NO_LIMIT_MS = 600_000.0
#: ``found(puzzles so far, positions searched)``: called after each position searched.
Found = Callable[[int, int], None]


class Theme(StrEnum):
    """What a puzzle is about, from its round and its best move (the first that fits)."""

    MISERE = "misere"
    GOLDEN = "golden"
    BLIND = "blind"
    JOKER_LEAD = "joker-lead"
    DEALER_BID = "dealer-bid"
    BID = "bid"
    PLAY = "play"

    @classmethod
    def of(cls, view: View, best: Bid | Play) -> Theme:
        if view.kind in _KIND_THEMES:
            return _KIND_THEMES[view.kind]
        if isinstance(best, Play) and best.card.is_joker and not view.trick.plays:
            return cls.JOKER_LEAD
        if isinstance(best, Bid):
            return cls.DEALER_BID if view.seat == view.dealer else cls.BID
        return cls.PLAY


@dataclass(frozen=True, slots=True)
class Mining:
    """The budgets of mining: the expert's ``self_play`` iterations a decision, the
    ``screen`` of every position, the deeper ``verify`` search, and the ``margin`` (a
    share of a trick's stake) by which the best move must beat every other in both;
    ``themes``: only puzzles of these (``None``: any)."""

    self_play: int = 300
    screen: int = 1_500
    verify: int = 6_000
    margin: float = 0.25
    seed: int | str = 0
    themes: frozenset[Theme] | None = None

    def __post_init__(self) -> None:
        if min(self.self_play, self.screen, self.verify) < 1:
            raise InvalidInputError("every search of mining needs at least one iteration")
        if self.verify < self.screen:
            raise InvalidInputError("the verifying search must be at least as deep as the screen")
        if not self.margin > 0:
            raise InvalidInputError(f"a margin must be positive, not {self.margin!r}")


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A verified position: the solver's ``view`` (its seats named neutrally: a view with
    people's names is taken ``nameless``), the ``best`` move, why (``reason``) and its
    ``theme``; ``id`` is a digest of the view and the move."""

    view: View
    best: Bid | Play
    reason: Reason
    theme: Theme

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", nameless(self.view))

    @property
    def id(self) -> str:
        text = json.dumps([view_to_json(self.view), str(self.best)], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PUZZLE_FORMAT,
            "id": self.id,
            "theme": str(self.theme),
            "view": view_to_json(self.view),
            "best": str(self.best),
            "reason": self.reason.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        if data.get("format") != PUZZLE_FORMAT:
            raise InvalidInputError(f"not a puzzle of format {PUZZLE_FORMAT}")
        view = view_from_json(data["view"])
        best = _choice(parse_action(data["best"]))
        reason = Reason(data["reason"]["code"], dict(data["reason"]["params"]))
        return cls(view, best, reason, Theme(data["theme"]))


def is_solution(puzzle: Puzzle, answer: Action) -> bool:
    """Whether ``answer`` solves ``puzzle``: its best move, or a card the search treats
    as the same (a sequence of the seat's own cards with nothing unseen between)."""
    if answer not in puzzle.view.legal_actions or not isinstance(answer, Bid | Play):
        return False
    return searched_equivalent(puzzle.view, answer) == puzzle.best


def verify(view: View, best: Bid | Play, mining: Mining) -> tuple[RootValue, ...] | None:
    """The deeper search's values when it confirms ``best`` as clearly the best move of
    ``view`` (module docstring), else ``None``: the candidate is rejected. The search
    spends few visits on a poor move, too few to measure it by, so every other move is
    measured again by a search of ``SHARP_SHARE`` of the budget that starts with it; the
    values are the best move's, then the others' from the highest."""
    seed = f"verify/{mining.seed}"
    choices = root_values(view, mining.verify, seed=seed)
    if len(choices) < 2 or choices[0].action != best:
        return None
    sharp = max(int(mining.verify * SHARP_SHARE), MIN_ITERATIONS)
    others = [root_values(view, sharp, seed=seed, only=choice.action)[0] for choice in choices[1:]]
    measured = (choices[0], *sorted(others, key=lambda choice: -choice.points))
    return measured if _clear(view, measured, best, mining.margin) else None


def mine_puzzles(
    count: int,
    rules: Rules | str | None = None,
    mining: Mining | None = None,
    found: Found | None = None,
) -> Iterator[Puzzle]:
    """Up to ``count`` verified puzzles from games of expert self-play (deterministic for
    ``mining.seed``); ``found(puzzles, positions)`` after each position searched. Fewer
    when a whole game gives none (say, a theme its rules never deal): mining stops."""
    mining = mining or Mining()
    resolved = resolve_rules(rules)
    puzzles = positions = 0
    game_number = 0
    while puzzles < count:
        before = puzzles
        for view in _self_play(resolved, mining, game_number):
            if not _may_fit(view, mining.themes):
                continue
            positions += 1
            puzzle = puzzle_of(view, mining)
            if puzzle is not None and (mining.themes is None or puzzle.theme in mining.themes):
                puzzles += 1
                yield puzzle
            if found is not None:
                found(puzzles, positions)
            if puzzles >= count:
                return
        if puzzles == before:
            return
        game_number += 1


#: The themes a round's kind decides, whatever the move.
_KIND_THEMES = {
    RoundKind.MISERE: Theme.MISERE,
    RoundKind.GOLDEN: Theme.GOLDEN,
    RoundKind.BLIND: Theme.BLIND,
}


def _may_fit(view: View, themes: frozenset[Theme] | None) -> bool:
    """Whether a puzzle of ``view`` could have one of ``themes`` (so is worth searching):
    a round whose kind sets the theme has that one; any other, the move's themes."""
    if themes is None:
        return True
    if view.kind in _KIND_THEMES:
        return _KIND_THEMES[view.kind] in themes
    return bool(themes - set(_KIND_THEMES.values()))


def game_puzzles(
    game: Game, actions: Iterable[tuple[int, Action]], seats: frozenset[int], mining: Mining
) -> Iterator[Puzzle]:
    """Puzzles from a game already played (docs/review.md, "Puzzles from finished
    games"): ``game`` at its start, replayed by ``actions`` (seat, action); each decision
    of one of ``seats`` with two or more legal moves is a candidate, judged from that
    seat's view alone, as self-play's are. Other seats' decisions are never searched."""
    for seat, action in actions:
        view = game.view(seat)
        choice = view.phase in (Phase.BID, Phase.PLAY) and len(view.legal_actions) > 1
        if seat in seats and choice:
            puzzle = puzzle_of(view, mining)
            if puzzle is not None:
                yield puzzle
        game.apply(action, seat)


def _self_play(rules: Rules, mining: Mining, game_number: int) -> Iterator[View]:
    """Each bid and card decision (two or more legal moves) of one game of expert bots."""
    seed = f"puzzles/{mining.seed}/{game_number}"
    game = Game(rules, 4 if 4 in rules.player_counts else rules.min_players, seed=seed)
    bots = [
        ExpertBot(f"{seed}/{seat}", time_ms=_NO_LIMIT_MS, iterations=mining.self_play)
        for seat in range(game.players)
    ]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view.phase in (Phase.BID, Phase.PLAY) and len(view.legal_actions) > 1:
            yield view
        game.apply(bots[seat].act(view), seat)


def puzzle_of(view: View, mining: Mining) -> Puzzle | None:
    """The puzzle of ``view`` when the screen and the deeper search both find one move
    clearly best, else ``None``: self-play's positions, and those of finished games."""
    screened = root_values(view, mining.screen, seed=f"screen/{mining.seed}")
    best = screened[0].action
    if not _clear(view, screened, best, mining.margin):
        return None
    choices = verify(view, best, mining)
    if choices is None:
        return None
    top, runner_up = choices[0], choices[1]  # the runner-up: the best of the others
    reason = reason_for(view, runner_up.action, top, runner_up.points, choices, mining.seed)
    return Puzzle(view, top.action, reason, Theme.of(view, top.action))


def _clear(view: View, choices: tuple[RootValue, ...], best: Bid | Play, margin: float) -> bool:
    """Whether ``best`` is the search's own choice (most visited), the highest valued,
    and every other choice is ``margin`` of a stake or more behind it."""
    if len(choices) < 2 or choices[0].action != best:
        return False
    gap = Thresholds.of(view.rules).stake * margin
    return all(choice.points <= choices[0].points - gap for choice in choices[1:])


def _choice(action: Action) -> Bid | Play:
    if not isinstance(action, Bid | Play):
        raise InvalidInputError(f"a puzzle's move is a bid or a card, not {action}")
    return action


def nameless(view: View) -> View:
    """``view`` with its seats' neutral names (``Player 1``…) in place of the game's: a
    puzzle needs seats, not people's names."""
    names = player_names(view.players)
    return view if view.names == names else replace(view, names=names)


def view_to_json(view: View) -> dict[str, Any]:
    """Every field of ``view`` as JSON (cards and moves in RECORD.md notation): exactly
    what the seat knows, and nothing more; its seats named neutrally (``nameless``), never
    by the people who sat there."""
    return {
        "seat": view.seat,
        "names": list(player_names(view.players)),
        "rules": view.rules.to_json(),
        "phase": str(view.phase),
        "round": view.round,
        "cards": view.cards,
        "kind": str(view.kind),
        "dealer": view.dealer,
        "to_act": view.to_act,
        "hand": _cards_json(view.hand),
        "shown_hands": [_cards_json(hand) for hand in view.shown_hands],
        "trump_card": None if view.trump_card is None else str(view.trump_card),
        "trump": None if view.trump is None else str(view.trump),
        "trump_hidden": view.trump_hidden,
        "bids": None if view.bids is None else list(view.bids),
        "taken": list(view.taken),
        "hand_sizes": list(view.hand_sizes),
        "trick": _trick_json(view.trick),
        "tricks": [_trick_json(trick) for trick in view.tricks],
        "scores": [list(points) for points in view.scores],
        "totals": list(view.totals),
        "legal_actions": [str(action) for action in view.legal_actions],
    }


def view_from_json(data: dict[str, Any]) -> View:
    """The ``View`` that ``view_to_json`` wrote, its seats named neutrally: names written
    otherwise (a puzzle stored before puzzles kept none), or none, are not read."""
    return View(
        seat=data["seat"],
        names=player_names(len(data["hand_sizes"])),
        rules=resolve_rules(data["rules"]),
        phase=Phase(data["phase"]),
        round=data["round"],
        cards=data["cards"],
        kind=RoundKind(data["kind"]),
        dealer=data["dealer"],
        to_act=data["to_act"],
        hand=_cards(data["hand"]),
        shown_hands=tuple(_cards(hand) for hand in data["shown_hands"]),
        trump_card=None if data["trump_card"] is None else Card.parse(data["trump_card"]),
        trump=None if data["trump"] is None else Suit.parse(data["trump"]),
        trump_hidden=data["trump_hidden"],
        bids=None if data["bids"] is None else tuple(data["bids"]),
        taken=tuple(data["taken"]),
        hand_sizes=tuple(data["hand_sizes"]),
        trick=_trick(data["trick"]),
        tricks=tuple(_trick(trick) for trick in data["tricks"]),
        scores=tuple(tuple(points) for points in data["scores"]),
        totals=tuple(data["totals"]),
        legal_actions=tuple(parse_action(text) for text in data["legal_actions"]),
    )


def _cards_json(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(card) for card in cards]


def _cards(texts: list[str] | None) -> tuple[Card, ...] | None:
    return None if texts is None else tuple(Card.parse(text) for text in texts)


def _trick_json(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "plays": [str(play) for play in trick.plays],
        "winner": trick.winner,
    }


def _trick(data: dict[str, Any]) -> Trick:
    return Trick(data["leader"], tuple(Play.parse(text) for text in data["plays"]), data["winner"])
