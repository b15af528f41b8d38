"""One game of ``raspisnoy play``: who sits where, its files, and the loop that runs it.

The person always sits at seat 0 and bots at the other seats. A game is fixed by its
rules, its seat names, its seed and the bots' levels: the seed deals every round and
seeds every bot, and a bot decides from its seed and its view alone
(``raspisnoy.bots.base``), so a game stopped and continued plays exactly as one played
straight through.

Two files keep a game: the record (docs/record.md, what any program can replay) and, beside
it, its session file with what a record has no place for: the seed and the bots'
levels (``game.json`` → ``game.session.json``). The session file is written once when
the game starts; the record after every round and whenever the game stops (Ctrl-C,
end of input, the terminal closing, the end of the game). Both are written atomically,
so a crash leaves the last complete file, never a torn one.

A game that cannot be resumed (a damaged file, another version of the format, a record
the rules refuse, a session that is not its own) is a ``PlayError`` whose problem is
worded in the person's language too: by the play catalog, or by ``translate_error`` for
the engine's errors that carry a code. The engine words the place of a damaged or
refused record (the round, the trick, the card) in English only; that detail is given as
it is, inside the translated sentence.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from raspisnoy.bots import BOTS, Bot, make_bot
from raspisnoy.core import (
    RECORD_FORMAT,
    Action,
    Bid,
    Game,
    InvalidInputError,
    Phase,
    Play,
    RaspisnoyError,
    Record,
    RoundKind,
    RoundResult,
    View,
    dumps_record,
    game_to_record,
    loads_json,
    parse_record,
    player_names,
    replay,
)
from raspisnoy.files import write_atomically
from raspisnoy.i18n import translate, translate_error
from raspisnoy.stopping import check_stop, stopping_at_safe_points

__all__ = [
    "DEFAULT_LEVEL",
    "HUMAN",
    "PlayError",
    "PlaySession",
    "Screen",
    "Seating",
    "load_game",
    "parse_levels",
    "save_record",
    "seat_names",
    "session_file",
]

#: The person's seat.
HUMAN = 0
#: The bots' level unless ``--bots`` names others; it must be registered in ``BOTS``.
DEFAULT_LEVEL = "heuristic"
SESSION_FORMAT = "raspisnoy-play-session/1"
#: What every version of the record format starts with (docs/record.md).
_RECORD_FORMATS = RECORD_FORMAT.rpartition("/")[0] + "/"


class PlayError(Exception):
    """An expected failure of ``raspisnoy play``: a key of the play catalog and its values,
    so that the message reaches the person in their language. A value may be a problem
    worded in turn: another ``PlayError`` (by its key), or an error of the engine (by its
    code, ``translate_error``)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    def message(self, lang: str) -> str:
        return translate(self.key, lang, **{n: _worded(v, lang) for n, v in self.values.items()})


def _worded(value: object, lang: str) -> object:
    """A value of a ``PlayError``'s message, a problem among them said in ``lang``."""
    if isinstance(value, PlayError):
        return value.message(lang)
    if isinstance(value, RaspisnoyError):
        return translate_error(value, lang)
    return value


@dataclass(frozen=True, slots=True)
class Seating:
    """What a record does not hold: the seed of the game and the level of the bot at each
    seat (``None`` at the person's seat)."""

    seed: str
    levels: tuple[str | None, ...]

    def bots(self) -> dict[int, Bot]:
        """A fresh bot for every bot seat, each seeded by the game's seed and its seat."""
        return {
            seat: make_bot(level, seed=f"{self.seed}/seat {seat}")
            for seat, level in enumerate(self.levels)
            if level is not None
        }

    def to_json(self) -> dict[str, Any]:
        return {"format": SESSION_FORMAT, "seed": self.seed, "bots": list(self.levels)}

    @classmethod
    def from_json(cls, data: Any) -> Seating:
        """Read a session file's object; a ``PlayError`` saying what is wrong."""
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise PlayError("play.session.format", format=SESSION_FORMAT)
        seed, levels = data.get("seed"), data.get("bots")
        if not isinstance(seed, str) or not isinstance(levels, list):
            raise PlayError("play.session.fields")
        if not levels or levels[HUMAN] is not None:
            raise PlayError("play.session.person", seat=HUMAN)
        for level in levels[HUMAN + 1 :]:
            if not isinstance(level, str) or level not in BOTS:
                raise PlayError("play.error.unknown_bot", level=level, levels=", ".join(BOTS))
        return cls(seed, tuple(levels))


