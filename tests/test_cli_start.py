"""The command line starts at once: each command imports only what it uses.

Every command is registered by name (``raspisnoy.cli_support.LazyGroup``) and imported
when it runs, so a command that reads a record does not load the server, SQLAlchemy or
Numba. Each case runs the real entry point in a fresh interpreter and reads
``sys.modules`` after it; how long a start takes is measured by
``benchmarks/cli_start.py``, not here.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from raspisnoy.casino_command import _CasinoCommands
from raspisnoy.cli import _Commands
from raspisnoy.cli_support import LazyGroup
from raspisnoy.core import resolve_rules
from raspisnoy.scorekeeper import Sheet, write_sheet

RECORD = Path(__file__).parent / "data" / "record-example.json"
#: Run ``raspisnoy.cli.main`` with the arguments given, then write every imported
#: module's name to the file named by ``MODULES_OUT``.
PROBE = """
import json, os, sys
from raspisnoy.cli import main
sys.argv = ["raspisnoy", *sys.argv[1:]]
try:
    main()
except SystemExit as end:
    status = end.code
with open(os.environ["MODULES_OUT"], "w") as out:
    json.dump({"status": status, "modules": sorted(sys.modules)}, out)
"""
#: What no command that only reads rules, records, sheets or cards may load.
HEAVY = ("raspisnoy.server", "raspisnoy.store", "sqlalchemy", "numba", "numpy", "fastapi")
#: What the fast commands need none of, though a library on their path would load it: Typer
#: reads every parameter through Pydantic (``cli_support.PlainRuntimeParam`` reads plain
#: values without it), and Pydantic looks for its plugins with ``importlib.metadata``;
#: Babel counts plurals (``raspisnoy.i18n``), which these commands never print.
AVOIDABLE = ("pydantic", "pydantic_core", "annotated_types", "importlib.metadata", "babel")
#: The commands of issue 26's start figure (``benchmarks/cli_start.py``), but ``score``.
FAST_COMMANDS = [
    ("rules", "list"),
    ("schedule", "--players", "4"),
    ("replay", str(RECORD)),
    ("casino", "hand", "AS", "KS", "QS", "JS", "10S"),
]
#: Every command's module, which ``--help`` must not import.
COMMAND_MODULES = (
    *(lazy.target.partition(":")[0] for lazy in _Commands.lazy.values()),
    "raspisnoy.bots",
)


def imported_by(tmp_path: Path, *args: str) -> list[str]:
    """The modules a fresh interpreter has imported after ``raspisnoy ARGS``."""
    out = tmp_path / "modules.json"
    env = {**os.environ, "MODULES_OUT": str(out), "LANG": "en_US.UTF-8", "LC_ALL": ""}
    subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        env=env,
        stdout=subprocess.DEVNULL,
        check=True,
        timeout=120,
    )
    found = json.loads(out.read_text())
    assert found["status"] in (0, None), found["status"]
    modules: list[str] = found["modules"]
    return modules


def loaded(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    """The packages of ``packages`` that ``modules`` holds (or a module of)."""
    return [p for p in packages if any(m == p or m.startswith(p + ".") for m in modules)]


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "sheet.json"
    write_sheet(Sheet(resolve_rules("raspisnoy.com"), ("Anna", "Boris", "Vera")), path)
    return path


@pytest.mark.parametrize(
    "args",
    [
        ("rules", "list"),
        ("rules", "show", "raspisnoy.com"),
        ("schedule", "--players", "4"),
        ("replay", str(RECORD)),
        ("casino", "hand", "AS", "KS", "QS", "JS", "10S"),
        ("casino", "compare", "AS AH KD 8C 9S", "KS QS JD 3C 2H"),
    ],
)
def test_a_command_on_the_rules_loads_no_server_database_or_compiler(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    assert loaded(imported_by(tmp_path, *args), HEAVY) == []


def test_scoring_a_sheet_loads_no_server_database_or_compiler(tmp_path: Path, sheet: Path) -> None:
    assert loaded(imported_by(tmp_path, "score", "--sheet", str(sheet)), HEAVY) == []


@pytest.mark.parametrize("args", [*FAST_COMMANDS, ("--version",), ("rules", "list", "--json")])
def test_a_fast_command_loads_neither_pydantic_nor_babel(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    assert loaded(imported_by(tmp_path, *args), AVOIDABLE) == []


def test_checking_a_sheet_loads_neither_pydantic_babel_nor_rich(
    tmp_path: Path, sheet: Path
) -> None:
    """``score --sheet FILE --json``: Rich draws the interactive sheet, not the JSON."""
    modules = imported_by(tmp_path, "score", "--sheet", str(sheet), "--json")
    assert loaded(modules, (*AVOIDABLE, "rich")) == []


def test_the_rules_catalogue_loads_neither_the_game_nor_records(tmp_path: Path) -> None:
    """``raspisnoy.core`` imports a name's module when it is first used."""
    modules = imported_by(tmp_path, "rules", "list")
    assert loaded(modules, ("raspisnoy.core.game", "raspisnoy.core.record")) == []
    assert loaded(modules, ("raspisnoy.core.rules",)) == ["raspisnoy.core.rules"]


def test_a_casino_hand_loads_neither_the_advisor_nor_the_terminal_game(tmp_path: Path) -> None:
    modules = imported_by(tmp_path, "casino", "hand", "AS", "KS", "QS", "JS", "10S")
    assert loaded(modules, ("raspisnoy.casino_advisor", "raspisnoy.casino_command.play")) == []


def test_a_command_loads_the_others_modules_never(tmp_path: Path) -> None:
    modules = imported_by(tmp_path, "rules", "list")
    others = tuple(m for m in COMMAND_MODULES if m != "raspisnoy.rulebook.command")
    assert loaded(modules, others) == []


@pytest.mark.parametrize("args", [("--help",), ("--version",)])
def test_the_help_and_the_version_import_no_command(tmp_path: Path, args: tuple[str]) -> None:
    """Nor the rules: only a command that reads rules imports them."""
    forbidden = (*COMMAND_MODULES, *HEAVY, "raspisnoy.core")
    assert loaded(imported_by(tmp_path, *args), forbidden) == []


@pytest.mark.parametrize(
    "args",
    [
        ("rules", "list", "--json"),
        ("schedule", "--players", "4", "--json"),
        ("replay", str(RECORD), "--json"),
    ],
)
def test_the_json_forms_load_no_terminal_tables(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Rich draws the tables of the commands' text output; their JSON needs none of it."""
    assert loaded(imported_by(tmp_path, *args), ("rich",)) == []


@pytest.mark.parametrize(
    ("group", "name"),
    [(_Commands, name) for name in _Commands.lazy] + [(_CasinoCommands, "play")],
)
def test_each_summary_is_the_first_paragraph_of_the_commands_own_help(
    group: type[LazyGroup], name: str
) -> None:
    """``--help`` lists a command by its summary without importing it: the listing is the
    same as the loaded command's (Typer lists a command by its help's first paragraph)."""
    command = group.lazy[name].load(name)
    assert command.name == name
    assert command.help is not None
    assert inspect.cleandoc(command.help).split("\n\n")[0] == group.lazy[name].summary
