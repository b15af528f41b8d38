"""Expiring members in Redis sorted sets, shared by the socket counts (``limits``) and
presence (``services.presence``): each keeps one member per open socket, scored by when
it expires in Redis's own clock, and refreshes its worker's members every third of their
lifetime, so the members of a worker that died stop counting within the lifetime.
"""

from __future__ import annotations

from collections.abc import Sequence

from redis.commands.core import AsyncScript

__all__ = ["REFRESH", "RESTORE", "refresh_members"]


def _refresh(add: str) -> str:
    """The script that gives each member its lifetime again; ``add``: ZADD's flag."""
    return f"""
local now = redis.call('TIME')
local until_ms = now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, {add}until_ms, ARGV[i + 1])
  redis.call('PEXPIRE', key, ARGV[1])
end
return #KEYS
"""


# KEYS: sorted sets; ARGV[1]: lifetime in ms, then one member per key: each socket that
# is still open lives on (a member removed meanwhile is not added back: ZADD XX), for
# counts of sockets, where a member lost (Redis restarted) only lets one more in.
REFRESH = _refresh("'XX', ")
#: The same, where a member lost (Redis restarted, the member expired while its worker
#: was stalled, its first write failed) is put back: presence, where one lost would show
#: a person online offline until they reconnect. A member removed just before a refresh
#: that had already read it comes back once and expires after its lifetime.
RESTORE = _refresh("")
#: Most members refreshed by one script call (keeps each call short for Redis).
_BATCH = 1000


async def refresh_members(
    script: AsyncScript, held: Sequence[tuple[str, str]], lifetime_ms: int
) -> None:
    """Give each ``(key, member)`` of ``held`` its whole lifetime again, with ``script``
    (``REFRESH`` registered on the worker's Redis) in calls of at most ``_BATCH``."""
    for start in range(0, len(held), _BATCH):
        batch = held[start : start + _BATCH]
        keys, members = [k for k, _ in batch], [m for _, m in batch]
        await script(keys=keys, args=[lifetime_ms, *members])
