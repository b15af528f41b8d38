"""The matchmaking pool with two workers behind nginx (PostgreSQL, Redis): people who join
on either worker are paired together and each worker tells them the same table; the
worker holding the pairing lease is killed with SIGKILL while people wait, and the pool
loses nobody and seats nobody twice: the other worker takes the lease over and pairs
them."""

from __future__ import annotations

import os
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx
import pytest
from localcluster import LocalCluster
from sqlalchemy import create_engine, text

T = TypeVar("T")
#: Long enough for a lease to lapse (5 passes of 1 s) and a pass under load.
PATIENCE = 60.0
CHOICES = {"presets": ["classic"], "players": [4], "speed": "normal", "bot_wait": None}


@pytest.fixture
def cluster(postgres_url: str, redis_url: str, nginx: str) -> Iterator[LocalCluster]:
    environment = {
        "RASPISNOY_SECRET_KEY": secrets.token_urlsafe(32),
        "RASPISNOY_LEASE_SECONDS": "2",
        # Silent pages are not what this test is about: the waiting ones ask anyway.
        "RASPISNOY_POOL_GRACE_SECONDS": "120",
    }
    with LocalCluster(
        2, database_url=postgres_url, redis_url=redis_url, environment=environment, quiet=True
    ) as running:
        yield running


def until(read: Callable[[], T], done: Callable[[T], bool]) -> T:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            found = read()
        except httpx.HTTPError:  # a worker restarting: nginx sends the next one elsewhere
            time.sleep(0.2)
            continue
        if done(found):
            return found
        time.sleep(0.2)
    raise AssertionError("the pool did not get there in time")


class Person:
    """A guest on one worker (or through nginx)."""

    def __init__(self, url: str, name: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        answer = self.http.post("/api/session", json={"nickname": name})
        answer.raise_for_status()
        self.id: str = answer.json()["user"]["id"]
        self.http.headers["authorization"] = f"Bearer {answer.json()['token']}"

    def status(self) -> dict[str, Any]:
        answer = self.http.get("/api/pool")
        answer.raise_for_status()
        status: dict[str, Any] = answer.json()
        return status

    def join(self) -> None:
        answer = self.http.post("/api/pool", json=CHOICES)
        assert answer.status_code == 200, answer.text

    def try_join(self) -> httpx.Response:
        """A join that may meet a worker being restarted (nginx answers 502 then and
        does not retry a POST)."""
        return self.http.post("/api/pool", json=CHOICES)


def matched_tables(people: list[Person]) -> dict[str, str]:
    """Each person's table once every one of them is matched (asking meanwhile, as a
    waiting page does)."""

    def read() -> dict[str, str]:
        statuses = {person.id: person.status() for person in people}
        return {pid: s["table"] for pid, s in statuses.items() if s["status"] == "matched"}

    return until(read, lambda tables: len(tables) == len(people))


def test_people_on_both_workers_are_paired_once_even_when_the_pairing_worker_dies(
    cluster: LocalCluster, postgres_url: str
) -> None:
    first, second = cluster.worker_urls
    people = [Person(first if n % 2 else second, f"Cluster {n}") for n in range(8)]
    for person in people:
        person.join()
    tables = matched_tables(people)
    assert len(set(tables.values())) == 2
    for table_id in set(tables.values()):
        seated = [pid for pid, table in tables.items() if table == table_id]
        assert len(seated) == 4
    # The other worker answers the same.
    for person in people:
        other = httpx.Client(base_url=first if person.http.base_url == second else second)
        other.headers["authorization"] = person.http.headers["authorization"]
        assert other.get("/api/pool").json()["table"] == tables[person.id]

    # Three wait; the worker holding the pairing lease dies; a fourth comes.
    engine = create_engine(postgres_url)
    waiting = [Person(cluster.url, f"Survivor {n}") for n in range(4)]
    for person in waiting[:3]:
        person.join()
    with engine.connect() as connection:
        holder = connection.execute(
            text("SELECT holder FROM pool_pairing WHERE name = 'pairing'")
        ).scalar_one()
    os.kill(int(holder.split("-")[1]), signal.SIGKILL)
    joined = until(waiting[3].try_join, lambda answer: answer.status_code != 502)
    assert joined.status_code == 200, joined.text
    survivors = matched_tables(waiting)
    assert len(set(survivors.values())) == 1
    (table_id,) = set(survivors.values())
    with engine.connect() as connection:
        seats = connection.execute(
            text("SELECT user_id FROM seats WHERE table_id = :t AND user_id IS NOT NULL"),
            {"t": table_id},
        ).scalars()
        assert sorted(seats) == sorted(person.id for person in waiting)
        # Nobody seated twice: each person at one pool table in all.
        per_person = connection.execute(
            text(
                "SELECT s.user_id, count(*) FROM seats s JOIN pool_entries p "
                "ON p.user_id = s.user_id GROUP BY s.user_id"
            )
        ).all()
        assert {count for _user, count in per_person} == {1}
        assert len(per_person) == 12
        started = connection.execute(
            text("SELECT status FROM tables WHERE id = :t"), {"t": table_id}
        ).scalar_one()
    engine.dispose()
    assert started in ("playing", "open")  # started by whichever worker paired
    until(
        lambda: waiting[0].http.get(f"/api/tables/{table_id}").json()["status"],
        lambda status: status == "playing",
    )
