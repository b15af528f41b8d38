"""``raspisnoy serve``: the game server under Uvicorn (registered in ``raspisnoy.cli``).

The database is ``--database-url`` (or ``RASPISNOY_DATABASE_URL``), else SQLite in the
data directory. Migrations run before the server listens, so a bad URL or an
unreachable database ends in one ``error:`` line, like every other command.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["serve"]

#: Largest WebSocket frame Uvicorn accepts; the server's own limit per message is lower.
_WS_MAX_SIZE = 64 * 1024


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
    uvicorn.run(app, host=host, port=port, ws_max_size=_WS_MAX_SIZE, log_level="info")


def _fail(message: str) -> None:
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(1)
