"""What several workers share beyond the tables (2 workers on PostgreSQL and Redis, each
reached straight at its own port, so the test chooses where each socket lives):

- ending a session on one worker (log out, ending it from the profile, deleting the
  account) closes its table and lobby sockets on the other worker too, with 4401;
- a deleted account's seat is renamed at a running table on the other worker at once;
- a user's sockets count against ``RASPISNOY_MAX_SOCKETS_PER_USER`` on every worker
  together;
- a game nobody is connected to (bots, and a host who went away) goes on after its
  worker is killed: the other worker's sweep adopts it.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from localcluster import DEFAULT_DATABASE, LocalCluster, postgres_schema
from redis import Redis
from sqlalchemy.exc import OperationalError
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from raspisnoy.store import Store

SOCKETS_PER_USER = 2
PASSWORD = "correct horse battery"


@dataclass
class Running:
    cluster: LocalCluster
    database_url: str


@pytest.fixture(scope="module")
def running(redis_url: str, nginx: str) -> Iterator[Running]:
    """One cluster for the module (starting one takes seconds): lease 2 s, turn timers
    down to 1 s, at most ``SOCKETS_PER_USER`` sockets per user."""
    environment = {
        "RASPISNOY_SECRET_KEY": secrets.token_urlsafe(32),
        "RASPISNOY_LEASE_SECONDS": "2",
        "RASPISNOY_MIN_TURN_SECONDS": "1",
        "RASPISNOY_MAX_SOCKETS_PER_USER": str(SOCKETS_PER_USER),
    }
    try:
        with (
            postgres_schema(DEFAULT_DATABASE) as url,
            LocalCluster(
                2, database_url=url, redis_url=redis_url, environment=environment, quiet=True
            ) as cluster,
        ):
            yield Running(cluster, url)
    except OperationalError as error:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is unreachable: {error.orig}")


class Person:
    """A user's REST calls at one worker, with one session token."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token
        self.http = httpx.Client(
            base_url=base, timeout=30, headers={"authorization": f"Bearer {token}"}
        )

    @classmethod
    def guest(cls, base: str, nickname: str) -> Person:
        answer = httpx.post(f"{base}/api/session", json={"nickname": nickname}, timeout=30)
        answer.raise_for_status()
        return cls(base, answer.json()["token"])

    @classmethod
    def log_in(cls, base: str, username: str) -> Person:
        credentials = {"username": username, "password": PASSWORD}
        answer = httpx.post(f"{base}/api/login", json=credentials, timeout=30)
        answer.raise_for_status()
        return cls(base, answer.json()["token"])

    def at(self, base: str) -> Person:
        """The same session, calling another worker."""
        return Person(base, self.token)

    def table(self, **options: object) -> str:
        answer = self.http.post("/api/tables", json=options)
        assert answer.status_code == 201, answer.text
        table_id: str = answer.json()["id"]
        return table_id

    def socket(self, table_id: str) -> ClientConnection:
        """A table socket at this worker; its first message, the state, is read."""
        url = self.base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={self.token}"
        ws = connect(url, open_timeout=30, proxy=None, legacy=True)
        assert _message_type(ws) == "state"
        return ws

    def lobby(self) -> ClientConnection:
        """A lobby socket at this worker; its first message, the lobby, is read."""
        url = self.base.replace("http://", "ws://") + f"/ws/lobby?token={self.token}"
        ws = connect(url, open_timeout=30, proxy=None, legacy=True)
        assert _message_type(ws) == "lobby"
        return ws


def _message_type(ws: ClientConnection) -> str:
    kind: str = json.loads(ws.recv(timeout=30))["type"]
    return kind


def close_code(ws: ClientConnection) -> int | None:
    """The code the server closes ``ws`` with (waiting for it, skipping messages)."""
    try:
        while True:
            ws.recv(timeout=30)
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code


def still_open(ws: ClientConnection) -> bool:
    """Whether the server still answers a ping on ``ws``."""
    ws.send('{"type": "ping"}')
    try:
        while _message_type(ws) != "pong":
            pass
    except ConnectionClosed:
        return False
    return True


def test_log_out_closes_the_sessions_sockets_on_the_other_worker(running: Running) -> None:
    first, second = running.cluster.worker_urls
    here = Person.guest(first, "Leaving")
    ws, lobby = here.at(second).socket(here.table()), here.at(second).lobby()
    answer = here.http.delete("/api/session")
    assert answer.status_code == 200 and answer.json()["sessions_ended"] == 1
    assert close_code(ws) == close_code(lobby) == 4401


def test_log_out_everywhere_closes_every_socket_on_every_worker(running: Running) -> None:
    first, second = running.cluster.worker_urls
    guest = Person.guest(first, "Everywhere")
    near, far = guest.socket(guest.table()), guest.at(second).socket(guest.table())
    assert guest.http.delete("/api/sessions").status_code == 200
    assert close_code(near) == close_code(far) == 4401


