"""Swiss seating for card tables: who sits with whom in a tournament's next round.

The players come in order of their standing. They are cut into tables of the event's size
from the top ("leaders together"); then, at each boundary between two neighbouring tables,
one player of the upper table may change places with one of the lower, when that lowers
the number of repeated opponents. Among the seatings reachable so (every player at their
standing's table or one table off, at most one exchange per boundary) the one with the
fewest repeated pairs is chosen exactly, by dynamic programming over the boundaries; ties
go to fewer exchanges, then to exchanges between players closer in the standing.

A count that does not fill the tables is settled one of two ways (``Fill``): bots take
the missing seats, as few as the count demands and spread over the lowest tables (bots
are never ranked: they are ``None`` in a table), or the extra players sit the round out
with a bye, given to those with the fewest byes so far, lowest in the standing first.
The rules of the format are in docs/tournaments.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from raspisnoy.core import InvalidInputError

TABLE_SIZES = (3, 4, 5)

Table = tuple[str | None, ...]
"""A table's players in seat order; ``None`` is a seat a bot fills."""


class Fill(StrEnum):
    """What happens to the players a round's full tables cannot seat."""

    BOTS = "bots"  # bots fill the short tables
    BYES = "byes"  # the extra players sit out with a bye


@dataclass(frozen=True, slots=True)
class Seating:
    """One round's seating: the tables from the top one down, and who sits out."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


class Meetings:
    """How many times each pair of players has sat at one table (bots do not count)."""

    __slots__ = ("_pairs",)

    def __init__(self, tables: Iterable[Table] = ()) -> None:
        self._pairs: Counter[tuple[str, str]] = Counter()
        for table in tables:
            self.add(table)

    def add(self, table: Table) -> None:
        """Count every pair of people at ``table`` as having met once more."""
        people = sorted(player for player in table if player is not None)
        self._pairs.update(combinations(people, 2))

    def count(self, one: str, other: str) -> int:
        """How many times ``one`` and ``other`` have met."""
        return self._pairs.get((one, other) if one < other else (other, one), 0)

    def repeats(self, table: Table) -> int:
        """The repeated meetings a table would add: the sum of its pairs' past meetings."""
        pairs = self._pairs
        people = sorted(player for player in table if player is not None)
        return sum(pairs.get(pair, 0) for pair in combinations(people, 2)) if pairs else 0


def seat_round(
    standing: Sequence[str],
    size: int,
    meetings: Meetings,
    *,
    fill: Fill = Fill.BOTS,
    byes_had: Mapping[str, int] | None = None,
) -> Seating:
    """Seat the players of ``standing`` (best first) at tables of ``size`` for one round."""
    if size not in TABLE_SIZES:
        raise InvalidInputError(f"a table seats 3, 4 or 5 players, not {size}")
    if len(set(standing)) != len(standing):
        raise InvalidInputError("a player is listed twice in the standing")
    if not standing:
        return Seating(())
    byes: tuple[str, ...] = ()
    if fill is Fill.BYES:
        if len(standing) < size:
            raise InvalidInputError(f"{len(standing)} players cannot fill a table of {size}")
        byes = choose_byes(standing, len(standing) % size, byes_had or {})
        standing = [player for player in standing if player not in byes]
    groups = _natural_groups(standing, size)
    tables = _best_tables(groups, meetings)
    return Seating(tuple(table + (None,) * (size - len(table)) for table in tables), byes)


def choose_byes(
    standing: Sequence[str], count: int, byes_had: Mapping[str, int]
) -> tuple[str, ...]:
    """The ``count`` players who sit out: fewest byes so far first, then lowest standing."""
    place = {player: index for index, player in enumerate(standing)}
    order = sorted(standing, key=lambda player: (byes_had.get(player, 0), -place[player]))
    return tuple(sorted(order[:count], key=place.__getitem__))


