"""A local cluster through nginx (2 workers, PostgreSQL, Redis): every worker sees every
table, and a worker killed with SIGKILL in the middle of games loses nothing: its tables
resume on the other one, the clients reconnect by themselves and resend what was not
acknowledged, and every acknowledged action is stored once, at its version."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator

import httpx
import pytest
from localcluster import LocalCluster
from websockets.sync.client import connect

from chaos import LOAD_ENVIRONMENT, chaos


@pytest.fixture
def cluster(postgres_url: str, redis_url: str, nginx: str) -> Iterator[LocalCluster]:
    environment = {
        **LOAD_ENVIRONMENT,
        "RASPISNOY_SECRET_KEY": secrets.token_urlsafe(32),
        "RASPISNOY_LEASE_SECONDS": "2",
    }
    with LocalCluster(
        2, database_url=postgres_url, redis_url=redis_url, environment=environment, quiet=True
    ) as running:
        yield running


def test_every_worker_sees_every_table_and_a_killed_worker_loses_nothing(
    cluster: LocalCluster,
) -> None:
    first, second = (httpx.Client(base_url=url, timeout=30) for url in cluster.worker_urls)
    token = first.post("/api/session", json={"nickname": "Ann"}).json()["token"]
    created = first.post("/api/tables", json={}, headers={"authorization": f"Bearer {token}"})
    assert created.status_code == 201
    lobby = second.get("/api/tables").json()["tables"]  # the other worker, straight
    assert created.json()["id"] in [table["id"] for table in lobby]
    assert (
        second.get("/api/session", headers={"authorization": f"Bearer {token}"}).status_code == 200
    )
    # The live lobby through nginx hears of tables opened on either worker (Redis pub/sub).
    with connect(cluster.url.replace("http://", "ws://") + "/ws/lobby", proxy=None) as lobby:
        assert json.loads(lobby.recv(timeout=10))["type"] == "lobby"
        auth = {"authorization": f"Bearer {token}"}
        made = {
            client.post("/api/tables", json={}, headers=auth).json()["id"]
            for client in (first, second)
        }
        seen: set[str] = set()
        while not made <= seen:
            seen = {line["id"] for line in json.loads(lobby.recv(timeout=10))["open"]}

    result = asyncio.run(chaos(cluster, tables=4, seconds=14, kill_every=6, think=0.05))

    assert result["kills"] >= 1, result
    assert result["actions_lost"] == 0, result
    assert result["acknowledged_twice"] == 0, result
    assert result["acknowledged_after_first_kill"] > 0, result  # the games went on
    assert result["longest_pause_s"] < 8, result  # lease 2 s, reconnects, reload
