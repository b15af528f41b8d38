"""The chat of a table as stored, for its replay (``GET /api/games/{id}/chat``)."""

from typing import Any

from fastapi import APIRouter

from raspisnoy.server.deps import OptionalUser, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.chat import may_read
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import ChatOut, chat_json
from raspisnoy.store import NotFoundError

router = APIRouter(prefix="/api", tags=["history"])


@router.get("/games/{table_id}/chat", response_model=ChatOut)
async def chat(table_id: str, user: OptionalUser, services: ServicesDep) -> dict[str, Any]:
    """The table's chat in order: for the people seated at it, and for anyone if its host
    opened the chat to spectators (403 otherwise); without the messages of people kept
    apart from the caller by a block (docs/friends.md)."""
    await services.clubs.guard(table_id, user, "game")
    try:
        row = await in_thread(services.store.get_table, table_id)
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no game {table_id!r}") from None
    if not may_read(row, None if user is None else user.id):
        raise RequestError(
            Refusal.FORBIDDEN, "the chat of this table is for its players: sign in as one of them"
        )
    rows = await in_thread(services.together.chat_of, table_id)
    apart = frozenset() if user is None else await services.friends.blocked_with(user.id)
    return {"messages": [chat_json(message) for message in rows if message.user_id not in apart]}
