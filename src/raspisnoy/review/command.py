"""``raspisnoy review RECORD``: the expert's review of a recorded game (docs/review.md).

Prints, for the chosen seats, the points each lost to bids and to play, the rounds, and
every move judged, the worst first; ``--json`` prints the review object instead. The
tables are translated (``--lang``, by default the system's language); errors follow
RECORD.md's convention (one ``error:`` line on standard error, exit 1).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from raspisnoy.cli_support import guarded, print_json
from raspisnoy.core import loads_record
from raspisnoy.i18n import detect_language, translate
from raspisnoy.review import (
    DEFAULT_ITERATIONS,
    DEFAULT_SCREEN,
    Budget,
    Moment,
    Review,
    review_game,
)

__all__ = ["review_command"]

#: A translated message of the review domain: key and values to fill in.
Text = Callable[..., str]
_SUMMARY = ("moves", "bid_loss", "play_loss", "loss", "inaccuracies", "mistakes", "blunders")
_ROUND = ("points", "bid_loss", "play_loss")


def review_command(
    file: Annotated[str, typer.Argument(help="Record file (RECORD.md); - reads standard input.")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="Review this seat only (default: every seat).")
    ] = None,
    iterations: Annotated[
        int, typer.Option("--iterations", help="Iterations of the deep search of a doubted move.")
    ] = DEFAULT_ITERATIONS,
    screen: Annotated[
        int,
        typer.Option("--screen", help="Iterations of the quick screen of every move (0: none)."),
    ] = DEFAULT_SCREEN,
    time_ms: Annotated[
        float | None,
        typer.Option("--time-ms", help="Cut each move's search short after this many ms."),
    ] = None,
    seed: Annotated[str, typer.Option("--seed", help="Seed of the search.")] = "0",
    master: Annotated[
        bool,
        typer.Option(
            "--master",
            help="Search every move with the master level's budget, no screen (slow).",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language of the tables: ru, uk or en.")
    ] = None,
) -> None:
    """Review every bid and card of a game with the expert's search: points lost, worst first."""
    language = lang or detect_language()

    def text(key: str, **values: Any) -> str:
        return translate(f"review.{key}", language, **values)

    console = Console(stderr=True)
    progress = Progress(
        *Progress.get_default_columns(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )

    def run() -> Review:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        record = loads_record(data.decode("utf-8"))
        seeded = int(seed) if seed.isdigit() else seed
        budget = Budget(iterations, time_ms, seeded, screen=screen or None)
        if master:
            budget = replace(Budget.master(seeded), time_ms=time_ms)
        with progress:
            task = progress.add_task(text("progress"), total=None)
            return review_game(
                record,
                seat,
                budget,
                lambda done, total: progress.update(task, completed=done, total=total),
            )

    review = guarded(run)
    if as_json:
        print_json(review.to_json())
        return
    _print_review(review, text, language)


def _print_review(review: Review, text: Text, language: str) -> None:
    """The three tables: each seat's losses, its rounds, and the moves worst first."""
    out = Console(highlight=False)
    if not review.moments:
        out.print(text("nothing"))
        return
    data = review.to_json()
    names = review.players
    summary = _table(text, text("summary", iterations=review.budget.iterations), "player")
    for key in _SUMMARY:
        summary.add_column(text(f"col.{key}"), justify="right")
    for row in data["summary"]:
        summary.add_row(escape(row["name"]), *(_cell(row[key]) for key in _SUMMARY))
    out.print(summary)
    rounds = _table(text, text("rounds"), "round", "cards", "kind", "player")
    for key in _ROUND:
        rounds.add_column(text(f"col.{key}"), justify="right")
    for row in data["rounds"]:
        rounds.add_row(
            str(row["round"]),
            str(row["cards"]),
            translate(f"kind.{row['kind']}", language),
            escape(names[row["seat"]]),
            *(_cell(row[key]) for key in _ROUND),
        )
    out.print(rounds)
    moves = _table(text, text("moves"), "round", "trick", "player", "played")
    for key in ("expected", "best", "expected", "loss", "class"):
        moves.add_column(text(f"col.{key}"), justify="left" if key == "class" else "right")
    for moment in (*review.worst(), *(m for m in review.moments if m.loss <= 0)):
        moves.add_row(*_move_row(moment, names, text))
    out.print(moves)
    out.print(text("thresholds", **review.thresholds.to_json()))


def _table(text: Text, title: str, *columns: str) -> Table:
    table = Table(title=title)
    for column in columns:
        table.add_column(text(f"col.{column}"))
    return table


def _move_row(moment: Moment, names: tuple[str, ...], text: Text) -> tuple[str, ...]:
    return (
        str(moment.round),
        text("bid") if moment.is_bid else str(moment.trick),
        escape(names[moment.seat]),
        str(moment.played),
        f"{moment.played_points:+.1f}",
        str(moment.best),
        f"{moment.best_points:+.1f}",
        f"{moment.loss:.1f}",
        text(f"class.{moment.severity}"),
    )


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.1f}"
    return "–" if value is None else str(value)
