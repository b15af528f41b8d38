"""Where a server process spends its CPU: py-spy samples it (collapsed stacks of the
thread holding the GIL only, so that threads waiting on a socket, a queue or the event
loop's poll do not count) and the samples are summed by area, the package or module of
the innermost frame (``psycopg``, ``sqlalchemy``, ``raspisnoy.server``, ``json``...).

py-spy (``pip install py-spy``, in the ``bench`` extra) samples another process from
outside, without changing it; as root it needs nothing more. Used by
``server_load.py --profile DIR``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

#: The package of a frame's file: installed (site-packages) or ours (src/raspisnoy/...).
_INSTALLED = re.compile(r"site-packages/([A-Za-z0-9_]+)")
_OURS = re.compile(r"raspisnoy/([a-z_]+)(?:/|\.py)")
#: A frame as py-spy writes it: ``function (path/to/file.py:line)``.
_FRAME = re.compile(r"\((?P<path>[^():]+):\d+\)$")


def area(frame: str) -> str:
    """The area of one frame: ``raspisnoy.<package>``, an installed package, or a
    standard module (``asyncio``, ``json``)."""
    match = _FRAME.search(frame)
    if match is None:
        return "other"
    path = match["path"]
    if installed := _INSTALLED.search(path):
        return installed[1]
    if ours := _OURS.search(path):
        return f"raspisnoy.{ours[1]}"
    return Path(path).parts[0] if "/" in path else Path(path).stem


def shares(collapsed: Path) -> dict[str, float]:
    """Each area's share of the samples in a py-spy ``raw`` (collapsed stacks) file,
    by innermost frame, largest first."""
    counts: Counter[str] = Counter()
    for line in collapsed.read_text(encoding="utf-8").splitlines():
        stack, _, number = line.rpartition(" ")
        if stack and number.isdigit():
            counts[area(stack.rsplit(";", 1)[-1])] += int(number)
    total = sum(counts.values()) or 1
    return {name: count / total for name, count in counts.most_common()}


@dataclass
class Profiler:
    """py-spy on some processes for a while, each into a file of ``folder``."""

    folder: Path
    running: list[tuple[Path, subprocess.Popen[bytes]]] = field(default_factory=list)

    @staticmethod
    def command() -> str | None:
        """py-spy beside this Python (the venv's, not on ``PATH`` unless activated), or on
        ``PATH``."""
        beside = Path(sys.executable).with_name("py-spy")
        return str(beside) if beside.exists() else shutil.which("py-spy")

    @classmethod
    def available(cls) -> bool:
        return cls.command() is not None

    def start(self, pids: list[int], seconds: float, label: str) -> None:
        """Sample each of ``pids`` for ``seconds`` from now (not waiting for it)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for pid in pids:
            output = self.folder / f"{label}-{pid}.txt"
            command = [
                str(self.command()),
                "record",
                "--pid",
                str(pid),
                "--duration",
                str(int(seconds)),
            ]
            command += ["--rate", "100", "--nonblocking", "--gil", "--format", "raw"]
            command += ["--output", str(output)]
            process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            self.running.append((output, process))

    def finish(self) -> dict[str, float]:
        """Wait for the samplers; the areas' shares over all the processes sampled."""
        counts: Counter[str] = Counter()
        for output, process in self.running:
            process.wait()
            if output.exists():
                counts.update(shares(output))
        self.running = []
        total = sum(counts.values()) or 1
        return {name: share / total for name, share in counts.most_common()}
