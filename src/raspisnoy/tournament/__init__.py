"""Tournaments' pure logic: Swiss seating of card tables, duplicate deals and their scoring,
and the standings.

Pure (core and the standard library only), so the server's tournament service, the
benchmark and the property tests all run the same rules (docs/tournaments.md).
"""

from raspisnoy.tournament.duplicate import (
    Dealt,
    DuplicateScore,
    TablePlay,
    deal_table,
    duplicate_scores,
    round_seed,
    versus,
)
from raspisnoy.tournament.standings import Line, game_points, standings
from raspisnoy.tournament.swiss import TABLE_SIZES, Fill, Meetings, Seating, choose_byes, seat_round

__all__ = [
    "TABLE_SIZES",
    "Dealt",
    "DuplicateScore",
    "Fill",
    "Line",
    "Meetings",
    "Seating",
    "TablePlay",
    "choose_byes",
    "deal_table",
    "duplicate_scores",
    "game_points",
    "round_seed",
    "seat_round",
    "standings",
    "versus",
]