def parse_levels(text: str, players: int) -> tuple[str | None, ...]:
    """The levels by seat from ``--bots``: one level for every bot, or one per bot seat."""
    given = [level.strip().lower() for level in text.split(",")]
    if len(given) == 1:
        given *= players - 1
    if len(given) != players - 1:
        raise PlayError("play.error.bots_count", count=players - 1, given=text)
    for level in given:
        if level not in BOTS:
            raise PlayError("play.error.unknown_bot", level=level, levels=", ".join(BOTS))
    return (None, *given)


def seat_names(lang: str, players: int, person: str | None = None) -> tuple[str, ...]:
    """The person's name (``--name``, else "You" in their language), then the bots'."""
    names = [person or translate("play.you", lang)]
    for name in translate("play.bot_names", lang).split(","):
        if len(names) < players and name.strip() not in names:
            names.append(name.strip())
    names += [f"{translate('play.bot', lang)} {seat}" for seat in range(len(names), players)]
    try:
        return player_names(names)
    except RaspisnoyError as error:
        raise PlayError("play.error.name", problem=translate_error(error, lang)) from None


def session_file(record: Path) -> Path:
    """Where the session of the record ``record`` is kept: ``game.json`` → ``game.session.json``."""
    return record.with_suffix(".session.json")


def save_record(game: Game, path: Path) -> None:
    """Write the game so far as a record (docs/record.md)."""
    write_atomically(path, dumps_record(game_to_record(game)) + "\n", private=True)


def save_session(seating: Seating, record: Path) -> None:
    text = json.dumps(seating.to_json(), indent=2) + "\n"
    write_atomically(session_file(record), text, private=True)


def load_game(record: Path) -> tuple[Game, Seating]:
    """The game of ``record`` with its session, ready to go on where it stopped.

    The record is replayed by the rules; then a game dealt by the session's seed replays
    its log, which also checks that every deal in the record is the one the seed gives.
    """
    sidecar = session_file(record)
    try:
        text = record.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlayError("play.error.no_record", path=record) from None
    except UnicodeDecodeError:
        raise PlayError(
            "play.error.bad_record", path=record, problem=PlayError("play.record.not_text")
        ) from None
    try:
        seating = _read_session(sidecar)
    except FileNotFoundError:
        raise PlayError("play.error.no_session", path=sidecar, record=record) from None
    except PlayError as error:
        raise PlayError("play.error.bad_session", path=sidecar, problem=error) from None
    try:
        replayed = replay(_read_record(text))
    except PlayError as error:
        raise PlayError("play.error.bad_record", path=record, problem=error) from None
    except RaspisnoyError as error:  # the rules refusing the game that the record holds
        refused = error if error.code else PlayError("play.record.refused", detail=str(error))
        raise PlayError("play.error.bad_record", path=record, problem=refused) from None
    if replayed.is_over:
        raise PlayError("play.error.over", path=record)
    if len(seating.levels) != replayed.players:
        raise PlayError(
            "play.error.seats",
            record=record,
            path=sidecar,
            players=replayed.players,
            seats=len(seating.levels),
        )
    rounds = replayed.rounds()
    try:
        game = Game.from_events(
            replayed.rules,
            replayed.names,
            replayed.events,
            seed=seating.seed,
            first_dealer=rounds[0].dealer if rounds else None,
        )
    except RaspisnoyError:  # the record's deals, already replayed, are not the seed's
        problem = PlayError("play.record.deals")
        raise PlayError(
            "play.error.mismatch", record=record, path=sidecar, problem=problem
        ) from None
    return game, seating


