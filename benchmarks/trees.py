"""For the benchmarks that compare two trees in one run (``--baseline OTHER/src``): a
pass run on another tree's code (the same script in a fresh process with ``OTHER/src``
first on ``PYTHONPATH``, so ``raspisnoy`` is imported from there), and the figures shown
and kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def output_in_tree(source: Path | None, script: str, arguments: list[str]) -> str:
    """What ``script`` with ``arguments`` prints on the tree whose ``src`` is ``source``
    (this tree's if ``None``); its errors go to this process's standard error, and a
    failed run raises ``CalledProcessError``."""
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(source.resolve()), environment.get("PYTHONPATH", "")]
        )
    command = [sys.executable, script, *arguments]
    output = subprocess.run(command, env=environment, stdout=subprocess.PIPE, check=True, text=True)
    return output.stdout


def publish(figures: dict[str, Any], path: Path | None) -> None:
    """Print ``figures`` as JSON, and write them to ``path`` too unless it is ``None``."""
    text = json.dumps(figures, indent=2)
    print(text)
    if path is not None:
        path.write_text(text + "\n", encoding="utf-8")
