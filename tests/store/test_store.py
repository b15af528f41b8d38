"""The store: migrations build exactly the models' schema, run twice harmlessly, and the
repository's writes are all-or-nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fresh_databases import BACKENDS, new_database
from sqlalchemy import inspect

from raspisnoy.store import EventRow, NotFoundError, Store, StoreError
from raspisnoy.store.models import Base


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrations_match_the_models_and_are_idempotent(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        Store.open(url).close()  # a second start applies nothing and breaks nothing
        with store.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
            assert differences == []
            assert "alembic_version" in inspect(connection).get_table_names()
        store.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_events_are_stored_all_or_nothing(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        user = store.create_user("Anna")
        table = store.create_table(
            host_id=user.id,
            public=True,
            rules={"preset": "raspisnoy.com"},
            bots=["random"] * 3,
            turn_seconds=0,
            bot_delay_ms=0,
            stand_in="random",
            seed="s",
        )
        first = EventRow(table.id, 1, 0, "1", "a")
        store.append_events([first])
        with pytest.raises(StoreError, match="database error"):
            store.append_events([EventRow(table.id, 2, 1, "0", None), first])  # seq 1 again
        assert store.events_of(table.id) == [first]
        with pytest.raises(StoreError):  # the same client id of the same seat, twice
            store.append_events([EventRow(table.id, 2, 0, "KD", "a")])
        with pytest.raises(NotFoundError):
            store.get_table("missing")
        store.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_sessions_expire_and_end(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        anna, boris = store.create_user("Anna"), store.create_user("Boris")
        later = datetime.now(UTC) + timedelta(hours=1)
        store.create_session(anna.id, "a1", later)
        store.create_session(anna.id, "a2", later)
        store.create_session(boris.id, "old", datetime.now(UTC) - timedelta(seconds=1))
        assert store.user_of_session("old") is None  # expired
        store.create_session(boris.id, "b1", later)
        assert store.user_of_session("a1") == anna
        assert store.user_of_session("nothing") is None
        assert store.end_session("a1") == 1 and store.end_session("a1") == 0
        assert store.user_of_session("a1") is None and store.user_of_session("a2") == anna
        assert store.end_sessions_of(boris.id) == 1  # the expired one went at b1's start
        assert store.user_of_session("b1") is None and store.user_of_session("a2") == anna
        store.close()


def test_unusable_urls_are_named() -> None:
    with pytest.raises(StoreError, match="not a database URL"):
        Store.open("::nonsense::")
    with pytest.raises(StoreError, match="cannot migrate"):
        Store.open("postgresql+psycopg://nobody@127.0.0.1:1/none")


def test_sqlite_checkpoints_fold_the_log_into_the_database(tmp_path: Path) -> None:
    with new_database("sqlite", tmp_path) as url:
        store = Store.open(url)
        assert store.needs_checkpoints
        for _ in range(200):
            store.create_user("Anna")
        database = tmp_path / "raspisnoy.sqlite3"
        before = database.stat().st_size
        assert (tmp_path / "raspisnoy.sqlite3-wal").stat().st_size > 0
        store.checkpoint()  # the writes reach the database file only now
        assert database.stat().st_size > before
        store.close()
