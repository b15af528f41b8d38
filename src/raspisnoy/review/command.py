"""``raspisnoy review RECORD``: the expert's review of a recorded game (docs/review.md).

Prints, for the chosen seats, the points each lost to bids and to play, the rounds, and
every move judged, the worst first; ``--json`` prints the review object instead. The
tables and the errors are translated (``--lang``, by default the system's language);
errors follow RECORD.md's convention (one ``error:`` line on standard error, exit 1).
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text as RichText

from raspisnoy.cli_support import chosen_language, cli_help, guarded, print_json
from raspisnoy.core import Bid, Play, loads_record
from raspisnoy.i18n import translate
from raspisnoy.play.layout import compact_table, fits, flow
from raspisnoy.play.screen import play_text
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
_ROUND_HEAD = ("round", "cards", "kind", "player")
_ROUND = ("points", "bid_loss", "play_loss")
_MOVE = (
    "move",
    "player",
    "played",
    "expected",
    "best",
    "best_expected",
    "move_loss",
    "class",
)
#: The columns of words (the others hold numbers, aligned right).
_WORDS = frozenset({"move", "player", "kind", "played", "best", "class"})
#: Joins the words of a cell never broken over two lines («2 · заказ»): a no-break space.
_UNBROKEN = "\u00a0"
#: The longest line of a header or cell in a table (a longer word has its own line).
_LINE = 10


def review_command(
    file: Annotated[str, typer.Argument(help=cli_help("option.record"))],
    seat: Annotated[int | None, typer.Option("--seat", help=cli_help("review.seat"))] = None,
    iterations: Annotated[
        int, typer.Option("--iterations", help=cli_help("review.iterations"))
    ] = DEFAULT_ITERATIONS,
    screen: Annotated[
        int, typer.Option("--screen", help=cli_help("review.screen"))
    ] = DEFAULT_SCREEN,
    time_ms: Annotated[
        float | None, typer.Option("--time-ms", help=cli_help("review.time-ms"))
    ] = None,
    seed: Annotated[str, typer.Option("--seed", help=cli_help("review.seed"))] = "0",
    master: Annotated[bool, typer.Option("--master", help=cli_help("review.master"))] = False,
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("review.json"))] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=cli_help("review.lang"))] = None,
) -> None:
    """``raspisnoy review``; its help is the ``cli`` catalog's ``cli.review``."""
    language = chosen_language(lang)

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

    review = guarded(run, language)
    if as_json:
        print_json(review.to_json())
        return
    _print_review(review, text, language, Console(highlight=False))


def _print_review(review: Review, text: Text, language: str, out: Console) -> None:
    """The three tables: each seat's losses, its rounds, and the moves worst first."""
    if not review.moments:
        out.print(text("nothing"))
        return
    data = review.to_json()
    names = review.players
    summary = _Section(
        text("summary", iterations=review.budget.iterations),
        _columns(text, ("player", *_SUMMARY)),
        [(row["name"], *(_cell(row[key]) for key in _SUMMARY)) for row in data["summary"]],
    )
    rounds = _Section(
        text("rounds"),
        _columns(text, (*_ROUND_HEAD, *_ROUND)),
        [
            (
                str(row["round"]),
                str(row["cards"]),
                translate(f"kind.{row['kind']}", language),
                names[row["seat"]],
                *(_cell(row[key]) for key in _ROUND),
            )
            for row in data["rounds"]
        ],
    )
    moves = _Section(
        text("moves"),
        _columns(text, _MOVE),
        [
            _move_row(moment, names, text, language)
            for moment in (*review.worst(), *(m for m in review.moments if m.loss <= 0))
        ],
    )
    for section in (summary, rounds, moves):
        section.print(out)
    out.print(text("thresholds", **review.thresholds.to_json()))


@dataclass(frozen=True, slots=True)
class _Section:
    """One table of the review: its title, its columns (header, and whether it holds
    numbers, aligned right) and its rows of plain text."""

    title: str
    columns: list[tuple[str, bool]]
    rows: list[tuple[str, ...]]

    def print(self, out: Console) -> None:
        """A table where it fits the terminal; in a narrower one (a phone's) each row as
        a paragraph of «header value» pairs, broken between pairs."""
        table = self.table()
        if fits(out, table):
            out.print(table)
            return
        out.print(RichText(self.title, style="bold"))
        headers = [header for header, _ in self.columns]
        for row in self.rows:
            pairs = [RichText(f"{head} {value}") for head, value in zip(headers, row, strict=True)]
            out.print(flow(pairs, out.width, gap=" · "), soft_wrap=True)
            out.print()

    def table(self) -> Table:
        """The table, long headers and cells on several lines at spaces."""
        table = compact_table(self.title)
        for header, numbers in self.columns:
            table.add_column(RichText(_lines(header)), justify="right" if numbers else "left")
        for row in self.rows:
            table.add_row(*(RichText(_lines(cell)) for cell in row))
        return table


def _columns(text: Text, keys: Sequence[str]) -> list[tuple[str, bool]]:
    """The header of each column ``keys`` names, and whether it holds numbers."""
    return [(text(f"col.{key}"), key not in _WORDS) for key in keys]


def _lines(text: str) -> str:
    """``text`` broken at spaces into lines of at most ``_LINE`` characters (or its
    longest word), so that a table's long headers and cells take several short lines."""
    width = max(_LINE, *(len(word) for word in text.split()))
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


def _move_row(moment: Moment, names: tuple[str, ...], text: Text, language: str) -> tuple[str, ...]:
    """A move: where, whose, the move made and the search's best, each with the points
    expected, the points lost and the class; cards as ``raspisnoy play`` shows them."""
    where = text("bid") if moment.is_bid else str(moment.trick)
    return (
        _UNBROKEN.join((str(moment.round), "·", where)),
        names[moment.seat],
        _action_text(moment.played, language),
        f"{moment.played_points:+.1f}",
        _action_text(moment.best, language),
        f"{moment.best_points:+.1f}",
        f"{moment.loss:.1f}",
        text(f"class.{moment.severity}"),
    )


def _action_text(action: Bid | Play, language: str) -> str:
    """A bid as its number, a card in the reader's letters (``Д♣``, not ``QC``)."""
    return str(action.amount) if isinstance(action, Bid) else play_text(action, language)


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.1f}"
    return "–" if value is None else str(value)
