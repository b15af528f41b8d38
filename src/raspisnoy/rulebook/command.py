"""The rule book's commands: ``raspisnoy rules`` (list, show, compare and document
rulesets), ``raspisnoy schedule`` (a ruleset's round plan) and ``raspisnoy replay``
(check and score a game record). ``schedule`` and ``replay`` are a public contract
(docs/record.md): their ``--json`` forms and error lines are the same in every language;
the tables a person reads (``schedule``, ``replay``, ``rules list``, ``show`` and ``diff``)
are in ``--lang``'s language, by default the system's.

Each command imports the part of the rules it uses when it runs (``raspisnoy.core``
imports a name's module on first use), so ``rules list`` loads the rules catalogue and
not the game, and Rich only where a table is printed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from raspisnoy.cli_support import (
    LangOption,
    SetOption,
    chosen_language,
    cli_help,
    escape_markup,
    guarded,
    help_without_command,
    print_json,
    rules_from,
)
from raspisnoy.core import PRESET_DESCRIPTIONS, PRESETS
from raspisnoy.i18n import translate

if TYPE_CHECKING:
    from rich.table import Table

    from raspisnoy.core import Game

__all__ = ["replay_command", "rules_app", "schedule_command"]

rules_app = typer.Typer(help=cli_help("rules"))


def _table(title: str) -> Table:
    """A new Rich table. Rich is imported only by the commands that print one, so their
    ``--json`` forms (a public contract, read by scripts) start without it."""
    from rich.table import Table

    return Table(title=title, min_width=len(title))  # a title on one line


def _print(*renderables: object) -> None:
    """Print tables and lines with Rich."""
    from rich.console import Console

    console = Console()
    for renderable in renderables:
        console.print(renderable)


@rules_app.callback(invoke_without_command=True)
def _rules(context: typer.Context) -> None:
    help_without_command(context)


def schedule_command(
    players: Annotated[int, typer.Option("--players", "-p", help=cli_help("option.players"))],
    rules: Annotated[str, typer.Option("--rules", help=cli_help("option.rules"))] = "raspisnoy.com",
    settings: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("schedule.json"))] = False,
    lang: LangOption = None,
) -> None:
    """``raspisnoy schedule``; its help is the ``cli`` catalog's ``cli.schedule``."""
    from raspisnoy.core import round_plan

    language = chosen_language(lang)
    plan = guarded(lambda: round_plan(rules_from(rules, settings or []), players))
    if as_json:
        print_json([spec.to_json() for spec in plan])
        return
    title = "rulebook.schedule_title"
    table = _table(translate(title, language, rules=rules, players=players, rounds=len(plan)))
    for column in ("round", "cards"):
        table.add_column(translate(f"play.col.{column}", language), justify="right")
    table.add_column(translate("play.col.kind", language))
    for spec in plan:
        kind = translate(f"kind.{spec.kind}", language)
        table.add_row(str(spec.number), str(spec.cards), kind)
    _print(table)


def replay_command(
    file: Annotated[str, typer.Argument(help=cli_help("option.record"))],
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("replay.json"))] = False,
    lang: LangOption = None,
) -> None:
    """``raspisnoy replay``; its help is the ``cli`` catalog's ``cli.replay``."""
    from raspisnoy.core import loads_record, replay, replay_report

    language = chosen_language(lang)

    def load() -> Game:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        return replay(loads_record(data.decode("utf-8")))

    game = guarded(load)
    report = replay_report(game)
    if as_json:
        print_json(report)
        return
    _print_score_sheet(report, language)


def _print_score_sheet(report: dict[str, Any], language: str) -> None:
    """The «расписная» sheet in ``language``: a row per round, bid/taken and points per
    player (the round in progress with its bids so far), the totals and the winners."""
    from raspisnoy.core import Suit

    def words(key: str, **values: object) -> str:
        return translate(key, language, **values)

    table = _table(words("play.sheet"))
    for column in ("round", "cards", "kind", "trump"):
        table.add_column(words(f"play.col.{column}"))
    for name in report["players"]:
        table.add_column(escape_markup(name), justify="right")
    for r in report["rounds"]:
        cells = []
        for seat in range(len(report["players"])):
            bid = "–" if r["bids"] is None or r["bids"][seat] is None else str(r["bids"][seat])
            points = "…" if r["points"] is None else f"{r['points'][seat]:+d}"
            cells.append(f"{bid}/{r['taken'][seat]}  {points}")
        kind = words(f"kind.{r['kind']}")
        trump = "–" if r["trump"] is None else Suit.parse(r["trump"]).symbol
        table.add_row(str(r["round"]), str(r["cards"]), kind, trump, *cells)
    table.add_section()
    totals = (str(total) for total in report["totals"])
    table.add_row("", "", words("play.col.total"), "", *totals)
    if report["complete"]:
        names = escape_markup(", ".join(report["players"][seat] for seat in report["winners"]))
        end = words("play.winner" if len(report["winners"]) == 1 else "play.winners", names=names)
    else:
        end = words("rulebook.in_progress")
    _print(table, end)