def _natural_groups(standing: Sequence[str], size: int) -> list[list[str]]:
    """The standing cut into as few tables as seat everyone, the fuller tables on top."""
    tables = -(-len(standing) // size)
    base, extra = divmod(len(standing), tables)
    groups, start = [], 0
    for index in range(tables):
        end = start + base + (1 if index < extra else 0)
        groups.append(list(standing[start:end]))
        start = end
    return groups


_Exchange = tuple[str, str] | None
"""At a boundary: (the upper table's player who goes down, the lower's who comes up)."""


_Cost = tuple[int, int, int]
"""A partial seating's cost: repeats, then exchanges, then how far exchanged players stood."""


def _best_tables(groups: list[list[str]], meetings: Meetings) -> list[tuple[str, ...]]:
    """The seating with the fewest repeats among the natural groups and single exchanges."""
    natural = [tuple(group) for group in groups]
    if all(meetings.repeats(table) == 0 for table in natural):
        return natural
    rank = {player: place for place, player in enumerate(p for group in groups for p in group)}
    boundaries = [_exchanges(groups, index) for index in range(len(groups) - 1)] + [[None]]
    best: dict[_Exchange, _Cost] = {None: (0, 0, 0)}  # by the exchange below the last table
    came_from: list[dict[_Exchange, _Exchange]] = []  # per table: below → the exchange above
    for index, group in enumerate(groups):
        table_repeats = _TableRepeats(group, meetings)
        step: dict[_Exchange, _Cost] = {}
        came: dict[_Exchange, _Exchange] = {}
        for above, cost in best.items():
            for below in boundaries[index]:
                repeats = table_repeats.of(above, below)
                if repeats is None:
                    continue
                total = _add(cost, repeats, below, rank)
                if below not in step or total < step[below]:
                    step[below], came[below] = total, above
        best = step
        came_from.append(came)
    chosen: list[_Exchange] = [None]
    for came in reversed(came_from[1:]):
        chosen.append(came[chosen[-1]])
    chosen.reverse()
    tables, above = [], None
    for group, below in zip(groups, chosen, strict=True):
        table = _table(group, above, below)
        assert table is not None
        tables.append(tuple(sorted(table, key=rank.__getitem__)))
        above = below
    return tables


class _TableRepeats:
    """The repeats at one natural table after exchanges, from its pair sums, without
    building the table: the search asks this for every pair of exchanges above and below.

    With ``above`` = (d', u') (d' comes down into the table, u' goes up out of it) and
    ``below`` = (d, u) (d goes down, u comes up), the repeats are the natural table's,
    plus a part that depends on ``above`` alone, one on ``below`` alone, and the four
    pairs across them: u' and d left together, d' meets d's and u's absence, d' and u
    meet. The one-sided parts are computed once per exchange (``side``)."""

    __slots__ = ("_count", "_group", "_sides", "_total")

    def __init__(self, group: list[str], meetings: Meetings) -> None:
        self._group, self._count = group, meetings.count
        self._total = meetings.repeats(tuple(group))
        self._sides: dict[tuple[str, str], int] = {}

    def _met_group(self, player: str) -> int:
        """How many earlier meetings ``player`` has with the natural table's players."""
        count = self._count
        return sum(count(player, other) for other in self._group)

    def _side(self, joining: str, leaving: str) -> int:
        """What one exchange alone changes: ``joining`` meets the table, ``leaving`` no
        longer does, and the two never meet at it."""
        key = (joining, leaving)
        if key not in self._sides:
            self._sides[key] = (
                self._met_group(joining) - self._met_group(leaving) - self._count(joining, leaving)
            )
        return self._sides[key]

    def of(self, above: _Exchange, below: _Exchange) -> int | None:
        """The repeats with ``above`` and ``below`` made; ``None`` if they clash."""
        repeats = self._total
        if above:
            repeats += self._side(above[0], above[1])
        if below:
            if above and above[1] == below[0]:
                return None  # one player cannot go both up and down
            repeats += self._side(below[1], below[0])
        if above and below:
            count = self._count
            repeats += (
                count(above[1], below[0])
                + count(above[0], below[1])
                - count(above[0], below[0])
                - count(below[1], above[1])
            )
        return repeats


def _exchanges(groups: list[list[str]], index: int) -> list[_Exchange]:
    """The exchanges possible between table ``index`` and the one below: none, or any pair."""
    return [None, *((down, up) for down in groups[index] for up in groups[index + 1])]


def _table(group: list[str], above: _Exchange, below: _Exchange) -> list[str] | None:
    """Table's players after the exchanges above and below it; ``None`` if they clash."""
    leaving = {above[1]} if above else set()
    if below:
        if below[0] in leaving:
            return None  # one player cannot go both up and down
        leaving.add(below[0])
    table = [player for player in group if player not in leaving]
    if above:
        table.append(above[0])
    if below:
        table.append(below[1])
    return table


def _add(
    cost: tuple[int, int, int], repeats: int, below: _Exchange, rank: Mapping[str, int]
) -> tuple[int, int, int]:
    """The running cost: repeats, then exchanges, then how far exchanged players stood apart."""
    if below is None:
        return (cost[0] + repeats, cost[1], cost[2])
    return (cost[0] + repeats, cost[1] + 1, cost[2] + rank[below[1]] - rank[below[0]])
