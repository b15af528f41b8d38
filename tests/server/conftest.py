"""The server suite runs on SQLite and on the PostgreSQL at 127.0.0.1:5432 (each session
gets a fresh schema there, dropped at the end, so reruns start clean).

``server`` starts the real application under Uvicorn in a thread on a free loopback port.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from server_helpers import BACKENDS, FAST, Server, new_database

from raspisnoy.server.config import ServerSettings
from raspisnoy.store import Store


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The session's database on each backend."""
    with new_database(request.param, tmp_path_factory.mktemp("db")) as url:
        yield url


@pytest.fixture(scope="session")
def start_server(database_url: str) -> Iterator[Callable[[ServerSettings], Server]]:
    """Starts servers on the session's database; all are stopped at the end."""
    servers: list[Server] = []
    store = Store.open(database_url)

    def start(settings: ServerSettings) -> Server:
        servers.append(Server(store, settings))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
    store.close()


@pytest.fixture(scope="session")
def server(start_server: Callable[[ServerSettings], Server]) -> Server:
    """The shared server with limits loose enough for full-speed games."""
    return start_server(FAST)
