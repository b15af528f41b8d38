"""``FriendsRepository`` under two workers at once: a follow and a block of the same pair
run one after the other (both lock the pair's rows first), so a follow never outlives a
block, whichever of the two came first. On PostgreSQL only: ``until_blocked_by`` watches
its locks, and SQLite has one writer at a time anyway."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people

from raspisnoy.store import FriendsRepository, Store
from raspisnoy.store.friends import BlockedError
from raspisnoy.store.models import Block, Follow
from raspisnoy.store.repository import lock_users


def only_postgresql(store: Store) -> None:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing commits between a check and a write")


def test_a_follow_waits_for_a_block_of_the_pair_and_is_refused(store: Store) -> None:
    """Boris blocks Anna on one worker (his transaction holds the pair's rows, not yet
    committed) while Anna follows him on another: her follow waits for the block and
    is refused, so she never learns where he plays."""
    only_postgresql(store)
    anna, boris = people(store, "Anna", "Boris")
    friends = FriendsRepository(store)

    def block(session: Session) -> None:
        lock_users(session, {anna.id, boris.id})  # as ``block`` begins
        session.add(Block(blocker_id=boris.id, blocked_id=anna.id, created_at=datetime.now(UTC)))

    def follow() -> object:
        try:
            return friends.follow(anna.id, boris.id)
        except BlockedError as error:
            return type(error)

    assert answer_behind(store, block, follow) is BlockedError
    assert not friends.follows(anna.id, boris.id)
    assert friends.blocked_with(anna.id) == {boris.id}


def test_a_block_waits_for_a_follow_of_the_pair_and_ends_it(store: Store) -> None:
    """Anna's follow is being stored (not yet committed) when Boris blocks her: his block
    waits for it and then ends it with the others of the pair."""
    only_postgresql(store)
    anna, boris = people(store, "Anna", "Boris")
    friends = FriendsRepository(store)

    def follow(session: Session) -> None:
        lock_users(session, {anna.id, boris.id})  # as ``follow`` begins
        session.add(Follow(follower_id=anna.id, followed_id=boris.id, created_at=datetime.now(UTC)))

    assert answer_behind(store, follow, lambda: friends.block(boris.id, anna.id)) is True
    assert not friends.follows(anna.id, boris.id)
    assert friends.blocked_with(anna.id) == {boris.id}


def test_a_follow_after_a_block_either_way_is_refused(store: Store) -> None:
    """On either backend: the block is checked in the follow's own transaction, whoever
    of the two blocked the other."""
    anna, boris = people(store, "Anna", "Boris")
    friends = FriendsRepository(store)
    friends.block(boris.id, anna.id)
    for follower, followed in ((anna, boris), (boris, anna)):
        with pytest.raises(BlockedError):
            friends.follow(follower.id, followed.id)
    assert friends.following(anna.id) == friends.following(boris.id) == []
