"""Fresh databases for the tests that need one (the store's, the server's, the audit
benchmark's): a SQLite file, or a PostgreSQL schema of its own that is dropped afterwards.

This folder is on every test's import path (``pythonpath`` in pyproject.toml), so any test
folder imports it as ``fresh_databases``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from raspisnoy.store import Store

__all__ = ["BACKENDS", "POSTGRES", "new_database", "new_store"]

#: The PostgreSQL that the machine and CI run (trust authentication, database ``test``).
POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
#: The store's backends, for tests parametrised over both.
BACKENDS = ["sqlite", "postgresql"]


@contextmanager
def new_database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh database: a SQLite file in ``folder``, or a new PostgreSQL schema (dropped
    afterwards). Skips the test when PostgreSQL is unreachable."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'raspisnoy.sqlite3'}"
        return
    schema = f"raspisnoy_test_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as error:
        admin.dispose()
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is unreachable: {error.orig}")
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def new_store(kind: str, folder: Path) -> Iterator[Store]:
    """A migrated store on a fresh database of ``kind`` (``new_database``), closed after."""
    with new_database(kind, folder) as url:
        store = Store.open(url)
        try:
            yield store
        finally:
            store.close()
