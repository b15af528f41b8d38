"""Duplicate deals and their scoring: the luck of the cards taken out of a result.

Every table of a round is dealt from the round's one seed (``round_seed``) through the
engine's own mechanism: a ``Game`` built with a seed draws its first dealer and every
planned round's shuffle from it, so tables of the same size under the same rules hold
the same hands at the same seat numbers, deal after deal.

A player's result on a deal is then compared with every player who held the same cards
(the same round, the same deal, the same seat) at another table: a matchpoint for each
one they outscored, half for each tie, none for each who did better, as in duplicate
bridge. The duplicate score is the matchpoints as a percentage of the comparisons made
(docs/tournaments.md, "Duplicate scoring", has worked examples).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from raspisnoy.core import Game, Rules

DealKey = tuple[int, Hashable, Hashable, int]
"""Who held which cards: the round's number, its dealt hands, its trump card, the seat."""


class Dealt(Protocol):
    """A round as duplicate scoring reads it: the engine's ``RoundResult``, or one stored
    by the tournament service with its cards written as text."""

    @property
    def number(self) -> int: ...
    @property
    def hands(self) -> Hashable: ...
    @property
    def trump_card(self) -> Hashable: ...
    @property
    def points(self) -> Sequence[int] | None: ...


def round_seed(event_seed: str, round_number: int) -> str:
    """The one seed every table of a tournament's round ``round_number`` is dealt from."""
    return f"{event_seed}/round {round_number}"


def deal_table(rules: Rules, names: Sequence[str], seed: str) -> Game:
    """A table's game for a duplicate round: same seed and size, same deals at every seat."""
    return Game(rules, list(names), seed=seed)


@dataclass(frozen=True, slots=True)
class TablePlay:
    """One table's finished rounds, with the player at each seat (``None``: a bot)."""

    players: tuple[str | None, ...]
    rounds: tuple[Dealt, ...]

    @classmethod
    def of(cls, players: Sequence[str | None], game: Game) -> TablePlay:
        """The rounds ``game`` has finished so far, played by ``players`` in seat order."""
        return cls(tuple(players), game.rounds())


@dataclass(frozen=True, slots=True)
class DuplicateScore:
    """A player's duplicate result: matchpoints won out of the comparisons made."""

    matchpoints: Fraction
    comparisons: int

    @property
    def percent(self) -> float | None:
        """Matchpoints per comparison, as a percentage; ``None`` with nothing to compare."""
        if not self.comparisons:
            return None
        return float(100 * self.matchpoints / self.comparisons)


def duplicate_scores(tables: Iterable[TablePlay]) -> dict[str, DuplicateScore]:
    """Every player's duplicate score over ``tables`` (bots are compared with, never scored)."""
    held: defaultdict[DealKey, list[tuple[int, str | None, int]]] = defaultdict(list)
    for index, table in enumerate(tables):
        for result in table.rounds:
            if result.points is None:
                continue  # a round still being played is not a result yet
            for seat, player in enumerate(table.players):
                key = (result.number, result.hands, result.trump_card, seat)
                held[key].append((index, player, result.points[seat]))
    scores: dict[str, DuplicateScore] = {}
    for holders in held.values():
        for index, player, points in holders:
            if player is None:
                continue
            others = [other for table, _, other in holders if table != index]
            won = sum((versus(points, other) for other in others), Fraction(0))
            before = scores.get(player, DuplicateScore(Fraction(0), 0))
            scores[player] = DuplicateScore(
                before.matchpoints + won, before.comparisons + len(others)
            )
    return scores


def versus(points: int, other: int) -> Fraction:
    """One comparison: 1 for the better score, 1/2 for the same, 0 for the worse (a deal's
    matchpoint, and a game's tournament point against one opponent)."""
    if points == other:
        return Fraction(1, 2)
    return Fraction(1 if points > other else 0)
