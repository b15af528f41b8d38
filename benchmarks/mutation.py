"""Mutation testing of ``raspisnoy.core`` and ``raspisnoy.scorekeeper`` with mutmut.

mutmut (https://mutmut.readthedocs.io) makes small changes to the code, one at a time — a
``<`` turned into ``<=``, a constant changed, an argument dropped — and runs the tests that
cover the changed function against each. A mutant that no test fails *survived*: either
the tests miss a behaviour, or the change makes no difference (an equivalent mutant). The
score is the share of mutants killed.

The run happens in a scratch copy of the repository (``src``, ``tests``, ``pyproject.toml``
with a ``[tool.mutmut]`` section added there), so the working tree stays clean. It prints a
table per module (mutants, killed, survived, timeouts and other outcomes, score) and the
surviving mutants' names, which ``mutmut show NAME`` in the scratch copy explains.

Short form (the default, a few minutes of one core): the scoring, bidding and trick rules
(``core/scoring.py``, ``core/bidding.py``, ``core/tricks.py``) and the score sheet's rules
(``scorekeeper/sheet.py``) against tests/core and tests/scorekeeper without the slow
random-game and property files. ``--full`` mutates every module of core and scorekeeper and
runs every test of tests/core and tests/scorekeeper (hours of CPU).

    scripts/bootstrap dev,bench
    .venv/bin/python benchmarks/mutation.py [--full] [--only FILE ...] [--workers N]
        [--keep DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
SHORT_MODULES = (
    "src/raspisnoy/core/scoring.py",
    "src/raspisnoy/core/bidding.py",
    "src/raspisnoy/core/tricks.py",
    "src/raspisnoy/scorekeeper/sheet.py",
)
FULL_MODULES = ("src/raspisnoy/core/*", "src/raspisnoy/scorekeeper/*")
TESTS = ("tests/core", "tests/scorekeeper")
#: Left out of the short form: the random games and the slow property and terminal tests
#: take minutes each (the score tables' checks of the random-games file stay in).
SLOW_TESTS = (
    "tests/core/test_random_games.py::test_random_games_every_action",
    "tests/core/test_random_games.py::test_random_games_round_checks",
    "tests/core/test_random_games.py::test_short_plan_games_keep_the_invariants",
    "tests/core/test_random_games.py::test_every_legal_action_applies_on_a_clone",
    "tests/scorekeeper/test_against_engine.py",
    "tests/scorekeeper/test_score_cli.py",
)


def mutmut_section(modules: tuple[str, ...], full: bool) -> str:
    """The ``[tool.mutmut]`` section of the scratch copy's pyproject.toml."""
    ignored = [] if full else [f"--deselect={test}" for test in SLOW_TESTS]
    return "\n".join(
        [
            "",
            "[tool.mutmut]",
            'source_paths = ["src"]',
            f"only_mutate = {json.dumps(list(modules))}",
            f"pytest_add_cli_args_test_selection = {json.dumps(list(TESTS))}",
            f"pytest_add_cli_args = {json.dumps(['-p', 'no:cacheprovider', *ignored])}",
            'also_copy = ["tests"]',
            "",
        ]
    )


def scratch_copy(target: Path, modules: tuple[str, ...], full: bool) -> None:
    """``src``, ``tests`` and pyproject.toml (with the mutmut section) under ``target``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".hypothesis")
    for folder in ("src", "tests"):
        shutil.copytree(ROOT / folder, target / folder, ignore=ignore)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (target / "pyproject.toml").write_text(text + mutmut_section(modules, full), encoding="utf-8")


def run_mutmut(where: Path, workers: int) -> None:
    """``mutmut run`` in ``where``, its progress written to ``where/mutmut.log``."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(workers)]
    with (where / "mutmut.log").open("w", encoding="utf-8") as log:
        finished = subprocess.run(command, cwd=where, env=env, stdout=log, stderr=log)
    if finished.returncode:
        tail = (where / "mutmut.log").read_text(encoding="utf-8")[-2000:]
        raise SystemExit(f"mutmut run failed ({finished.returncode}):\n{tail}")


def read_outcomes(where: Path) -> dict[str, str]:
    """Every mutant's outcome, by name (``raspisnoy.core.scoring.x__scaled__mutmut_3``), as
    ``mutmut results --all true`` words it (killed, survived, timeout, no tests…)."""
    command = [sys.executable, "-m", "mutmut", "results", "--all", "true"]
    listing = subprocess.run(command, cwd=where, capture_output=True, text=True, check=True)
    outcomes = {}
    for line in listing.stdout.splitlines():
        name, sep, outcome = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            outcomes[name] = outcome
    return outcomes


def module_of(mutant: str) -> str:
    """``raspisnoy.core.scoring.x__scaled__mutmut_3`` → ``raspisnoy.core.scoring``."""
    return mutant.split(".x", 1)[0].split(".x_", 1)[0]


def tally(outcomes: list[str]) -> dict[str, Any]:
    """Mutants, each outcome's count and the score (the share killed) of some mutants."""
    counts = Counter(outcomes)
    total = len(outcomes)
    return {**counts, "mutants": total, "score": counts["killed"] / total if total else 0.0}


def summarize(outcomes: dict[str, str]) -> dict[str, Any]:
    by_module: dict[str, list[str]] = defaultdict(list)
    for name, outcome in outcomes.items():
        by_module[module_of(name)].append(outcome)
    return {
        **tally(list(outcomes.values())),
        "modules": {module: tally(found) for module, found in sorted(by_module.items())},
        "survivors": sorted(name for name, o in outcomes.items() if o == "survived"),
    }


def print_table(figures: dict[str, Any]) -> None:
    table = Table(title="Mutation testing (mutmut): mutants the tests kill")
    shown = ("killed", "survived", "timeout")
    for column in ("module", "mutants", *shown, "other", "score"):
        table.add_column(column, justify="left" if column == "module" else "right", no_wrap=True)
    rows = [*figures["modules"].items(), ("all", figures)]
    for number, (module, row) in enumerate(rows, start=1):
        if number == len(rows):
            table.add_section()
        counts = [row.get(outcome, 0) for outcome in shown]
        other = row["mutants"] - sum(counts)
        cells = [str(row["mutants"]), *map(str, counts), str(other), f"{row['score']:.1%}"]
        table.add_row(module, *cells)
    console = Console(width=110)
    console.print(table)
    console.print(f"survivors ({len(figures['survivors'])}), see `mutmut show NAME`:")
    for name in figures["survivors"]:
        console.print(f"  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="every module, every test")
    parser.add_argument("--workers", type=int, default=1, help="mutants tested at once")
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--only", nargs="+", help="mutate these files (globs) instead")
    args = parser.parse_args()
    modules = tuple(args.only) if args.only else FULL_MODULES if args.full else SHORT_MODULES
    with tempfile.TemporaryDirectory(prefix="raspisnoy-mutation-") as scratch:
        where = args.keep or Path(scratch)
        if not (where / "mutants").is_dir():
            scratch_copy(where, modules, args.full)
        run_mutmut(where, args.workers)
        figures = summarize(read_outcomes(where))
    figures["form"] = "full" if args.full else "short"
    print_table(figures)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
