"""Core's public face (``raspisnoy.core``) imports each name from its module on first use:
every name of ``__all__`` is there and is its module's own, and importing the package
alone imports none of its modules, so a command pays only for the modules it uses."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import raspisnoy.core

#: Core's modules that the package itself imports (the package's ``__init__``: none).
PROBE = """
import sys
import raspisnoy.core
from raspisnoy.core import PRESETS
print(" ".join(sorted(m for m in sys.modules if m.startswith("raspisnoy.core."))))
"""


def test_every_name_has_a_module_and_every_module_name_is_public() -> None:
    assert sorted(raspisnoy.core._MODULE_OF) == sorted(raspisnoy.core.__all__)


@pytest.mark.parametrize("name", raspisnoy.core.__all__)
def test_each_name_is_its_modules_own(name: str) -> None:
    module = importlib.import_module(f"raspisnoy.core.{raspisnoy.core._MODULE_OF[name]}")
    assert getattr(raspisnoy.core, name) is getattr(module, name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Gmae'"):
        _ = raspisnoy.core.Gmae


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
