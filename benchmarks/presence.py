"""What presence costs in Redis (docs/friends.md): ``--people`` people online with one
socket each on one worker's ``RedisPresence``; the time of one friends list's read of
``--friends`` people (``where``, one script call), of one socket's arrival and leaving,
and of one refresh round of every socket (what the worker does every third of the
lifetime):

    .venv/bin/python benchmarks/presence.py --people 10000 --friends 100

Needs the Redis at 127.0.0.1:6379 (``--redis``); its keys are removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from figures import print_figures
from raspisnoy.server.broadcast import RedisBroadcast
from raspisnoy.server.services.presence import RedisPresence
from raspisnoy.store import UserRow

#: The sockets' lifetime here, in seconds: long enough that none expires while the
#: others arrive (the server's is 15 s, refreshed every 5 s).
LIFETIME = 3600


class Page:
    """A socket as presence sees it (it is sent nothing here)."""

    def __init__(self, user: UserRow) -> None:
        self.user = user

    def send(self, message: dict[str, Any] | str) -> None:
        """Nothing to do: no notice is sent in this benchmark."""


async def measure(url: str, people: int, friends: int, repeat: int) -> dict[str, Any]:
    redis = Redis.from_url(url, decode_responses=True)
    name = f"bench-{secrets.token_hex(3)}"
    presence = RedisPresence(RedisBroadcast(redis, name), redis, name, LIFETIME)
    pages = [Page(UserRow(f"b{secrets.token_hex(8)}", f"P{n}", "guest")) for n in range(people)]
    async with AsyncExitStack() as stack:
        started = time.perf_counter()
        for page in pages:
            await stack.enter_async_context(presence.online(page, None))
        arrive_ms = (time.perf_counter() - started) * 1000 / people
        ids = [page.user.id for page in pages[:friends]]
        reads = []
        for _ in range(repeat):
            start = time.perf_counter()
            found = await presence.where(ids)
            reads.append(time.perf_counter() - start)
        assert len(found) == len(ids), (len(found), len(ids))
        start = time.perf_counter()
        await presence.refresh()
        refresh_ms = (time.perf_counter() - start) * 1000
        left = time.perf_counter()
    leave_ms = (time.perf_counter() - left) * 1000 / people
    await presence.stop()
    await redis.aclose()
    return {
        "people_online": people,
        "friends_read": friends,
        "friends_list_read_ms_best": round(min(reads) * 1000, 3),
        "friends_list_read_ms_median": round(sorted(reads)[len(reads) // 2] * 1000, 3),
        "arrive_ms_per_socket": round(arrive_ms, 3),
        "leave_ms_per_socket": round(leave_ms, 3),
        "refresh_round_ms_all_sockets": round(refresh_ms, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=10_000)
    parser.add_argument("--friends", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.redis, args.people, args.friends, args.repeat))
    print_figures("presence in Redis", figures, args.json)


if __name__ == "__main__":
    main()
