"""How the benchmarks report: a two-column table of figures on the terminal, and the same
figures as JSON, led by the command that measured them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

__all__ = ["print_figures"]


def print_figures(
    title: str, figures: dict[str, Any], json_path: Path | None, *, digits: int | None = None
) -> None:
    """The figures as a table (lists and objects are left to the JSON; floats with
    ``digits`` decimals if given), and as JSON to ``json_path`` if given."""
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, value in figures.items():
        if isinstance(value, list | dict):
            continue
        shown = f"{value:.{digits}f}" if digits is not None and isinstance(value, float) else value
        table.add_row(name.replace("_", " "), str(shown))
    Console().print(table)
    if json_path is not None:
        command = {"command": " ".join([f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]])}
        text = json.dumps({**command, **figures}, indent=2, ensure_ascii=False)
        json_path.write_text(text + "\n", encoding="utf-8")