@rules_app.command("list", help=cli_help("rules.list"))
def rules_list(
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("option.json"))] = False,
    lang: LangOption = None,
) -> None:
    language = chosen_language(lang)
    if as_json:
        print_json(
            [{"name": name, "description": PRESET_DESCRIPTIONS[name][0]} for name in PRESETS]
        )
        return
    table = _table(translate("rulebook.rulesets", language))
    table.add_column(translate("rulebook.col.name", language))
    table.add_column(translate("rulebook.col.description", language))
    for name in PRESETS:  # described as the web page describes it in each language
        table.add_row(name, translate(f"web.preset.{name}.desc", language))
    _print(table)


@rules_app.command("show", help=cli_help("rules.show"))
def rules_show(
    name: Annotated[str, typer.Argument(help=cli_help("rules.show.name"))],
    settings: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("rules.show.json"))] = False,
    lang: LangOption = None,
) -> None:
    from raspisnoy.core import option_info

    language = chosen_language(lang)
    rules = guarded(lambda: rules_from(name, settings or []), language)
    data = rules.to_json()
    if as_json:
        print_json(data)
        return
    table = _options_table(translate("rulebook.ruleset", language, name=name), language, [])
    for info in option_info():
        table.add_row(info.name, _json_cell(data[info.name]), _described(info.name, language))
    _print(table)


def _options_table(title: str, language: str, values: list[str]) -> Table:
    """A table of options: the option's name (as ``--set`` takes it), a column of values
    for each of ``values`` (one, "value", when empty) and the option's description, as
    the web page's rules form words it."""
    table = _table(title)
    table.add_column(translate("rulebook.col.option", language))
    for column in values or [translate("rulebook.col.value", language)]:
        table.add_column(column)
    table.add_column(translate("rulebook.col.description", language))
    return table


def _described(option: str, language: str) -> str:
    """What ``option`` does, in ``language``: the web form's help text, or for an option
    whose values name round kinds, this command's own, naming them as ``--set`` takes
    them (the form's names them in words: «9:тёмная»)."""
    kinds = _kinds_taken().get(option)
    if kinds is None:
        return translate(f"web.option.{option}.help", language)
    return translate(f"rulebook.option.{option}", language, kinds=", ".join(kinds))


def _kinds_taken() -> dict[str, tuple[str, ...]]:
    """The round kinds each option that names them takes, as ``--set`` spells them."""
    from raspisnoy.core import SPECIAL_KINDS, RoundKind

    return {"custom_plan": tuple(map(str, RoundKind)), "special_rounds": SPECIAL_KINDS}


def _json_cell(value: Any) -> str:
    """An option value as a table cell: its JSON form, shown as text, not markup."""
    return escape_markup(json.dumps(value, ensure_ascii=False))


@rules_app.command("diff", help=cli_help("rules.diff"))
def rules_diff(
    a: Annotated[str, typer.Argument(help=cli_help("rules.diff.a"))],
    b: Annotated[str, typer.Argument(help=cli_help("rules.diff.b"))],
    settings: Annotated[
        list[str] | None, typer.Option("--set", help=cli_help("rules.diff.set"))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("rules.diff.json"))] = False,
    lang: LangOption = None,
) -> None:
    from raspisnoy.core import option_info

    language = chosen_language(lang)
    data_a, data_b = guarded(
        lambda: (rules_from(a, []).to_json(), rules_from(b, settings or []).to_json()), language
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
        sys.stdout.write(translate("rulebook.no_differences", language) + "\n")
        return
    label_b = translate("rulebook.with_set", language, name=b) if settings else b
    title = translate("rulebook.diff_title", language, a=a, b=label_b)
    table = _options_table(title, language, [a, label_b])
    for info in changed:
        cells = _json_cell(data_a[info.name]), _json_cell(data_b[info.name])
        table.add_row(info.name, *cells, _described(info.name, language))
    _print(table)


@rules_app.command("doc", help=cli_help("rules.doc"))
def rules_doc(
    output: Annotated[
        str | None, typer.Option("--output", "-o", help=cli_help("rules.doc.output"))
    ] = None,
) -> None:
    from raspisnoy.rulebook.reference import rules_reference_markdown

    markdown = rules_reference_markdown()
    if output is None:
        sys.stdout.write(markdown)
        return
    guarded(lambda: Path(output).write_text(markdown, encoding="utf-8"))
