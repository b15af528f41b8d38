"""Architecture: the casino engine is pure like core. Its modules import the standard
library, ``raspisnoy.casino`` and core's cards and errors only; ``fast`` may import
NumPy and Numba (optionally), and only the ``cli`` subpackage does I/O with Typer and Rich."""

import ast
import sys
from pathlib import Path

CASINO = Path(__file__).resolve().parents[2] / "src" / "raspisnoy" / "casino"
ALLOWED = ("raspisnoy.casino", "raspisnoy.core.cards", "raspisnoy.core.errors")


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_modules_import_only_the_standard_library() -> None:
    offenders = []
    engine = list(CASINO.glob("*.py"))
    assert len(engine) >= 8
    for path in engine:
        for module in _imported(path):
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or module.startswith(ALLOWED):
                if module.startswith("raspisnoy.casino.cli"):
                    offenders.append(f"{path.name}: {module}")
                continue
            if path.name == "fast.py" and top in ("numba", "numpy"):
                continue
            offenders.append(f"{path.name}: {module}")
    assert offenders == []
