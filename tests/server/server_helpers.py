"""Fresh databases, the real server in a thread, and test clients of it: REST through
httpx, the table protocol through a WebSocket client (``websockets``), over loopback."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from server_process import ServerProcess, free_port
from sqlalchemy import update
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from raspisnoy.server.app import WEB_DIR, create_app
from raspisnoy.server.command import proxy_options
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.deps import Services
from raspisnoy.store import Store
from raspisnoy.store.models import GameTable

Message = dict[str, Any]
T = TypeVar("T")
#: Seconds a state the server reaches on its own (a pass, a broadcast) may take.
PATIENCE = 30.0


def until(read: Callable[[], T], done: Callable[[T], bool]) -> T:
    """``read()`` once ``done`` with it, within ``PATIENCE`` seconds."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        found = read()
        if done(found):
            return found
        time.sleep(0.1)
    raise AssertionError(f"not there in {PATIENCE:.0f} s: {found}")


#: Seconds a test's HTTP call may take: a log-in or a new account hashes a password with
#: argon2 (64 MiB), which takes seconds on a loaded machine (httpx's default of 5 s failed
#: at a load average of 24). Every client of the tests' servers waits this long.
HTTP_SECONDS = 60
#: The servers' secret in tests (given, so no key file is made in the working folder).
TEST_SECRET = "test-secret-" + "k" * 32
#: Limits for tests that play whole games at full speed from one client.
#: Limits for tests that play whole games at full speed from one client, and make many
#: guests and tables from one address.
FAST = ServerSettings(
    messages_per_second=10_000,
    message_burst=10_000,
    secret_key=TEST_SECRET,
    sessions_per_address="100000/minute",
    requests_per_address="100000/minute",
    requests_per_user="100000/minute",
    tables_per_user="1000/minute",
    max_open_tables_per_user=1000,
    max_games_per_user=1000,
)


def at_most(count: int) -> str:
    """A rate limit of ``count`` for a test that counts up to it: per year, a window no
    test run straddles. The server's sliding-window counter (server/limits.py) weighs the
    previous window's count by how much of it still overlaps and rounds down, so just past
    a window's boundary one more attempt goes through: with per-minute limits, a test whose
    attempts straddled a minute failed now and then (CI, session 16)."""
    return f"{count}/year"


def services_of_app(app: Any) -> Services:
    services: Services = app.state.services
    return services


class Server:
    """A running server: its base URL and its store."""

    def __init__(self, store: Store, settings: ServerSettings, web_dir: Path = WEB_DIR) -> None:
        self.store = store
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(store, settings, web_dir),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            **proxy_options(settings),  # forwarded headers believed as ``serve`` does
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=asyncio.run, args=(self._server.serve(),))
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    @property
    def services(self) -> Services:
        """The running app's services (its hub, store, limits), for white-box checks."""
        return services_of_app(self._server.config.app)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(20)

    def open_for(self, table_id: str, hours: float) -> None:
        """Make the table look opened ``hours`` ago (the lobby lists a table for
        ``lobby_open_table_hours``)."""
        opened = datetime.now(UTC) - timedelta(hours=hours)
        with self.store.engine.begin() as connection:
            statement = update(GameTable).where(GameTable.id == table_id)
            connection.execute(statement.values(created_at=opened))


class Api:
    """REST calls of one guest (its session token as a bearer header)."""

    def __init__(self, base: str, nickname: str | None = None) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=HTTP_SECONDS)
        self.token: str | None = None
        self.user: Message = {}
        if nickname is not None:
            answer = self.http.post("/api/session", json={"nickname": nickname})
            answer.raise_for_status()
            self.token, self.user = answer.json()["token"], answer.json()["user"]
            self.http.headers["authorization"] = f"Bearer {self.token}"

    def create_table(self, **options: Any) -> Message:
        answer = self.http.post("/api/tables", json=options)
        assert answer.status_code == 201, answer.text
        table: Message = answer.json()
        return table

    def post(self, path: str, **body: Any) -> httpx.Response:
        return self.http.post(path, json=body)

    def socket(self, table_id: str, token: str | None = None, origin: str | None = None) -> Player:
        """A WebSocket to the table with this guest's token (or ``token``); ``origin`` is
        the ``Origin`` header a browser would send (none by default)."""
        return Player(self.base, table_id, token if token is not None else self.token, origin)


class Player:
    """A WebSocket client of one table that keeps every message it receives."""

    def __init__(
        self,
        base: str,
        table_id: str,
        token: str | None,
        origin: str | None = None,
        path: str | None = None,
    ) -> None:
        """A socket to ``/ws/tables/TABLE_ID``, or to ``path`` (the lobby's ``/ws/lobby``)."""
        url = base.replace("http://", "ws://") + (path or f"/ws/tables/{table_id}")
        if token:
            url += f"?token={token}"
        self.ws: ClientConnection = connect(
            url,
            proxy=None,
            open_timeout=10,
            legacy=True,
            origin=None if origin is None else Origin(origin),
        )
        self.messages: list[Message] = []
        self.seat: int | None = None
        self.version = -1
        self.game: Message | None = None

    def send(self, message: Message | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10) -> Message:
        message: Message = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.seat = message["you"]["seat"]
        if message["type"] in ("state", "event"):
            self.version, self.game = message["version"], message["game"]
        return message

    def recv_until(self, predicate: Callable[[Message], bool], timeout: float = 20) -> Message:
        """Receive until a message satisfies ``predicate``; fail after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching message within {timeout} s")
            message = self.recv(timeout=left)
            if predicate(message):
                return message

    def my_turn(self) -> bool:
        game = self.game
        return bool(game and game["to_act"] == self.seat and game["legal"])

    def close(self) -> None:
        self.ws.close()


def play_until(
    player: Player,
    done: Callable[[Player], bool],
    choose: Callable[[Message], str] = lambda game: game["legal"][0],
    timeout: float = 60,
) -> None:
    """Act whenever it is the player's turn (once per version) until ``done(player)``."""
    acted = -1
    deadline = time.monotonic() + timeout
    while not done(player):
        if player.my_turn() and acted != player.version:
            acted = player.version
            assert player.game is not None
            player.send({"type": "act", "id": f"v{acted}", "action": choose(player.game)})
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("the game did not get there in time")
        player.recv(timeout=left)


def game_over(player: Player) -> bool:
    return bool(player.game and player.game["phase"] == "over")


def play_in_threads(players: list[Player], done: Callable[[Player], bool] = game_over) -> None:
    """Each player plays in its own thread until ``done``; a failure in any is raised."""
    errors: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            play_until(player, done)
        except BaseException as error:  # reported to the test below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


@contextmanager
def serve(port: int, *options: str, key_file: bool = False) -> Iterator[ServerProcess]:
    """``raspisnoy serve --port PORT OPTIONS...`` in a subprocess, once ``/healthz`` answers.
    Its secret is ``TEST_SECRET`` (so no key file lands in the working folder), or with
    ``key_file`` the key file it makes in its data directory."""
    server = ServerProcess(*options, port=port, env={"RASPISNOY_SECRET_KEY": TEST_SECRET})
    if key_file:
        del server.env["RASPISNOY_SECRET_KEY"]
    server.start()
    try:
        yield server
    finally:
        server.stop(20)
