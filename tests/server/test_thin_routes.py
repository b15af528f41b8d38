"""The routes reach everything through ``Services`` (issue 26, item 1): no route module
makes a repository of the store or runs blocking work on a thread of its own; blocking
work goes through the one helper, ``services.threads.in_thread``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import raspisnoy.server.routes as routes

#: The store's repositories: ``Services`` makes each once.
REPOSITORIES = {"Players", "Reviews", "Together", "CasinoStore", "Store"} | {"Moderation"}
#: Ways to run blocking work other than ``in_thread``.
THREADS = {"run", "to_thread", "run_in_executor"}

ROUTE_MODULES = sorted(Path(routes.__file__).parent.glob("*.py"))


def offences(source: str) -> list[str]:
    """The calls of ``source`` that make a repository or bypass ``in_thread``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if isinstance(function, ast.Name) and function.id in REPOSITORIES:
            found.append(f"{function.id}(...)")
        elif isinstance(function, ast.Attribute) and function.attr in THREADS:
            found.append(f"{ast.unparse(function)}(...)")
    return found


@pytest.mark.parametrize("module", ROUTE_MODULES, ids=lambda path: path.name)
def test_routes_reach_everything_through_services(module: Path) -> None:
    assert offences(module.read_text()) == []


def test_the_check_finds_what_it_forbids() -> None:
    source = "async def f(hub, store):\n    await hub.run(Together(store).chat_of, 1)\n"
    assert offences(source) == ["hub.run(...)", "Together(...)"]
