"""The backfill of results for games that ended before results were recorded: each
such game gets the results its stored actions give (as if it ended now, dated when it
ended), a game still being played gets none, and a second run changes nothing; through
``raspisnoy backfill-results`` too. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from fresh_databases import BACKENDS, new_database
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_ratings import engine_game, store_game
from typer.testing import CliRunner

from raspisnoy.cli import app
from raspisnoy.ratings import summarize
from raspisnoy.ratings.backfill import backfill_results
from raspisnoy.store import GameEnds, Players, Store
from raspisnoy.store.models import GameResult, GameTable


def results(store: Store) -> list[dict[str, object]]:
    """Every stored result row, column by column."""
    with Session(store.engine) as session:
        rows = session.scalars(select(GameResult).order_by(GameResult.table_id, GameResult.seat))
        return [
            {c.name: getattr(row, c.name) for c in GameResult.__table__.columns} for row in rows
        ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_old_games_get_their_results_once(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)  # games end without results, as they did before 0005
        person = store.create_user("Old Timer")
        games = [engine_game(seed) for seed in range(2)]
        old = [store_game(store, person.id, game) for game in games]
        for table_id in old:
            GameEnds(store).finish(table_id)
        playing = store_game(store, person.id, engine_game(5))
        assert results(store) == []
        assert backfill_results(store) == len(old)
        stored = results(store)
        assert {row["table_id"] for row in stored} == set(old)
        assert playing not in {row["table_id"] for row in stored}
        with Session(store.engine) as session:
            ended = {t.id: t.finished_at for t in session.scalars(select(GameTable))}
        figures = Players(store).profile(person.id).figures
        expected = [summarize(game)[0] for game in games]
        assert figures.games == 2 and figures.points == sum(e.points for e in expected)
        assert figures.exact == sum(e.exact for e in expected)
        assert all(row["finished_at"] == ended[str(row["table_id"])] for row in stored)
        assert backfill_results(store) == 0
        assert results(store) == stored
        store.close()


def test_the_command_backfills_and_says_how_many(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'raspisnoy.sqlite3'}")
    person = store.create_user("Old Timer")
    GameEnds(store).finish(store_game(store, person.id, engine_game(1)))
    store.close()
    runner = CliRunner()
    for expected in (1, 0):
        answer = runner.invoke(app, ["backfill-results", "--data-dir", str(tmp_path)])
        assert answer.exit_code == 0, answer.output
        assert answer.output == f"recorded the results of {expected} finished games\n"
