"""``raspisnoy backup`` and ``raspisnoy restore`` (registered in ``raspisnoy.cli``): the
server's database saved to a file and put back (``raspisnoy.store.backup``,
docs/operations.md). The database is found as ``raspisnoy serve`` finds it.

SQLite is copied by the commands themselves, with a progress bar on standard error. For
PostgreSQL they print the ``pg_dump``/``pg_restore`` line to run, on standard output, and
run nothing: those tools must match the server's version and need its credentials, which
the operator has and this command should not guess.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from raspisnoy.cli_support import DatabaseUrl, DataDir, cli_help, fail

__all__ = ["backup_command", "restore_command"]


def backup_command(
    target: Annotated[Path, typer.Argument(help=cli_help("backup.target"))],
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """``raspisnoy backup``; its help is the ``cli`` catalog's ``cli.backup``."""
    from raspisnoy.store.backup import BackupError, backup_sqlite, postgres_commands

    url = _database(data_dir, database_url)
    if url.startswith("postgresql"):
        sys.stdout.write(postgres_commands(url, str(target)).backup + "\n")
        return
    try:
        with _progress("backing up") as step:
            migration = backup_sqlite(_sqlite_path(url), target, step)
    except BackupError as error:
        fail(str(error))
    sys.stdout.write(f"backed up to {target} (migration {migration})\n")


def restore_command(
    backup: Annotated[Path, typer.Argument(help=cli_help("restore.backup"))],
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """``raspisnoy restore``; its help is the ``cli`` catalog's ``cli.restore``."""
    from raspisnoy.store.backup import BackupError, postgres_commands, restore_sqlite

    url = _database(data_dir, database_url)
    if url.startswith("postgresql"):
        sys.stdout.write(postgres_commands(url, str(backup)).restore + "\n")
        return
    try:
        with _progress("restoring") as step:
            migration = restore_sqlite(backup, _sqlite_path(url), step)
    except BackupError as error:
        fail(str(error))
    sys.stdout.write(
        f"restored {backup} (migration {migration}); the server brings it up to date when "
        "it starts\n"
    )


def _database(data_dir: Path | None, database_url: str | None) -> str:
    """The database URL ``raspisnoy serve`` would use with these options."""
    from pydantic import ValidationError

    from raspisnoy.server.config import ServerSettings

    given: dict[str, Any] = {"data_dir": data_dir, "database_url": database_url}
    try:
        settings = ServerSettings(**{name: value for name, value in given.items() if value})
    except ValidationError as error:
        fail(f"settings: {error.errors()[0]['msg']}")
    return settings.database()


def _sqlite_path(url: str) -> Path:
    """The file of a SQLite URL; fails for any other database."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        fail(f"backups are for SQLite files and PostgreSQL, not {parsed.get_backend_name()}")
    return Path(parsed.database)


@contextmanager
def _progress(what: str) -> Iterator[Any]:
    """A Rich progress bar on standard error, and the ``(done, total)`` callback that
    moves it (no bar, and nothing printed, when standard error is no terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(what, total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield step
