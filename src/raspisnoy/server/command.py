"""``raspisnoy serve``: the game server under Uvicorn (registered in ``raspisnoy.cli``).

The database is ``--database-url`` (or ``RASPISNOY_DATABASE_URL``), else SQLite in the
data directory. Migrations run before the server listens, so a bad URL or an
unreachable database ends in one ``error:`` line, like every other command.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["UVICORN_OPTIONS", "serve"]

#: How Uvicorn runs the app: frames over 64 KiB are refused before the server's own, lower
#: limit per message; no per-message compression, since messages are small and zlib
#: would cost more CPU per message than building it.
UVICORN_OPTIONS: dict[str, Any] = {"ws_max_size": 64 * 1024, "ws_per_message_deflate": False}


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    data_dir: Annotated[
        Path,
        typer.Option(help="Folder for the SQLite database.", envvar="RASPISNOY_DATA_DIR"),
    ] = Path("data"),
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
            "(default: SQLite in the data directory).",
            envvar="RASPISNOY_DATABASE_URL",
        ),
    ] = None,
) -> None:
    """Run the game server: lobby, tables, bots and the WebSocket protocol."""
    import uvicorn

    from raspisnoy.server.app import create_app
    from raspisnoy.store import Store, StoreError

    if database_url is None:
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            _fail(f"cannot create the data directory {data_dir}: {error.strerror}")
        database_url = f"sqlite:///{(data_dir / 'raspisnoy.sqlite3').resolve()}"
    try:
        store = Store.open(database_url)
    except StoreError as error:
        _fail(str(error))
    app = create_app(store)
    uvicorn.run(app, host=host, port=port, log_level="info", **UVICORN_OPTIONS)


def _fail(message: str) -> None:
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(1)
