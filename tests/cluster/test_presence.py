"""Presence and invitations in a local cluster (2 workers behind nginx, PostgreSQL,
Redis; docs/friends.md): a friend whose page is held by one worker is online for the
other, an invitation sent through one worker reaches a page held by the other, and the
people of a worker killed with SIGKILL go offline once their sockets' lifetime (5 leases)
is over, with no goodbye from the dead worker."""

from __future__ import annotations

import json
import os
import secrets
import signal
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from localcluster import LocalCluster
from redis import Redis
from websockets.sync.client import connect

LEASE_SECONDS = 2


@pytest.fixture
def cluster(postgres_url: str, redis_url: str, nginx: str) -> Iterator[LocalCluster]:
    environment = {
        "RASPISNOY_SECRET_KEY": secrets.token_urlsafe(32),
        "RASPISNOY_LEASE_SECONDS": str(LEASE_SECONDS),
    }
    with LocalCluster(
        2, database_url=postgres_url, redis_url=redis_url, environment=environment, quiet=True
    ) as running:
        yield running


def guest(base: str, nickname: str) -> tuple[httpx.Client, dict[str, Any]]:
    """A client of ``base`` with a new guest's session, and the guest."""
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/session", json={"nickname": nickname}).json()
    client.headers["authorization"] = f"Bearer {answer['token']}"
    return client, {**answer["user"], "token": answer["token"]}


def online(client: httpx.Client, friend_id: str) -> bool:
    lines = client.get("/api/friends").json()["following"]
    return any(line["user_id"] == friend_id and line["online"] for line in lines)


def test_presence_and_invitations_cross_workers_and_a_killed_workers_people_go_offline(
    cluster: LocalCluster, redis_url: str
) -> None:
    first, second = cluster.worker_urls
    anna, anna_user = guest(cluster.url, "Anna")
    boris, boris_user = guest(second, "Boris")
    assert anna.put(f"/api/friends/{boris_user['id']}").status_code == 200
    assert boris.put(f"/api/friends/{anna_user['id']}").status_code == 200
    table = anna.post("/api/tables", json={}).json()["id"]
    url = second.replace("http://", "ws://") + f"/ws/lobby?token={boris_user['token']}"
    with connect(url, proxy=None) as page:  # held by the second worker
        assert json.loads(page.recv(timeout=10))["type"] == "lobby"
        at_first = httpx.Client(base_url=first, timeout=30, headers=anna.headers)
        assert online(at_first, boris_user["id"])
        sent = at_first.post(f"/api/friends/{boris_user['id']}/invite", json={"table_id": table})
        assert sent.status_code == 200, sent.text
        while (message := json.loads(page.recv(timeout=10)))["type"] != "invitation":
            pass
        assert message["table"] == table and message["from"]["nickname"] == "Anna"

        members = Redis.from_url(redis_url, decode_responses=True).zrange(
            f"raspisnoy:presence:{boris_user['id']}", 0, -1
        )
        (member,) = [str(m) for m in members]
        pid = int(member.split("/", 1)[0].rsplit(":", 1)[1])  # "{host}:{pid}/{token}:{n}|"
        os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        while online(at_first, boris_user["id"]):
            assert time.monotonic() - killed < 5 * LEASE_SECONDS + 5, "still online"
            time.sleep(0.2)
