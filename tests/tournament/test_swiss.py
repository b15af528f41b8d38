"""Swiss seating's properties: everyone seated once, leaders together, repeats minimal
(against a brute force over every seating the rules allow), bots and byes fair."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.core import InvalidInputError
from raspisnoy.tournament import TABLE_SIZES, Fill, Meetings, Seating, seat_round

Table = tuple[str | None, ...]


def names(count: int) -> list[str]:
    """Players named by their place in the standing, so failures read easily."""
    return [f"p{index:03}" for index in range(count)]


@st.composite
def events(draw: st.DrawFn, most: int) -> tuple[list[str], int, Meetings]:
    """A standing of up to ``most`` players, a table size, and some past tables."""
    size = draw(st.sampled_from(TABLE_SIZES))
    players = names(draw(st.integers(1, most)))
    standing = draw(st.permutations(players))
    past = draw(st.lists(st.lists(st.sampled_from(players), min_size=1, max_size=5, unique=True)))
    return list(standing), size, Meetings(tuple(table) for table in past)


def human_counts(seating: Seating) -> list[int]:
    """How many people sit at each table, top first."""
    return [sum(player is not None for player in table) for table in seating.tables]


def natural_tables(seated: list[str], counts: list[int]) -> dict[str, int]:
    """Each player's table if the standing were cut into tables of ``counts`` from the top."""
    natural: dict[str, int] = {}
    start = 0
    for index, count in enumerate(counts):
        natural.update((player, index) for player in seated[start : start + count])
        start += count
    return natural


def allowed(natural: dict[str, int], at: dict[str, int], tables: int) -> bool:
    """Every player within one table of their natural one, at most one down per boundary."""
    if any(abs(at[player] - natural[player]) > 1 for player in natural):
        return False
    down = Counter(natural[player] for player in natural if at[player] > natural[player])
    return all(down[boundary] <= 1 for boundary in range(tables))


def repeats(seating_tables: Sequence[Table], meetings: Meetings) -> int:
    """The repeated meetings of a whole seating."""
    return sum(meetings.repeats(table) for table in seating_tables)


def brute_force_least_repeats(seated: list[str], counts: list[int], meetings: Meetings) -> int:
    """The fewest repeats over every seating with these table counts that the rules allow:
    each player tried at each table within one of their own, every full seating checked."""
    natural = natural_tables(seated, counts)
    best: list[int] = []

    def place(index: int, tables: list[list[str]]) -> None:
        if index == len(seated):
            at = {p: number for number, table in enumerate(tables) for p in table}
            if allowed(natural, at, len(counts)):
                best.append(repeats([tuple(table) for table in tables], meetings))
            return
        player = seated[index]
        for number in range(max(0, natural[player] - 1), min(len(counts), natural[player] + 2)):
            if len(tables[number]) < counts[number]:
                tables[number].append(player)
                place(index + 1, tables)
                tables[number].pop()

    place(0, [[] for _ in counts])
    return min(best)


def seated_of(standing: list[str], seating: Seating) -> list[str]:
    """The standing without the players who have a bye."""
    return [player for player in standing if player not in seating.byes]


