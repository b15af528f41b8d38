"""``FriendsRepository``: follows one way with "follows back", blocks that end the follows
between the two, and the blocked pairs among some people (for the pool)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_helpers import people

from raspisnoy.store import FriendRow, FriendsRepository, NotFoundError, Players, Store


def test_a_follow_is_one_way_and_says_whether_it_is_returned(store: Store) -> None:
    anna, boris, vera = people(store, "Anna", "Boris", "Vera")
    friends = FriendsRepository(store)
    assert friends.follow(anna.id, boris.id) and not friends.follow(anna.id, boris.id)
    assert friends.follow(anna.id, vera.id) and friends.follow(vera.id, anna.id)
    assert friends.following(anna.id) == [
        FriendRow(boris.id, "Boris", False),
        FriendRow(vera.id, "Vera", True),
    ]
    assert friends.following(boris.id) == []
    assert friends.follows(anna.id, boris.id) and not friends.follows(boris.id, anna.id)
    assert friends.mutual(anna.id, vera.id) and friends.mutual(vera.id, anna.id)
    assert not friends.mutual(anna.id, boris.id)
    assert friends.unfollow(anna.id, boris.id) and not friends.unfollow(anna.id, boris.id)
    assert friends.following(anna.id) == [FriendRow(vera.id, "Vera", True)]
    with pytest.raises(NotFoundError):
        friends.follow(anna.id, "nobody")


def test_a_block_ends_the_follows_both_ways_and_is_lifted_alone(store: Store) -> None:
    anna, boris = people(store, "Anna", "Boris")
    friends = FriendsRepository(store)
    friends.follow(anna.id, boris.id)
    friends.follow(boris.id, anna.id)
    assert friends.block(anna.id, boris.id) and not friends.block(anna.id, boris.id)
    assert friends.following(anna.id) == friends.following(boris.id) == []
    assert friends.blocked_by(anna.id) == [FriendRow(boris.id, "Boris", False)]
    assert friends.blocked_by(boris.id) == []
    assert friends.blocks(anna.id, boris.id) and not friends.blocks(boris.id, anna.id)
    assert friends.blocked_with(anna.id) == {boris.id}
    assert friends.blocked_with(boris.id) == {anna.id}
    assert friends.unblock(anna.id, boris.id) and not friends.unblock(anna.id, boris.id)
    assert friends.blocked_with(anna.id) == friends.blocked_with(boris.id) == frozenset()
    assert not friends.follows(anna.id, boris.id)  # lifting a block restores no follow
    with pytest.raises(NotFoundError):
        friends.block(anna.id, "nobody")


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    blocks=st.sets(st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(lambda p: p[0] != p[1])),
    asked=st.sets(st.integers(0, 5)),
)
def test_the_blocked_pairs_among_people_are_exactly_those_either_blocked(
    store: Store, blocks: set[tuple[int, int]], asked: set[int]
) -> None:
    persons = people(store, *(f"P{n}" for n in range(5)))
    ids = [person.id for person in persons] + ["nobody"]  # an unknown id is in no pair
    friends = FriendsRepository(store)
    for blocker, blocked in blocks:
        friends.block(ids[blocker], ids[blocked])
    expected = {
        frozenset((ids[a], ids[b]))
        for a, b in itertools.combinations(sorted(asked), 2)
        if (a, b) in blocks or (b, a) in blocks
    }
    assert friends.blocked_among([ids[n] for n in asked]) == expected


def test_a_deleted_account_keeps_no_follows_or_blocks_and_takes_none(store: Store) -> None:
    anna, boris, vera = people(store, "Anna", "Boris", "Vera")
    friends = FriendsRepository(store)
    friends.follow(anna.id, boris.id)
    friends.follow(boris.id, anna.id)
    friends.follow(anna.id, vera.id)
    friends.block(vera.id, boris.id)
    friends.block(boris.id, anna.id)  # ends Anna's follow of Boris and his of her
    friends.follow(vera.id, anna.id)
    Players(store).delete_account(boris.id)
    assert friends.following(anna.id) == [FriendRow(vera.id, "Vera", True)]
    assert friends.blocked_by(vera.id) == friends.blocked_by(boris.id) == []
    assert friends.blocked_with(anna.id) == friends.blocked_with(vera.id) == frozenset()
    for refused in (friends.follow, friends.block):
        with pytest.raises(NotFoundError):
            refused(anna.id, boris.id)
    assert friends.following(anna.id) == [FriendRow(vera.id, "Vera", True)]
    assert friends.blocked_by(anna.id) == []
