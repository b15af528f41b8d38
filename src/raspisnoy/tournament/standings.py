"""A tournament's standings: each round's games turned into points, and the order of
the players with its tie-breaks stated (docs/tournaments.md, "Standings").

A game gives each person one point for every opponent (person or bot) who finished
below them and half a point for every one level with them, so a win at a table of four
is 3 points and every table hands out the same total whatever its size's share of bots.
A bye (``choose_byes``) scores half a point per opponent of the event's table size: the
average a table hands out. The standing orders by points, then by duplicate score (the
matchpoint percentage of ``duplicate_scores``; none counts as 50 %, the field's
average), then by the game points summed (the score sheets' totals), then by name
(without regard to case; two of one name by their key), so the order is total and the
same on every worker.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from raspisnoy.tournament.duplicate import DuplicateScore, TablePlay, duplicate_scores, versus

__all__ = ["Line", "game_points", "standings"]

#: What an unknown duplicate score counts as in the tie-break: the field's average.
_NO_DUPLICATE = 50.0


@dataclass(frozen=True, slots=True)
class Line:
    """A player's line in the standings (``place`` from 1; bots have none)."""

    place: int
    player: str
    points: Fraction
    duplicate: float | None
    totals: int
    games: int
    byes: int


def game_points(totals: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's tournament points from a finished game's totals: one per opponent
    below, a half per opponent level (``versus``)."""
    return tuple(
        sum((versus(mine, other) for seat, other in enumerate(totals) if seat != me), Fraction(0))
        for me, mine in enumerate(totals)
    )


def standings(
    rounds: Iterable[Sequence[TablePlay]],
    byes: Mapping[str, int],
    size: int,
    players: Iterable[str] = (),
    *,
    names: Mapping[str, str] | None = None,
    duplicate_first: bool = False,
) -> list[Line]:
    """The standings after ``rounds`` (each round's finished tables) and the byes each
    player had (``byes``) in an event of tables of ``size``. ``players`` adds those who
    have neither played nor had a bye yet (with nothing). ``names``: the players' names
    where they are known by other keys (a tournament's entry ids), for the last
    tie-break; a key without one is its own name. ``duplicate_first``: the duplicate
    format, ordered by the duplicate score first, then by points."""
    points: dict[str, Fraction] = {}
    totals: dict[str, int] = {}
    games: dict[str, int] = {}
    plays: list[TablePlay] = []
    for tables in rounds:
        for table in tables:
            plays.append(table)
            final = _totals(table)
            for player, won, total in zip(table.players, game_points(final), final, strict=True):
                if player is None:
                    continue
                points[player] = points.get(player, Fraction(0)) + won
                totals[player] = totals.get(player, 0) + total
                games[player] = games.get(player, 0) + 1
    for player, count in byes.items():
        points[player] = points.get(player, Fraction(0)) + Fraction(count * (size - 1), 2)
    everyone = set(points) | set(byes) | set(players)
    duplicate = duplicate_scores(plays)
    known = names or {}
    ordered = sorted(
        everyone,
        key=lambda p: _order(p, known.get(p, p), points, duplicate, totals, duplicate_first),
    )
    return [
        Line(
            place,
            player,
            points.get(player, Fraction(0)),
            duplicate[player].percent if player in duplicate else None,
            totals.get(player, 0),
            games.get(player, 0),
            byes.get(player, 0),
        )
        for place, player in enumerate(ordered, start=1)
    ]


def _totals(table: TablePlay) -> list[int]:
    """Each seat's points over the table's finished rounds."""
    finished = [result.points for result in table.rounds if result.points is not None]
    return [sum(points[seat] for points in finished) for seat in range(len(table.players))]


def _order(
    player: str,
    name: str,
    points: Mapping[str, Fraction],
    duplicate: Mapping[str, DuplicateScore],
    totals: Mapping[str, int],
    duplicate_first: bool,
) -> tuple[Fraction | float, Fraction | float, int, str, str]:
    """The sort key: more points, better duplicate score (these two the other way round
    with ``duplicate_first``), more game points, then the name ``name`` without regard to
    case (as the standings' note says), then the key ``player``, so that two players of
    one name keep one order."""
    score = duplicate[player].percent if player in duplicate else None
    first: Fraction | float = -points.get(player, Fraction(0))
    second: Fraction | float = -(_NO_DUPLICATE if score is None else score)
    if duplicate_first:
        first, second = second, first
    return (first, second, -totals.get(player, 0), name.casefold(), player)
