"""Results for games that ended before results were recorded (migration 0005): every
finished game with no ``GameResult`` rows gets them, computed from its stored actions
like a game ending now (``results.game_end``), dated when it ended, oldest first.

Such games were never rated (a table is rated only if chosen so at creation, which
0005 brought), so the backfill writes figures for profiles, no ratings. It is
idempotent: a game that has results is left alone, so a second run writes nothing and
a run cut short is finished by the next one. Each game is its own transaction.
"""

from __future__ import annotations

from raspisnoy.ratings.replay import rebuild_game
from raspisnoy.ratings.results import game_end
from raspisnoy.store import GameEnds, Store

__all__ = ["backfill_results", "end_stored_game"]


def backfill_results(store: Store) -> int:
    """Record the results of every finished game that has none; how many got them."""
    ends = GameEnds(store)
    return sum(end_stored_game(store, table_id, ends) for table_id in ends.over_without_results())


def end_stored_game(store: Store, table_id: str, ends: GameEnds | None = None) -> bool:
    """End the finished game stored at ``table_id`` with the results its stored actions
    give (once: ``GameEnds.finish``); whether this call stored them."""
    table = store.get_table(table_id)
    events = store.events_of(table_id)
    game = rebuild_game(table, events)
    return (ends or GameEnds(store)).finish(table_id, game_end(table, game, events))
