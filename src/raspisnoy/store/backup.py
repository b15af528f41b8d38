"""Backups of the server's database and their restores (docs/operations.md, "Backups").

SQLite: ``backup_sqlite`` copies the database with SQLite's online backup
(``sqlite3.Connection.backup``), consistent while a server writes to it; the copy is
written beside its name and renamed when complete, so a failed backup leaves nothing.
``restore_sqlite`` first checks that the file is a raspisnoy database at a migration this
version knows, then writes it through SQLite into the database with an exclusive lock,
which it cannot get while a server has the database open: a running server is refused.

PostgreSQL is backed up and restored by its own tools: ``postgres_commands`` are the
``pg_dump``/``pg_restore`` invocations for a database URL.
"""

from __future__ import annotations

import shlex
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy.engine import URL, make_url

__all__ = [
    "BackupError",
    "PostgresCommands",
    "Progress",
    "backup_sqlite",
    "known_migrations",
    "migration_of",
    "postgres_commands",
    "restore_sqlite",
]

#: Called with (pages copied, pages in all) after each step of a backup or restore.
Progress = Callable[[int, int], None]
#: Pages copied per step (16 MiB of 4 KiB pages): a step holds the source's read lock
#: only briefly, and few steps mean few restarts if the server writes meanwhile.
_PAGES_PER_STEP = 4096
#: Seconds a restore waits for the database's lock before saying a server holds it.
_LOCK_SECONDS = 0.5


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def known_migrations() -> tuple[str, ...]:
    """The migrations this version ships, oldest first (the last is the head)."""
    scripts = ScriptDirectory(str(files("raspisnoy.store") / "migrations"))
    return tuple(reversed([script.revision for script in scripts.walk_revisions()]))


def migration_of(path: Path) -> str:
    """The migration a SQLite file is at; ``BackupError`` if it is no raspisnoy database
    (not SQLite, or without the tables every raspisnoy database has)."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        # closing: a sqlite3 connection's own ``with`` commits but does not close it.
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if not {"alembic_version", "tables", "game_events"} <= names:
                raise BackupError(f"{path} is not a raspisnoy database (it has no game tables)")
            versions = [row[0] for row in db.execute("SELECT version_num FROM alembic_version")]
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a raspisnoy database ({error})") from None
    if len(versions) != 1:
        raise BackupError(f"{path} has no single migration version ({versions})")
    return str(versions[0])


def backup_sqlite(database: Path, target: Path, progress: Progress | None = None) -> str:
    """Copy the SQLite ``database`` (a server may be using it) to the new file ``target``;
    the migration it is at."""
    if target.exists():
        raise BackupError(f"{target} exists already: choose a new file for the backup")
    migration = migration_of(database)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            closing(sqlite3.connect(database, timeout=30)) as source,
            closing(sqlite3.connect(partial)) as copy,
        ):
            source.backup(copy, pages=_PAGES_PER_STEP, progress=_steps(progress))
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        partial.replace(target)
    except (sqlite3.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"the backup failed: {error}") from None
    return migration


def restore_sqlite(backup: Path, database: Path, progress: Progress | None = None) -> str:
    """Replace the SQLite ``database`` (made if missing) with the ``backup``; its
    migration. Refused if the backup is no raspisnoy database, is at a migration this
    version does not know (made by a newer one), or a server holds ``database``."""
    migration = migration_of(backup)
    if migration not in known_migrations():
        raise BackupError(
            f"{backup} is at migration {migration}, which this version of raspisnoy does "
            "not know: restore it with the version that made it (or a newer one)"
        )
    database.parent.mkdir(parents=True, exist_ok=True)
    try:
        with (
            closing(sqlite3.connect(backup)) as source,
            closing(sqlite3.connect(database, timeout=_LOCK_SECONDS)) as target,
        ):
            _lock(target, database)
            source.backup(target, pages=_PAGES_PER_STEP, progress=_steps(progress))
    except sqlite3.Error as error:
        raise BackupError(f"the restore failed: {error}") from None
    return migration


def _lock(target: sqlite3.Connection, database: Path) -> None:
    """Hold ``target``'s database exclusively until the connection closes (SQLite's
    exclusive locking mode keeps the lock after the transaction); a server that has the
    database open (it keeps its connections) makes this fail."""
    target.execute("PRAGMA locking_mode=EXCLUSIVE")
    try:
        target.execute("BEGIN EXCLUSIVE")
        target.execute("COMMIT")
    except sqlite3.OperationalError:
        raise BackupError(
            f"{database} is in use, most likely by a running server: stop the server "
            "(every process using this data directory), then restore"
        ) from None


def _steps(progress: Progress | None) -> Callable[[int, int, int], object] | None:
    """SQLite's ``progress(status, remaining, total)`` as ``progress(done, total)``."""
    if progress is None:
        return None
    return lambda _status, remaining, total: progress(total - remaining, total)


@dataclass(frozen=True, slots=True)
class PostgresCommands:
    """The commands that back up and restore a PostgreSQL database, as shell lines."""

    backup: str
    restore: str


def postgres_commands(url: str, target: str) -> PostgresCommands:
    """``pg_dump``/``pg_restore`` of the database at the SQLAlchemy ``url`` into or from
    the file ``target`` (custom format: compressed, restorable table by table). The
    password is left out: give it in ``PGPASSWORD`` or ``~/.pgpass``."""
    given = make_url(url)
    without_password = URL.create(
        "postgresql", given.username, None, given.host, given.port, given.database, given.query
    )
    libpq = without_password.render_as_string(hide_password=False)
    return PostgresCommands(
        backup=f"pg_dump --format=custom --file={shlex.quote(target)} {shlex.quote(libpq)}",
        restore=(
            f"pg_restore --clean --if-exists --no-owner --single-transaction "
            f"--dbname={shlex.quote(libpq)} {shlex.quote(target)}"
        ),
    )
