"""Presence and invitations with several workers (docs/friends.md, docs/cluster.md): what
one worker's sockets tell is seen on another, an invitation sent on one reaches a page
held by another, and a worker that dies without a word stops showing its people online
once their sockets' lifetime runs out."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from redis.asyncio import Redis
from server_helpers import Api, Server
from test_friends import line, until_offline
from test_lobby_feed import lobby_socket, redis_url, two_workers

from raspisnoy.server.broadcast import RedisBroadcast
from raspisnoy.server.services.presence import Place, RedisPresence
from raspisnoy.store import UserRow

__all__ = ["redis_url", "two_workers"]  # the fixtures, used here by name


def test_presence_and_invitations_cross_workers(two_workers: tuple[Server, Server]) -> None:
    first, second = two_workers
    anna = Api(first.base, f"Anna{secrets.token_hex(2)}")
    boris = Api(first.base, f"Boris{secrets.token_hex(2)}")
    for one, other in ((anna, boris), (boris, anna)):
        assert one.http.put(f"/api/friends/{other.user['id']}").status_code == 200
    table = boris.create_table(players=3)
    at_table = Api(second.base).socket(table["id"], token=boris.token)  # on the other worker
    at_table.recv()
    assert line(anna, boris)["online"] and line(anna, boris)["table"] == table["id"]
    lobby = lobby_socket(second.base, boris.token)
    lobby.recv()
    mine = anna.create_table(players=3)
    answer = anna.post(f"/api/friends/{boris.user['id']}/invite", table_id=mine["id"])
    assert answer.status_code == 200, answer.text
    for socket in (lobby, at_table):
        notice = socket.recv_until(lambda m: m["type"] == "invitation")
        assert notice["table"] == mine["id"]
    at_table.close()
    lobby.close()
    until_offline(anna, boris)


class Page:
    """A socket as presence sees it, keeping what it is sent."""

    def __init__(self, user: UserRow) -> None:
        self.user = user
        self.got: list[dict[str, Any] | str] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.got.append(message)


def test_a_dead_workers_people_go_offline_when_their_lifetime_ends(redis_url: str) -> None:
    async def scenario() -> None:
        redis = Redis.from_url(redis_url, decode_responses=True)
        workers = [
            RedisPresence(
                RedisBroadcast(redis, f"w{n}"), redis, f"w{n}-{secrets.token_hex(3)}", 0.6
            )
            for n in range(2)
        ]
        for worker in workers:
            await worker.start()
        user = UserRow(f"u{secrets.token_hex(6)}", "Boris", "guest")
        page = Page(user)
        dying, alive = workers
        entered = dying.online(page, None)
        await entered.__aenter__()
        assert await alive.where([user.id]) == {user.id: Place(None)}
        await asyncio.sleep(1.0)  # refreshed meanwhile: still online
        assert user.id in await alive.where([user.id])
        assert dying._task is not None
        dying._task.cancel()  # the worker dies: no refresh, no goodbye
        started = time.monotonic()
        while await alive.where([user.id]):
            assert time.monotonic() - started < 3, "a dead worker's socket never expired"
            await asyncio.sleep(0.05)
        assert time.monotonic() - started <= 0.6 + 0.5
        await alive.stop()
        await redis.aclose()

    asyncio.run(scenario())


def test_a_person_redis_lost_shows_online_again_at_the_next_refresh(redis_url: str) -> None:
    """Redis lost the member of a socket still open (it restarted, with nothing kept):
    the worker's next refresh puts it back, so its person does not show offline until
    they reconnect; once the socket closes, they are offline."""

    async def scenario() -> None:
        redis = Redis.from_url(redis_url, decode_responses=True)
        worker = RedisPresence(RedisBroadcast(redis, "w"), redis, f"w-{secrets.token_hex(3)}", 60.0)
        user = UserRow(f"u{secrets.token_hex(6)}", "Vera", "guest")
        entered = worker.online(Page(user), None)
        await entered.__aenter__()
        assert await worker.where([user.id]) == {user.id: Place(None)}
        await redis.delete(*[key async for key in redis.scan_iter(f"*{user.id}")])
        assert await worker.where([user.id]) == {}
        await worker.refresh()
        assert await worker.where([user.id]) == {user.id: Place(None)}
        await entered.__aexit__(None, None, None)
        assert await worker.where([user.id]) == {}
        await worker.stop()
        await redis.aclose()

    asyncio.run(scenario())
