"""Tournaments (docs/tournaments.md): who may create, see, enter and direct one, and the
tournament page each caller may see.

Anyone with a session creates a public tournament; a club's admins create one in their
club. The creator is its director: they enter bots as players, pause and resume it,
withdraw an entrant and end it. People register and unregister until it starts. A
club's tournament is hidden information: to anyone not a member of the club it does not
exist (``not_found``, in the words used for an id that never was), as the club's tables.

Every answer is built here from the store: the standings come from the recorded results
(``raspisnoy.tournament.standings``), so no game still being played is told, and no
round's seed is ever sent (a seed tells every hand of the round). The rounds themselves
are run by ``TournamentRunner`` (``services.tournament_runner``).
"""

from __future__ import annotations

import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from raspisnoy.bots import TABLE_BOTS
from raspisnoy.ratings import RATED_STAND_IN
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.tables.opening import check_new_table
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import TableIn
from raspisnoy.server.wire.requests import default_bot
from raspisnoy.server.wire.tournaments import (
    BotEntryIn,
    EntrantOut,
    RoundOut,
    RoundTableOut,
    TableSeatOut,
    TournamentCardOut,
    TournamentIn,
    TournamentLineOut,
    TournamentOut,
    TournamentsOut,
    TournamentWarningOut,
)
from raspisnoy.store import (
    ClubStore,
    EntryRow,
    NewTournament,
    NotAMemberError,
    NotFoundError,
    RegistrationError,
    RoundRow,
    TournamentRow,
    TournamentStore,
    TournamentTableRow,
    UserRow,
)
from raspisnoy.tournament import TABLE_SIZES, Line, TablePlay, standings

__all__ = ["ROUNDS", "Tournaments", "most_rounds", "standings_of", "table_play"]

#: The fewest and most rounds a tournament plays.
ROUNDS = (1, 30)
_ADMINS = frozenset({"owner", "admin"})
#: The states in which the director may pause, resume or end the event.
_PAUSABLE, _RESUMABLE = frozenset({"running"}), frozenset({"paused"})
_ENDABLE = frozenset({"registering", "running", "paused"})


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """A finished deal as a table's result keeps it: its cards as text, its points; what
    duplicate scoring compares (``raspisnoy.tournament.Dealt``)."""

    number: int
    hands: tuple[tuple[str, ...], ...]
    trump_card: str | None
    points: tuple[int, ...]


def _deals(result: dict[str, Any]) -> tuple[StoredDeal, ...]:
    return tuple(
        StoredDeal(
            deal["number"],
            tuple(tuple(hand) for hand in deal["hands"]),
            deal["trump"],
            tuple(deal["points"]),
        )
        for deal in result["deals"]
    )


def table_play(row: TournamentTableRow) -> TablePlay:
    """A recorded table as the standings read it: an absent person's seat is nobody's
    (its points are the stand-in's, compared with but never scored)."""
    assert row.result is not None
    absent = set(row.result["absent"])
    players = tuple(None if seat in absent else entry for seat, entry in enumerate(row.entries))
    return TablePlay(players, _deals(row.result))


def standings_of(
    tournament: TournamentRow,
    entries: Sequence[EntryRow],
    rounds: Sequence[RoundRow],
    tables: Sequence[TournamentTableRow],
) -> list[Line]:
    """The standings over the recorded tables and the byes of ``rounds``, every entrant
    listed (by entry id); ties that remain are ordered by the entrants' names."""
    played: dict[int, list[TablePlay]] = {}
    for row in tables:
        if row.result is not None:
            played.setdefault(row.round_number, []).append(table_play(row))
    byes = Counter(entry for paired in rounds for entry in paired.byes)
    return standings(
        played.values(),
        byes,
        tournament.options.table_size,
        [entry.entry_id for entry in entries],
        names={entry.entry_id: entry.name for entry in entries},
        duplicate_first=tournament.options.scoring == "duplicate",
    )


