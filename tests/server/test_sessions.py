"""Sessions end: they expire, a guest can log out (one token or all of them), and a copy of
the database gives its reader no session: no token and no key are in it."""

from __future__ import annotations

import stat
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from server_helpers import FAST, TEST_SECRET, Api, Server
from sqlalchemy import MetaData, select
from test_lobby_feed import lobby_socket
from test_protocol import close_of

from raspisnoy.server.auth import KEY_FILE, SecretKeyError, Sessions, load_secret
from raspisnoy.server.config import ServerSettings


def signed_in(server: Server, token: str) -> int:
    answer = httpx.get(f"{server.base}/api/session", headers={"authorization": f"Bearer {token}"})
    return answer.status_code


def test_a_session_expires(start_server: Callable[[ServerSettings], Server]) -> None:
    # Sessions of a few seconds, so that the checks before the end have time on a busy
    # machine; the table is made in the store, needing no session that could end first.
    lasting = 4
    brief = start_server(FAST.model_copy(update={"session_seconds": lasting}))
    guest = Api(brief.base, "Brief")
    begun = time.monotonic()
    assert guest.token is not None and signed_in(brief, guest.token) == 200
    cookie = guest.http.post("/api/session", json={"nickname": "Again"}).headers["set-cookie"]
    assert f"Max-Age={lasting}" in cookie
    host = brief.store.create_user("Host")
    table = brief.store.create_table(
        host_id=host.id,
        public=True,
        rules={"preset": "raspisnoy.com"},
        bots=["random"] * 3,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed="seed",
    )
    time.sleep(max(0.0, begun + lasting + 0.5 - time.monotonic()))
    assert signed_in(brief, guest.token) == 401
    assert close_of(guest.socket(table.id))[0] == 4401


def test_log_out_and_log_out_everywhere(server: Server) -> None:
    guest = Api(server.base, "Leaving")
    assert guest.token is not None
    # A second token of the same guest (as another device of an account will have).
    sessions = Sessions(TEST_SECRET.encode(), 3600)
    other, digest, expires = sessions.new_token()
    server.store.create_session(guest.user["id"], digest, expires)
    assert signed_in(server, other) == 200
    table = guest.create_table()
    here, there = guest.socket(table["id"]), guest.socket(table["id"], token=other)
    assert here.recv()["you"]["seat"] == there.recv()["you"]["seat"] == 0
    # The lobby sockets too: they carry the person's invitations.
    lobby_here, lobby_there = (
        lobby_socket(server.base, guest.token),
        lobby_socket(server.base, other),
    )
    assert lobby_here.recv()["type"] == lobby_there.recv()["type"] == "lobby"
    out = guest.http.delete("/api/session")
    assert out.status_code == 200 and out.json() == {"user": guest.user, "sessions_ended": 1}
    assert 'raspisnoy_session=""' in out.headers["set-cookie"]
    assert signed_in(server, guest.token) == 401 and signed_in(server, other) == 200
    assert close_of(here) == (4401, "the session was ended (logged out)")
    assert close_of(lobby_here) == (4401, "the session was ended (logged out)")
    for socket in (there, lobby_there):  # the other token plays on
        socket.send({"type": "ping"})
        assert socket.recv_until(lambda m: m["type"] == "pong")
    everywhere = httpx.delete(
        f"{server.base}/api/sessions", headers={"authorization": f"Bearer {other}"}
    )
    assert everywhere.json()["sessions_ended"] == 1
    assert signed_in(server, other) == 401
    assert close_of(there)[0] == close_of(lobby_there)[0] == 4401
    third = Api(server.base, "Many")
    assert third.token is not None
    again, digest, expires = sessions.new_token()
    server.store.create_session(third.user["id"], digest, expires)
    assert third.http.delete("/api/sessions").json()["sessions_ended"] == 2
    assert signed_in(server, again) == 401 and signed_in(server, third.token) == 401


def test_the_database_holds_neither_tokens_nor_the_key(server: Server) -> None:
    guest = Api(server.base, "Copied")
    assert guest.token is not None
    metadata = MetaData()
    metadata.reflect(server.store.engine)
    with server.store.engine.connect() as connection:
        dump = " ".join(
            str(row)
            for table in metadata.sorted_tables
            for row in connection.execute(select(table))
        )
    assert guest.user["id"] in dump  # the dump is real
    assert guest.token not in dump and TEST_SECRET not in dump
    assert "secrets" not in metadata.tables
    # The stored hash is keyed: without the key it matches no token.
    assert Sessions(b"another key, another server" * 2, 60).digest(guest.token) not in dump
    assert Sessions(TEST_SECRET.encode(), 60).digest(guest.token) in dump


def test_the_key_file_is_made_once_for_its_owner_only(tmp_path: Path) -> None:
    key = load_secret(None, tmp_path / "data")
    path = tmp_path / "data" / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secret(None, tmp_path / "data") == key and len(key) >= 32
    assert load_secret(TEST_SECRET, tmp_path) == TEST_SECRET.encode()
    with pytest.raises(SecretKeyError, match="at least 32"):
        load_secret("short", tmp_path)
    path.chmod(0o644)
    with pytest.raises(SecretKeyError, match="chmod 600"):
        load_secret(None, tmp_path / "data")
