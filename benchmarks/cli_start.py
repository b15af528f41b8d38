"""How fast the ``raspisnoy`` command starts: the CPU time and memory of every command's
``--help`` and of a real call, against ``python -c pass`` in the same run.

Each row runs a fresh interpreter ``--repeats`` times and takes the median of its user +
system CPU time and of its peak resident memory, both read from the kernel's accounting of
the finished child (``os.wait4``), so neither the benchmark's own work nor the machine's
other load counts as wall time would. The reference rows show what a command cannot go
below: the interpreter alone, the command line's libraries (Typer, Rich) imported alone,
an empty Typer command, and the rules (``raspisnoy.core``) imported alone. Targets (issue
26, item 7): ``rules list``, ``schedule``, ``replay``, ``score`` (a sheet checked, ``--sheet
FILE --json``) and ``casino hand`` under 150 ms of CPU and 40 MB.

    .venv/bin/python benchmarks/cli_start.py [--repeats 5] [--json out.json]
    .venv/bin/python benchmarks/cli_start.py --source /tmp/main/src   # another tree's code

``--source`` runs the command from another checkout's ``src`` (put first on
``PYTHONPATH``), to measure a branch before and after in the same way.

CPU time grows with the machine's load (other processes share its caches and cores):
``python -c pass`` takes 10 ms on a quiet machine and 20 at a load average of 15.
``--instructions`` also counts, once, the instructions of the bare interpreter and of
every targeted start, with Valgrind's callgrind, which no load changes (slow: about 50
times a start). On the machine of issue 26, a start executes about 4 million
instructions per millisecond of CPU when it is quiet.

Every start is measured with compiled bytecode, as an installed package starts (its
wheel's ``.pyc`` files) and as a checkout does from its second start on: the children
keep their bytecode in a temporary ``PYTHONPYCACHEPREFIX`` (``PYTHONDONTWRITEBYTECODE``
is dropped for them), and each case runs once unmeasured first. Without it a checkout
that never writes bytecode compiles every module of ours at every start, which costs
more than some of the commands themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from raspisnoy.core import resolve_rules
from raspisnoy.scorekeeper import Sheet, write_sheet

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "data" / "record-example.json"
HAND = ("AS", "KS", "QS", "JS", "10S")
#: The least a Typer command costs: one command with one flag, run (Typer builds its
#: parameters with Pydantic, so this imports Pydantic too).
EMPTY_TYPER = """
import typer
app = typer.Typer(add_completion=False)
@app.command()
def main(flag: bool = False) -> None:
    pass
app([], standalone_mode=False)
"""
#: The targets of issue 26, item 7: CPU seconds and peak memory in MB.
CPU_TARGET = 0.150
RSS_TARGET = 40.0


@dataclass(frozen=True, slots=True)
class Case:
    """One measured start: a name for the table, the interpreter's arguments, whether
    it has the target."""

    name: str
    argv: tuple[str, ...]
    targeted: bool = False


@dataclass(frozen=True, slots=True)
class Start:
    """What one case cost: medians over the repeats."""

    case: Case
    cpu: float
    rss: float
    status: int
    #: Millions of instructions of one start (``--instructions``), else None.
    instructions: float | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.case.name,
            "argv": list(self.case.argv),
            "cpu_ms": round(self.cpu * 1000, 1),
            "max_rss_mb": round(self.rss, 1),
            "exit_status": self.status,
            "instructions_millions": self.instructions,
            "targeted": self.case.targeted,
            "meets_target": self.meets_target if self.case.targeted else None,
        }

    @property
    def meets_target(self) -> bool:
        return self.cpu < CPU_TARGET and self.rss < RSS_TARGET


def cases(sheet: Path) -> list[Case]:
    """The reference rows, every command's ``--help``, and the real calls."""

    def command(name: str, *args: str, targeted: bool = False) -> Case:
        return Case(name, ("-m", "raspisnoy", *args), targeted)

    helps = ["rules", "schedule", "replay", "score", "casino", "serve", "play", "review"]
    helps += ["arena", "backfill-results"]
    checked = ("--sheet", str(sheet))
    return [
        Case("python -c pass", ("-c", "pass")),
        Case("import typer", ("-c", "import typer")),
        Case("import rich.console", ("-c", "import rich.console")),
        Case("an empty Typer command", ("-c", EMPTY_TYPER)),
        Case("import raspisnoy.core", ("-c", "import raspisnoy.core")),
        command("raspisnoy --version", "--version"),
        command("raspisnoy --help", "--help"),
        *(command(f"{name} --help", name, "--help") for name in helps),
        command("casino hand --help", "casino", "hand", "--help"),
        command("rules list", "rules", "list", targeted=True),
        command("rules show raspisnoy.com", "rules", "show", "raspisnoy.com"),
        command("schedule --players 4", "schedule", "--players", "4", targeted=True),
        command("replay record-example.json", "replay", str(RECORD), targeted=True),
        command("score --sheet sheet.json --json", "score", *checked, "--json", targeted=True),
        command("score --sheet sheet.json", "score", *checked),
        command("casino hand AS KS QS JS 10S", "casino", "hand", *HAND, targeted=True),
        command("casino compare", "casino", "compare", "AS AH KD 8C 9S", "KS QS JD 3C 2H"),
    ]