@settings(max_examples=300)
@given(events(most=60), st.sampled_from(Fill))
def test_everyone_sits_once_at_full_tables(
    event: tuple[list[str], int, Meetings], fill: Fill
) -> None:
    standing, size, meetings = event
    if fill is Fill.BYES and len(standing) < size:
        with pytest.raises(InvalidInputError):
            seat_round(standing, size, meetings, fill=fill)
        return
    seating = seat_round(standing, size, meetings, fill=fill)
    people = [p for table in seating.tables for p in table if p is not None]
    assert sorted(people + list(seating.byes)) == sorted(standing)
    assert all(len(table) == size for table in seating.tables)
    bots = sum(table.count(None) for table in seating.tables)
    if fill is Fill.BOTS:
        assert not seating.byes
        assert len(seating.tables) == -(-len(standing) // size)  # as few tables as possible
        assert bots == len(seating.tables) * size - len(standing)  # so as few bots
        counts = human_counts(seating)
        assert counts == sorted(counts, reverse=True)  # short tables at the bottom
        assert max(counts) - min(counts) <= 1  # bots spread out
    else:
        assert bots == 0
        assert len(seating.byes) == len(standing) % size


@settings(max_examples=300)
@given(events(most=60), st.sampled_from(Fill))
def test_leaders_sit_together(event: tuple[list[str], int, Meetings], fill: Fill) -> None:
    standing, size, meetings = event
    if fill is Fill.BYES and len(standing) < size:
        return
    seating = seat_round(standing, size, meetings, fill=fill)
    seated = seated_of(standing, seating)
    natural = natural_tables(seated, human_counts(seating))
    at = {p: index for index, table in enumerate(seating.tables) for p in table if p is not None}
    assert allowed(natural, at, len(seating.tables))
    for table in seating.tables:  # seats in standing order, bots last
        people = [p for p in table if p is not None]
        assert people == sorted(people, key=seated.index)
        assert list(table[len(people) :]) == [None] * (size - len(people))


@settings(max_examples=200, deadline=None)
@given(events(most=11))
def test_repeats_are_the_fewest_possible(event: tuple[list[str], int, Meetings]) -> None:
    standing, size, meetings = event
    seating = seat_round(standing, size, meetings)
    counts = human_counts(seating)
    least = brute_force_least_repeats(standing, counts, meetings)
    assert repeats(list(seating.tables), meetings) == least


@settings(max_examples=200)
@given(events(most=40))
def test_no_repeats_means_the_standing_cut_as_it_is(event: tuple[list[str], int, Meetings]) -> None:
    standing, size, meetings = event
    seating = seat_round(standing, size, meetings)
    natural = natural_tables(standing, human_counts(seating))
    cut: list[Table] = [
        tuple(p for p in standing if natural[p] == index) for index in range(len(seating.tables))
    ]
    if repeats(cut, meetings) == 0:
        assert [tuple(p for p in table if p is not None) for table in seating.tables] == cut


@settings(max_examples=100, deadline=None)
@given(st.integers(5, 23), st.sampled_from(TABLE_SIZES), st.integers(1, 12), st.randoms())
def test_byes_are_fair(count: int, size: int, rounds: int, rng: random.Random) -> None:
    """A bye goes to the lowest placed of those who have had the fewest, so over the rounds
    nobody has two byes more than anyone."""
    players = names(count)
    byes: Counter[str] = Counter()
    meetings = Meetings()
    for _ in range(rounds):
        standing = list(players)
        rng.shuffle(standing)
        seating = seat_round(standing, size, meetings, fill=Fill.BYES, byes_had=byes)
        for player in seating.byes:
            for other in set(standing) - set(seating.byes):
                assert (byes[player], standing.index(other)) < (byes[other], standing.index(player))
        byes.update(seating.byes)
        assert max(byes[p] for p in players) - min(byes[p] for p in players) <= 1
        for table in seating.tables:
            meetings.add(table)


def test_an_exchange_avoids_a_repeat() -> None:
    """p0..p3 met last round; p3 and p4 change places, the closest exchange that helps."""
    players = names(8)
    meetings = Meetings([tuple(players[:4])])
    seating = seat_round(players, 4, meetings)
    assert seating.tables == (("p000", "p001", "p002", "p004"), ("p003", "p005", "p006", "p007"))


def test_bots_fill_the_lowest_tables() -> None:
    seating = seat_round(names(10), 4, Meetings())
    assert seating.tables == (
        ("p000", "p001", "p002", "p003"),
        ("p004", "p005", "p006", None),
        ("p007", "p008", "p009", None),
    )


def test_a_thousand_players() -> None:
    """A big event's second round: the table winners first, then the seconds and so on;
    everyone seated once and nobody meets an opponent of round one. When the standing
    has not moved at all, the exchanges still seat fewer repeats than the plain cut."""
    players = names(1000)
    first = [tuple(players[start : start + 4]) for start in range(0, 1000, 4)]
    meetings = Meetings(first)
    standing = [table[place] for place in range(4) for table in first]
    seating = seat_round(standing, 4, meetings)
    assert sorted(p for table in seating.tables for p in table if p is not None) == players
    assert repeats(list(seating.tables), meetings) == 0
    unmoved = seat_round(players, 4, meetings)
    assert repeats(list(unmoved.tables), meetings) < repeats(first, meetings)


def test_bad_input() -> None:
    with pytest.raises(InvalidInputError):
        seat_round(names(6), 6, Meetings())
    with pytest.raises(InvalidInputError):
        seat_round(["a", "a", "b"], 3, Meetings())
    assert seat_round([], 4, Meetings()) == Seating(())
