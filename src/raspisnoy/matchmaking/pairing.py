"""Pairing people who wait in the pool into tables.

A ``Seek`` is one person's entry: their rating and what they accept (presets, numbers of
players, a speed, rated or not, how long before bots fill the free seats). ``pair`` looks at
everyone waiting at one moment and returns the tables to open now, each a ``Match``:

- people are taken oldest first; each one's table is built from the compatible people
  whose ratings are closest to theirs;
- a table's rating spread (highest minus lowest) is never above the gap any of its members
  accepts for the time they have waited (``Gap.allowed``: narrow at first, wider with time);
- a table opens when it is full, or when the bot deadline of the person it is built for
  has passed (the first of its members whose deadline comes): then with as many people
  as can be had, bots taking the rest (alone: a bot table), and only with people who
  accept bots at all;
- two people in ``avoid`` (one of them blocked the other) never share a table;
- nobody is in two tables.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Collection, Hashable, Iterable, Mapping, Set
from dataclasses import dataclass
from functools import cache
from typing import Generic, TypeVar

from raspisnoy.core import PRESETS, resolve_rules

__all__ = ["BOT_WAITS", "GAP", "SPEEDS", "Gap", "Match", "Seek", "pair", "preset_counts"]

P = TypeVar("P", bound=Hashable)

#: The speeds a person may choose, each a named turn timer (seconds per action).
SPEEDS: Mapping[str, int] = {"fast": 15, "normal": 30, "slow": 60}
#: How long a person may wait before bots fill the free seats (seconds; ``None``: never).
BOT_WAITS: tuple[int | None, ...] = (None, 30, 60, 120)
#: The most people looked at around each person, for each preset and number of players:
#: enough for the closest ratings, and it bounds a pass's work with many waiting.
_NEIGHBOURS = 64


@dataclass(frozen=True, slots=True)
class Gap:
    """The rating gap a person accepts: ``base`` at once, ``per_second`` more for each
    second waited, ``most`` at most (display rating points)."""

    base: float = 100.0
    per_second: float = 10.0
    most: float = 2000.0

    def allowed(self, waited: float) -> float:
        """The gap accepted after ``waited`` seconds in the pool."""
        return min(self.most, self.base + self.per_second * max(0.0, waited))


#: The pool's gap.
GAP = Gap()


@dataclass(frozen=True, slots=True)
class Seek(Generic[P]):
    """One person in the pool and what they accept."""

    person: P
    rating: float
    presets: frozenset[str]
    players: frozenset[int]
    speed: str
    rated: bool
    #: Seconds after ``since`` from which bots may fill the free seats; ``None``: never.
    bot_wait: int | None
    #: When they joined the pool (seconds, on the caller's clock).
    since: float

    def deadline(self) -> float:
        """From when bots may fill this person's table (``inf``: never)."""
        return math.inf if self.bot_wait is None else self.since + self.bot_wait


@dataclass(frozen=True, slots=True)
class Match(Generic[P]):
    """A table to open: its preset, seats, speed and whether it is rated, and the people in
    it, oldest first; the ``players - len(people)`` other seats are bots'."""

    preset: str
    players: int
    speed: str
    rated: bool
    people: tuple[P, ...]

    @property
    def full(self) -> bool:
        return len(self.people) == self.players


@cache
def preset_counts() -> Mapping[str, frozenset[int]]:
    """The numbers of players each preset is played by (core's rules)."""
    return {name: frozenset(resolve_rules(name).player_counts) for name in PRESETS}


class _Bucket(Generic[P]):
    """The people of one speed, rated or not, and preset, by rating."""

    def __init__(self, seeks: list[Seek[P]]) -> None:
        self.seeks = sorted(seeks, key=lambda seek: seek.rating)
        self.ratings = [seek.rating for seek in self.seeks]

    def nearest(self, rating: float, within: float) -> Iterable[Seek[P]]:
        """The people within ``within`` of ``rating``, closest first (``_NEIGHBOURS`` at
        most)."""
        high = bisect_left(self.ratings, rating)
        low = high - 1
        for _ in range(_NEIGHBOURS):
            below = rating - self.ratings[low] if low >= 0 else math.inf
            above = self.ratings[high] - rating if high < len(self.ratings) else math.inf
            if min(below, above) > within:
                return
            if below <= above:
                yield self.seeks[low]
                low -= 1
            else:
                yield self.seeks[high]
                high += 1


