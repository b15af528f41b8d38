"""The ``raspisnoy`` command: it registers each part's commands (``raspisnoy.<part>.command``)
by name, imported only when one runs, and turns every expected failure into one line.

Every expected failure (bad options, unreadable or illegal records) ends with one line
``error: ...`` on standard error and exit status 1; nothing else is printed then, and
never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Annotated, ClassVar

import typer

from raspisnoy import __version__
from raspisnoy.cli_support import (
    LazyCommand,
    LazyGroup,
    coerce_plain_values,
    help_without_command,
)


class _Commands(LazyGroup):
    """Every command of ``raspisnoy``, in the order of its ``--help``: each is imported
    when it runs, so ``raspisnoy rules list`` loads neither the server nor Numba."""

    lazy: ClassVar[Mapping[str, LazyCommand]] = {
        "serve": LazyCommand(
            "raspisnoy.server.command:serve",
            "Run the game server: lobby, tables, bots and the WebSocket protocol.",
        ),
        "play": LazyCommand(
            "raspisnoy.play:play_command",
            "Play raspisnoy in the terminal against bots; Ctrl-C saves the game, --resume goes on.",
        ),
        "review": LazyCommand(
            "raspisnoy.review.command:review_command",
            "Review every bid and card of a game with the expert's search: points lost, worst"
            " first.",
        ),
        "schedule": LazyCommand(
            "raspisnoy.rulebook.command:schedule_command",
            "Print the round plan: cards and kind of every round.",
        ),
        "replay": LazyCommand(
            "raspisnoy.rulebook.command:replay_command",
            "Check every card and action of a game record against the rules and score it.",
        ),
        "arena": LazyCommand(
            "raspisnoy.arena.command:arena_command",
            "Play a duplicate match between bots: every deal once per seating of the line-up.",
        ),
        "backfill-results": LazyCommand(
            "raspisnoy.ratings.command:backfill_command",
            "Record the results of every finished game that has none (games that ended before\n"
            "ratings existed); safe to run again: games with results are left alone.",
        ),
        "backup": LazyCommand(
            "raspisnoy.store.command:backup_command",
            "Back up the server's database to TARGET while the server runs (SQLite: an online\n"
            "backup; PostgreSQL: prints the pg_dump command).",
        ),
        "restore": LazyCommand(
            "raspisnoy.store.command:restore_command",
            "Replace the server's database with BACKUP (stop the server first: SQLite refuses\n"
            "while a server holds the database; PostgreSQL: prints the pg_restore command).",
        ),
        "rules": LazyCommand(
            "raspisnoy.rulebook.command:rules_app", "List, show, compare and document rulesets."
        ),
        "score": LazyCommand(
            "raspisnoy.scorekeeper.command:score_app",
            "Keep the score of a game played with real cards («расписная»).",
        ),
        "casino": LazyCommand(
            "raspisnoy.casino_command:casino_app",
            "Casino Russian poker against the dealer: hands, settlement, advice, a game.",
        ),
        "moderators": LazyCommand(
            "raspisnoy.moderation_command:moderators_app",
            "Give, take and list the moderator role (accounts named by user name).",
        ),
        "train-inference": LazyCommand(
            "raspisnoy.bots.command:train_inference_command",
            "Fit the expert's bid model (or play model) to seeded self-play games and write it.",
        ),
        "puzzles": LazyCommand(
            "raspisnoy.puzzles.command:puzzles_app",
            "Puzzles («задачи»): mine verified positions from expert self-play.",
        ),
    }


# Typer reads every parameter through Pydantic, which costs a command more than its work.
coerce_plain_values()

app = typer.Typer(
    name="raspisnoy",
    help="Raspisnoy poker («расписной покер»): rules engine, records and tools.",
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=_Commands,
)


@app.callback(invoke_without_command=True)
def _main(
    context: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        sys.stdout.write(f"raspisnoy {__version__}\n")
        raise typer.Exit()
    help_without_command(context)


def main() -> None:
    """Console-script entry point: usage errors, too, end in one ``error:`` line."""
    try:
        status = app(standalone_mode=False)
    except typer.TyperException as error:
        sys.stderr.write(f"error: {error.format_message()}\n")
        sys.exit(error.exit_code)
    except typer.Abort:
        sys.stderr.write("error: aborted\n")
        sys.exit(1)
    sys.exit(status if isinstance(status, int) else 0)
