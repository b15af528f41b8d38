"""A tournament with two workers behind nginx (PostgreSQL, Redis): both workers answer its
page alike; the worker holding the runner's lease is killed with SIGKILL while round 1's
games are played, and the other takes the lease over, records the round, pairs the next
ones once each and finishes the event."""

from __future__ import annotations

import os
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from localcluster import LocalCluster
from sqlalchemy import create_engine, func, select, text, update

from raspisnoy.store.models import Tournament, TournamentTable

Message = dict[str, Any]
#: Long enough for a lease to lapse (5 passes), the games of three rounds and a load.
PATIENCE = 180.0
RULES = {"preset": "raspisnoy.com", "custom_plan": ["2", "3", "2"]}


@pytest.fixture
def cluster(postgres_url: str, redis_url: str, nginx: str) -> Iterator[LocalCluster]:
    environment = {
        "RASPISNOY_SECRET_KEY": secrets.token_urlsafe(32),
        "RASPISNOY_LEASE_SECONDS": "2",
        "RASPISNOY_TOURNAMENT_PASS_SECONDS": "0.5",
    }
    with LocalCluster(
        2, database_url=postgres_url, redis_url=redis_url, environment=environment, quiet=True
    ) as running:
        yield running


def until(read: Callable[[], Message], done: Callable[[Message], bool]) -> Message:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            found = read()
        except httpx.HTTPError:  # a worker dying: nginx sends the next one elsewhere
            time.sleep(0.3)
            continue
        if done(found):
            return found
        time.sleep(0.3)
    raise AssertionError("the tournament did not get there in time")


def test_the_runner_moves_to_the_other_worker_when_its_worker_dies(
    cluster: LocalCluster, postgres_url: str
) -> None:
    director = httpx.Client(base_url=cluster.url, timeout=30)
    session = director.post("/api/session", json={"nickname": "Директор"}).json()
    director.headers["authorization"] = f"Bearer {session['token']}"
    made = director.post(
        "/api/tournaments",
        json={
            "name": "Кубок кластера",
            "starts_at": time.time() + 3600,
            "rules": RULES,
            "table_size": 4,
            "rounds": 3,
            "turn_seconds": 30,
            "bot_delay_ms": 150,
        },
    ).json()
    path = f"/api/tournaments/{made['id']}"
    for number in range(8):
        bot = director.post(f"{path}/bots", json={"level": "random", "name": f"Бот {number}"})
        assert bot.status_code == 200, bot.text
    engine = create_engine(postgres_url)
    with engine.begin() as connection:
        connection.execute(
            update(Tournament).where(Tournament.id == made["id"]).values(starts_at=time.time() - 1)
        )

    def page() -> Message:
        answer = director.get(path)
        answer.raise_for_status()
        found: Message = answer.json()
        return found

    until(
        page,
        lambda found: (
            bool(found["round_list"])
            and any(t["status"] == "playing" for t in found["round_list"][0]["tables"])
        ),
    )
    first, second = cluster.worker_urls
    pages = [httpx.get(f"{url}{path}").json() for url in (first, second)]
    assert pages[0]["id"] == pages[1]["id"] == made["id"]
    with engine.connect() as connection:
        holder = connection.execute(
            text("SELECT holder FROM pool_pairing WHERE name = 'tournaments'")
        ).scalar_one()
    os.kill(int(holder.split("-")[1]), signal.SIGKILL)
    final = until(page, lambda found: found["state"] == "finished")
    with engine.connect() as connection:
        tables = connection.execute(
            select(TournamentTable.round_number, func.count())
            .where(TournamentTable.tournament_id == made["id"])
            .group_by(TournamentTable.round_number)
        ).all()
        taken_over = connection.execute(
            text("SELECT holder FROM pool_pairing WHERE name = 'tournaments'")
        ).scalar_one()
    engine.dispose()
    assert taken_over != holder
    assert sorted(tables) == [(1, 2), (2, 2), (3, 2)]  # each round paired once
    assert all(line["games"] == 3 for line in final["standings"])
    assert sum(line["points"] for line in final["standings"]) == 36
