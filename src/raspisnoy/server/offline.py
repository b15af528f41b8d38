"""A game against bots on the player's own device (docs/offline.md).

The browser runs this module, with ``raspisnoy.core`` and the bots' own code, in Pyodide
inside a Web Worker (``web/js/offline_worker.js``): one implementation of the rules
online and offline. ``LocalTable`` speaks the table socket's messages (docs/PROTOCOL.md,
built by ``raspisnoy.server.wire.messages``), so the table page draws an offline game
exactly as it draws one at the server. Only the pure modules are imported here: no
store, no orjson, no Numba (so no expert bot; the heuristic is the strongest offline).

A game is saved as its settings, its seed and the actions so far (``save``) and rebuilt
from them (``LocalTable.load``), which the worker keeps in IndexedDB after every action.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from raspisnoy.bots.base import Bot
from raspisnoy.bots.beginner import BeginnerBot
from raspisnoy.bots.heuristic import HeuristicBot
from raspisnoy.bots.random_bot import RandomBot
from raspisnoy.core import (
    Game,
    IllegalActionError,
    InvalidInputError,
    NotYourTurnError,
    RaspisnoyError,
    game_to_record,
    parse_action,
    record_to_json,
    resolve_rules,
)
from raspisnoy.server.wire.messages import (
    Json,
    ack_message,
    action_event,
    error_message,
    game_report,
    state_message,
    view_json,
)

__all__ = ["OFFLINE_BOTS", "SAVE_FORMAT", "STRONGEST", "YOU", "LocalTable"]

#: The bots that run in the browser (pure Python), weakest first.
OFFLINE_BOTS: dict[str, type[Bot]] = {
    bot.name: bot for bot in (RandomBot, BeginnerBot, HeuristicBot)
}
#: What plays a seat whose settings ask for a bot that cannot run here (the expert).
STRONGEST = HeuristicBot.name
#: The person's seat at an offline table.
YOU = 0
#: The version of ``LocalTable.save``'s format.
SAVE_FORMAT = 1
#: Most actions a saved game may hold (a long game has under 2,000).
_MAX_ACTIONS = 20_000


def _seat_bots(bots: object, players: int) -> tuple[str, ...]:
    """The bot of every seat (seat 0's is the stand-in's, unused): one level for all, or
    one per seat; a level that cannot run here becomes ``STRONGEST``."""
    levels = [bots] * players if isinstance(bots, str) else bots
    if not isinstance(levels, list) or len(levels) != players:
        raise InvalidInputError(f"bots: one level or one per seat ({players})")
    if not all(isinstance(level, str) for level in levels):
        raise InvalidInputError("bots: levels are names, such as 'heuristic'")
    return tuple(level if level in OFFLINE_BOTS else STRONGEST for level in levels)


def _bounded_int(settings: Mapping[str, Any], key: str, default: int, top: int) -> int:
    value = settings.get(key, default)
    if type(value) is not int or not 0 <= value <= top:
        raise InvalidInputError(f"{key}: a whole number from 0 to {top}")
    return value


class LocalTable:
    """One offline game: the person at seat 0, bots at the others, no timer."""

    def __init__(
        self,
        table_id: str,
        settings: Mapping[str, Any],
        name: str,
        seed: str,
        actions: Sequence[tuple[int, str]] = (),
    ) -> None:
        """A game from the new-table form's ``settings`` (``rules``, ``players``, ``bots``,
        ``bot_delay_ms``; the rest is ignored: there is no timer, nobody else to
        invite, nothing rated), replayed through ``actions``; ``InvalidInputError`` or
        the rules' own errors for settings or actions that do not fit."""
        rules = resolve_rules(settings.get("rules"))
        players = settings.get("players", 4)
        if type(players) is not int or players not in rules.player_counts:
            raise InvalidInputError(f"players: {rules.preset} is for {rules.player_counts}")
        self.id = table_id
        self.name = name
        self.seed = seed
        self.bots = _seat_bots(settings.get("bots", STRONGEST), players)
        self.bot_delay_ms = _bounded_int(settings, "bot_delay_ms", 800, 10_000)
        self.settings: Json = {
            "rules": rules.to_json(),
            "players": players,
            "bots": list(self.bots),
            "bot_delay_ms": self.bot_delay_ms,
        }
        # as the server names them (``seat_names``); the page words them itself
        bots = (f"Bot {seat + 1} ({self.bots[seat]})" for seat in range(1, players))
        names = [name, *bots]
        self.game = Game(rules, names, seed=seed)
        #: Who dealt first (drawn from the seed, as at the server's tables).
        self.first_dealer = self.game.dealer
        self.actions: list[tuple[int, str]] = []
        self._bots: dict[int, Bot] = {}
        for seat, text in actions:
            self.game.apply(parse_action(text), seat)
            self.actions.append((seat, text))

    @classmethod
    def new(cls, settings: Mapping[str, Any], name: str) -> LocalTable:
        """A fresh game with a new id and seed."""
        return cls(f"local-{secrets.token_hex(6)}", settings, name, secrets.token_hex(8))

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> LocalTable:
        """A game from ``save``'s dict; ``InvalidInputError`` for a damaged one."""
        if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
            raise InvalidInputError(f"not a saved offline game of format {SAVE_FORMAT}")
        actions = data.get("actions")
        if not isinstance(actions, list) or len(actions) > _MAX_ACTIONS:
            raise InvalidInputError("the saved game's actions are damaged")
        pairs = []
        for entry in actions:
            if not (isinstance(entry, list) and len(entry) == 2):
                raise InvalidInputError("the saved game's actions are damaged")
            seat, text = entry
            if type(seat) is not int or not isinstance(text, str):
                raise InvalidInputError("the saved game's actions are damaged")
            pairs.append((seat, text))
        fields = (data.get("id"), data.get("settings"), data.get("name"), data.get("seed"))
        table_id, settings, name, seed = fields
        if not (isinstance(table_id, str) and isinstance(settings, Mapping)):
            raise InvalidInputError("the saved game's settings are damaged")
        if not (isinstance(name, str) and isinstance(seed, str)):
            raise InvalidInputError("the saved game's settings are damaged")
        try:
            return cls(table_id, settings, name, seed, pairs)
        except RaspisnoyError as error:
            raise InvalidInputError(f"the saved game does not replay: {error}") from None

    def save(self) -> Json:
        """Everything needed to rebuild the game (``load``): small, and JSON."""
        return {
            "format": SAVE_FORMAT,
            "id": self.id,
            "settings": self.settings,
            "name": self.name,
            "seed": self.seed,
            "actions": [list(pair) for pair in self.actions],
            "over": self.game.is_over,
        }

    def record(self) -> Json:
        """The game's record (docs/record.md), as the server replays it."""
        return record_to_json(game_to_record(self.game))

    # ------------------------------------------------------------------ messages

    @property
    def version(self) -> int:
        return len(self.actions)

    def table(self) -> Json:
        """The table as the table page reads it (``table_json``'s shape, docs/offline.md):
        the person at seat 0, bots elsewhere, never rated, and ``offline`` set."""
        seats = [
            {
                "seat": seat,
                "user_id": "local" if seat == YOU else None,
                "nickname": self.name if seat == YOU else None,
                "bot": bot,
                "registered": False,
                "connected": seat == YOU,
                "away": False,
            }
            for seat, bot in enumerate(self.bots)
        ]
        return {
            "id": self.id,
            "status": "over" if self.game.is_over else "playing",
            "public": False,
            "host_id": "local",
            "rules": self.settings["rules"],
            "players": len(self.bots),
            "turn_seconds": 0,
            "bot_delay_ms": self.bot_delay_ms,
            "stand_in": STRONGEST,
            "seats": seats,
            "names": list(self.game.names),
            "deadline_ms": None,
            "invite": f"/?offline={self.id}",
            "rated": False,
            "spectator_chat": False,
            "offline": True,
        }

    def state(self) -> Json:
        """The full resync of seat 0, as the socket sends it."""
        finished = [r for r in self.game.rounds() if r.points is not None]
        you = {"user_id": "local", "nickname": self.name, "seat": YOU}
        last = finished[-1] if finished else None
        return state_message(self.version, you, self.table(), self.game.view(YOU), last)

    def report(self) -> Json:
        """The score report as seat 0 may know it (``GET /api/games/{id}/score``'s)."""
        return game_report(self.game, self.game.view(YOU))

    def act(self, client_id: str, text: str) -> list[Json]:
        """The person's action: its ``event`` and ``ack``, or an ``error`` (nothing changed)."""
        try:
            event = self._apply(YOU, text, "player")
            return [event, ack_message(client_id, self.version, duplicate=False)]
        except NotYourTurnError as error:
            return [error_message("not_your_turn", str(error), client_id)]
        except (IllegalActionError, InvalidInputError) as error:
            return [error_message("illegal_action", str(error), client_id)]

    def bot_due(self) -> bool:
        """Whether a bot is to act now (the worker waits ``bot_delay_ms``, then ``bot_turn``)."""
        return self.game.to_act not in (None, YOU)

    def bot_turn(self) -> list[Json]:
        """The bot to act plays its move: its ``event``; nothing when no bot is to act."""
        seat = self.game.to_act
        if seat is None or seat == YOU:
            return []
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = OFFLINE_BOTS[self.bots[seat]](seed=f"{self.seed}/{seat}")
        action = bot.act(self.game.view(seat))
        return [self._apply(seat, str(action), "bot")]

    def _apply(self, seat: int, text: str, by: str) -> Json:
        """Applies ``text`` for ``seat`` on a copy (a refusal changes nothing): the event."""
        action = parse_action(text)
        trial = self.game.clone()
        trial.apply(action, seat)
        before, self.game = self.game, trial
        self.actions.append((seat, str(action)))
        event = action_event(self.version, before, trial, seat, action, by, None)
        return {**event, "game": view_json(trial.view(YOU))}
