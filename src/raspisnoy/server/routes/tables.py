"""The lobby and the tables: list, open, read, take a seat, leave, start."""

import secrets
from typing import Any

from fastapi import APIRouter

from raspisnoy.bots import BOTS
from raspisnoy.core import DEFAULT_PRESET, RaspisnoyError, Rules, resolve_rules, round_plan
from raspisnoy.ratings import RATED_STAND_IN, is_rated_rules, may_stand_in_rated
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.deps import Actor, CurrentUser, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import SeatIn, TableIn, TableOut, TablesOut, table_json
from raspisnoy.store import Store, UserRow

router = APIRouter(prefix="/api/tables", tags=["tables"])
#: ``Retry-After`` of a refusal for holding too many tables: a guess, since it lasts until
#: the user finishes or leaves one.
_CAP_RETRY_SECONDS = 60


@router.get("", response_model=TablesOut)
async def list_tables(services: ServicesDep) -> dict[str, Any]:
    """Public tables waiting for players, newest first."""
    rows = await in_thread(lambda: services.store.list_tables(status="open"))
    return {"tables": [table_json(row) for row in rows]}


@router.post("", status_code=201, response_model=TableOut)
async def create_table(
    body: TableIn,
    user: CurrentUser,
    services: ServicesDep,
) -> dict[str, Any]:
    """Open a table with the caller as host in seat 0. A private table is found only
    through its invite link. One user holds seats at a few open tables at most."""
    store, settings, limits = services.store, services.settings, services.limits
    rules, bots = _check_table(body, settings)
    await _below(
        settings.max_open_tables_per_user, "open", "tables waiting for players", user, store
    )
    limits.hit(limits.tables_per_user, "new tables of this user", user.id)
    row = await in_thread(
        lambda: store.create_table(
            host_id=user.id,
            public=body.public,
            rules=rules.to_json(),
            bots=bots,
            turn_seconds=body.turn_seconds,
            bot_delay_ms=body.bot_delay_ms,
            stand_in=body.stand_in,
            seed=secrets.token_hex(16),
            rated=body.rated,
            spectator_chat=body.spectator_chat,
        )
    )
    services.hub.lobby.changed()
    return table_json(row)


@router.get("/{table_id}", response_model=TableOut)
async def read_table(actor: Actor) -> dict[str, Any]:
    """One table, with who is connected and away."""
    return actor.table_json()


@router.post("/{table_id}/sit", response_model=TableOut)
async def sit(body: SeatIn, actor: Actor, user: CurrentUser) -> dict[str, Any]:
    """Take an empty seat before the game starts."""
    return await actor.call(lambda: actor.sit(user.id, body.seat))


@router.post("/{table_id}/leave", response_model=TableOut)
async def leave(actor: Actor, user: CurrentUser) -> dict[str, Any]:
    """Leave the seat; during a game a stand-in bot plays it until you are back."""
    return await actor.call(lambda: actor.leave(user.id))


@router.post("/{table_id}/start", response_model=TableOut)
async def start(actor: Actor, user: CurrentUser, services: ServicesDep) -> dict[str, Any]:
    """The host starts the game; empty seats are filled with their bots. One user plays a
    few games at once at most."""
    limit = services.settings.max_games_per_user
    await _below(limit, "playing", "games being played", user, services.store)
    return await actor.call(lambda: actor.start(user.id))


async def _below(limit: int, status: str, what: str, user: UserRow, store: Store) -> None:
    """Refuse (429) if the user already holds seats at ``limit`` tables of ``status``."""
    held = await in_thread(store.count_seated_tables, user.id, status)
    if held >= limit:
        raise RequestError(
            Refusal.TOO_MANY,
            f"you hold seats at {held} {what}, at most {limit}: finish or leave one of them first",
            retry_after=_CAP_RETRY_SECONDS,
        )


def _check_table(body: TableIn, settings: ServerSettings) -> tuple[Rules, list[str]]:
    """The resolved rules and the bot of each seat, or a refusal naming what is wrong."""
    try:
        rules = resolve_rules(body.rules)
    except RaspisnoyError as error:
        option = {"option": _bad_option(body.rules)}
        raise RequestError(Refusal.BAD_RULES, f"rules: {error}", params=option) from None
    if body.players not in rules.player_counts:
        raise RequestError(
            Refusal.INVALID,
            f"players: {rules.preset} is played by {rules.min_players} to {rules.max_players}, "
            f"not {body.players}",
        )
    try:
        round_plan(rules, body.players)
    except RaspisnoyError as error:  # a custom plan dealing more cards than each can get
        plan: dict[str, str | int] = {"plan": ",".join(rules.custom_plan), "count": body.players}
        raise RequestError(Refusal.CUSTOM_PLAN, f"custom_plan: {error}", params=plan) from None
    if body.rated and not is_rated_rules(rules.to_json()):
        raise RequestError(
            Refusal.INVALID,
            f"rated: only a preset's own rules are rated; {rules.preset} with changed options "
            "is not",
        )
    bots = [body.bots] * body.players if isinstance(body.bots, str) else list(body.bots)
    if len(bots) != body.players:
        raise RequestError(
            Refusal.INVALID, f"bots: one level per seat ({body.players}), not {len(bots)}"
        )
    for level in [*bots, body.stand_in]:
        if level not in BOTS:
            raise RequestError(Refusal.INVALID, f"unknown bot {level!r}; bots: {', '.join(BOTS)}")
    if body.rated and not may_stand_in_rated(body.stand_in):
        raise RequestError(
            Refusal.STAND_IN_TOO_STRONG,
            f"stand_in: a rated table's stand-in is at most {RATED_STAND_IN}, not {body.stand_in}",
            params={"level": body.stand_in, "strongest": RATED_STAND_IN},
        )
    low, high = settings.min_turn_seconds, settings.max_turn_seconds
    if body.turn_seconds != 0 and not low <= body.turn_seconds <= high:
        raise RequestError(
            Refusal.INVALID,
            f"turn_seconds: 0 (no timer) or {low} to {high}, not {body.turn_seconds}",
        )
    if not 0 <= body.bot_delay_ms <= settings.max_bot_delay_ms:
        raise RequestError(
            Refusal.INVALID,
            f"bot_delay_ms: 0 to {settings.max_bot_delay_ms}, not {body.bot_delay_ms}",
        )
    return rules, bots


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
