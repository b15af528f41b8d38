"""The ``raspisnoy`` command (RECORD.md: ``schedule`` and ``replay`` are a public contract).

Every expected failure (bad options, unreadable or illegal records) ends with one line
``error: ...`` on standard error and exit status 1; nothing else is printed then, and
never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from raspisnoy import __version__
from raspisnoy.arena import MatchConfig, MatchResult, run_match
from raspisnoy.cli_support import guarded, print_json, rules_from
from raspisnoy.core import Game, RaspisnoyError, round_plan
from raspisnoy.core.record import loads_record, replay, replay_report
from raspisnoy.core.rules import (
    PRESET_DESCRIPTIONS,
    PRESETS,
    option_info,
)
from raspisnoy.play import play_command
from raspisnoy.review_cli import review_command
from raspisnoy.rules_reference import rules_reference_markdown
from raspisnoy.score_cli import score_app
from raspisnoy.server.command import serve

app = typer.Typer(
    name="raspisnoy",
    help="Raspisnoy poker («расписной покер»): rules engine, records and tools.",
    pretty_exceptions_enable=False,
    add_completion=False,
)
rules_app = typer.Typer(help="List, show, compare and document rulesets.")
app.add_typer(rules_app, name="rules")
app.command()(serve)
app.command("play")(play_command)
app.command("review")(review_command)
app.add_typer(score_app, name="score")


@app.callback(invoke_without_command=True)
def _main(
    context: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        sys.stdout.write(f"raspisnoy {__version__}\n")
        raise typer.Exit()
    _help_without_command(context)


@rules_app.callback(invoke_without_command=True)
def _rules(context: typer.Context) -> None:
    _help_without_command(context)


def _help_without_command(context: typer.Context) -> None:
    """A group called without a command shows its help."""
    if context.invoked_subcommand is None:
        sys.stdout.write(context.get_help() + "\n")
        raise typer.Exit()


@app.command()
def schedule(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")],
    rules: Annotated[str, typer.Option("--rules", help="Ruleset preset.")] = "raspisnoy.com",
    settings: Annotated[
        list[str] | None, typer.Option("--set", help="Override an option: OPTION=VALUE.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
) -> None:
    """Print the round plan: cards and kind of every round."""
    plan = guarded(lambda: round_plan(rules_from(rules, settings or []), players))
    if as_json:
        print_json([spec.to_json() for spec in plan])
        return
    table = Table(title=f"{rules}: {players} players, {len(plan)} rounds")
    for column in ("round", "cards", "kind"):
        table.add_column(column, justify="right" if column != "kind" else "left")
    for spec in plan:
        table.add_row(str(spec.number), str(spec.cards), str(spec.kind))
    Console().print(table)


@app.command("replay")
def replay_command(
    file: Annotated[str, typer.Argument(help="Record file (RECORD.md); - reads standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the scored game as JSON.")] = False,
) -> None:
    """Check every card and action of a game record against the rules and score it."""

    def load() -> Game:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        return replay(loads_record(data.decode("utf-8")))

    game = guarded(load)
    report = replay_report(game)
    if as_json:
        print_json(report)
        return
    _print_score_sheet(report)


def _print_score_sheet(report: dict[str, Any]) -> None:
    """The «расписная» sheet: a row per round, bid/taken and points per player."""
    table = Table(title="Score sheet")
    for column in ("#", "cards", "kind", "trump"):
        table.add_column(column)
    for name in report["players"]:
        table.add_column(escape(name), justify="right")
    for r in report["rounds"]:
        cells = []
        for seat in range(len(report["players"])):
            bid = "–" if r["bids"] is None or r["bids"][seat] is None else str(r["bids"][seat])
            points = "…" if r["points"] is None else f"{r['points'][seat]:+d}"
            cells.append(f"{bid}/{r['taken'][seat]}  {points}")
        table.add_row(str(r["round"]), str(r["cards"]), r["kind"], r["trump"] or "–", *cells)
    table.add_section()
    table.add_row("", "", "total", "", *(str(total) for total in report["totals"]))
    console = Console()
    console.print(table)
    if report["complete"]:
        names = escape(", ".join(report["players"][seat] for seat in report["winners"]))
        console.print(f"Winner: {names}" if len(report["winners"]) == 1 else f"Winners: {names}")
    else:
        console.print("Game in progress.")


@app.command()
def arena(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")],
    bots: Annotated[
        str, typer.Option("--bots", help="The line-up: one bot per seat, comma-separated.")
    ],
    games: Annotated[
        int, typer.Option("--games", help="Games to play (rounded up to whole deals).")
    ] = 100,
    seed: Annotated[str, typer.Option("--seed", help="Seed of the deals.")] = "0",
    rules: Annotated[str, typer.Option("--rules", help="Ruleset preset.")] = "raspisnoy.com",
    settings: Annotated[
        list[str] | None, typer.Option("--set", help="Override an option: OPTION=VALUE.")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Worker processes (default: all cores).")
    ] = None,
    time_ms: Annotated[
        float | None, typer.Option("--time-ms", help="Time budget per decision, ms.")
    ] = None,
    records: Annotated[
        Path | None, typer.Option("--records", help="Write every game as a record here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Play a duplicate match between bots: every deal once per seating of the line-up."""
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


