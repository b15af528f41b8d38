"""``raspisnoy serve``: the game server under Uvicorn (registered in ``raspisnoy.cli``).

The database is ``--database-url`` (or ``RASPISNOY_DATABASE_URL``), else SQLite in the
data directory; every other setting comes from the environment (``ServerSettings``).
Migrations run before the server listens, so a bad URL or an
unreachable database ends in one ``error:`` line, like every other command.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

__all__ = ["UVICORN_OPTIONS", "serve", "tune_gc"]

#: How Uvicorn runs the app: frames over 64 KiB are refused before the server's own, lower
#: limit per message; no per-message compression, since messages are small and zlib
#: would cost more CPU per message than building it.
UVICORN_OPTIONS: dict[str, Any] = {"ws_max_size": 64 * 1024, "ws_per_message_deflate": False}


def tune_gc() -> None:
    """Keep the garbage collector's pauses out of the game's latency.

    Every table holds thousands of small objects (its event log), and a full collection
    walks all of them: with a few hundred tables that pause reached hundreds of
    milliseconds. The objects made at start (modules, the app) are frozen out of
    collection, and collections run less often; the game's objects form few cycles."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


def serve(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default: 127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None, typer.Option(help="Port to listen on (default: 8000).", min=0, max=65535)
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the SQLite database (default: data).", envvar="RASPISNOY_DATA_DIR"
        ),
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
            "(default: SQLite in the data directory).",
            envvar="RASPISNOY_DATABASE_URL",
        ),
    ] = None,
) -> None:
    """Run the game server: lobby, tables, bots and the WebSocket protocol.

    Every limit is a setting read from a RASPISNOY_* environment variable
    (docs/server-settings.md); these options override the environment."""
    import uvicorn
    from pydantic import ValidationError

    from raspisnoy.server.app import create_app
    from raspisnoy.server.auth import SecretKeyError
    from raspisnoy.server.config import ServerSettings
    from raspisnoy.store import Store, StoreError

    given = {"host": host, "port": port, "data_dir": data_dir, "database_url": database_url}
    overrides: dict[str, Any] = {name: value for name, value in given.items() if value is not None}
    try:
        settings = ServerSettings(**overrides)
    except ValidationError as error:
        _fail(f"settings: {_first_problem(error)}")
    if settings.database_url is None:
        try:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            _fail(f"cannot create the data directory {settings.data_dir}: {error.strerror}")
    try:
        store = Store.open(settings.database())
    except StoreError as error:
        _fail(str(error))
    try:
        app = create_app(store, settings)
    except SecretKeyError as error:
        _fail(str(error))
    tune_gc()
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="info", **UVICORN_OPTIONS)


def _first_problem(error: Any) -> str:
    """The first problem of a pydantic ``ValidationError``, naming the environment variable."""
    from raspisnoy.server.config import ENV_PREFIX

    problem = error.errors()[0]
    name = ".".join(str(part) for part in problem["loc"])
    return f"{ENV_PREFIX}{name.upper()}: {problem['msg']} (got {problem.get('input')!r})"


def _fail(message: str) -> NoReturn:
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(1)