def measure(case: Case, repeats: int, env: dict[str, str], *, count: bool = False) -> Start:
    """Run ``case`` ``repeats`` times in fresh interpreters, after one unmeasured run
    (which writes the bytecode of what it imports); the medians, and with ``count`` the
    instructions of one more run."""
    run_once([sys.executable, *case.argv], env)
    cpus: list[float] = []
    rsss: list[float] = []
    status = 0
    for _ in range(repeats):
        process = subprocess.Popen(
            [sys.executable, *case.argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=ROOT,
        )
        _pid, wait_status, usage = os.wait4(process.pid, 0)
        process.returncode = status = os.waitstatus_to_exitcode(wait_status)
        cpus.append(usage.ru_utime + usage.ru_stime)
        rsss.append(usage.ru_maxrss / 1024)  # kB on Linux
    counted = instructions(case, env) if count else None
    return Start(case, statistics.median(cpus), statistics.median(rsss), status, counted)


def instructions(case: Case, env: dict[str, str]) -> float | None:
    """Millions of instructions one start of ``case`` executes, counted by Valgrind's
    callgrind (None where Valgrind is not installed)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    callgrind = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    found = re.search(r"Collected : (\d+)", run_once([*callgrind, sys.executable, *case.argv], env))
    return None if found is None else round(int(found.group(1)) / 1e6, 1)


def run_once(argv: list[str], env: dict[str, str]) -> str:
    """Run ``argv`` from the checkout with no input, its output dropped; its standard
    error (where callgrind writes its count)."""
    done = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    return done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--source", type=Path, help="another checkout's src to run")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the instructions of python -c pass and of the targeted starts (Valgrind)",
    )
    args = parser.parse_args()
    env = {**os.environ, "LANG": "en_US.UTF-8", "LC_ALL": "", "COLUMNS": "100"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(args.source.resolve()), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory() as folder:
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "bytecode")
        sheet = Path(folder) / "sheet.json"
        write_sheet(Sheet(resolve_rules("raspisnoy.com"), ("Anna", "Boris", "Vera")), sheet)
        every = cases(sheet)
        counted = (
            {every[0], *(case for case in every if case.targeted)} if args.instructions else set()
        )
        starts = [measure(case, args.repeats, env, count=case in counted) for case in every]
    print_starts(starts)
    if args.json is not None:
        figures = {
            "command": " ".join(["benchmarks/cli_start.py", *sys.argv[1:]]),
            "load_average": os.getloadavg(),
            "repeats": args.repeats,
            "cpu_target_ms": CPU_TARGET * 1000,
            "rss_target_mb": RSS_TARGET,
            "starts": [start.to_json() for start in starts],
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


def print_starts(starts: list[Start]) -> None:
    """The table: CPU and memory of each start, how far above the bare interpreter, and
    the instructions counted."""
    base = starts[0]
    print(
        f"{'start':<34} {'CPU ms':>8} {'+ python':>9} {'max RSS MB':>11} {'target':>7}"
        f" {'M instr':>8}"
    )
    for start in starts:
        target = ("yes" if start.meets_target else "NO") if start.case.targeted else ""
        failed = "" if start.status == 0 else f"  (exit {start.status})"
        counted = "" if start.instructions is None else f"{start.instructions:.0f}"
        print(
            f"{start.case.name:<34} {start.cpu * 1000:8.1f} {(start.cpu - base.cpu) * 1000:+9.1f}"
            f" {start.rss:11.1f} {target:>7} {counted:>8}{failed}"
        )
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