def pair(
    seeks: Iterable[Seek[P]],
    now: float,
    *,
    avoid: Set[frozenset[P]] = frozenset(),
    gap: Gap = GAP,
    counts: Mapping[str, Collection[int]] | None = None,
) -> list[Match[P]]:
    """The tables to open at ``now`` from the people waiting (each person once: a person
    given twice keeps their first seek). ``counts``: the players each preset allows
    (``preset_counts()`` unless given)."""
    allowed_counts = preset_counts() if counts is None else counts
    waiting: dict[P, Seek[P]] = {}
    for seek in seeks:
        waiting.setdefault(seek.person, seek)
    ordered = sorted(waiting.values(), key=lambda seek: seek.since)
    grouped: dict[tuple[str, bool, str], list[Seek[P]]] = {}
    for seek in ordered:
        for preset in seek.presets:
            grouped.setdefault((seek.speed, seek.rated, preset), []).append(seek)
    buckets = {key: _Bucket(group) for key, group in grouped.items()}
    taken: set[P] = set()
    matches: list[Match[P]] = []
    for anchor in ordered:
        if anchor.person in taken:
            continue
        match = _table_for(anchor, now, buckets, taken, avoid, gap, allowed_counts)
        if match is not None:
            taken.update(match.people)
            matches.append(match)
    return matches


def _table_for(
    anchor: Seek[P],
    now: float,
    buckets: Mapping[tuple[str, bool, str], _Bucket[P]],
    taken: Set[P],
    avoid: Set[frozenset[P]],
    gap: Gap,
    counts: Mapping[str, Collection[int]],
) -> Match[P] | None:
    """The table of ``anchor``, the oldest person not yet seated, if one opens now: the
    first full one (presets by name, larger tables first), else, once the anchor's bot
    deadline has passed, the one with the most people who accept bots."""
    due = anchor.bot_wait is not None and anchor.deadline() <= now
    best: Match[P] | None = None
    for preset in sorted(anchor.presets):
        bucket = buckets[(anchor.speed, anchor.rated, preset)]
        for players in sorted(anchor.players & frozenset(counts.get(preset, ())), reverse=True):
            people = _gather(anchor, players, now, bucket, taken, avoid, gap, bots=False)
            if len(people) == players:
                return Match(preset, players, anchor.speed, anchor.rated, people)
            if due:
                people = _gather(anchor, players, now, bucket, taken, avoid, gap, bots=True)
                if best is None or len(people) > len(best.people):
                    best = Match(preset, players, anchor.speed, anchor.rated, people)
    return best


def _gather(
    anchor: Seek[P],
    players: int,
    now: float,
    bucket: _Bucket[P],
    taken: Set[P],
    avoid: Set[frozenset[P]],
    gap: Gap,
    *,
    bots: bool,
) -> tuple[P, ...]:
    """Up to ``players`` people for ``anchor``'s table, closest ratings first, each
    accepting this many players (and bots, if ``bots``), none avoiding another, the spread
    within every member's gap; oldest first."""
    group = [anchor]
    low = high = anchor.rating
    narrowest = gap.allowed(now - anchor.since)
    for other in bucket.nearest(anchor.rating, narrowest):
        if len(group) == players:
            break
        if (
            other.person in taken
            or other is anchor
            or players not in other.players
            or (bots and other.bot_wait is None)
            or any(frozenset((other.person, member.person)) in avoid for member in group)
        ):
            continue
        new_low, new_high = min(low, other.rating), max(high, other.rating)
        new_narrowest = min(narrowest, gap.allowed(now - other.since))
        if new_high - new_low <= new_narrowest:
            group.append(other)
            low, high, narrowest = new_low, new_high, new_narrowest
    return tuple(seek.person for seek in sorted(group, key=lambda seek: seek.since))
