"""Numbers for learning programs: actions as integers, a seat's knowledge as tensors.

Shared by the OpenSpiel game and the PettingZoo environment (docs/research.md). Every
tensor is built from ``Game.view(seat)`` and, in a forehead round («лобовая»), the other
seats' cards that the seat was shown while the bids were made: never from a card the seat
has not seen.

Actions: a bid of b is b; a card is ``bids + 10 × card index + variant``, the variant 0
for a plain card and, for a joker, 1 "take", 2–5 "discard" naming ♠ ♣ ♦ ♥, 6–9 "highest"
naming them; a control round is ``plays + kind × players + dealer``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from raspisnoy.core import (
    CONTROL_KINDS,
    Action,
    Bid,
    Card,
    ControlRound,
    Game,
    JokerMode,
    Phase,
    Play,
    RoundKind,
    Rules,
    Suit,
    View,
    max_cards,
    round_plan,
    round_points,
)
from raspisnoy.core.fast import ALL_CARDS

__all__ = ["MAX_CONTROL_ROUNDS", "Encoding"]

Floats = npt.NDArray[np.float32]

CARDS = len(ALL_CARDS)
#: A card's action variants: plain (or joker "take"), then discard and highest per suit.
_VARIANTS = 10
_SUITS = len(Suit)
_PHASES = (Phase.BID, Phase.PLAY, Phase.CHOOSE)
_KINDS = tuple(RoundKind)
#: Control rounds counted into the game's length and utility bounds. The rules allow one
#: more while first place stays tied; random play almost never ties that often.
MAX_CONTROL_ROUNDS = 8


@dataclass(frozen=True, slots=True)
class Encoding:
    """The action and tensor layout of one ruleset and player count."""

    rules: Rules
    players: int
    #: The most tricks a hand can hold (and so the highest bid).
    tricks: int

    @classmethod
    def of(cls, rules: Rules, players: int) -> Encoding:
        return cls(rules, players, max_cards(rules, players))

    # ------------------------------------------------------------------- actions

    @property
    def bids(self) -> int:
        return self.tricks + 1

    @property
    def plays(self) -> int:
        """Where the control-round choices start."""
        return self.bids + CARDS * _VARIANTS

    @property
    def actions(self) -> int:
        return self.plays + len(CONTROL_KINDS) * self.players

    def encode(self, action: Action) -> int:
        if isinstance(action, Bid):
            return action.amount
        if isinstance(action, ControlRound):
            return self.plays + CONTROL_KINDS.index(action.kind) * self.players + action.dealer
        base = self.bids + action.card.index * _VARIANTS
        if action.mode is None or action.mode is JokerMode.TAKE:
            return base + (action.mode is JokerMode.TAKE)
        assert action.suit is not None
        shift = 2 if action.mode is JokerMode.DISCARD else 2 + _SUITS
        return base + shift + int(action.suit)

    def decode(self, code: int) -> Action:
        if code < self.bids:
            return Bid(code)
        if code >= self.plays:
            kind, dealer = divmod(code - self.plays, self.players)
            return ControlRound(CONTROL_KINDS[kind], dealer)
        index, variant = divmod(code - self.bids, _VARIANTS)
        card = ALL_CARDS[index]
        if variant == 0:
            return Play.of(card)
        if variant == 1:
            return Play(card, JokerMode.TAKE)
        mode = JokerMode.DISCARD if variant < 2 + _SUITS else JokerMode.HIGHEST
        return Play(card, mode, Suit((variant - 2) % _SUITS))

    # ------------------------------------------------------------------- bounds

    def utility_bounds(self) -> tuple[float, float]:
        """The least and the most a seat can score in a game: the plan's rounds and, in a
        control game, ``MAX_CONTROL_ROUNDS`` control rounds of the largest hand."""
        low = high = 0.0
        for spec in round_plan(self.rules, self.players):
            points = list(self._outcomes((spec.kind,), spec.cards))
            low, high = low + min(points), high + max(points)
        if self.rules.control_game:
            points = list(self._outcomes(CONTROL_KINDS, self.tricks))
            low += MAX_CONTROL_ROUNDS * min(points)
            high += MAX_CONTROL_ROUNDS * max(points)
        return low, high

    def max_moves(self) -> int:
        """The most bids, cards and control choices a game can have."""
        per_round = [
            self.players * (spec.cards + 1) for spec in round_plan(self.rules, self.players)
        ]
        control = (self.players * (self.tricks + 1) + 1) * MAX_CONTROL_ROUNDS
        return sum(per_round) + (control if self.rules.control_game else 0)

    def _outcomes(self, kinds: tuple[RoundKind, ...], cards: int) -> Iterator[int]:
        """Every round's points a seat can get in a round of one of ``kinds``."""
        for kind in kinds:
            bids: list[int | None] = list(range(cards + 1)) if kind.has_bids else [None]
            for bid in bids:
                for taken in range(cards + 1):
                    yield round_points(self.rules, kind, bid, taken, cards=cards)

    # ------------------------------------------------------------------- tensors

    def pieces(self, perfect_recall: bool) -> tuple[tuple[str, int], ...]:
        """The named parts of a tensor, in order, with their sizes."""
        p, t = self.players, self.tricks
        played_card = CARDS + _VARIANTS
        base = (
            ("player", p),
            ("phase", len(_PHASES)),
            ("kind", len(_KINDS)),
            ("cards", t + 1),
            ("dealer", p),
            ("to_act", p),
            ("hand", CARDS),
            ("hand_hidden", 1),
            ("seen", p * CARDS),
            ("trump_card", CARDS),
            ("trump", _SUITS),
            ("trump_hidden", 1),
            ("bids", p * (t + 2)),
            ("taken", p * (t + 1)),
            ("trick_leader", p),
            ("trick", p * played_card),
            ("played", CARDS),
            ("totals", p),
        )
        if not perfect_recall:
            return base
        return (*base, ("leaders", t * p), ("tricks", t * p * played_card))

    def size(self, perfect_recall: bool) -> int:
        return sum(size for _, size in self.pieces(perfect_recall))

    def tensor(self, game: Game, seat: int, perfect_recall: bool) -> Floats:
        """What ``seat`` knows of ``game`` now, as a flat tensor of ``pieces``: with
        ``perfect_recall`` (the information state) also every trick of the round so far
        and a forehead round's shown cards after the bidding. Earlier rounds enter only
        through the totals, all of them that matters to the rest of the game."""
        view = game.view(seat)
        out = np.zeros(self.size(perfect_recall), dtype=np.float32)
        parts: dict[str, Floats] = {}
        start = 0
        for name, size in self.pieces(perfect_recall):
            parts[name] = out[start : start + size]
            start += size
        parts["player"][seat] = 1
        if view.phase in _PHASES:
            parts["phase"][_PHASES.index(view.phase)] = 1
        parts["kind"][_KINDS.index(view.kind)] = 1
        parts["cards"][min(view.cards, self.tricks)] = 1
        parts["dealer"][view.dealer] = 1
        if view.to_act is not None:
            parts["to_act"][view.to_act] = 1
        _mark(parts["hand"], view.hand or ())
        parts["hand_hidden"][0] = view.hand is None
        seen = parts["seen"].reshape(self.players, CARDS)
        for other, cards in enumerate(self.seen_hands(game, view, perfect_recall)):
            _mark(seen[other], cards or ())
        if view.trump_card is not None:
            parts["trump_card"][view.trump_card.index] = 1
        if view.trump is not None:
            parts["trump"][int(view.trump)] = 1
        parts["trump_hidden"][0] = view.trump_hidden
        bids = parts["bids"].reshape(self.players, self.tricks + 2)
        taken = parts["taken"].reshape(self.players, self.tricks + 1)
        for other in range(self.players):
            bid = None if view.bids is None else view.bids[other]
            bids[other, 0 if bid is None else bid + 1] = 1
            taken[other, view.taken[other]] = 1
        parts["trick_leader"][view.trick.leader] = 1
        self._plays(parts["trick"], view.trick.plays)
        for trick in (*view.tricks, view.trick):
            _mark(parts["played"], [play.card for play in trick.plays])
        parts["totals"][:] = view.totals
        if perfect_recall:
            leaders = parts["leaders"].reshape(self.tricks, self.players)
            history = parts["tricks"].reshape(self.tricks, -1)
            for number, trick in enumerate(view.tricks):
                leaders[number, trick.leader] = 1
                self._plays(history[number], trick.plays)
        return out

    def _plays(self, out: Floats, plays: tuple[Play, ...]) -> None:
        """Each position's card and joker variant, ``CARDS + _VARIANTS`` numbers each."""
        slots = out.reshape(self.players, CARDS + _VARIANTS)
        for position, play in enumerate(plays):
            code = self.encode(play) - self.bids
            slots[position, play.card.index] = 1
            slots[position, CARDS + code % _VARIANTS] = 1

    @staticmethod
    def seen_hands(
        game: Game, view: View, perfect_recall: bool
    ) -> tuple[tuple[Card, ...] | None, ...]:
        """The other seats' cards the seat can see now (a forehead round's bidding) or,
        with ``perfect_recall``, was shown in this round (what they still hold of them)."""
        if not (perfect_recall and view.kind is RoundKind.FOREHEAD and view.phase is Phase.PLAY):
            return view.shown_hands
        played = {play.card for trick in (*view.tricks, view.trick) for play in trick.plays}
        dealt = game.rounds()[-1].hands
        return tuple(
            None if other == view.seat else tuple(c for c in dealt[other] if c not in played)
            for other in range(view.players)
        )


def _mark(out: Floats, cards: tuple[Card, ...] | list[Card]) -> None:
    for card in cards:
        out[card.index] = 1
