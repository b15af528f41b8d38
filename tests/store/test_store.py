"""The store: migrations build exactly the models' schema, run twice harmlessly, and the
repository's writes are all-or-nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from importlib.resources import files
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from fresh_databases import BACKENDS, new_database
from sqlalchemy import create_engine, inspect, select
from sqlalchemy.orm import Session

from raspisnoy.store import (
    ALL_SCOPE,
    ROUND_COUNTS,
    ClubSettings,
    ClubStore,
    EventRow,
    NotFoundError,
    Players,
    Store,
    StoreError,
)
from raspisnoy.store.models import Base, Club, GameResult, GameTable, PlayerRating, User


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


NOW = datetime(2026, 12, 1, tzinfo=UTC)


def table_row(table_id: str, preset: str) -> GameTable:
    """A finished table of ``preset`` (its rules need not be whole for the sums)."""
    return GameTable(
        id=table_id,
        host_id="anna",
        created_at=NOW,
        status="over",
        public=True,
        rules={"preset": preset},
        seats=4,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed=table_id,
        finished_at=NOW,
    )


def rating_row(scope: str, user_id: str, display: int) -> PlayerRating:
    return PlayerRating(
        scope=scope,
        user_id=user_id,
        mu=25.0,
        sigma=8.0,
        display=display,
        games=1,
        last_played_at=NOW,
    )


def migrate_to(url: str, revision: str) -> None:
    """Bring a fresh database up to ``revision`` only, as an older server left it."""
    config = Config()
    config.set_main_option("script_location", str(files("raspisnoy.store") / "migrations"))
    engine = create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()


def result(table_id: str, seat: int, user_id: str | None, preset: str, place: int) -> GameResult:
    """A result row whose figures are told apart by the seat and the place."""
    figures = dict.fromkeys(ROUND_COUNTS, seat + 10 * place)
    return GameResult(
        table_id=table_id,
        seat=seat,
        user_id=user_id,
        bot=None if user_id else "random",
        preset=preset,
        rated=True,
        finished_at=NOW,
        points=100 * place - seat,
        place=place,
        **figures,
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_migration_0010_sums_the_results_and_ratings_already_stored(
    backend: str, tmp_path: Path
) -> None:
    with new_database(backend, tmp_path) as url:
        migrate_to(url, "0009")
        engine = create_engine(url)
        with Session(engine) as session, session.begin():
            for user_id in ("anna", "boris"):
                session.add(User(id=user_id, nickname=user_id, kind="registered", created_at=NOW))
            session.flush()
            for n, preset in enumerate(("classic", "classic", "georgian")):
                session.add(table_row(f"t{n}", preset))
            session.flush()
            session.add_all(
                [
                    result("t0", 0, "anna", "classic", 1),
                    result("t0", 1, "boris", "classic", 2),
                    result("t0", 2, None, "classic", 3),
                    result("t1", 0, "anna", "classic", 1),
                    result("t1", 1, "boris", "classic", 1),
                    result("t2", 3, "anna", "georgian", 4),
                ]
            )
            for user_id, display in (("anna", 1200), ("boris", 1200)):
                session.add(rating_row(ALL_SCOPE, user_id, display))
            session.add(rating_row("classic", "boris", 1300))
        engine.dispose()
        store = Store.open(url)
        players = Players(store)
        anna = players.profile("anna")
        assert (anna.figures.games, anna.figures.wins, anna.figures.places) == (3, 2, (2, 0, 0, 1))
        assert anna.figures.points == 100 + 100 + 400 - 3
        assert anna.figures.exact == 10 + 10 + 43
        assert [(preset, figures.games) for preset, figures in anna.per_preset] == [
            ("classic", 2),
            ("georgian", 1),
        ]
        board = players.leaderboard(ALL_SCOPE, since=None, limit=10, viewer="boris", offset=1)
        assert board.total == 2 and [line.user_id for line in board.lines] == ["boris"]
        assert board.mine is not None and board.mine.position == 2
        store.close()


def club_row(club_id: str, name: str, private: bool) -> Club:
    """A club as the server of revision 0021 stored it: its name folded into its key."""
    return Club(
        id=club_id,
        name=name,
        name_key=name.casefold(),
        description="",
        language="ru",
        rules={"preset": "raspisnoy.com"},
        private=private,
        invite_code=f"invite-{club_id}",
        owner_id="anna",
        created_at=NOW,
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_migration_0022_frees_the_names_of_private_clubs(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        migrate_to(url, "0021")
        engine = create_engine(url)
        with Session(engine) as session, session.begin():
            session.add(User(id="anna", nickname="anna", kind="registered", created_at=NOW))
            session.flush()
            session.add_all([club_row("secret", "Тайный", True), club_row("open", "Явный", False)])
        engine.dispose()
        store = Store.open(url)
        with Session(store.engine) as session:
            keys = dict(session.execute(select(Club.id, Club.name_key)).tuples().all())
        assert keys == {"secret": "\nsecret", "open": "явный"}
        clubs = ClubStore(store)
        settings = ClubSettings("ТАЙНЫЙ", "", "ru", {"preset": "raspisnoy.com"}, False)
        assert clubs.create("anna", settings).name == "ТАЙНЫЙ"
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
