"""docs/architecture.md names only what exists: every ``src/...`` path and every
``raspisnoy.x.y`` module it mentions is a file of the source tree, so a move or a
rename that leaves the map behind fails here.

Modules are looked up as files (``raspisnoy.server.wire.answers`` is
``src/raspisnoy/server/wire/answers.py`` or a package's ``__init__.py``), never
imported, so the check is quick and loads nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"

#: A path into the source tree, up to the first character no path of ours has.
_PATH = re.compile(r"\bsrc/[\w/.-]*\w")
#: A dotted module of the package (``raspisnoy`` alone is the command, not a module).
_MODULE = re.compile(r"\braspisnoy(?:\.\w+)+")


def named_paths(text: str) -> set[str]:
    """The ``src/...`` paths ``text`` names."""
    return set(_PATH.findall(text))


def named_modules(text: str) -> set[str]:
    """The ``raspisnoy.x.y`` modules ``text`` names."""
    return set(_MODULE.findall(text))


def module_exists(module: str, root: Path = ROOT) -> bool:
    """Whether ``module`` is a module or a package under ``root/src``."""
    base = root / "src" / Path(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def test_the_page_names_paths_and_modules() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert "src/raspisnoy/server/services/tables/hub.py" in named_paths(text)
    assert "raspisnoy.server.wire.answers" in named_modules(text)


def test_every_path_named_exists() -> None:
    missing = sorted(
        p for p in named_paths(PAGE.read_text(encoding="utf-8")) if not (ROOT / p).exists()
    )
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_every_module_named_exists() -> None:
    modules = named_modules(PAGE.read_text(encoding="utf-8"))
    missing = sorted(module for module in modules if not module_exists(module))
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def test_a_name_that_does_not_exist_is_found_missing() -> None:
    text = "see `src/raspisnoy/server/actor.py` and `raspisnoy.server.hub`."
    assert named_paths(text) == {"src/raspisnoy/server/actor.py"}
    assert named_modules(text) == {"raspisnoy.server.hub"}
    assert not (ROOT / "src/raspisnoy/server/actor.py").exists()
    assert not module_exists("raspisnoy.server.hub")
    assert module_exists("raspisnoy.server.services.tables")
