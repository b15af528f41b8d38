"""A tournament table's result (docs/tournaments.md, "Running"), recorded as its game
ends: the table's actor hands its finished game to ``Results``, which records it here in
the same call that stores the game's end, so a round's last game leaves the runner only
the pairing of the next round. The runner records, from the stored actions, any result
this missed (its worker died between the game's end and the result).

Recorded once whoever tries (``TournamentStore.record_result``): by the game's worker,
by the runner, or both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from raspisnoy.core import Game
from raspisnoy.store import EventRow, TableRow, TournamentStore

__all__ = ["game_result", "record_table_result"]


def game_result(game: Game, people: Sequence[int], acted: Sequence[int]) -> dict[str, Any]:
    """A finished table's result as stored: each finished deal (cards, trump card,
    points), and the seats of ``people`` whose person made no move of their own (not in
    ``acted``): they did not show."""
    deals = [
        {
            "number": played.number,
            "hands": [[str(card) for card in hand] for hand in played.hands],
            "trump": None if played.trump_card is None else str(played.trump_card),
            "points": list(played.points),
        }
        for played in game.rounds()
        if played.points is not None
    ]
    return {"deals": deals, "absent": sorted(set(people) - set(acted))}


def record_table_result(
    tournaments: TournamentStore, table: TableRow, game: Game, events: Sequence[EventRow]
) -> bool:
    """Record the result of ``table``'s finished ``game`` (its stored ``events`` tell who
    acted) if the table is a tournament's and its result is not recorded yet; whether this
    call recorded it. Blocking: call it off the event loop."""
    if tournaments.tournament_of_table(table.id) is None:
        return False
    people = [seat.seat for seat in table.seats if seat.user_id is not None]
    acted = sorted({event.seat for event in events if event.client_id is not None})
    return tournaments.record_result(table.id, game_result(game, people, acted))
