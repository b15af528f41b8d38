"""The live lobby (``/ws/lobby``): the lobby at once and after every change (a table
opened, a seat taken, a game started), only public tables and public facts about them,
the same checks as the table socket (origin, token, socket count, size, flood), each
person's ``mine`` following their own tables (private ones too) and nobody else's, and
with several workers the changes of one reach the lobby sockets of the other through
Redis. Also the places in ``/api/me/games`` and the QR codes of ``POST /api/qr``."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from contextlib import suppress
from itertools import pairwise
from pathlib import Path
from typing import cast

import httpx
import pytest
from fresh_databases import new_database
from leak_check import cards_in
from redis import Redis
from redis.exceptions import RedisError
from server_helpers import (
    FAST,
    Api,
    Message,
    Player,
    Server,
    game_over,
    play_in_threads,
    play_until,
)
from test_protocol import close_of
from websockets.exceptions import ConnectionClosed

from raspisnoy.server.broadcast import Broadcast
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.connection import Connection
from raspisnoy.server.services.lobby import NO_TABLES, LobbyFeed, tables_digest
from raspisnoy.store import Store, UserRow

#: The facts a lobby line gives, and nothing else.
LINE_KEYS = {
    "id",
    "status",
    "preset",
    "players",
    "people",
    "host",
    "host_profile",
    "names",
    "turn_seconds",
    "rated",
    "link",
}
ONE_ROUND = {"preset": "raspisnoy.com", "custom_plan": ["1"]}


def lobby_socket(base: str, token: str | None = None, origin: str | None = None) -> Player:
    return Player(base, "", token, origin, path="/ws/lobby")


def line_of(message: Message, table_id: str, status: str) -> Message | None:
    """The table's line in the lobby message's list of ``status`` (``open``, ``playing``)."""
    return next((line for line in message[status] if line["id"] == table_id), None)


def until_line(
    socket: Player, table_id: str, status: str, test: Callable[[Message], bool] = bool
) -> Message:
    """Receive lobby messages until the table's line in ``status`` passes ``test``."""
    message = socket.recv_until(
        lambda m: m["type"] == "lobby" and test(line_of(m, table_id, status) or {})
    )
    line = line_of(message, table_id, status)
    assert line is not None
    return line


def test_the_lobby_follows_tables_seats_and_starts_without_asking(server: Server) -> None:
    watcher = lobby_socket(server.base)
    first = watcher.recv()
    assert first["type"] == "lobby" and set(first) == {"type", "open", "playing"}
    host, guest = Api(server.base, "Hostess"), Api(server.base, "Guest")
    hidden = host.create_table(public=False)
    table = host.create_table(bots="random", bot_delay_ms=0, players=3)
    line = until_line(watcher, table["id"], "open")
    assert set(line) == LINE_KEYS
    assert (line["host"], line["people"], line["players"]) == ("Hostess", 1, 3)
    assert line["names"] == ["Hostess", None, None] and line["link"] == table["invite"]

    assert guest.post(f"/api/tables/{table['id']}/sit", seat=2).status_code == 200
    line = until_line(watcher, table["id"], "open", lambda line: line.get("people") == 2)
    assert line["names"] == ["Hostess", None, "Guest"]

    assert host.post(f"/api/tables/{table['id']}/start").status_code == 200
    message = watcher.recv_until(lambda m: line_of(m, table["id"], "playing") is not None)
    assert line_of(message, table["id"], "open") is None
    playing = line_of(message, table["id"], "playing")
    assert playing is not None and playing["status"] == "playing"
    assert playing["names"][0] == "Hostess" and playing["names"][2] == "Guest"
    # The private table was never listed, in any message.
    assert all(
        hidden["id"] not in {line["id"] for line in m["open"] + m["playing"]}
        for m in watcher.messages
    )
    watcher.close()


def test_a_table_that_waited_too_long_leaves_the_lobby_but_not_its_link(server: Server) -> None:
    """After ``lobby_open_table_hours`` (24) a table waiting for players is no longer
    listed, on the socket (from its next change) or over REST; its link still opens it
    and its host can still start it."""
    watcher = lobby_socket(server.base)
    watcher.recv()
    host = Api(server.base, "Forgetful")
    old, fresh = host.create_table(bots="random"), host.create_table(bots="random")
    until_line(watcher, old["id"], "open")
    server.open_for(old["id"], hours=24.02)
    assert host.post(f"/api/tables/{fresh['id']}/leave").status_code == 200  # a change
    message = watcher.recv_until(lambda m: line_of(m, fresh["id"], "open") is None)
    assert line_of(message, old["id"], "open") is None
    listed = {t["id"] for t in httpx.get(f"{server.base}/api/tables").json()["tables"]}
    assert old["id"] not in listed
    assert httpx.get(f"{server.base}/api/tables/{old['id']}").json()["status"] == "open"
    assert host.post(f"/api/tables/{old['id']}/start").json()["status"] == "playing"
    watcher.close()


