"""``raspisnoy puzzles generate``: mine verified puzzles from expert self-play
(docs/review.md, "Puzzles") into a JSON file, with a progress bar on a terminal.

Errors follow RECORD.md's convention (one ``error:`` line on standard error, exit 1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress

from raspisnoy.bots.master import MASTER_ITERATIONS
from raspisnoy.cli_support import cli_help, guarded, help_without_command
from raspisnoy.core import DEFAULT_PRESET, InvalidInputError, resolve_rules
from raspisnoy.puzzles import Mining, Puzzle, Theme, mine_puzzles
from raspisnoy.puzzles.sets import PUZZLE_SET_FORMAT

__all__ = ["PUZZLE_SET_FORMAT", "puzzles_app"]
_DEFAULTS = Mining()

puzzles_app = typer.Typer(help=cli_help("puzzles"))


@puzzles_app.callback(invoke_without_command=True)
def _puzzles(context: typer.Context) -> None:
    """Without a command: the help, exit 0, as ``raspisnoy rules``."""
    help_without_command(context)


@puzzles_app.command("generate", help=cli_help("puzzles.generate"))
def generate_command(
    out: Annotated[Path, typer.Option("--out", help=cli_help("puzzles.generate.out"))],
    count: Annotated[int, typer.Option("--count", help=cli_help("puzzles.generate.count"))] = 10,
    seed: Annotated[str, typer.Option("--seed", help=cli_help("puzzles.generate.seed"))] = "0",
    rules: Annotated[
        str, typer.Option("--rules", help=cli_help("puzzles.generate.rules"))
    ] = DEFAULT_PRESET,
    screen: Annotated[
        int, typer.Option("--screen", help=cli_help("puzzles.generate.screen"))
    ] = _DEFAULTS.screen,
    verify: Annotated[
        int, typer.Option("--verify", help=cli_help("puzzles.generate.verify"))
    ] = _DEFAULTS.verify,
    master: Annotated[
        bool, typer.Option("--master", help=cli_help("puzzles.generate.master"))
    ] = False,
    self_play: Annotated[
        int, typer.Option("--self-play", help=cli_help("puzzles.generate.self-play"))
    ] = _DEFAULTS.self_play,
    theme: Annotated[
        list[str] | None, typer.Option("--theme", help=cli_help("puzzles.generate.theme"))
    ] = None,
) -> None:
    console = Console(stderr=True)
    progress = Progress(
        *Progress.get_default_columns(), console=console, disable=not console.is_terminal
    )

    def run() -> list[Puzzle]:
        if count < 1:
            raise InvalidInputError(f"--count must be at least 1, not {count}")
        themes = None if not theme else frozenset(_theme(text) for text in theme)
        number = int(seed) if seed.isdigit() else seed
        deep = MASTER_ITERATIONS if master else verify
        mining = Mining(self_play, screen, deep, seed=number, themes=themes)
        with progress:
            task = progress.add_task("puzzles", total=count)

            def found(puzzles: int, positions: int) -> None:
                progress.update(task, completed=puzzles, description=f"{positions} positions")

            return list(mine_puzzles(count, resolve_rules(rules), mining, found))

    puzzles = guarded(run)
    data: dict[str, Any] = {
        "format": PUZZLE_SET_FORMAT,
        "seed": seed,
        "puzzles": [puzzle.to_json() for puzzle in puzzles],
    }
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    Console(highlight=False).print(f"{len(puzzles)} puzzles → {out}")


def _theme(text: str) -> Theme:
    if text not in {str(theme) for theme in Theme}:
        known = ", ".join(str(theme) for theme in Theme)
        raise InvalidInputError(f"unknown theme {text!r} (known: {known})")
    return Theme(text)
