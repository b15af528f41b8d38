"""``raspisnoy arena``: a duplicate match between bots, its progress and its table
(docs/bots.md)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from raspisnoy.arena import MatchConfig, MatchResult, run_match
from raspisnoy.cli_support import SetOption, cli_help, guarded, print_json, rules_from
from raspisnoy.core import RaspisnoyError

__all__ = ["arena_command"]


def arena_command(
    players: Annotated[int, typer.Option("--players", "-p", help=cli_help("option.players"))],
    bots: Annotated[str, typer.Option("--bots", help=cli_help("arena.bots"))],
    games: Annotated[int, typer.Option("--games", help=cli_help("arena.games"))] = 100,
    seed: Annotated[str, typer.Option("--seed", help=cli_help("arena.seed"))] = "0",
    rules: Annotated[str, typer.Option("--rules", help=cli_help("option.rules"))] = "raspisnoy.com",
    settings: SetOption = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help=cli_help("arena.workers"))
    ] = None,
    time_ms: Annotated[
        float | None, typer.Option("--time-ms", help=cli_help("arena.time-ms"))
    ] = None,
    records: Annotated[
        Path | None, typer.Option("--records", help=cli_help("arena.records"))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("arena.json"))] = False,
) -> None:
    """``raspisnoy arena``; its help is the ``cli`` catalog's ``cli.arena``."""
    lineup = tuple(name.strip().lower() for name in bots.split(",") if name.strip())

    def configure() -> MatchConfig:
        if len(lineup) != players:
            raise RaspisnoyError(
                f"--bots names {len(lineup)} bots for {players} players: name one per seat"
            )
        return MatchConfig(
            bots=lineup,
            games=games,
            seed=seed,
            rules=rules_from(rules, settings or []),
            workers=workers or os.cpu_count() or 1,
            time_ms=time_ms,
            records=records,
        )

    config = guarded(configure)
    total = config.deals * config.players
    console = Console(stderr=True)
    progress = Progress(
        *Progress.get_default_columns(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(f"{' vs '.join(dict.fromkeys(lineup))}", total=total)
        result = guarded(lambda: run_match(config, lambda _: progress.advance(task)))
    if as_json:
        print_json(result.to_json())
        return
    _print_arena_table(result)


def _print_arena_table(result: MatchResult) -> None:
    table = Table(title=f"Arena: {result.games} games (duplicate), points per game")
    columns = ("bot", "points", "95% CI", "wins", "exact bids", "ms p50", "ms p95")
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for bot in result.bots:
        table.add_row(
            bot.name,
            f"{bot.mean_points:.1f}",
            f"{bot.ci95[0]:.1f}…{bot.ci95[1]:.1f}",
            f"{bot.win_rate:.1%}",
            f"{bot.exact_bid_rate:.1%}",
            f"{bot.decision_ms_p50:.2f}",
            f"{bot.decision_ms_p95:.2f}",
        )
    Console().print(table)
    kinds = list(dict.fromkeys(k.kind for bot in result.bots for k in bot.round_kinds))
    if len(kinds) < 2:
        return
    by_kind = Table(title="Points per game from each kind of round (95% CI)")
    by_kind.add_column("bot")
    for kind in kinds:
        by_kind.add_column(kind, justify="right")
    for bot in result.bots:
        cells = {
            k.kind: f"{k.mean_points:.1f} ({k.ci95[0]:.1f}…{k.ci95[1]:.1f})"
            for k in bot.round_kinds
        }
        by_kind.add_row(bot.name, *(cells.get(kind, "") for kind in kinds))
    Console().print(by_kind)
