"""The server suite runs on SQLite and on the PostgreSQL at 127.0.0.1:5432 (each session
gets a fresh schema there, dropped at the end, so reruns start clean).

``server`` starts the real application under Uvicorn in a thread on a free loopback port.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator

import pytest
from server_helpers import FAST, Server
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from raspisnoy.server.config import ServerSettings
from raspisnoy.store import Store

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database URL for this run: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'raspisnoy.sqlite3'}"
        return
    schema = f"raspisnoy_test_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as error:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is unreachable: {error.orig}")
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


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
