"""The matchmaking pool «Играть с людьми» (docs/pool.md): people say what they accept, the
server pairs them into tables (``raspisnoy.matchmaking.pair``) and seats them there.

The pool lives in the database (``store.PoolStore``), never in a worker's memory. Every
worker runs ``PoolDesk``'s pass every ``pool_pass_seconds``; only the holder of the
pairing lease pairs, so one worker pairs at a time. A pass drops the people whose page has
been silent for ``pool_grace_seconds`` (closed, or the connection lost), starts the tables a
dead worker opened but did not start, pairs everyone still waiting, opens each table and
takes its people out of the pool in one transaction (so nobody is lost or seated twice,
whichever worker dies when; that transaction also checks again, under the people's locks,
what the pass read: ``store.PassRead``), starts its game through the table's actor and
saves the counts of people waiting that every lobby shows.

A person learns where they are from ``status`` (their page asks every second or two,
which also tells the server they are still there): ``matched`` names the table, and the
page goes there. Nothing else is said about anyone: the counts are numbers per preset and
speed, and the only table named is the caller's own.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any

from raspisnoy.matchmaking import SPEEDS, Match, Seek, pair, preset_counts
from raspisnoy.ratings import RATED_STAND_IN
from raspisnoy.ratings.results import NEWCOMER
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.limits import Limits
from raspisnoy.server.services.passes import LeasedPass
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.tables.opening import TableDesk
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire.requests import PoolIn, default_bot
from raspisnoy.store import (
    AlreadyInPoolError,
    NewPoolTable,
    NotFoundError,
    PoolEntryRow,
    PoolStore,
    UserRow,
)
from raspisnoy.store.pool import Cooldowns, PassRead

__all__ = ["COOLDOWNS", "RATED_COOLDOWNS", "AvoidProvider", "PoolDesk", "checked_choices"]

_log = logging.getLogger(__name__)

#: Who among some people must never share a table (pairs of user ids): the people one of
#: whom blocked the other (the friends' repository, wired by the app).
AvoidProvider = Callable[[Collection[str]], set[frozenset[str]]]
#: How long a bot waits before acting at a pool table, so people can follow the game.
_BOT_DELAY_MS = 800
#: The cooldown before the next rated pool game after the 1st, 2nd, 3rd and any later
#: abandoned rated pool game of the last week (seconds; docs/pool.md, "Fair play").
COOLDOWNS = (5 * 60, 15 * 60, 60 * 60, 24 * 60 * 60)
#: The rated pool's cooldowns: ``COOLDOWNS``, counting the abandoned games of a week.
RATED_COOLDOWNS = Cooldowns(COOLDOWNS, 7 * 24 * 60 * 60)


class PoolDesk:
    """The pool's requests (join, status, leave) and its pairing pass."""

    def __init__(
        self,
        pool: PoolStore,
        hub: Hub,
        settings: ServerSettings,
        limits: Limits,
        tables: TableDesk,
        avoid: AvoidProvider,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._pool = pool
        self._tables = tables
        self._hub = hub
        self._settings = settings
        self._limits = limits
        self._avoid = avoid
        self._clock = clock
        self._passes = LeasedPass(
            "pool",
            lambda: settings.pool_pass_seconds,
            pool.take_lease,
            self._pair,
            clock,
        )
        #: This worker's name as the lease's holder.
        self.name = self._passes.name

    async def start(self) -> None:
        await self._passes.start()

    async def stop(self) -> None:
        await self._passes.stop()

    # ------------------------------------------------------------- requests

    async def join(self, user: UserRow, body: PoolIn) -> dict[str, Any]:
        """Put the caller in the pool with what they accept; their status."""
        choices = checked_choices(body)
        if body.rated and not user.is_account:
            raise RequestError(
                Refusal.POOL_RATED_GUEST, "rated: the rated pool is for accounts; sign up first"
            )
        self._limits.hit(self._limits.pool_changes_per_user, "pool changes of this user", user.id)
        await self._tables.below_games_cap(user)  # (the pool's game would be one more)
        now = self._clock()
        if body.rated:
            await self._no_cooldown(user, now)
        rating = await in_thread(self._pool.rating_of, user.id)
        try:
            await in_thread(
                self._pool.join,
                user.id,
                choices,
                NEWCOMER.display if rating is None else rating,
                now,
            )
        except NotFoundError:  # the account was deleted meanwhile
            raise RequestError(Refusal.NOT_FOUND, f"no user {user.id!r}") from None
        except AlreadyInPoolError as error:
            if error.table_id is None:
                raise RequestError(
                    Refusal.POOL_ALREADY_IN, "you are already waiting in the pool"
                ) from None
            raise RequestError(
                Refusal.POOL_AT_TABLE,
                "the pool has seated you at a table whose game is not over: play it first",
            ) from None
        return await self.status(user)

    async def _cooldown(self, user: UserRow, now: float) -> dict[str, int] | None:
        """The rated pool's cooldown of a person who abandoned rated pool games lately
        (``minutes`` left, ``abandons`` of the last week; longer with each), or ``None``."""
        if not user.is_account:
            return None
        since = now - RATED_COOLDOWNS.memory
        abandons = await in_thread(self._pool.abandons_since, user.id, since)
        until = RATED_COOLDOWNS.until(abandons)
        if until is None or now >= until:
            return None
        return {"minutes": math.ceil((until - now) / 60), "abandons": len(abandons)}

    async def _no_cooldown(self, user: UserRow, now: float) -> None:
        """Refuse the rated pool during the person's cooldown (``_cooldown``)."""
        cooldown = await self._cooldown(user, now)
        if cooldown is not None:
            raise RequestError(
                Refusal.POOL_COOLDOWN,
                f"rated: you abandoned {cooldown['abandons']} rated pool game(s) this week; "
                f"the rated pool is open to you again in {cooldown['minutes']} min",
                params=cooldown,
            )

    async def status(self, user: UserRow | None) -> dict[str, Any]:
        """Where the caller is (``none``, ``waiting``, ``matched``), their rated pool's
        cooldown if any, and the counts of people waiting; asking says the caller is still
        there."""
        counts = await in_thread(self._pool.counts)
        if user is None:
            return {"status": "none", "counts": counts}
        now = self._clock()
        entry = await in_thread(self._pool.seen, user.id, now)
        status = _status(entry, now, counts)
        if status["status"] == "waiting":
            status["games_held"] = await self._tables.games_held(user)
        return {**status, "rated_cooldown": await self._cooldown(user, now)}

    async def leave(self, user: UserRow) -> dict[str, Any]:
        """Take the caller out of the pool (nothing happens if they are not waiting in it);
        their status."""
        self._limits.hit(self._limits.pool_changes_per_user, "pool changes of this user", user.id)
        await in_thread(self._pool.leave, user.id)
        return await self.status(user)

    # ------------------------------------------------------------- pairing

    async def _pair(self) -> list[str]:
        """One pass, the pairing lease held: drop the silent, start what a dead worker
        opened, pair everyone waiting; the tables opened."""
        now = self._clock()
        await in_thread(self._pool.drop_unseen, now - self._settings.pool_grace_seconds)
        for unstarted in await in_thread(self._pool.unstarted):
            await self._hub.start_if_open(unstarted)
        waiting = await self._pairable(await in_thread(self._pool.waiting), now)
        avoid = await in_thread(self._avoid, [entry.user_id for entry in waiting])
        read = PassRead({entry.user_id: entry for entry in waiting}, now, RATED_COOLDOWNS)
        opened: list[str] = []
        seated: set[str] = set()
        for match in pair((_seek(entry) for entry in waiting), now, avoid=avoid):
            people, cap = list(match.people), self._settings.max_games_per_user
            table_id = await in_thread(self._pool.open_table, people, _table(match), cap, read)
            if table_id is not None:
                opened.append(table_id)
                seated.update(match.people)
                await self._hub.start_if_open(table_id)
        left = [entry for entry in waiting if entry.user_id not in seated]
        await in_thread(self._pool.save_counts, self.name, _counts(left))
        if opened:
            self._hub.lobby.changed()
        return opened

    async def _pairable(self, waiting: list[PoolEntryRow], now: float) -> list[PoolEntryRow]:
        """The people of ``waiting`` below the cap of games at once and, in the rated
        pool, out of its cooldown: one who has started other games since joining, up to
        the cap, or whose abandoned game was recorded as they joined, waits on, passed
        over, until a game ends or the cooldown does (their status says so: ``games_held``,
        ``rated_cooldown``). The table's opening checks both again, under their locks,
        should either change meanwhile (``open_pool_table``)."""
        held = await in_thread(self._pool.games_held, [e.user_id for e in waiting])
        rated = [entry.user_id for entry in waiting if entry.choices["rated"]]
        cooling = await in_thread(self._pool.cooling_down, rated, now, RATED_COOLDOWNS)
        limit = self._settings.max_games_per_user
        return [
            entry
            for entry in waiting
            if held.get(entry.user_id, 0) < limit and entry.user_id not in cooling
        ]


def checked_choices(
    body: PoolIn, counts: Mapping[str, frozenset[int]] | None = None
) -> dict[str, Any]:
    """The choices of ``body`` as stored, or a refusal naming what cannot be played: a
    preset not in ``counts`` (the players each preset allows; the rules' own unless
    given), or one that none of the chosen numbers of players can play."""
    counts = preset_counts() if counts is None else counts
    for preset in body.presets:
        if preset not in counts:
            raise RequestError(
                Refusal.POOL_PRESET,
                f"presets: no preset {preset!r}; presets: {', '.join(counts)}",
                params={"preset": preset},
            )
        playable = sorted(set(body.players) & counts[preset])
        if not playable:
            wanted = min(body.players)
            raise RequestError(
                Refusal.POOL_PLAYERS,
                f"players: {preset} is played by {min(counts[preset])} to "
                f"{max(counts[preset])}, not {', '.join(map(str, sorted(body.players)))}",
                params={"preset": preset, "players": wanted},
            )
    return {
        "presets": sorted(set(body.presets)),
        "players": sorted(set(body.players)),
        "speed": body.speed,
        "rated": body.rated,
        "bot_wait": body.bot_wait,
    }


def _seek(entry: PoolEntryRow) -> Seek[str]:
    choices = entry.choices
    return Seek(
        person=entry.user_id,
        rating=entry.rating,
        presets=frozenset(choices["presets"]),
        players=frozenset(choices["players"]),
        speed=choices["speed"],
        rated=choices["rated"],
        bot_wait=choices["bot_wait"],
        since=entry.joined_at,
    )


def _table(match: Match[str]) -> NewPoolTable:
    """The table of ``match``: the preset's own rules, the speed's turn timer, bots in the
    free seats (a rated table's stand-in no stronger than the rated policy allows)."""
    bot = default_bot()
    return NewPoolTable(
        rules={"preset": match.preset},
        bots=[bot] * match.players,
        turn_seconds=SPEEDS[match.speed],
        bot_delay_ms=_BOT_DELAY_MS,
        stand_in=RATED_STAND_IN if match.rated else bot,
        seed=secrets.token_hex(16),
        rated=match.rated,
    )


def _counts(waiting: list[PoolEntryRow]) -> dict[str, dict[str, int]]:
    """How many wait for each preset and speed."""
    counts: dict[str, dict[str, int]] = {}
    for entry in waiting:
        for preset in entry.choices["presets"]:
            speeds = counts.setdefault(preset, {})
            speeds[entry.choices["speed"]] = speeds.get(entry.choices["speed"], 0) + 1
    return counts


def _status(entry: PoolEntryRow | None, now: float, counts: Mapping[str, Any]) -> dict[str, Any]:
    if entry is None:
        return {"status": "none", "counts": counts}
    if entry.table_id is not None:
        return {
            "status": "matched",
            "table": entry.table_id,
            "invite": f"/?table={entry.table_id}",
            "counts": counts,
        }
    return {
        "status": "waiting",
        "choices": entry.choices,
        "waited_seconds": int(max(0.0, now - entry.joined_at)),
        "counts": counts,
    }
