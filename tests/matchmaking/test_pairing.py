"""The pool's pairing (``raspisnoy.matchmaking.pair``): its invariants over any pool.

Nobody is seated twice, every table is legal for each of its members' choices, no table's
rating spread is above the gap any member accepts for the time waited, two people who
avoid each other never share a table; and the pairing does pair: a pool that can fill a
table fills one, and a lone person past their bot deadline gets a bot table.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from raspisnoy.matchmaking import BOT_WAITS, GAP, SPEEDS, Match, Seek, pair, preset_counts

#: A few presets with different numbers of players, so that counts and presets clash.
PRESETS = sorted(preset_counts())[:3]
NOW = 1000.0


@st.composite
def seeks(draw: st.DrawFn, person: int) -> Seek[int]:
    presets = frozenset(draw(st.lists(st.sampled_from(PRESETS), min_size=1, unique=True)))
    players = frozenset(draw(st.lists(st.sampled_from([3, 4, 5]), min_size=1, unique=True)))
    return Seek(
        person=person,
        rating=draw(st.floats(500, 1800)),
        presets=presets,
        players=players,
        speed=draw(st.sampled_from(sorted(SPEEDS))),
        rated=draw(st.booleans()),
        bot_wait=draw(st.sampled_from(BOT_WAITS)),
        since=NOW - draw(st.floats(0, 200)),
    )


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[Seek[int]], set[frozenset[int]]]:
    """People waiting (ids 0…), a few with the same choices so that tables fill, and
    pairs of them that avoid each other."""
    size = draw(st.integers(0, 40))
    people: list[Seek[int]] = [draw(seeks(person)) for person in range(size)]
    crowd: bool = draw(st.booleans())
    if people and crowd:  # a crowd with the first one's choices
        first = people[0]
        for person in range(size, size + draw(st.integers(1, 8))):
            rating = first.rating + draw(st.floats(-150, 150))
            since = NOW - draw(st.floats(0, 200))
            people.append(Seek(person, rating, *_choices(first), since))
    ids = [seek.person for seek in people]
    avoid: set[frozenset[int]] = set()
    if len(ids) >= 2:
        for _ in range(draw(st.integers(0, len(ids)))):
            a, b = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True))
            avoid.add(frozenset((a, b)))
    return people, avoid


def _choices(seek: Seek[int]) -> tuple[frozenset[str], frozenset[int], str, bool, int | None]:
    return seek.presets, seek.players, seek.speed, seek.rated, seek.bot_wait


@given(pools())
def test_nobody_is_seated_twice(pool: tuple[list[Seek[int]], set[frozenset[int]]]) -> None:
    people, avoid = pool
    seated = [person for match in pair(people, NOW, avoid=avoid) for person in match.people]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {seek.person for seek in people}


@given(pools())
def test_every_table_is_legal_for_its_members(
    pool: tuple[list[Seek[int]], set[frozenset[int]]],
) -> None:
    people, avoid = pool
    by_id = {seek.person: seek for seek in people}
    for match in pair(people, NOW, avoid=avoid):
        members = [by_id[person] for person in match.people]
        assert 1 <= len(members) <= match.players
        assert match.players in preset_counts()[match.preset]
        for seek in members:
            assert match.preset in seek.presets
            assert match.players in seek.players
            assert (seek.speed, seek.rated) == (match.speed, match.rated)
        assert [seek.since for seek in members] == sorted(seek.since for seek in members)
        if not match.full:  # bots take the rest: only once one member's deadline passed
            assert all(seek.bot_wait is not None for seek in members)
            assert min(seek.deadline() for seek in members) <= NOW


@given(pools())
def test_no_spread_above_the_gap_for_the_time_waited(
    pool: tuple[list[Seek[int]], set[frozenset[int]]],
) -> None:
    people, avoid = pool
    by_id = {seek.person: seek for seek in people}
    for match in pair(people, NOW, avoid=avoid):
        ratings = [by_id[person].rating for person in match.people]
        for person in match.people:
            assert max(ratings) - min(ratings) <= GAP.allowed(NOW - by_id[person].since)


@given(pools())
def test_people_who_avoid_each_other_never_share_a_table(
    pool: tuple[list[Seek[int]], set[frozenset[int]]],
) -> None:
    people, avoid = pool
    for match in pair(people, NOW, avoid=avoid):
        for a in match.people:
            for b in match.people:
                assert a == b or frozenset((a, b)) not in avoid


@given(st.data())
def test_a_crowd_with_the_same_choices_fills_a_table(data: st.DataObject) -> None:
    """Enough people accepting the same table, close in rating, are seated at full tables
    at once, whatever their bot deadlines."""
    first = data.draw(seeks(0))
    size = max(first.players)
    crowd = [first] + [
        Seek(person, first.rating + data.draw(st.floats(-50, 50)), *_choices(first), NOW)
        for person in range(1, size)
    ]
    matches = pair(crowd, NOW)
    assert [match.full for match in matches] == [True]
    assert sorted(matches[0].people) == list(range(size))


@given(seeks(0))
def test_alone_past_the_deadline_gets_the_bot_table_asked_for(seek: Seek[int]) -> None:
    matches = pair([seek], NOW)
    if seek.deadline() <= NOW:
        assert matches == [
            Match(matches[0].preset, matches[0].players, seek.speed, seek.rated, (0,))
        ]
        assert matches[0].preset in seek.presets
    else:  # never, or not yet: keeps waiting
        assert matches == []


def test_a_blocked_pair_waits_for_others() -> None:
    """Two people who would make a table, one of whom blocked the other, are not paired;
    a third person fits with either."""
    preset = PRESETS[0]
    players = min(preset_counts()[preset])

    def seek(person: int) -> Seek[int]:
        return Seek(
            person, 1000.0, frozenset({preset}), frozenset({players}), "normal", False, None, NOW
        )

    people = [seek(person) for person in range(players + 1)]
    matches = pair(people, NOW, avoid={frozenset((0, 1))})
    assert len(matches) == 1
    assert not {0, 1} <= set(matches[0].people)
    assert len(matches[0].people) == players
