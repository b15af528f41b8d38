"""The ``raspisnoy play`` command: options, a new or resumed game, and its errors.

Every expected failure ends, like the rest of the command line, in one ``error: ...``
line on standard error and exit status 1; the messages of this command are in the
person's language (``--lang``, else the one ``LANG`` names), the engine's refusals of the
rules, their options and the number of players included, and so are a saved game that
cannot be resumed and the file system's errors.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from raspisnoy.cli_support import SetOption, chosen_language, cli_help, fail, file_error, rules_from
from raspisnoy.core import DEFAULT_PRESET, Game, RaspisnoyError
from raspisnoy.i18n import translate_error
from raspisnoy.play.screen import TerminalScreen
from raspisnoy.play.session import (
    DEFAULT_LEVEL,
    PlayError,
    PlaySession,
    Seating,
    load_game,
    parse_levels,
    save_record,
    save_session,
    seat_names,
)

__all__ = ["play_command"]

#: Players at the table unless ``--players`` says otherwise (when the rules allow it).
DEFAULT_PLAYERS = 4
DEFAULT_DELAY = 0.7


def play_command(
    players: Annotated[
        int | None, typer.Option("--players", "-p", help=cli_help("play.players"))
    ] = None,
    bots: Annotated[str | None, typer.Option("--bots", help=cli_help("play.bots"))] = None,
    rules: Annotated[str | None, typer.Option("--rules", help=cli_help("play.rules"))] = None,
    settings: SetOption = None,
    seed: Annotated[str | None, typer.Option("--seed", help=cli_help("play.seed"))] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=cli_help("play.lang"))] = None,
    name: Annotated[str | None, typer.Option("--name", help=cli_help("play.name"))] = None,
    save: Annotated[Path | None, typer.Option("--save", help=cli_help("play.save"))] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help=cli_help("play.resume"))] = None,
    delay: Annotated[float, typer.Option("--delay", help=cli_help("play.delay"))] = DEFAULT_DELAY,
) -> None:
    """``raspisnoy play``; its help is the ``cli`` catalog's ``cli.play``."""
    language = chosen_language(lang)
    try:
        if delay < 0:
            raise PlayError("play.error.delay", delay=delay)
        if resume is not None:
            given = {
                "--players": players,
                "--bots": bots,
                "--rules": rules,
                "--set": settings,
                "--seed": seed,
                "--name": name,
                "--save": save,
            }
            named = [option for option, value in given.items() if value is not None]
            if named:
                raise PlayError("play.error.resume_with", options=", ".join(named))
            game, seating = load_game(resume)
            record = resume
        else:
            table_rules = rules_from(rules or DEFAULT_PRESET, settings or [])
            count = players
            if count is None:
                allowed = table_rules.player_counts
                count = DEFAULT_PLAYERS if DEFAULT_PLAYERS in allowed else allowed.start
            seating = Seating(
                seed if seed is not None else str(secrets.randbelow(10**9)),
                parse_levels(bots or DEFAULT_LEVEL, count),
            )
            game = Game(table_rules, seat_names(language, count, name), seed=seating.seed)
            record = _new_record_path(save)
            save_session(seating, record)
            save_record(game, record)
        screen = TerminalScreen(Console(), language, levels=seating.levels, delay=delay)
        PlaySession(game, seating, screen, record).run()
    except PlayError as error:
        fail(error.message(language))
    except RaspisnoyError as error:  # the rules refusing a preset, an option, the players
        fail(translate_error(error, language))
    except OSError as error:  # the files of the game: what went wrong, in the language
        fail(file_error(error, language))


def _new_record_path(save: Path | None) -> Path:
    """``--save``, which must not exist yet, or a new ``raspisnoy-DATE-TIME.json`` here."""
    if save is not None:
        if save.exists():
            raise PlayError("play.error.exists", path=save)
        return save
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path, number = Path(f"raspisnoy-{stamp}.json"), 1
    while path.exists():
        number += 1
        path = Path(f"raspisnoy-{stamp}-{number}.json")
    return path
