"""The server suite runs on SQLite and on the PostgreSQL at 127.0.0.1:5432 (each session
gets a fresh schema there, dropped at the end, so reruns start clean).

``server`` starts the real application under Uvicorn in a thread on a free loopback port.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest
from fresh_databases import BACKENDS, new_database
from server_helpers import FAST, Server

from raspisnoy.server.config import ServerSettings
from raspisnoy.store import Store


@pytest.fixture(scope="session", params=BACKENDS)
def start_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[ServerSettings], Server]]:
    """Starts servers on the session's backend, each on a database of its own (one server
    owns its tables); all are stopped and their databases dropped at the end."""
    with ExitStack() as stack:

        def start(settings: ServerSettings) -> Server:
            url = stack.enter_context(new_database(request.param, tmp_path_factory.mktemp("db")))
            store = Store.open(url)
            stack.callback(store.close)
            if settings.secret_key is None:  # the key file goes to a folder of the test's
                settings = settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("data")})
            server = Server(store, settings)
            stack.callback(server.stop)
            return server

        yield start


@pytest.fixture(scope="session")
def server(start_server: Callable[[ServerSettings], Server]) -> Server:
    """The shared server with limits loose enough for full-speed games."""
    return start_server(FAST)
