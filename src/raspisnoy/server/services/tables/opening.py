"""Opening a table and starting its game: the checks of a new table's options
(``check_new_table``) and the caps on how many tables one user holds (``TableDesk``).

The route only reads the request; every refusal here is a ``RequestError`` with its
code, so the REST answer (and a client's wording) is the same wherever it is raised.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from raspisnoy.bots import TABLE_BOTS
from raspisnoy.core import DEFAULT_PRESET, RaspisnoyError, Rules, resolve_rules, round_plan
from raspisnoy.ratings import RATED_STAND_IN, is_rated_rules, may_stand_in_rated
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.services.lobby import listed_since
from raspisnoy.server.services.tables.actor import TableActor
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import Json, TableIn
from raspisnoy.store import NotAMemberError, Store, TableRow, UserRow
from raspisnoy.store.repository import SeatCap, SeatCapError

__all__ = ["NewTable", "TableDesk", "check_new_table"]

#: ``Retry-After`` of a refusal for holding too many tables: a guess, since it lasts until
#: the user finishes or leaves one.
_CAP_RETRY_SECONDS = 60
#: What each cap on a user's seats counts, in its refusal's English text.
_HELD_AT = {
    Refusal.WAITING_TABLES_HELD: "tables waiting for players",
    Refusal.GAMES_HELD: "games being played",
}


@dataclass(frozen=True, slots=True)
class NewTable:
    """A new table's checked options: the resolved rules and the bot of each seat."""

    rules: Rules
    bots: tuple[str, ...]


class TableDesk:
    """Opens tables and starts their games, within each user's caps."""

    def __init__(self, store: Store, settings: ServerSettings, limits: Limits, hub: Hub) -> None:
        self._store = store
        self._settings = settings
        self._limits = limits
        self._hub = hub

    async def open(self, user: UserRow, request: TableIn, club_id: str | None = None) -> TableRow:
        """A new table with ``user`` as host in seat 0 (a ``club_id``'s table: the club's
        from the transaction that makes it). A private table is found only through its
        invite link. One user holds seats at a few open tables at most: a
        user at the cap is refused before the count of new tables (``tables_per_user``)
        is spent, and the store counts again in the transaction that adds the table, so
        two opened at once on two workers do not both pass."""
        settings, limits = self._settings, self._limits
        table = check_new_table(request, settings)
        waiting = len(await self.waiting(user))  # (not those the lobby no longer lists)
        _refuse_at(settings.max_open_tables_per_user, waiting, Refusal.WAITING_TABLES_HELD)
        limits.hit(limits.tables_per_user, "new tables of this user", user.id)
        cap = SeatCap(settings.max_open_tables_per_user, self._listed_since())
        try:
            row = await in_thread(
                lambda: self._store.create_table(
                    host_id=user.id,
                    public=request.public,
                    rules=table.rules.to_json(),
                    bots=table.bots,
                    turn_seconds=request.turn_seconds,
                    bot_delay_ms=request.bot_delay_ms,
                    stand_in=request.stand_in,
                    seed=secrets.token_hex(16),
                    rated=request.rated,
                    spectator_chat=request.spectator_chat,
                    cap=cap,
                    club_id=club_id,
                )
            )
        except SeatCapError as error:  # another of their tables came in since the count
            raise _refused(Refusal.WAITING_TABLES_HELD, error) from None
        except NotAMemberError:  # their place in the club ended since it was read
            raise RequestError(
                Refusal.CLUB_MEMBERS_ONLY, "only the club's members may do this"
            ) from None
        self._hub.lobby.changed()
        return row

    async def waiting(self, user: UserRow) -> list[TableRow]:
        """The tables waiting for players where ``user`` holds a seat and that count
        against ``max_open_tables_per_user`` (``open``), newest first: those where they
        may start a game or leave, to open another."""
        since = self._listed_since()
        return await in_thread(self._store.waiting_tables_of_user, user.id, since)

    def _listed_since(self) -> datetime:
        """When the oldest table the lobby lists was opened: one opened before counts
        against no cap (nobody finds it to sit)."""
        return listed_since(self._settings.lobby_open_table_hours)

    async def start(self, actor: TableActor, user: UserRow) -> Json:
        """The host starts the game; empty seats are filled with their bots. The table as
        JSON. One user plays ``max_games_per_user`` games at once at most (429
        ``games_held``): the store counts them in the transaction that marks the table
        started, under the host's lock, so that starts of several of their tables at once
        (on several workers) cannot all pass the count."""
        cap = self._settings.max_games_per_user
        try:
            return await actor.call(lambda: actor.start(user.id, games_cap=cap))
        except SeatCapError as error:
            raise _refused(Refusal.GAMES_HELD, error) from None

    async def below_games_cap(self, user: UserRow) -> None:
        """Refuse (429 ``games_held``) a user who already plays ``max_games_per_user``
        games at once: before the pool looks for a new game of theirs."""
        _refuse_at(self._settings.max_games_per_user, await self._playing(user), Refusal.GAMES_HELD)

    async def games_held(self, user: UserRow) -> dict[str, int] | None:
        """``count`` and ``limit`` (``games_held``'s parameters) of a user at the cap of
        games at once, whom the pool passes over until a game ends; ``None`` below it."""
        return _at_cap(self._settings.max_games_per_user, await self._playing(user))

    async def _playing(self, user: UserRow) -> int:
        """How many games ``user`` holds now (a seat at a table started, not over, or at
        one the pool has just opened for them: ``Store.count_games_held``)."""
        return await in_thread(self._store.count_games_held, user.id)