def test_a_table_leaves_the_lobby_socket_when_its_time_is_up_with_no_other_change(
    server: Server,
) -> None:
    """A lobby left alone still drops a table when its ``lobby_open_table_hours`` are
    up: each worker sets a rebuild for the moment the oldest table it lists is due."""
    watcher = lobby_socket(server.base)
    watcher.recv()
    host = Api(server.base, "Left alone")
    table = host.create_table(bots="random")
    until_line(watcher, table["id"], "open")
    server.open_for(table["id"], hours=24 - 8 / 3600)  # 8 s of its time left
    leaves = time.monotonic() + 8
    other = Api(server.base, "Passer-by").create_table(bots="random")  # a change: a rebuild

    def lists(table_id: str) -> Callable[[Message], bool]:
        return lambda m: m["type"] == "lobby" and line_of(m, table_id, "open") is not None

    message = watcher.recv_until(lists(other["id"]))
    if lists(table["id"])(message):  # (else the machine was slower than its 8 s)
        message = watcher.recv_until(lambda m: m["type"] == "lobby" and not lists(table["id"])(m))
        assert time.monotonic() > leaves - 2  # not before its time
    assert lists(other["id"])(message)
    watcher.close()


def test_the_lobby_tells_nothing_hidden(server: Server) -> None:
    """Every lobby message while a public bot game is played holds no card, no seed, no
    user id and no session token: only the lines' public facts."""
    host = Api(server.base, "Leaky")
    assert host.token is not None
    watcher = lobby_socket(server.base)
    watcher.recv()
    table = host.create_table(bots="random", bot_delay_ms=0, rules=ONE_ROUND, players=3)
    host.post(f"/api/tables/{table['id']}/start")
    until_line(watcher, table["id"], "playing")
    row = server.store.get_table(table["id"])
    watcher.send({"type": "sync"})
    watcher.recv_until(lambda m: m["type"] == "lobby")
    for message in watcher.messages:
        raw = repr(message)
        assert row.seed not in raw and host.token not in raw and host.user["id"] not in raw
        for line in message["open"] + message["playing"]:
            assert set(line) == LINE_KEYS
            assert cards_in(line) == set(), line
    watcher.close()


def mine_of(server: Server, *table_ids: str) -> str:
    """The ``mine`` of a person whose live tables are ``table_ids``, as they are now."""
    return tables_digest(server.store.get_table(table_id) for table_id in table_ids)


def lists_of(message: Message) -> tuple[object, object]:
    return message["open"], message["playing"]


def test_mine_follows_my_own_tables_and_tells_nobody_else(server: Server) -> None:
    """A person's lobby socket gets a new ``mine`` when their private table is opened, a
    seat there taken, the game started and over, though the lobby's lists stay as they
    were; another person's socket and one without a session are sent nothing for it (each
    message they get has lists of its own) and never a fingerprint but their own."""
    owner, guest, other = (
        Api(server.base, "Owner"),
        Api(server.base, "Sits"),
        Api(server.base, "Other"),
    )
    mine, theirs = lobby_socket(server.base, owner.token), lobby_socket(server.base, other.token)
    anyone = lobby_socket(server.base)
    assert mine.recv()["mine"] == NO_TABLES and theirs.recv()["mine"] == NO_TABLES
    assert "mine" not in anyone.recv()

    table = owner.create_table(
        public=False, bots="random", bot_delay_ms=0, rules=ONE_ROUND, players=3
    )
    mine.recv_until(lambda m: m["mine"] == mine_of(server, table["id"]))
    assert guest.post(f"/api/tables/{table['id']}/sit", seat=1).status_code == 200
    mine.recv_until(lambda m: m["mine"] == mine_of(server, table["id"]))
    assert owner.post(f"/api/tables/{table['id']}/start").status_code == 200
    mine.recv_until(lambda m: m["mine"] == mine_of(server, table["id"]))
    players = [owner.socket(table["id"]), guest.socket(table["id"])]
    play_in_threads(players)
    mine.recv_until(lambda m: m["mine"] == NO_TABLES)  # the game over: no live table left
    for player in players:
        player.close()

    # A public table of a fourth person: a change of the lists, which everyone gets.
    marker = Api(server.base, "Marker").create_table(bots="random")
    for socket in (theirs, anyone):
        socket.recv_until(lambda m: line_of(m, marker["id"], "open") is not None)
        received = socket.messages
        assert all(lists_of(a) != lists_of(b) for a, b in pairwise(received))
        assert all(m.get("mine", NO_TABLES) == NO_TABLES for m in received)
        assert all(table["id"] not in repr(m) for m in received)
    assert "mine" not in repr(anyone.messages)
    for socket in (mine, theirs, anyone):
        socket.close()


