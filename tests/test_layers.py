"""Architecture: every import inside ``src/raspisnoy`` follows the layers.

The layers (``ARCHITECTURE.md``, "Layers"; README "Layout"): core ← bots ← arena;
core ← scorekeeper; core ← casino ← casino_advisor; core, casino, casino_advisor, bots,
store ← server ← cli. ``core`` and ``casino`` are pure: the standard library only (the
casino also imports core's cards and errors); the casino's advisor may also use NumPy and
Numba. The command layer sits on top: ``play`` (``raspisnoy play``), every part's
``command`` module (``raspisnoy.server.command``, ``raspisnoy.scorekeeper.command``…),
``casino_command`` and ``cli``, which registers them all; nothing below imports it.
Outside core, code imports ``raspisnoy.core`` — core's public face — or the fast-path
module ``raspisnoy.core.fast``, never another module of core.

Every import statement is read from the source (``import``, ``from … import``, relative
imports resolved against the module's package, imports inside functions too), so a change
that crosses a layer fails here at once.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "raspisnoy"

#: What each part of the package may import of the others: the arrows of the layers. A
#: part is a subpackage or a top-level module of ``raspisnoy``; ``raspisnoy`` itself is
#: the package's ``__init__`` (the version).
MAY_IMPORT: dict[str, frozenset[str]] = {
    "core": frozenset(),
    # The casino game deals the same cards (``Card``) and raises the same errors as core.
    "casino": frozenset({"core"}),
    # The advisor values the rules' decisions, as bots play core's games.
    "casino_advisor": frozenset({"core", "casino"}),
    "i18n": frozenset(),
    "store": frozenset(),
    # Files replaced in one step (records, sheets, wallets): the standard library only.
    "files": frozenset(),
    # Stop signals acted on at safe points in the terminal programs.
    "stopping": frozenset(),
    "bots": frozenset({"core"}),
    "arena": frozenset({"core", "bots", "files"}),
    "scorekeeper": frozenset({"core", "files"}),
    "rulebook": frozenset({"core"}),
    # Ratings of finished games: results from the engine, stored with the game's end.
    "ratings": frozenset({"core", "store"}),
    # The expert's review of a game, and the game for researchers (OpenSpiel, PettingZoo).
    "review": frozenset({"core", "bots"}),
    "research": frozenset({"core", "bots"}),
    # Puzzles mined from expert self-play, verified and explained by the review's search.
    "puzzles": frozenset({"core", "bots", "review"}),
    # The commands' shared parts: rules from the command line, and the person's language.
    "cli_support": frozenset({"core", "i18n"}),
    # The pool's pairing (who sits with whom): pure, over the rules' player counts.
    "matchmaking": frozenset({"core"}),
    # Tournaments' pure logic: seating and duplicate scoring over core's games.
    "tournament": frozenset({"core"}),
    # The server also serves the score sheet (scorekeeper), speaks ru/uk/en (i18n), runs
    # the expert's reviews and hints (review), the pool (matchmaking), tournaments, and
    # serves puzzles (puzzles).
    "server": frozenset(
        {"core", "casino", "bots", "store", "scorekeeper", "ratings", "i18n", "cli_support"}
        | {"review", "casino_advisor"}
        | {"matchmaking", "tournament", "puzzles"}
    ),
    "play": frozenset({"core", "bots", "i18n", "cli_support", "command", "files", "stopping"}),
    "cli": frozenset(
        {
            "raspisnoy",
            "core",
            "casino",
            "casino_advisor",
            "casino_command",
            "bots",
            "arena",
            "scorekeeper",
            "store",
            "server",
            "i18n",
            "play",
            "command",
            "cli_support",
            "rulebook",
            "review",
            "ratings",
            "files",
            "stopping",
        }
    ),
    # A part's own command modules (``raspisnoy.scorekeeper.command``…) sit on top with the
    # other commands: they may use any part below ``cli``.
    "command": frozenset(
        {"core", "casino", "bots", "arena", "scorekeeper", "store", "server", "i18n", "play"}
        | {"cli_support", "rulebook", "review", "research", "ratings", "casino_advisor"}
        | {"puzzles", "files", "stopping"}
    ),
    # The casino's commands: the rules, the advisor, and the wallet's file and stop signals.
    "casino_command": frozenset(
        {"core", "casino", "casino_advisor", "i18n", "cli_support", "command"}
        | {"files", "stopping"}
    ),
    # The moderators' commands (``raspisnoy moderators``): the store and the settings.
    "moderation_command": frozenset({"store", "server", "cli_support"}),
    "__main__": frozenset({"cli"}),
    "raspisnoy": frozenset(),
}
#: The pure parts and the libraries beyond the standard library each may use.
PURE: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "casino": frozenset(),
    "casino_advisor": frozenset({"numpy", "numba"}),
}
#: The command layer: the parts that parse command lines and print; no other part may
#: import them.
COMMAND_LAYER = frozenset(
    {"command", "casino_command", "play", "cli", "__main__"} | {"moderation_command"}
)
#: The modules of core that other parts may import.
CORE_FACES = frozenset({"raspisnoy.core", "raspisnoy.core.fast"})


def module_name(path: Path) -> str:
    """``src/raspisnoy/bots/heuristic.py`` → ``raspisnoy.bots.heuristic``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, *, is_package: bool) -> Iterator[str]:
    """Every module an import statement of ``source`` names, relative imports resolved:
    ``from raspisnoy.core import cards`` names ``raspisnoy.core.cards`` (a module), ``from
    raspisnoy.core import Game`` names ``raspisnoy.core``."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                names = package.split(".")
                base = names[: len(names) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                yield submodule if is_a_module(submodule) else target


def part_of(module: str) -> str | None:
    """The part of ``raspisnoy`` a module belongs to (``None``: not ``raspisnoy``)."""
    names = module.split(".")
    if names[0] != "raspisnoy":
        return None
    if len(names) == 1:
        return "raspisnoy"
    if len(names) > 2 and names[2] == "command":
        return "command"
    return names[1] if names[1] in MAY_IMPORT else "raspisnoy"


def is_a_module(module: str) -> bool:
    """Whether ``raspisnoy.x.y`` is a module or package of the source tree."""
    relative = Path(*module.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").is_file() or (PACKAGE / relative).is_dir()


def violations_of(path: Path, source: str) -> list[str]:
    """What one source file imports against the layers, one line each."""
    module = module_name(path)
    part = part_of(module)
    assert part is not None
    where = path.relative_to(PACKAGE).as_posix()
    found: list[str] = []
    for target in sorted(set(imported_modules(source, module, is_package=path.stem == "__init__"))):
        top = target.split(".")[0]
        if part in PURE and top != "raspisnoy":
            if top not in sys.stdlib_module_names and top not in PURE[part]:
                libraries = ", ".join(["the standard library", *sorted(PURE[part])])
                found.append(f"{where} imports {target}: {part} is pure ({libraries} only)")
            continue
        target_part = part_of(target)
        if target_part is None or target_part == part:
            continue
        if target_part not in MAY_IMPORT[part]:
            found.append(f"{where} imports {target}: {part} may not import {target_part}")
        elif target_part == "core" and is_a_module(target) and target not in CORE_FACES:
            found.append(
                f"{where} imports {target}: outside core, import raspisnoy.core or "
                "raspisnoy.core.fast"
            )
    return found


def source_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_part_has_a_layer() -> None:
    parts = {part_of(module_name(path)) for path in source_files()}
    assert parts <= set(MAY_IMPORT), parts - set(MAY_IMPORT)
    assert {"core", "bots", "arena", "scorekeeper", "server", "cli"} <= parts


def test_nothing_below_the_command_layer_may_import_it() -> None:
    found = {
        part: allowed & COMMAND_LAYER
        for part, allowed in MAY_IMPORT.items()
        if part not in COMMAND_LAYER and allowed & COMMAND_LAYER
    }
    assert found == {}


def test_every_import_follows_the_layers() -> None:
    found = {
        violation
        for path in source_files()
        for violation in violations_of(path, path.read_text(encoding="utf-8"))
    }
    assert sorted(found) == [], "imports that cross the layers"


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        ("core/game.py", "import json\nfrom . import cards", []),
        ("core/game.py", "import numpy", ["core is pure"]),
        ("core/game.py", "def f():\n    from raspisnoy.bots import Bot", ["may not import bots"]),
        ("bots/heuristic.py", "from ..core.tricks import winner_of", ["import raspisnoy.core"]),
        ("bots/heuristic.py", "from ..core import Game\nfrom ..core.fast import SUIT_OF", []),
        ("bots/heuristic.py", "import raspisnoy.core.cards", ["import raspisnoy.core"]),
        ("bots/heuristic.py", "from raspisnoy.core import cards", ["import raspisnoy.core"]),
        ("bots/heuristic.py", "from ..arena import run_match", ["bots may not import arena"]),
        ("bots/__init__.py", "from .heuristic import HeuristicBot", []),
        ("scorekeeper/sheet.py", "from raspisnoy import bots", ["may not import bots"]),
        ("arena/match.py", "from raspisnoy.server import app", ["may not import server"]),
        ("store/models.py", "from raspisnoy.core import Game", ["store may not import core"]),
        ("casino/game.py", "from raspisnoy.core import Card\nfrom . import evaluate", []),
        ("casino/evaluate.py", "import numba", ["casino is pure"]),
        ("casino/view.py", "import typer", ["casino is pure"]),
        ("casino/game.py", "from raspisnoy.casino_advisor import advise", ["may not import"]),
        ("casino/game.py", "from raspisnoy.i18n import translate", ["may not import i18n"]),
        ("casino_advisor/advisor.py", "import numpy\nfrom raspisnoy.casino import evaluate", []),
        ("casino_advisor/fast.py", "import rich", ["casino_advisor is pure"]),
        ("casino_advisor/hint.py", "from raspisnoy.casino_command import casino_app", ["may not"]),
        ("casino_advisor/advisor.py", "from raspisnoy.bots import Bot", ["may not import bots"]),
        ("server/casino.py", "from raspisnoy.casino_command import casino_app", ["may not"]),
        ("casino_command/play.py", "import typer\nfrom raspisnoy.casino_advisor import advise", []),
        ("server/app.py", "from raspisnoy.cli import app", ["server may not import cli"]),
        ("cli.py", "from raspisnoy import __version__\nfrom .server import command", []),
    ],
)
def test_the_check_reads_every_kind_of_import(path: str, source: str, expected: list[str]) -> None:
    found = violations_of(PACKAGE / path, source)
    assert len(found) == len(expected), found
    for violation, words in zip(found, expected, strict=True):
        assert words in violation
