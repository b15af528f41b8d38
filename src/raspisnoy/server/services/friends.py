"""Friends (docs/friends.md): following, blocking, the friends list with presence, and
invitations to a table.

The rules, each refused with its own code and nothing changed:

- nobody follows, blocks or invites themselves (``friend_self``); a person who does
  not exist is ``not_found``;
- a follow is refused where either of the two blocked the other (``blocked``); a block
  ends the follows between them;
- a *friend* is someone who follows you back. Only a friend's line of the list says
  whether they are online and at which public table (a one-way follower learns neither);
- an invitation goes only to a friend (``not_friends``: this also answers where the
  invitee blocked the inviter, so a block is not told), never to someone the inviter
  blocked (``blocked``), only to a friend who is online (``friend_offline``: they would
  not see it), only from a person seated at the table (``not_seated``), never to a
  finished game (``table_over``), at most ``invitations_per_user`` (``too_many``);
- a table is asked about only once the inviter may see it (``admits``, the rule of every
  table route): a club's table, or a tournament round's in play, that is not theirs to
  see is ``not_found`` in the very words of a table that does not exist, so its id tells
  them neither that it exists nor whether its game is over;
- an invitation goes only to a friend who may see the table (``forbidden``): a club's
  table is never sent to someone outside the club. The inviter, who sees the table and
  its club's members, learns nothing from this they could not see.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.services.presence import Presence
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import epoch_ms
from raspisnoy.server.wire.friends import FriendOut, FriendsOut, InvitedOut, PersonOut
from raspisnoy.store import FriendsRepository, NotFoundError, Store, TableRow, UserRow
from raspisnoy.store.friends import BlockedError

__all__ = ["Friends", "invitation_message"]


def invitation_message(inviter: UserRow, table_id: str, at: float) -> dict[str, Any]:
    """The ``invitation`` notice a friend's open pages get: who invites, to which table."""
    return {
        "type": "invitation",
        "from": {"user_id": inviter.id, "nickname": inviter.nickname},
        "table": table_id,
        "at_ms": epoch_ms(at),
    }


class Friends:
    """The friends operations of one app."""

    def __init__(
        self,
        store: Store,
        friends: FriendsRepository,
        presence: Presence,
        limits: Limits,
        admits: Callable[[str, UserRow | None], Awaitable[bool]],
    ) -> None:
        """``admits``: whether a person may see a table, by the rule of every table route
        (``Clubs.admits``)."""
        self._store = store
        self._friends = friends
        self._presence = presence
        self._limits = limits
        self._admits = admits

    async def list(self, user: UserRow) -> FriendsOut:
        """Whom ``user`` follows, friends with their presence, and whom they blocked."""
        following = await in_thread(self._friends.following, user.id)
        blocked = await in_thread(self._friends.blocked_by, user.id)
        places = await self._presence.where([row.user_id for row in following if row.follows_back])
        lines = []
        for row in following:
            place = places.get(row.user_id) if row.follows_back else None
            lines.append(
                FriendOut(
                    user_id=row.user_id,
                    nickname=row.nickname,
                    friend=row.follows_back,
                    online=place is not None,
                    table=None if place is None else place.table_id,
                )
            )
        return FriendsOut(following=lines, blocked=[PersonOut.of(row) for row in blocked])

    async def follow(self, user: UserRow, other_id: str) -> FriendsOut:
        """``user`` follows ``other_id`` (again: nothing changes)."""
        _not_self(user, other_id, "follow")
        try:
            await self._existing(self._friends.follow, user.id, other_id)
        except BlockedError:  # checked in the follow's own transaction: a block races none
            raise RequestError(
                Refusal.BLOCKED, "you cannot follow this person: there is a block"
            ) from None
        return await self.list(user)

    async def unfollow(self, user: UserRow, other_id: str) -> FriendsOut:
        """``user`` stops following ``other_id`` (not following: nothing changes)."""
        await in_thread(self._friends.unfollow, user.id, other_id)
        return await self.list(user)

    async def block(self, user: UserRow, other_id: str) -> FriendsOut:
        """``user`` blocks ``other_id``; the follows between them end."""
        _not_self(user, other_id, "block")
        await self._existing(self._friends.block, user.id, other_id)
        return await self.list(user)

    async def unblock(self, user: UserRow, other_id: str) -> FriendsOut:
        """``user`` lifts their block of ``other_id`` (none: nothing changes)."""
        await in_thread(self._friends.unblock, user.id, other_id)
        return await self.list(user)

    async def blocked_with(self, user_id: str) -> frozenset[str]:
        """The people kept apart from ``user_id`` (either blocked the other)."""
        return await in_thread(self._friends.blocked_with, user_id)

    async def invite(self, user: UserRow, friend_id: str, table_id: str) -> InvitedOut:
        """Send ``friend_id``'s open pages an invitation to ``table_id`` (see the rules
        in the module's docstring)."""
        _not_self(user, friend_id, "invite")
        table = await self._table_seen_by(user, table_id)
        if not any(seat.user_id == user.id for seat in table.seats):
            raise RequestError(Refusal.NOT_SEATED, "invite to a table where you have a seat")
        if table.status == "over":
            raise RequestError(Refusal.TABLE_OVER, "the game at this table is over")
        if await in_thread(self._friends.blocks, user.id, friend_id):
            raise RequestError(Refusal.BLOCKED, "you blocked this person: unblock them first")
        friend = await self._friend(user, friend_id)
        if not await self._admits(table.id, friend):
            raise RequestError(
                Refusal.FORBIDDEN,
                "your friend may not see this table (a club's table is its members' only)",
            )
        if friend_id not in await self._presence.where([friend_id]):
            raise RequestError(Refusal.FRIEND_OFFLINE, "your friend is not online now")
        limits = self._limits
        limits.hit(limits.invitations_per_user, "invitations", user.id)
        await self._presence.notify(friend_id, invitation_message(user, table.id, time.time()))
        return InvitedOut(sent=True)

    async def _table_seen_by(self, user: UserRow, table_id: str) -> TableRow:
        """The table, if ``user`` may see it; else ``not_found`` as for no table at all
        (the words of ``Clubs.guard``), before anything about the table is read."""
        missing = RequestError(Refusal.NOT_FOUND, f"no table {table_id!r}")
        if not await self._admits(table_id, user):
            raise missing
        try:
            return await in_thread(self._store.get_table, table_id)
        except NotFoundError:
            raise missing from None

    async def _friend(self, user: UserRow, friend_id: str) -> UserRow:
        """The friend ``friend_id`` of ``user`` (someone they follow who follows them
        back); ``not_friends`` for anyone else (an account deleted meanwhile too)."""
        not_friends = RequestError(
            Refusal.NOT_FRIENDS, "invite a friend: someone you follow who follows you back"
        )
        if not await in_thread(self._friends.mutual, user.id, friend_id):
            raise not_friends
        try:
            return await in_thread(self._store.get_user, friend_id)
        except NotFoundError:
            raise not_friends from None

    @staticmethod
    async def _existing(change: Callable[[str, str], bool], user_id: str, other_id: str) -> None:
        """Make ``change(user_id, other_id)``; ``not_found`` if the other is nobody."""
        try:
            await in_thread(change, user_id, other_id)
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no player {other_id!r}") from None


def _not_self(user: UserRow, other_id: str, what: str) -> None:
    if other_id == user.id:
        raise RequestError(Refusal.FRIEND_SELF, f"you cannot {what} yourself")
