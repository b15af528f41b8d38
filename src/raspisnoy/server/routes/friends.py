"""Friends (docs/friends.md): the caller's list with presence, follow and unfollow, block
and unblock, and invitations to a table. Each route calls ``services.friends``, which
holds the rules and their refusals."""

from typing import Annotated

from fastapi import APIRouter, Path

from raspisnoy.server.deps import CurrentUser, SameOrigin, ServicesDep
from raspisnoy.server.wire.friends import FriendsOut, InvitedOut, InviteIn

router = APIRouter(prefix="/api", tags=["friends"])

#: A person's id in a path (ids are 32 characters; anything longer is nobody).
PersonId = Annotated[str, Path(min_length=1, max_length=64)]


@router.get("/friends", response_model=FriendsOut)
async def friends(user: CurrentUser, services: ServicesDep) -> FriendsOut:
    """Whom the caller follows (each friend, who follows back, with whether they are
    online and at which public table) and whom they blocked."""
    return await services.friends.list(user)


@router.put("/friends/{user_id}", response_model=FriendsOut, dependencies=[SameOrigin])
async def follow(user_id: PersonId, user: CurrentUser, services: ServicesDep) -> FriendsOut:
    """Follow a person; the caller's list after it."""
    return await services.friends.follow(user, user_id)


@router.delete("/friends/{user_id}", response_model=FriendsOut, dependencies=[SameOrigin])
async def unfollow(user_id: PersonId, user: CurrentUser, services: ServicesDep) -> FriendsOut:
    """Stop following a person; the caller's list after it."""
    return await services.friends.unfollow(user, user_id)


@router.put("/blocks/{user_id}", response_model=FriendsOut, dependencies=[SameOrigin])
async def block(user_id: PersonId, user: CurrentUser, services: ServicesDep) -> FriendsOut:
    """Block a person (the follows between the two end); the caller's list after it."""
    return await services.friends.block(user, user_id)


@router.delete("/blocks/{user_id}", response_model=FriendsOut, dependencies=[SameOrigin])
async def unblock(user_id: PersonId, user: CurrentUser, services: ServicesDep) -> FriendsOut:
    """Lift a block; the caller's list after it."""
    return await services.friends.unblock(user, user_id)


@router.post("/friends/{user_id}/invite", response_model=InvitedOut, dependencies=[SameOrigin])
async def invite(
    user_id: PersonId, body: InviteIn, user: CurrentUser, services: ServicesDep
) -> InvitedOut:
    """Invite a friend who is online to the caller's table: their open pages show it."""
    return await services.friends.invite(user, user_id, body.table_id)