class CountingStore:
    """A store without tables that counts the feed's reads of the people's live tables."""

    def __init__(self) -> None:
        self.live_reads = 0

    def list_tables(self, **_: object) -> list[object]:
        return []

    def live_tables_of(self, user_ids: object, created_after: object) -> list[object]:
        self.live_reads += 1
        return []


class Listener:
    """A lobby socket with a session, as the feed sees it."""

    user = UserRow("listener", "Listener", "guest")

    def send(self, message: str) -> None:
        pass


def test_a_busy_lobby_reads_the_peoples_tables_once_a_second_at_most() -> None:
    """With changes coming every 50 ms, the people's live tables are read for ``mine`` once
    when the socket joins, once after the first change, then once a second while they keep
    coming (not once a change, as the lists are)."""

    async def changes() -> tuple[int, float]:
        store = CountingStore()
        feed = LobbyFeed(cast(Store, store), Broadcast(), open_table_hours=24)
        await feed.join(cast(Connection, Listener()))
        began = time.monotonic()
        for _ in range(30):
            feed.changed()
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.5)  # the last read, then quiet
        await feed.stop()
        return store.live_reads, time.monotonic() - began

    reads, seconds = asyncio.run(changes())
    assert 3 <= reads <= 2 + math.ceil(seconds), (reads, seconds)


def test_bad_lobby_messages_are_answered_and_the_socket_stays(server: Server) -> None:
    watcher = lobby_socket(server.base)
    assert watcher.recv()["type"] == "lobby"
    for sent, code in [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"kind": "sync"}', "bad_message"),
        ('{"type": "act", "id": "a1", "action": "KD"}', "unknown_type"),
        ('{"type": "sync", "table": "x"}', "bad_message"),
        ('{"type": 7}', "bad_message"),
    ]:
        watcher.send(sent)
        answer = watcher.recv()
        assert answer["type"] == "error" and answer["code"] == code, (sent, answer)
    watcher.ws.send(b"\x00\x01")
    assert watcher.recv()["code"] == "bad_message"
    watcher.send({"type": "ping"})
    assert watcher.recv() == {"type": "pong"}
    watcher.send({"type": "sync"})
    assert watcher.recv()["type"] == "lobby"
    watcher.close()


@pytest.fixture(scope="module")
def strict(start_server: Callable[[ServerSettings], Server]) -> Server:
    """A server with small socket and message limits."""
    limits = {
        "messages_per_second": 5,
        "message_burst": 10,
        "max_sockets_per_user": 2,
        "allowed_origins": ("https://friend.example",),
    }
    return start_server(FAST.model_copy(update=limits))


def test_a_lobby_flood_closes_with_1008_and_a_big_message_with_1009(strict: Server) -> None:
    flooder = lobby_socket(strict.base)
    flooder.recv()
    with suppress(ConnectionClosed):  # the server may close before the last one is sent
        for _ in range(40):
            flooder.send({"type": "ping"})
    code, reason = close_of(flooder)
    assert code == 1008 and "flooding" in reason
    big = lobby_socket(strict.base)
    big.recv()
    big.send({"type": "ping", "pad": "x" * 5000})
    code, reason = close_of(big)
    assert code == 1009 and "at most 4096" in reason


def test_lobby_sockets_keep_the_socket_rules(strict: Server) -> None:
    code, reason = close_of(lobby_socket(strict.base, origin="https://cards.example.net"))
    assert code == 4403 and "cards.example.net" in reason
    assert lobby_socket(strict.base, origin="https://friend.example").recv()["type"] == "lobby"
    code, _ = close_of(lobby_socket(strict.base, token="not-a-token"))
    assert code == 4401
    guest = Api(strict.base, "Counted")
    kept = [lobby_socket(strict.base, guest.token) for _ in range(2)]
    for socket in kept:
        assert socket.recv()["type"] == "lobby"
    code, reason = close_of(lobby_socket(strict.base, guest.token))
    assert code == 4429 and "at most 2" in reason
    kept[0].close()
    # Table sockets count against the same limit: the freed place can be used by one.
    table = guest.create_table()
    assert guest.socket(table["id"]).recv()["type"] == "state"


