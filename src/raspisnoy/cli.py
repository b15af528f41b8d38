"""The ``raspisnoy`` command: it registers each part's commands (``raspisnoy.<part>.command``)
by name, imported only when one runs, and turns every expected failure into one line.

Every expected failure (bad options, unreadable or illegal records) ends with one line
``error: ...`` on standard error and exit status 1; nothing else is printed then, and
never a traceback.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping
from typing import Annotated, ClassVar

import typer

from raspisnoy import __version__
from raspisnoy.cli_support import (
    LazyCommand,
    LazyGroup,
    cli_help,
    coerce_plain_values,
    help_without_command,
)


class _Commands(LazyGroup):
    """Every command of ``raspisnoy``, in the order of its ``--help``, with the key of its
    help (``cli_help``): each is imported when it runs, so ``raspisnoy rules list`` loads
    neither the server nor Numba."""

    lazy: ClassVar[Mapping[str, LazyCommand]] = {
        "serve": LazyCommand("raspisnoy.server.command:serve", "serve"),
        "play": LazyCommand("raspisnoy.play:play_command", "play"),
        "review": LazyCommand("raspisnoy.review.command:review_command", "review"),
        "schedule": LazyCommand("raspisnoy.rulebook.command:schedule_command", "schedule"),
        "replay": LazyCommand("raspisnoy.rulebook.command:replay_command", "replay"),
        "arena": LazyCommand("raspisnoy.arena.command:arena_command", "arena"),
        "backfill-results": LazyCommand(
            "raspisnoy.ratings.command:backfill_command", "backfill-results"
        ),
        "backup": LazyCommand("raspisnoy.store.command:backup_command", "backup"),
        "restore": LazyCommand("raspisnoy.store.command:restore_command", "restore"),
        "rules": LazyCommand("raspisnoy.rulebook.command:rules_app", "rules"),
        "score": LazyCommand("raspisnoy.scorekeeper.command:score_app", "score"),
        "casino": LazyCommand("raspisnoy.casino_command:casino_app", "casino"),
        "moderators": LazyCommand("raspisnoy.moderation_command:moderators_app", "moderators"),
        "train-inference": LazyCommand(
            "raspisnoy.bots.command:train_inference_command", "train-inference"
        ),
        "puzzles": LazyCommand("raspisnoy.puzzles.command:puzzles_app", "puzzles"),
    }


# Typer reads every parameter through Pydantic, which costs a command more than its work.
coerce_plain_values()

app = typer.Typer(
    name="raspisnoy",
    help=cli_help("raspisnoy"),
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=_Commands,
)


@app.callback(invoke_without_command=True)
def _main(
    context: typer.Context,
    version: Annotated[bool, typer.Option("--version", help=cli_help("version"))] = False,
) -> None:
    if version:
        sys.stdout.write(f"raspisnoy {__version__}\n")
        raise typer.Exit()
    help_without_command(context)


def _tolerant_outputs() -> None:
    """Let standard output and error write what their encoding cannot hold as ``?``
    instead of failing: a terminal or a pipe in cp1251 or ASCII (``PYTHONIOENCODING``, a
    Windows console) cannot hold a suit's symbol, and a score sheet that ends in a
    traceback there is worse than one with a ``?`` for ♣."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def main() -> None:
    """Console-script entry point: usage errors, too, end in one ``error:`` line."""
    _tolerant_outputs()
    try:
        status = app(standalone_mode=False)
    except typer.TyperException as error:
        sys.stderr.write(f"error: {error.format_message()}\n")
        sys.exit(error.exit_code)
    except typer.Abort:
        sys.stderr.write("error: aborted\n")
        sys.exit(1)
    sys.exit(status if isinstance(status, int) else 0)