@rules_app.command("list")
def rules_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the ruleset presets."""
    if as_json:
        print_json(
            [{"name": name, "description": PRESET_DESCRIPTIONS[name][0]} for name in PRESETS]
        )
        return
    table = Table(title="Rulesets")
    table.add_column("name")
    table.add_column("description")
    for name in PRESETS:
        table.add_row(name, PRESET_DESCRIPTIONS[name][0])
    Console().print(table)


@rules_app.command("show")
def rules_show(
    name: Annotated[str, typer.Argument(help="Preset name.")],
    settings: Annotated[
        list[str] | None, typer.Option("--set", help="Override an option: OPTION=VALUE.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print every resolved option as JSON.")
    ] = False,
) -> None:
    """Show every option of a ruleset, resolved."""
    rules = guarded(lambda: rules_from(name, settings or []))
    data = rules.to_json()
    if as_json:
        print_json(data)
        return
    table = Table(title=f"Ruleset {name}")
    for column in ("option", "value", "description"):
        table.add_column(column)
    for info in option_info():
        table.add_row(info.name, _json_cell(data[info.name]), info.en)
    Console().print(table)


def _json_cell(value: Any) -> str:
    """An option value as a table cell: its JSON form, shown as text, not markup."""
    return escape(json.dumps(value, ensure_ascii=False))


@rules_app.command("diff")
def rules_diff(
    a: Annotated[str, typer.Argument(help="Preset name A.")],
    b: Annotated[str, typer.Argument(help="Preset name B (the --set overrides apply to it).")],
    settings: Annotated[
        list[str] | None, typer.Option("--set", help="Override an option of B: OPTION=VALUE.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the differences as JSON.")] = False,
) -> None:
    """Show the options in which ruleset B (with any --set overrides) differs from A."""
    data_a, data_b = guarded(
        lambda: (rules_from(a, []).to_json(), rules_from(b, settings or []).to_json())
    )
    changed = [info for info in option_info() if data_a[info.name] != data_b[info.name]]
    if as_json:
        differences = [
            {"option": info.name, "a": data_a[info.name], "b": data_b[info.name]}
            for info in changed
        ]
        print_json({"a": a, "b": b, "differences": differences})
        return
    if not changed:
        sys.stdout.write("no differences\n")
        return
    label_b = f"{b} with --set" if settings else b
    table = Table(title=f"Ruleset {a} vs {label_b}")
    for column in ("option", a, label_b, "description"):
        table.add_column(column)
    for info in changed:
        table.add_row(
            info.name, _json_cell(data_a[info.name]), _json_cell(data_b[info.name]), info.en
        )
    Console().print(table)


@rules_app.command("doc")
def rules_doc(
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the page to FILE.")
    ] = None,
) -> None:
    """Print the rules reference page (docs/rules-reference.md) as Markdown."""
    markdown = rules_reference_markdown()
    if output is None:
        sys.stdout.write(markdown)
        return
    guarded(lambda: Path(output).write_text(markdown, encoding="utf-8"))


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