def most_rounds(players: int, size: int) -> int:
    """The most rounds ``players`` can play at tables of ``size`` with nobody meeting an
    opponent twice: each round meets ``size - 1`` new ones."""
    return max(1, (players - 1) // (size - 1))


class Tournaments:
    """Tournaments' requests over the store; clubs' places read from the clubs' store."""

    def __init__(
        self,
        tournaments: TournamentStore,
        clubs: ClubStore,
        settings: ServerSettings,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = tournaments
        self._clubs = clubs
        self._settings = settings
        self._clock = clock

    # ------------------------------------------------------------ creating

    async def create(self, user: UserRow, body: TournamentIn) -> TournamentOut:
        """A new tournament directed by ``user`` (in a club: one of its admins)."""
        if body.club_id is not None:
            await self._admin_of(body.club_id, user)
        rules = self._checked(body)
        new = NewTournament(
            name=body.name.strip() or body.name,
            club_id=body.club_id,
            director_id=user.id,
            starts_at=body.starts_at,
            rules=rules,
            table_size=body.table_size,
            rounds=body.rounds,
            turn_seconds=body.turn_seconds,
            scoring=body.scoring,
            fill=body.fill,
            max_players=body.max_players,
            rated=body.rated,
            bot_delay_ms=body.bot_delay_ms,
            seed=secrets.token_hex(16),
        )
        row = await in_thread(self._store.create, new)
        return await self._page(row, user)

    def _checked(self, body: TournamentIn) -> dict[str, Any]:
        """The tournament's resolved rules, or the refusal naming what is wrong."""
        if body.starts_at < self._clock():
            raise RequestError(Refusal.TOURNAMENT_START_PAST, "starts_at: the start is past")
        low, high = ROUNDS
        if not low <= body.rounds <= high:
            raise RequestError(
                Refusal.TOURNAMENT_ROUNDS,
                f"rounds: {low} to {high}, not {body.rounds}",
                params={"min": low, "max": high},
            )
        if body.table_size not in TABLE_SIZES:
            raise RequestError(
                Refusal.TOURNAMENT_TABLE_SIZE,
                f"table_size: tables of 3, 4 or 5, not {body.table_size}",
                params={"size": body.table_size},
            )
        if body.turn_seconds == 0:
            raise RequestError(
                Refusal.INVALID, "turn_seconds: a tournament's tables need a turn timer"
            )
        table = TableIn(
            rules=body.rules,
            players=body.table_size,
            turn_seconds=body.turn_seconds,
            bot_delay_ms=body.bot_delay_ms,
            stand_in=RATED_STAND_IN if body.rated else default_bot(),
            rated=body.rated,
        )
        return check_new_table(table, self._settings).rules.to_json()

    async def _admin_of(self, club_id: str, user: UserRow) -> None:
        """Refuse anyone but the club's admins (a private club: not found to outsiders)."""
        try:
            club, place = await in_thread(self._clubs.club_and_place, club_id, user.id)
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no club {club_id!r}") from None
        member = place is not None and place.state == "member"
        if club.private and not member:
            raise RequestError(Refusal.NOT_FOUND, f"no club {club_id!r}")
        if not member or place is None or place.role not in _ADMINS:
            raise RequestError(Refusal.CLUB_ADMINS_ONLY, "only the club's admins may do this")

    # ------------------------------------------------------------ reading

    async def listing(self, user: UserRow | None, club_id: str | None) -> TournamentsOut:
        """The public tournaments, or a club's (for its members only)."""
        if club_id is not None and not await self._member(club_id, user):
            raise RequestError(Refusal.NOT_FOUND, f"no club {club_id!r}")
        rows = await in_thread(self._store.listing, club_id)
        counts = await in_thread(self._store.counts, [row.id for row in rows])
        cards = [TournamentCardOut.of(row, counts.get(row.id, 0)) for row in rows]
        return TournamentsOut(tournaments=cards)

    async def view(self, tournament_id: str, user: UserRow | None) -> TournamentOut:
        """The tournament page as ``user`` may see it."""
        return await self._page(await self._visible(tournament_id, user), user)

    async def _member(self, club_id: str, user: UserRow | None) -> bool:
        if user is None:
            return False
        try:
            _, place = await in_thread(self._clubs.club_and_place, club_id, user.id)
        except NotFoundError:
            return False
        return place is not None and place.state == "member"

    async def _visible(self, tournament_id: str, user: UserRow | None) -> TournamentRow:
        """The tournament if ``user`` may see it; else not found, as an unknown id."""
        try:
            row = await in_thread(self._store.get, tournament_id)
        except NotFoundError:
            row = None
        club_id = None if row is None else row.options.club_id
        if row is None or (club_id is not None and not await self._member(club_id, user)):
            raise RequestError(Refusal.NOT_FOUND, f"no tournament {tournament_id!r}")
        return row

    async def _page(self, row: TournamentRow, user: UserRow | None) -> TournamentOut:
        """The page: while the event runs, standings and points of the rounds over only
        (``_settled``)."""
        entries, rounds, tables = await in_thread(self._read, row.id)
        if row.state != "finished":
            tables = _settled(rounds, tables)
        lines = standings_of(row, entries, rounds, tables)
        by_id = {entry.entry_id: entry for entry in entries}
        mine = next((e for e in entries if user is not None and e.user_id == user.id), None)
        registered = sum(entry.state == "registered" for entry in entries)
        return TournamentOut(
            **TournamentCardOut.of(row, registered).model_dump(),
            rules=row.options.rules,
            turn_seconds=row.options.turn_seconds,
            fill=row.options.fill,
            rated=row.options.rated,
            director_id=row.options.director_id,
            is_director=user is not None and user.id == row.options.director_id,
            finished_at=row.finished_at,
            warnings=_warnings(row, registered),
            entry_id=None if mine is None else mine.entry_id,
            table_id=_table_of(mine, tables),
            entrants=[_entrant(entry, mine) for entry in entries],
            standings=[_standing(line, by_id[line.player]) for line in lines],
            round_list=[_round(paired, tables, by_id) for paired in rounds],
        )

    def _read(
        self, tournament_id: str
    ) -> tuple[list[EntryRow], list[RoundRow], list[TournamentTableRow]]:
        store = self._store
        return (
            store.entries(tournament_id),
            store.rounds(tournament_id),
            store.tables(tournament_id),
        )

    # ------------------------------------------------------------ entering

    async def register(self, tournament_id: str, user: UserRow) -> TournamentOut:
        """Enter the caller (once, while there is a place and it has not started)."""
        row = await self._visible(tournament_id, user)
        await self._enter(row, user.id, None, "")
        return await self._page(row, user)

    async def add_bot(self, tournament_id: str, user: UserRow, body: BotEntryIn) -> TournamentOut:
        """The director enters a bot as a player (ranked like anyone)."""
        row = await self._directed(tournament_id, user)
        if body.level not in TABLE_BOTS:
            raise RequestError(
                Refusal.INVALID, f"unknown bot {body.level!r}; bots: {', '.join(TABLE_BOTS)}"
            )
        await self._enter(row, None, body.level, body.name.strip() or body.name)
        return await self._page(row, user)

    async def _enter(
        self, row: TournamentRow, user_id: str | None, bot: str | None, name: str
    ) -> None:
        try:
            await in_thread(
                lambda: self._store.register(
                    row.id, user_id=user_id, bot=bot, name=name, now=self._clock()
                )
            )
        except RegistrationError as error:
            raise _refusal(error, row) from None
        except NotFoundError:  # the person's account, deleted meanwhile
            raise RequestError(Refusal.NOT_FOUND, f"no player {user_id!r}") from None
        except NotAMemberError:  # their place in the event's club ended meanwhile
            raise RequestError(Refusal.NOT_FOUND, f"no tournament {row.id!r}") from None

    async def unregister(self, tournament_id: str, user: UserRow) -> TournamentOut:
        """Take the caller's entry back before the start (nothing if they had none)."""
        row = await self._visible(tournament_id, user)
        try:
            await in_thread(self._store.unregister, row.id, user.id)
        except RegistrationError as error:
            raise _refusal(error, row) from None
        return await self._page(row, user)

    # ------------------------------------------------------------ directing

    async def _directed(self, tournament_id: str, user: UserRow) -> TournamentRow:
        row = await self._visible(tournament_id, user)
        if row.options.director_id != user.id:
            raise RequestError(
                Refusal.TOURNAMENT_DIRECTOR_ONLY, "only the tournament's director may do this"
            )
        return row

    async def start_now(self, tournament_id: str, user: UserRow) -> TournamentOut:
        """Start now rather than at the start time: registration closes at the runner's
        next pass."""
        row = await self._directed(tournament_id, user)
        if not await in_thread(self._store.start_now, row.id, self._clock()):
            raise RequestError(
                Refusal.TOURNAMENT_STATE,
                f"the tournament is {row.state}: it cannot be started now",
                params={"state": row.state},
            )
        return await self.view(tournament_id, user)

    async def pause(self, tournament_id: str, user: UserRow) -> TournamentOut:
        """No next round starts until resumed (the tables being played play on)."""
        return await self._move(tournament_id, user, "paused", _PAUSABLE)

    async def resume(self, tournament_id: str, user: UserRow) -> TournamentOut:
        return await self._move(tournament_id, user, "running", _RESUMABLE)

    async def end(self, tournament_id: str, user: UserRow) -> TournamentOut:
        """End the event now: its standings are final as recorded so far."""
        return await self._move(tournament_id, user, "finished", _ENDABLE)

    async def _move(
        self, tournament_id: str, user: UserRow, state: str, was: frozenset[str]
    ) -> TournamentOut:
        row = await self._directed(tournament_id, user)
        moved = await in_thread(self._store.set_state, row.id, state, was, self._clock())
        if not moved:
            raise RequestError(
                Refusal.TOURNAMENT_STATE,
                f"the tournament is {row.state}: it cannot be {state} now",
                params={"state": row.state},
            )
        return await self.view(tournament_id, user)

    async def withdraw(self, tournament_id: str, user: UserRow, entry_id: str) -> TournamentOut:
        """The director withdraws an entrant: not seated in later rounds (their results
        so far stay in the standings)."""
        row = await self._directed(tournament_id, user)
        if row.state == "finished":
            raise RequestError(
                Refusal.TOURNAMENT_STATE,
                "the tournament is finished",
                params={"state": row.state},
            )
        if not await in_thread(self._store.withdraw, row.id, [entry_id]):
            raise RequestError(Refusal.NOT_FOUND, f"no entrant {entry_id!r} to withdraw")
        return await self._page(row, user)


def _refusal(error: RegistrationError, row: TournamentRow) -> RequestError:
    if error.reason == "twice":
        return RequestError(Refusal.TOURNAMENT_REGISTERED, "you are registered already")
    if error.reason == "full":
        places = row.options.max_players
        return RequestError(
            Refusal.TOURNAMENT_FULL,
            f"all {places} places are taken",
            params={"places": places},
        )
    return RequestError(Refusal.TOURNAMENT_STARTED, "the tournament has started")


def _warnings(row: TournamentRow, registered: int) -> list[TournamentWarningOut]:
    """``rounds_repeat`` when the rounds are more than the players (the places, before
    the start) can play without repeats."""
    players = row.options.max_players if row.state == "registering" else registered
    most = most_rounds(players, row.options.table_size)
    if row.options.rounds <= most:
        return []
    return [
        TournamentWarningOut(
            code="rounds_repeat", params={"rounds": row.options.rounds, "most": most}
        )
    ]


def _table_of(mine: EntryRow | None, tables: Sequence[TournamentTableRow]) -> str | None:
    """The caller's table being played (the latest round's, not over), if any."""
    if mine is None:
        return None
    for row in reversed(tables):
        if mine.entry_id in row.entries and row.status != "over":
            return row.table_id
    return None


def _entrant(entry: EntryRow, mine: EntryRow | None) -> EntrantOut:
    return EntrantOut(
        entry_id=entry.entry_id,
        name=entry.name,
        bot=entry.bot is not None,
        state=entry.state,
        me=mine is not None and mine.entry_id == entry.entry_id,
    )


def _standing(line: Line, entry: EntryRow) -> TournamentLineOut:
    return TournamentLineOut(
        place=line.place,
        entry_id=entry.entry_id,
        name=entry.name,
        bot=entry.bot is not None,
        points=float(line.points),
        duplicate=None if line.duplicate is None else round(line.duplicate, 1),
        totals=line.totals,
        games=line.games,
        byes=line.byes,
        withdrawn=entry.state == "withdrawn",
    )


def _settled(
    rounds: Sequence[RoundRow], tables: Sequence[TournamentTableRow]
) -> list[TournamentTableRow]:
    """The tables as the page may show them: a table of a round still being played
    without its result (every table of a round is dealt the same cards, so one table's
    points would tell the players of another what they hold: docs/tournaments.md)."""
    over = {paired.number for paired in rounds if paired.finished_at is not None}
    return [t if t.round_number in over else replace(t, result=None) for t in tables]


def _round(
    paired: RoundRow, tables: Sequence[TournamentTableRow], by_id: dict[str, EntryRow]
) -> RoundOut:
    return RoundOut(
        number=paired.number,
        started_at=paired.started_at,
        finished_at=paired.finished_at,
        byes=[by_id[entry].name for entry in paired.byes],
        tables=[_table(row, by_id) for row in tables if row.round_number == paired.number],
    )


def _table(row: TournamentTableRow, by_id: dict[str, EntryRow]) -> RoundTableOut:
    totals: list[int | None] = [None] * len(row.entries)
    absent: set[int] = set()
    if row.result is not None:
        deals = _deals(row.result)
        totals = [sum(deal.points[seat] for deal in deals) for seat in range(len(row.entries))]
        absent = set(row.result["absent"])
    return RoundTableOut(
        table_id=row.table_id,
        position=row.position,
        status=row.status,
        seats=[
            TableSeatOut(
                entry_id=entry,
                name="" if entry is None else by_id[entry].name,
                bot=entry is None or by_id[entry].bot is not None,
                points=totals[seat],
                absent=seat in absent,
            )
            for seat, entry in enumerate(row.entries)
        ],
    )
