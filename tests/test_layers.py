"""Architecture: ``raspisnoy.core`` imports nothing but the standard library and itself."""

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "src" / "raspisnoy" / "core"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_core_files_exist() -> None:
    assert len(list(CORE.glob("*.py"))) >= 5


def test_core_imports_only_stdlib_and_itself() -> None:
    offenders = []
    for path in sorted(CORE.glob("*.py")):
        for module in _imported_modules(path):
            top = module.split(".")[0]
            if module.startswith("raspisnoy.core") or top in sys.stdlib_module_names:
                continue
            offenders.append(f"{path.name}: {module}")
    assert offenders == []
