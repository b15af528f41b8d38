"""Tournaments on the wire (docs/PROTOCOL.md, "Tournaments"): the request bodies and the
answers. The tournaments service builds every answer from what its caller may know (a
club's tournament only for the club's members; no round's seed, so no deal is told
before it is played); these models only write it down."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from raspisnoy.core import DEFAULT_PRESET
from raspisnoy.server.wire.requests import default_bot
from raspisnoy.store import TournamentRow

__all__ = [
    "BotEntryIn",
    "EntrantOut",
    "RoundOut",
    "RoundTableOut",
    "TableSeatOut",
    "TournamentCardOut",
    "TournamentIn",
    "TournamentLineOut",
    "TournamentOut",
    "TournamentWarningOut",
    "TournamentsOut",
]


class TournamentIn(BaseModel):
    """A new tournament: public, or in a club (``club_id``: its admins' to create); its
    start (epoch seconds), rules, table size, rounds, turn timer, scoring (``swiss``:
    points first; ``duplicate``: the duplicate score first), what fills a short count
    (``bots`` or ``byes``), the places, whether its games are rated, the bots' delay."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=64)
    club_id: str | None = Field(default=None, max_length=32)
    starts_at: float
    rules: str | dict[str, Any] = DEFAULT_PRESET
    table_size: int = 4
    rounds: int = 3
    turn_seconds: int = 30
    scoring: Literal["swiss", "duplicate"] = "swiss"
    fill: Literal["bots", "byes"] = "bots"
    max_players: int = Field(default=64, ge=2, le=1000)
    rated: bool = False
    bot_delay_ms: int = Field(default=800, ge=0)


class BotEntryIn(BaseModel):
    """A bot the director enters as a player: its level and its name in the standings."""

    model_config = ConfigDict(extra="forbid", strict=True)
    level: str = Field(default_factory=default_bot, max_length=32)
    name: str = Field(min_length=1, max_length=64)


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TournamentCardOut(_Out):
    """A tournament in a list: enough to choose one."""

    id: str
    name: str
    club_id: str | None
    director: str
    state: str
    starts_at: float
    table_size: int
    rounds: int
    current_round: int
    scoring: str
    registered: int
    max_players: int

    @classmethod
    def of(cls, row: TournamentRow, registered: int) -> TournamentCardOut:
        options = row.options
        return cls(
            id=row.id,
            name=options.name,
            club_id=options.club_id,
            director=row.director_name,
            state=row.state,
            starts_at=options.starts_at,
            table_size=options.table_size,
            rounds=options.rounds,
            current_round=row.current_round,
            scoring=options.scoring,
            registered=registered,
            max_players=options.max_players,
        )


class TournamentsOut(_Out):
    tournaments: list[TournamentCardOut]


class TournamentWarningOut(_Out):
    """Accepted, but worth knowing: ``rounds_repeat`` (``params.rounds``, ``most``: more
    rounds than the players can play without meeting again)."""

    code: str
    params: dict[str, int]


class EntrantOut(_Out):
    """An entrant: a person or a bot entered as a player; ``withdrawn`` or ``registered``."""

    entry_id: str
    name: str
    bot: bool
    state: str
    me: bool


class TournamentLineOut(_Out):
    """A line of the standings: place, points, duplicate score (per cent of the
    matchpoints of the comparisons; ``None`` before one), game points summed, games,
    byes."""

    place: int
    entry_id: str
    name: str
    bot: bool
    points: float
    duplicate: float | None
    totals: int
    games: int
    byes: int
    withdrawn: bool


class TableSeatOut(_Out):
    """A seat of a round's table: its entrant (``None``: a bot filling the count), the
    name shown, the game's points once the table's result is recorded, and whether its
    person did not show."""

    entry_id: str | None
    name: str
    bot: bool
    points: int | None
    absent: bool


class RoundTableOut(_Out):
    """A round's table: its game (``table_id``: the record is ``/api/games/{id}/record``)."""

    table_id: str
    position: int
    status: str
    seats: list[TableSeatOut]


class RoundOut(_Out):
    """A paired round: when it started and ended, who had a bye, its tables."""

    number: int
    started_at: float
    finished_at: float | None
    byes: list[str]
    tables: list[RoundTableOut]


class TournamentOut(TournamentCardOut):
    """A tournament as its caller may see it: its options, the entrants, the standings
    with their tie-breaks, the rounds and their tables; ``entry_id`` and ``table_id`` are
    the caller's own (their entry, and the table of theirs being played)."""

    rules: dict[str, Any]
    turn_seconds: int
    fill: str
    rated: bool
    director_id: str
    is_director: bool
    finished_at: float | None
    warnings: list[TournamentWarningOut]
    entry_id: str | None
    table_id: str | None
    entrants: list[EntrantOut]
    standings: list[TournamentLineOut]
    round_list: list[RoundOut]
