"""Core's public face (``raspisnoy.core``) imports each name from its module on first use:
every name of ``__all__`` is the one its import (read by the type checker) names, only
those names are there, and importing the package alone imports none of its modules, so a
command pays only for the modules it uses."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import raspisnoy.core

#: Core's modules that importing the package and reading the rules catalogue imports.
PROBE = """
import sys
import raspisnoy.core
from raspisnoy.core import PRESETS
print(" ".join(sorted(m for m in sys.modules if m.startswith("raspisnoy.core."))))
"""


def declared_modules() -> dict[str, str]:
    """Each name the package's imports (under ``TYPE_CHECKING``) bring, and its module."""
    tree = ast.parse(Path(raspisnoy.core.__file__).read_text(encoding="utf-8"))
    return {
        alias.name: node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("raspisnoy")
        for alias in node.names
    }


def test_every_public_name_is_imported_for_the_type_checker() -> None:
    assert sorted(declared_modules()) == sorted(raspisnoy.core.__all__)


@pytest.mark.parametrize("name", raspisnoy.core.__all__)
def test_each_name_is_the_one_its_module_defines(name: str) -> None:
    module = importlib.import_module(declared_modules()[name])
    assert getattr(raspisnoy.core, name) is getattr(module, name)


@pytest.mark.parametrize("name", ["Gmae", "ALL_CARDS", "dataclass"])
def test_a_name_that_is_not_public_is_an_attribute_error(name: str) -> None:
    """Not even one of core's modules has (``ALL_CARDS`` is ``raspisnoy.core.fast``'s)."""
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(raspisnoy.core, name)


def test_the_rules_catalogue_loads_neither_the_game_nor_records() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()
    assert loaded == [
        "raspisnoy.core.cards",
        "raspisnoy.core.errors",
        "raspisnoy.core.kinds",
        "raspisnoy.core.rules",
    ]
