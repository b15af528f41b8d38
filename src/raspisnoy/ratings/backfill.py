"""Results for games that ended before results were recorded (migration 0005): every
finished game with no ``GameResult`` rows gets them, computed from its stored actions
like a game ending now (``record_results``), dated when it ended, oldest first.

Such games were never rated (a table is rated only if chosen so at creation, which
0005 brought), so the backfill writes figures for profiles, no ratings. It is
idempotent: a game that has results is left alone, so a second run writes nothing and
a run cut short is finished by the next one. Each game is its own transaction.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import exists, select
from sqlalchemy.orm import sessionmaker

from raspisnoy.ratings.results import record_results
from raspisnoy.store import Store
from raspisnoy.store.models import GameResult, GameTable

__all__ = ["backfill_results"]


def backfill_results(store: Store) -> int:
    """Record the results of every finished game that has none; how many got them."""
    missing = (
        select(GameTable.id, GameTable.finished_at)
        .where(GameTable.status == "over", ~exists().where(GameResult.table_id == GameTable.id))
        .order_by(GameTable.finished_at, GameTable.id)
    )
    sessions = sessionmaker(store.engine)
    with sessions() as session:
        games = list(session.execute(missing))
    recorded = 0
    for table_id, finished_at in games:
        with sessions.begin() as session:
            recorded += record_results(session, table_id, finished_at or datetime.now(UTC))
    return recorded
