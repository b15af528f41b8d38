"""The ``raspisnoy`` command: it registers each part's commands (``raspisnoy.<part>.command``)
and turns every expected failure into one line.

Every expected failure (bad options, unreadable or illegal records) ends with one line
``error: ...`` on standard error and exit status 1; nothing else is printed then, and
never a traceback.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from raspisnoy import __version__
from raspisnoy.arena.command import arena_command
from raspisnoy.casino.command import casino_app
from raspisnoy.cli_support import help_without_command
from raspisnoy.play import play_command
from raspisnoy.ratings.command import backfill_command
from raspisnoy.review.command import review_command
from raspisnoy.rulebook.command import replay_command, rules_app, schedule_command
from raspisnoy.scorekeeper.command import score_app
from raspisnoy.server.command import serve
from raspisnoy.store.command import backup_command, restore_command

app = typer.Typer(
    name="raspisnoy",
    help="Raspisnoy poker («расписной покер»): rules engine, records and tools.",
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(rules_app, name="rules")
app.command()(serve)
app.command("play")(play_command)
app.command("review")(review_command)
app.add_typer(score_app, name="score")
app.add_typer(casino_app, name="casino")
app.command("schedule")(schedule_command)
app.command("replay")(replay_command)
app.command("arena")(arena_command)
app.command("backfill-results")(backfill_command)
app.command("backup")(backup_command)
app.command("restore")(restore_command)


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
