"""The tournaments' runner (docs/tournaments.md, "Running"): every worker wakes every
``tournament_pass_seconds``; the one holding the runner's lease (``LeasedPass``) steps
each tournament that is due.

A step reads everything from the database and does the next thing that is not done:

- a registering tournament past its start starts (or, with fewer than two entrants,
  finishes with nothing played);
- a round not yet paired is seated (``raspisnoy.tournament.seat_round``, by the
  standings) and paired in one transaction with all its tables (``pair_round``: a round
  is never paired twice, whoever tries); every table is dealt from the round's one seed
  (``round_seed``), so all hold the same hands, and each is started at once;
- a table opened but not started (its worker died in between) is started;
- a finished table's result is recorded once (its deals' cards and points; its people
  who made no move of their own did not show and are withdrawn from later rounds): its
  game's worker records it as the game ends (``tournament_results``), and the step
  records, rebuilt from the stored actions, any that worker did not (it died between);
- once every table of the round is recorded, the round ends (in a rated event, moving
  its people's duplicate ratings in the same transaction, ``tournament_ratings``) and the
  next is paired, or, after the last, the tournament finishes.

So a worker killed anywhere in a step loses nothing: the next step, on this worker or
another, finds in the database what was done and does the rest. A paused tournament's
tables play on and are recorded; the next round waits for the director to resume it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable

from raspisnoy.ratings import RATED_STAND_IN
from raspisnoy.ratings.replay import rebuild_game
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.passes import LeasedPass
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.services.tournament_ratings import round_rating
from raspisnoy.server.services.tournament_results import record_table_result
from raspisnoy.server.services.tournaments import standings_of
from raspisnoy.server.wire.requests import default_bot
from raspisnoy.store import (
    EntryRow,
    RoundRating,
    RoundTable,
    SeatedTable,
    Store,
    TournamentRow,
    TournamentStore,
    TournamentTableRow,
)
from raspisnoy.tournament import Fill, Meetings, Seating, round_seed, seat_round

__all__ = ["TournamentRunner"]

_log = logging.getLogger(__name__)


class TournamentRunner:
    """Runs the tournaments' rounds, on the worker that holds the runner's lease."""

    def __init__(
        self,
        tournaments: TournamentStore,
        store: Store,
        hub: Hub,
        settings: ServerSettings,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._tournaments = tournaments
        self._store = store
        self._hub = hub
        self._clock = clock
        self._passes = LeasedPass(
            "tournaments",
            lambda: settings.tournament_pass_seconds,
            tournaments.take_lease,
            self.step_all,
            clock,
        )

    async def start(self) -> None:
        await self._passes.start()

    async def stop(self) -> None:
        await self._passes.stop()

    async def step_all(self) -> None:
        """Step every tournament that is due (one that fails is tried at the next pass)."""
        for tournament in await in_thread(self._tournaments.due, self._clock()):
            try:
                await self.step(tournament)
            except Exception:
                _log.exception("tournament %s: the step failed", tournament.id)

    async def step(self, tournament: TournamentRow) -> None:
        """Do the next thing ``tournament`` needs (the module's docstring)."""
        store, tournament_id = self._tournaments, tournament.id
        if tournament.state == "registering":
            entries = await in_thread(store.entries, tournament_id)
            if len([e for e in entries if e.state == "registered"]) < 2:
                await self._finish(tournament_id, "registering")
                return
            await in_thread(store.set_state, tournament_id, "running", {"registering"})
            tournament = await in_thread(store.get, tournament_id)
        number, running = tournament.current_round, tournament.state == "running"
        if number == 0:
            if running:
                await self._pair(tournament, 1)
            return
        tables = await in_thread(store.tables, tournament_id, number)
        recorded = await asyncio.gather(*(self._advance(tournament, table) for table in tables))
        if not all(recorded) or not running:
            return
        rating = await self._round_rating(tournament, number)
        await in_thread(store.end_round, tournament_id, number, self._clock(), rating)
        if number >= tournament.options.rounds:
            await self._finish(tournament_id, "running")
        else:
            await self._pair(tournament, number + 1)

    async def _round_rating(self, tournament: TournamentRow, number: int) -> RoundRating | None:
        """How the end of round ``number`` moves duplicate ratings (a rated event's only),
        from its tables as recorded now (``tournament_ratings``)."""
        if not tournament.options.rated:
            return None
        tables = await in_thread(self._tournaments.tables, tournament.id, number)
        entries = await in_thread(self._tournaments.entries, tournament.id)
        return round_rating(tables, entries)

    async def _advance(self, tournament: TournamentRow, table: TournamentTableRow) -> bool:
        """Start the table if it is not, record its result if it is over; whether its
        result is recorded."""
        if table.result is not None:
            return True
        if table.status == "open":
            await self._hub.start_if_open(table.table_id)
        if table.status != "over":
            return False
        # Its game's worker records it as the game ends; this is for a worker that died
        # in between (``tournament_results``).
        game_table = await in_thread(self._store.get_table, table.table_id)
        events = await in_thread(self._store.events_of, table.table_id)
        game = rebuild_game(game_table, events)
        await in_thread(record_table_result, self._tournaments, game_table, game, events)
        return True

    async def _finish(self, tournament_id: str, was: str) -> None:
        await in_thread(
            self._tournaments.set_state, tournament_id, "finished", {was}, self._clock()
        )

    async def _pair(self, tournament: TournamentRow, number: int) -> None:
        """Seat round ``number`` by the standings and open, pair and start its tables (or
        finish the event if too few entrants are left to play)."""
        store = self._tournaments
        entries = await in_thread(store.entries, tournament.id)
        rounds = await in_thread(store.rounds, tournament.id)
        tables = await in_thread(store.tables, tournament.id)
        active = {entry.entry_id for entry in entries if entry.state == "registered"}
        options = tournament.options
        if len(active) < 2 or (options.fill == Fill.BYES and len(active) < options.table_size):
            await self._finish(tournament.id, "running")
            return
        lines = standings_of(tournament, entries, rounds, tables)
        seating = seat_round(
            [line.player for line in lines if line.player in active],
            options.table_size,
            Meetings(table.entries for table in tables),
            fill=Fill(options.fill),
            byes_had=Counter(entry for paired in rounds for entry in paired.byes),
        )
        how = RoundTable(
            rules=options.rules,
            turn_seconds=options.turn_seconds,
            bot_delay_ms=options.bot_delay_ms,
            stand_in=RATED_STAND_IN if options.rated else default_bot(),
            seed=round_seed(options.seed, number),
            rated=options.rated,
            # Never in the lobby: a round's tables are their players' only while it is
            # played (duplicate deals, ``TournamentStore.hides_table``).
            public=False,
        )
        seated = _seated(seating, {entry.entry_id: entry for entry in entries})
        table_ids = await in_thread(
            store.pair_round, tournament.id, number, seating.byes, how, seated, self._clock()
        )
        # Every game at once: each table's start waits on its own store writes only.
        await asyncio.gather(*(self._hub.start_if_open(table_id) for table_id in table_ids or ()))
        if table_ids:
            self._hub.lobby.changed()


def _seated(seating: Seating, entries: dict[str, EntryRow]) -> list[SeatedTable]:
    """The tables to open: each seat's person, or its bot (an entered bot's level, or
    the default bot filling the count)."""
    filler = default_bot()
    tables = []
    for table in seating.tables:
        rows = [None if entry is None else entries[entry] for entry in table]
        tables.append(
            SeatedTable(
                entries=table,
                people={s: row.user_id for s, row in enumerate(rows) if row and row.user_id},
                bots=tuple(filler if row is None else row.bot or filler for row in rows),
            )
        )
    return tables
