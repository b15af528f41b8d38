"""The end of a game: the table actor hands its finished ``Game`` here, and its results
and, for a rated table, its people's new ratings are stored exactly once.

Exactly once: the store marks the game over and stores its results in one transaction
that does nothing more for a table that has results already (``store.GameEnds``), so a
finish can be tried again freely. The actor does: after a failed try it tries again
after ``retry_delay`` (growing with each failure), and an actor loaded for a table
whose game is over but whose row still says playing (the process died between the last
action and its end) finishes it at once. The figures come from the game the actor
holds, never from a replay of the stored events; only who made each action (a stand-in's
share of a seat counts for its rating) is read from the stored events.
"""

from __future__ import annotations

import asyncio

from raspisnoy.core import Game
from raspisnoy.ratings import game_end
from raspisnoy.server.services.tournament_results import record_table_result
from raspisnoy.store import GameEnds, PoolStore, Store, TableRow, TournamentStore

__all__ = ["Results", "retry_delay"]

#: Seconds before the first retry of a failed finish, and the most between two.
_FIRST_RETRY, _LONGEST_RETRY = 0.5, 30.0


def retry_delay(failures: int) -> float:
    """Seconds to wait before trying a finish again after ``failures`` failed tries:
    doubling from half a second, at most half a minute."""
    return min(_LONGEST_RETRY, _FIRST_RETRY * 2.0 ** max(0, failures - 1))


class Results:
    """Stores the ends of games (``finish``), off the event loop."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._ends = GameEnds(store)
        self._pool = PoolStore(store)
        self._tournaments = TournamentStore(store)

    async def finish(self, table: TableRow, game: Game, fence: int | None = None) -> bool:
        """Mark ``table``'s finished ``game`` over with its results and ratings, unless it
        has them already; whether this call stored them. Raises ``StoreError`` if it
        could not (``FencedError`` under a stale ``fence``): nothing was stored then,
        and trying again is safe."""
        return await asyncio.to_thread(self._finish, table, game, fence)

    def _finish(self, table: TableRow, game: Game, fence: int | None) -> bool:
        events = self._store.events_of(table.id)
        # A rated pool game: who abandoned it waits before the next (docs/pool.md), stored
        # with the end, so never lost nor counted twice.
        pool = table.rated and self._pool.is_pool_table(table.id)
        stored = self._ends.finish(
            table.id, game_end(table, game, events, abandon_last=pool), fence
        )
        # A tournament's table: its result now, so the round's last game leaves the
        # tournament runner only the next pairing (docs/tournaments.md, "Running").
        record_table_result(self._tournaments, table, game, events)
        return stored