def test_a_session_ended_from_the_profile_closes_its_sockets_elsewhere(running: Running) -> None:
    first, second = running.cluster.worker_urls
    name = f"acct{secrets.token_hex(4)}"
    guest = Person.guest(first, name)
    answer = guest.http.post("/api/account", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    laptop = Person(first, answer.json()["token"])
    phone = Person.log_in(second, name)
    table = laptop.table()
    kept, ended = laptop.at(second).socket(table), phone.socket(table)
    sessions = laptop.http.get("/api/sessions").json()["sessions"]
    (other,) = [line["id"] for line in sessions if not line["current"]]
    assert laptop.http.delete(f"/api/sessions/{other}").status_code == 200
    assert close_code(ended) == 4401
    assert still_open(kept)

    deleted = laptop.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert close_code(kept) == 4401  # the account's last session, on the other worker


def test_a_users_sockets_count_on_every_worker_together(running: Running) -> None:
    first, second = running.cluster.worker_urls
    guest = Person.guest(first, "Counted")
    tables = [guest.table(), guest.table()]
    held = [guest.socket(tables[0]), guest.at(second).socket(tables[1])]
    assert len(held) == SOCKETS_PER_USER
    for base, table in ((first, tables[1]), (second, tables[0])):
        url = base.replace("http://", "ws://") + f"/ws/tables/{table}?token={guest.token}"
        with connect(url, open_timeout=30, proxy=None) as refused:
            assert close_code(refused) == 4429
    held.pop().close()  # a place is free again, on either worker
    deadline = time.monotonic() + 10
    while True:  # the worker counts the closed socket out once it has noticed the close
        try:
            held.append(guest.socket(tables[0]))
            break
        except (ConnectionClosed, AssertionError):
            assert time.monotonic() < deadline, "the closed socket still counts"
            time.sleep(0.2)
    for ws in held:
        ws.close()


def test_a_deleted_account_is_renamed_at_its_table_on_the_other_worker(running: Running) -> None:
    """Boris deletes his account at one worker; Anna, at the worker that holds their
    running table, sees his seat renamed at once (the hub's ``RENAMED`` broadcast)."""
    first, second = running.cluster.worker_urls
    anna = Person.guest(first, "Anna Stays")
    name = f"gone{secrets.token_hex(4)}"
    account = httpx.post(
        f"{second}/api/account", json={"username": name, "password": PASSWORD}, timeout=30
    )
    assert account.status_code == 200, account.text
    boris = Person(second, account.json()["token"])
    table = anna.table(bots="random", bot_delay_ms=0, turn_seconds=0)
    assert boris.at(first).http.post(f"/api/tables/{table}/sit", json={"seat": 1}).is_success
    assert anna.http.post(f"/api/tables/{table}/start").status_code == 200
    ws = anna.socket(table)
    gone = boris.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    deadline = time.monotonic() + 20
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "table" and message["table"]["names"][1] != name:
            break
    assert message["table"]["names"][1] == "Anonymous #2"
    ws.close()


def test_a_game_nobody_watches_goes_on_after_its_worker_is_killed(running: Running) -> None:
    host = Person.guest(running.cluster.url, "Absent")  # through nginx, as a player would
    table = host.table(bots="random", turn_seconds=1, bot_delay_ms=150)
    assert host.http.post(f"/api/tables/{table}/start").status_code == 200
    # Nobody ever connects: the host's timer runs out, a stand-in plays for them, and the
    # bots play on. From now on nothing but the workers themselves touches the table.
    store = Store.open(running.database_url, migrate=False)
    redis = Redis.from_url(running.cluster.redis_url, decode_responses=True)
    try:
        seen = _wait_for_events(store, table, 5, seconds=30)
        owner = redis.get(f"raspisnoy:owner:{table}")
        assert isinstance(owner, str)
        os.kill(int(owner.rsplit(":", 1)[1]), signal.SIGKILL)
        killed = time.monotonic()
        _wait_for_events(store, table, len(seen) + 10, seconds=30)
        adopter = redis.get(f"raspisnoy:owner:{table}")
        assert adopter is not None and adopter != owner
        events = store.events_of(table)
        assert [event.seq for event in events] == list(range(1, len(events) + 1))
        assert events[: len(seen)] == seen  # what was stored before the kill stays
        assert time.monotonic() - killed < 30
    finally:
        store.close()
        redis.close()


def _wait_for_events(store: Store, table: str, count: int, seconds: float) -> list[object]:
    """The table's stored events once there are at least ``count`` (else the test fails)."""
    deadline = time.monotonic() + seconds
    while True:
        events = store.events_of(table)
        if len(events) >= count:
            return list(events)
        assert time.monotonic() < deadline, f"{len(events)} events after {seconds:g} s"
        time.sleep(0.2)
