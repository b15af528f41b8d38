"""Who follows whom and who blocked whom (docs/friends.md), over a ``Store``'s engine.

A follow is one-way, as on lichess: following someone shows them in your friends list;
an invitation needs the invitee to follow the inviter. A block is one-way as stored
but works both ways: blocking someone ends the follows between the two in the same
transaction, and the server then keeps them apart (no chat either way, no follow, no
invitation, never paired by the pool: ``blocked_among``). Each method is its own
transaction and returns frozen values, as the repository does.
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, exists, or_, select
from sqlalchemy.orm import Session, aliased, sessionmaker

from raspisnoy.store.models import Block, Follow, User
from raspisnoy.store.repository import NotFoundError, Store, StoreError, lock_users, transaction

__all__ = ["BlockedError", "FriendRow", "FriendsRepository"]


class BlockedError(StoreError):
    """A follow refused: one of the two blocked the other."""


@dataclass(frozen=True, slots=True)
class FriendRow:
    """A person in someone's list: followed by them, or blocked by them."""

    user_id: str
    nickname: str
    #: Whether the person follows the list's owner back.
    follows_back: bool


class FriendsRepository:
    """Follows and blocks over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    def follow(self, follower_id: str, followed_id: str) -> bool:
        """``follower_id`` follows ``followed_id`` from now on; whether that is new.
        ``NotFoundError`` if ``followed_id`` is nobody, or an account deleted;
        ``BlockedError`` if either blocked the other (checked with the pair's rows
        locked, as ``block`` locks them: a follow never outlives a block)."""
        with self._session() as session:
            lock_users(session, {follower_id, followed_id})
            _check_person(session, followed_id)
            if _blocked_either_way(session, follower_id, followed_id):
                raise BlockedError(f"{follower_id!r} and {followed_id!r}: there is a block")
            if session.get(Follow, (follower_id, followed_id)) is not None:
                return False
            session.add(Follow(follower_id=follower_id, followed_id=followed_id, created_at=_now()))
            return True

    def unfollow(self, follower_id: str, followed_id: str) -> bool:
        """Stop following; whether there was a follow to end."""
        with self._session() as session:
            ended = session.execute(
                delete(Follow).where(
                    Follow.follower_id == follower_id, Follow.followed_id == followed_id
                )
            )
            return bool(getattr(ended, "rowcount", 0))

    def follows(self, follower_id: str, followed_id: str) -> bool:
        """Whether ``follower_id`` follows ``followed_id``."""
        with self._session() as session:
            return session.get(Follow, (follower_id, followed_id)) is not None

    def mutual(self, one_id: str, other_id: str) -> bool:
        """Whether the two follow each other (are friends)."""
        with self._session() as session:
            return (
                session.get(Follow, (one_id, other_id)) is not None
                and session.get(Follow, (other_id, one_id)) is not None
            )

    def following(self, user_id: str) -> list[FriendRow]:
        """The people ``user_id`` follows, by nickname, each saying if they follow back."""
        back = aliased(Follow)
        query = (
            select(User.id, User.nickname, back.follower_id)
            .join(Follow, Follow.followed_id == User.id)
            .outerjoin(
                back, (back.follower_id == User.id) & (back.followed_id == Follow.follower_id)
            )
            .where(Follow.follower_id == user_id)
            .order_by(User.nickname, User.id)
        )
        with self._session() as session:
            return [
                FriendRow(id_, nickname, backer is not None)
                for id_, nickname, backer in session.execute(query)
            ]

    def block(self, blocker_id: str, blocked_id: str) -> bool:
        """``blocker_id`` blocks ``blocked_id``: the follows between them end with it;
        whether the block is new. ``NotFoundError`` if ``blocked_id`` is nobody, or an
        account deleted."""
        pair = {blocker_id, blocked_id}
        with self._session() as session:
            lock_users(session, pair)
            _check_person(session, blocked_id)
            session.execute(
                delete(Follow).where(Follow.follower_id.in_(pair), Follow.followed_id.in_(pair))
            )
            if session.get(Block, (blocker_id, blocked_id)) is not None:
                return False
            session.add(Block(blocker_id=blocker_id, blocked_id=blocked_id, created_at=_now()))
            return True

    def unblock(self, blocker_id: str, blocked_id: str) -> bool:
        """Lift a block; whether there was one."""
        with self._session() as session:
            ended = session.execute(
                delete(Block).where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)
            )
            return bool(getattr(ended, "rowcount", 0))

    def blocks(self, blocker_id: str, blocked_id: str) -> bool:
        """Whether ``blocker_id`` blocked ``blocked_id``."""
        with self._session() as session:
            return session.get(Block, (blocker_id, blocked_id)) is not None

    def blocked_by(self, user_id: str) -> list[FriendRow]:
        """The people ``user_id`` blocked, by nickname (``follows_back`` is always false:
        a block ends the follows)."""
        query = (
            select(User.id, User.nickname)
            .join(Block, Block.blocked_id == User.id)
            .where(Block.blocker_id == user_id)
            .order_by(User.nickname, User.id)
        )
        with self._session() as session:
            return [FriendRow(id_, nickname, False) for id_, nickname in session.execute(query)]

    def blocked_with(self, user_id: str) -> frozenset[str]:
        """Everyone ``user_id`` blocked or was blocked by: the people kept apart from them."""
        query = select(Block.blocker_id, Block.blocked_id).where(
            or_(Block.blocker_id == user_id, Block.blocked_id == user_id)
        )
        with self._session() as session:
            return frozenset(
                other for pair in session.execute(query) for other in pair if other != user_id
            )

    def blocked_among(self, person_ids: Collection[str]) -> set[frozenset[str]]:
        """The pairs among ``person_ids`` where either blocked the other (for the pool:
        never seat such a pair at one table)."""
        ids = set(person_ids)
        if len(ids) < 2:
            return set()
        query = select(Block.blocker_id, Block.blocked_id).where(
            Block.blocker_id.in_(ids), Block.blocked_id.in_(ids)
        )
        with self._session() as session:
            return {frozenset(pair) for pair in session.execute(query) if pair[0] != pair[1]}


def _now() -> datetime:
    return datetime.now(UTC)


def _blocked_either_way(session: Session, one_id: str, other_id: str) -> bool:
    """Whether ``one_id`` blocked ``other_id`` or the other way round."""
    either = or_(
        (Block.blocker_id == one_id) & (Block.blocked_id == other_id),
        (Block.blocker_id == other_id) & (Block.blocked_id == one_id),
    )
    return bool(session.scalar(select(exists().where(either))))


def _check_person(session: Session, user_id: str) -> None:
    """``NotFoundError`` unless ``user_id`` is a person one may follow or block: someone,
    and not an account deleted (what it left behind is ``Anonymous``, nobody's)."""
    user = session.get(User, user_id)
    if user is None or user.kind == "deleted":
        raise NotFoundError(f"no player {user_id!r}")