def _read_session(path: Path) -> Seating:
    """The session in ``path``; a ``PlayError`` naming what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:  # before ValueError, which it is too
        raise PlayError("play.session.not_text") from None
    except (ValueError, RecursionError):  # the JSON decoder's: no JSON, or none it can use
        raise PlayError("play.session.not_json") from None
    return Seating.from_json(data)


def _read_record(text: str) -> Record:
    """The record in ``text``; a ``PlayError`` naming what is wrong with a file that is
    not one: not JSON, not a record, a record of another version of the format, or a
    damaged one (its problem in the engine's words, translated where it has a code)."""
    try:
        data = loads_json(text)
    except InvalidInputError:
        raise PlayError("play.record.not_json") from None
    written = data.get("format") if isinstance(data, dict) else None
    if not isinstance(written, str) or not written.startswith(_RECORD_FORMATS):
        raise PlayError("play.record.not_record")
    if written != RECORD_FORMAT:
        raise PlayError("play.record.version", got=written, expected=RECORD_FORMAT)
    try:
        return parse_record(data)
    except RaspisnoyError as error:
        if error.code:  # the record's rules or players, which the engine words by code
            raise
        raise PlayError("play.record.damaged", detail=str(error)) from None


#: The rounds so far, for the score sheet (of which only the public parts are shown).
RoundsSoFar = Callable[[], Sequence[RoundResult]]


class Screen(Protocol):
    """What the loop needs from the terminal (``raspisnoy.play.screen.TerminalScreen``)."""

    def round_start(self, view: View) -> None: ...

    def ask(self, view: View, rounds: RoundsSoFar) -> Action: ...

    def pause(self) -> None: ...

    def acted(self, seat: int, action: Action, view: View) -> None: ...

    def trick_won(self, view: View, winner: int) -> None: ...

    def trump_revealed(self, view: View) -> None: ...

    def round_over(self, view: View, result: RoundResult) -> None: ...

    def game_over(
        self, view: View, rounds: Sequence[RoundResult], winners: Sequence[int], record: Path
    ) -> None: ...

    def saved(self, record: Path) -> None: ...


class PlaySession:
    """Runs a game between the person (through a ``Screen``) and the bots, to the end or
    until it is stopped, keeping its record up to date."""

    def __init__(self, game: Game, seating: Seating, screen: Screen, record: Path) -> None:
        self.game = game
        self.screen = screen
        self.record = record
        self._bots = seating.bots()
        self._announced = 0

    def run(self) -> bool:
        """Play until the game is over (True) or stopped (False); the record is saved either
        way. Ctrl-C, end of input, SIGTERM and SIGHUP stop the game: at once while it waits
        for the person's line, else once the bot's choice, the action or the message in
        progress is done, so the saved state and the screen are always whole."""
        finished = False
        with stopping_at_safe_points():
            try:
                self._loop()
                finished = True
            except (KeyboardInterrupt, EOFError):
                pass
            finally:
                # Saved however the loop ended, even by an error, which then goes on.
                save_record(self.game, self.record)
        if finished:
            game = self.game
            self.screen.game_over(game.view(HUMAN), game.rounds(), game.winners(), self.record)
        else:
            self.screen.saved(self.record)
        return finished

    def _loop(self) -> None:
        game = self.game
        while not game.is_over:
            check_stop()
            if game.phase is not Phase.CHOOSE and game.round.number != self._announced:
                self._announced = game.round.number
                self.screen.round_start(game.view(HUMAN))
            seat = game.to_act
            assert seat is not None  # a game that is not over always awaits someone
            if seat == HUMAN:
                action = self.screen.ask(game.view(HUMAN), game.rounds)
            else:
                self.screen.pause()
                action = self._bots[seat].act(game.view(seat))
            self._apply(seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        """Apply one action and tell the person what followed from it."""
        game = self.game
        number, tricks_done = game.round.number, len(game.view(None).tricks)
        game.apply(action, seat)
        self.screen.acted(seat, action, game.view(HUMAN))
        if isinstance(action, Bid):
            if game.phase is Phase.PLAY and game.round.kind is RoundKind.BLIND:
                self.screen.trump_revealed(game.view(HUMAN))
            return
        if not isinstance(action, Play):
            return
        result = game.rounds()[number - 1]
        finished = [trick for trick in result.tricks if trick.winner is not None]
        if len(finished) > tricks_done:
            winner = finished[-1].winner
            assert winner is not None
            self.screen.trick_won(game.view(HUMAN), winner)
        if result.points is not None:
            self.screen.round_over(game.view(HUMAN), result)
            save_record(game, self.record)
