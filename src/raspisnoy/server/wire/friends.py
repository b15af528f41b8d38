"""The friends' REST shapes (docs/friends.md): the list of whom one follows, with where
each friend who follows back is now, the people one blocked, and an invitation's body.

Where a person is (online, and at which table) is only in a line of someone they follow
back, and the table only if it is public: ``services.presence`` keeps no other.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from raspisnoy.store import FriendRow

__all__ = ["FriendOut", "FriendsOut", "InviteIn", "InvitedOut", "PersonOut"]


class _Out(BaseModel):
    """An answer's shape: exactly these fields."""

    model_config = ConfigDict(extra="forbid")


class PersonOut(_Out):
    """A person by id and nickname (one the caller blocked)."""

    user_id: str
    nickname: str

    @classmethod
    def of(cls, row: FriendRow) -> PersonOut:
        return cls(user_id=row.user_id, nickname=row.nickname)


class FriendOut(_Out):
    """A person the caller follows. ``friend``: they follow back; only then ``online``
    may be true and ``table`` the public table they are at (``null`` otherwise)."""

    user_id: str
    nickname: str
    friend: bool
    online: bool
    table: str | None


class FriendsOut(_Out):
    """``GET /api/friends``: whom the caller follows (by nickname) and whom they blocked."""

    following: list[FriendOut]
    blocked: list[PersonOut]


class InviteIn(BaseModel):
    """An invitation to a table the inviter is seated at."""

    model_config = ConfigDict(extra="forbid", strict=True)
    table_id: str = Field(min_length=1, max_length=64)


class InvitedOut(_Out):
    """The invitation was sent to the friend's open pages."""

    sent: bool