def _at_cap(limit: int, held: int) -> dict[str, int] | None:
    """A cap's refusal parameters (``count``, ``limit``) for one who holds seats at
    ``held`` tables of a cap of ``limit``, once they are at it; ``None`` below it."""
    return {"count": held, "limit": limit} if held >= limit else None


def _refuse_at(limit: int, held: int, code: Refusal) -> None:
    """Refuse with ``code`` (429) a user who holds seats at ``held`` tables of a cap of
    ``limit``, once they are at it (``_at_cap``)."""
    at_cap = _at_cap(limit, held)
    if at_cap is not None:
        raise _held(code, at_cap)


def _refused(code: Refusal, error: SeatCapError) -> RequestError:
    """The refusal (429 ``code``) of a write the store refused at the cap, counted in the
    write's own transaction (another table of the user's came in since any count before)."""
    at_cap = _at_cap(error.limit, error.held)
    assert at_cap is not None, "the store refuses only at the cap"
    return _held(code, at_cap)


def _held(code: Refusal, at_cap: dict[str, int]) -> RequestError:
    """The refusal (429 ``code``) of one at a cap, with its parameters (``_at_cap``)."""
    return RequestError(
        code,
        f"{_HELD_AT[code]}: you hold seats at {at_cap['count']}, at most {at_cap['limit']}; "
        "finish or leave one of them first",
        retry_after=_CAP_RETRY_SECONDS,
        params=at_cap,
    )


def check_new_table(request: TableIn, settings: ServerSettings) -> NewTable:
    """The new table's rules and bots, or a ``RequestError`` naming what is wrong."""
    rules = _rules(request)
    if request.rated and not is_rated_rules(rules.to_json()):
        raise RequestError(
            Refusal.RATED_RULES_CHANGED,
            f"rated: only a preset's own rules are rated; {rules.preset} with changed options "
            "is not",
            params={"preset": rules.preset},
        )
    bots = _bots(request)
    if request.rated and not may_stand_in_rated(request.stand_in):
        raise RequestError(
            Refusal.STAND_IN_TOO_STRONG,
            f"stand_in: a rated table's stand-in is at most {RATED_STAND_IN}, "
            f"not {request.stand_in}",
            params={"level": request.stand_in, "strongest": RATED_STAND_IN},
        )
    _check_clocks(request, settings)
    return NewTable(rules, bots)


def _rules(request: TableIn) -> Rules:
    """The resolved rules, played by this many players with a plan that can be dealt."""
    try:
        rules = resolve_rules(request.rules)
    except RaspisnoyError as error:
        option = {"option": _bad_option(request.rules)}
        raise RequestError(Refusal.BAD_RULES, f"rules: {error}", params=option) from None
    players = request.players
    if players not in rules.player_counts:
        raise RequestError(
            Refusal.INVALID,
            f"players: {rules.preset} is played by {rules.min_players} to {rules.max_players}, "
            f"not {players}",
        )
    try:
        round_plan(rules, players)
    except RaspisnoyError as error:  # a custom plan dealing more cards than each can get
        plan: dict[str, str | int] = {"plan": ",".join(rules.custom_plan), "count": players}
        raise RequestError(Refusal.CUSTOM_PLAN, f"custom_plan: {error}", params=plan) from None
    return rules


def _bots(request: TableIn) -> tuple[str, ...]:
    """One known bot level per seat (and a known stand-in)."""
    players = request.players
    bots = (request.bots,) * players if isinstance(request.bots, str) else tuple(request.bots)
    if len(bots) != players:
        raise RequestError(
            Refusal.INVALID, f"bots: one level per seat ({players}), not {len(bots)}"
        )
    for level in [*bots, request.stand_in]:
        if level not in TABLE_BOTS:
            raise RequestError(
                Refusal.INVALID, f"unknown bot {level!r}; bots: {', '.join(TABLE_BOTS)}"
            )
    return bots


def _check_clocks(request: TableIn, settings: ServerSettings) -> None:
    """The turn timer and the bots' delay within the server's bounds."""
    low, high = settings.min_turn_seconds, settings.max_turn_seconds
    if request.turn_seconds != 0 and not low <= request.turn_seconds <= high:
        raise RequestError(
            Refusal.INVALID,
            f"turn_seconds: 0 (no timer) or {low} to {high}, not {request.turn_seconds}",
        )
    if not 0 <= request.bot_delay_ms <= settings.max_bot_delay_ms:
        raise RequestError(
            Refusal.INVALID,
            f"bot_delay_ms: 0 to {settings.max_bot_delay_ms}, not {request.bot_delay_ms}",
        )


def _bad_option(spec: object) -> str:
    """The option of a rules object that ``resolve_rules`` refused: ``preset`` for a name or
    a preset it does not know, else the first option that fails on its own preset."""
    if not isinstance(spec, dict):
        return "preset"
    preset = spec.get("preset", DEFAULT_PRESET)
    try:
        resolve_rules({"preset": preset})
    except RaspisnoyError:
        return "preset"
    for name, value in spec.items():
        try:
            resolve_rules({"preset": preset, name: value})
        except RaspisnoyError:
            return str(name)
    return "preset"