def test_my_games_say_my_place_and_points_once_over(server: Server) -> None:
    player = Api(server.base, "Placed")
    table = player.create_table(bots="random", bot_delay_ms=0, rules=ONE_ROUND, players=3)
    player.post(f"/api/tables/{table['id']}/start")
    me = player.socket(table["id"])
    me.recv()
    play_until(me, game_over)
    me.close()
    games = player.http.get("/api/me/games").json()["games"]
    game = next(g for g in games if g["id"] == table["id"])
    report = player.http.get(f"/api/games/{table['id']}/score").json()
    totals = report["totals"]
    assert game["points"] == totals[0]
    assert game["place"] == 1 + sum(total > totals[0] for total in totals)
    running = player.create_table(bots="random", bot_delay_ms=5000, players=3)
    player.post(f"/api/tables/{running['id']}/start")
    games = player.http.get("/api/me/games").json()["games"]
    line = next(g for g in games if g["id"] == running["id"])
    assert (line["status"], line["place"], line["points"]) == ("playing", None, None)


def test_qr_codes_are_drawn_for_this_sites_links_only(server: Server) -> None:
    guest = Api(server.base, "Scanner")
    host = server.base.removeprefix("http://")
    drawn = {}
    for link in (
        f"{server.base}/?table=abc",
        f"{server.base}/score?share=xyz",
        f"{server.base}/score?sheet=s1#token=secret-edit-token",
    ):
        answer = guest.http.post("/api/qr", json={"url": link})
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "image/svg+xml"
        root = ElementTree.fromstring(answer.content)
        assert root.tag.endswith("svg") and "secret" not in answer.text
        drawn[link] = answer.text
    assert len(set(drawn.values())) == 3  # each link its own code
    for link in (
        "https://evil.example/?table=abc",
        f"javascript://{host}/?x=alert(1)",
        f"{server.base}/api/session",
        f"{server.base}/score/../api",
        "/?table=abc",
        f"{server.base}/?{'x' * 600}",
    ):
        answer = guest.http.post("/api/qr", json={"url": link})
        assert answer.status_code == 422, (link, answer.text)
    assert guest.http.post("/api/qr", json={}).status_code == 422


# ------------------------------------------------------------------ several workers


@pytest.fixture
def redis_url() -> str:
    url = "redis://127.0.0.1:6379/0"
    try:
        Redis.from_url(url, socket_timeout=2).ping()
    except (RedisError, OSError) as error:
        pytest.skip(f"Redis at 127.0.0.1:6379 is unreachable: {error}")
    return url


@pytest.fixture
def two_workers(tmp_path: Path, redis_url: str) -> Iterator[tuple[Server, Server]]:
    """Two workers on one PostgreSQL database and one Redis, as docs/cluster.md runs them."""
    with new_database("postgresql", tmp_path) as url:
        stores = [Store.open(url), Store.open(url, migrate=False)]
        settings = FAST.model_copy(update={"redis_url": redis_url})
        workers = (Server(stores[0], settings), Server(stores[1], settings))
        try:
            yield workers
        finally:
            for worker, store in zip(workers, stores, strict=True):
                worker.stop()
                store.close()


def test_a_change_on_one_worker_reaches_the_lobby_of_another(
    two_workers: tuple[Server, Server],
) -> None:
    first, second = two_workers
    watcher = lobby_socket(second.base)
    watcher.recv()
    host = Api(first.base, f"W{secrets.token_hex(3)}")
    table = host.create_table(players=3)
    assert until_line(watcher, table["id"], "open")["people"] == 1
    assert Api(first.base, "Seated").post(f"/api/tables/{table['id']}/sit", seat=1).is_success
    until_line(watcher, table["id"], "open", lambda line: line.get("people") == 2)
    watcher.close()


def test_my_private_table_on_one_worker_reaches_my_lobby_on_another(
    two_workers: tuple[Server, Server],
) -> None:
    """``mine`` is read from the shared database: a seat taken at a private table opened
    through one worker changes it on the lobby socket that another worker holds."""
    first, second = two_workers
    owner = Api(first.base, f"M{secrets.token_hex(3)}")
    mine = lobby_socket(second.base, owner.token)
    assert mine.recv()["mine"] == NO_TABLES
    table = owner.create_table(public=False, players=3)
    mine.recv_until(lambda m: m["mine"] == mine_of(first, table["id"]))
    assert Api(first.base, "Seated").post(f"/api/tables/{table['id']}/sit", seat=1).is_success
    mine.recv_until(lambda m: m["mine"] == mine_of(first, table["id"]))
    mine.close()
