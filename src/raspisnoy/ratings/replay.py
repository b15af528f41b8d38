"""The game a table stored, rebuilt: its rules, names, seed and first dealer, then each
stored action in order. The one rebuild of a game from its events: the table actor's on
load, a game's record and review, and the results of games that ended before results
were recorded all read a game so."""

from __future__ import annotations

from collections.abc import Iterable

from raspisnoy.core import Game, parse_action, resolve_rules
from raspisnoy.store import EventRow, TableRow

__all__ = ["rebuild_game"]


def rebuild_game(table: TableRow, events: Iterable[EventRow]) -> Game:
    """The game of a started table, from its rules, seed, first dealer and stored actions
    (``ValueError`` if it has not started)."""
    if table.names is None:
        raise ValueError(f"table {table.id} has not started")
    game = Game(
        resolve_rules(table.rules), table.names, seed=table.seed, first_dealer=table.first_dealer
    )
    for event in events:
        game.apply(parse_action(event.action), event.seat)
    return game
