"""What every ``raspisnoy`` subcommand shares: the one-line error convention, JSON output
and rules from ``--rules``/``--set``.

Every expected failure ends with one line ``error: ...`` on standard error and exit
status 1; nothing else is printed then, and never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import typer

from raspisnoy.core import RaspisnoyError, Rules, parse_option_value, resolve_rules

__all__ = ["fail", "guarded", "help_without_command", "print_json", "rules_from"]

_T = TypeVar("_T")


def fail(message: str) -> NoReturn:
    """Print one ``error:`` line on standard error and exit 1."""
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(1)


def help_without_command(context: typer.Context) -> None:
    """A command group called without a command shows its help."""
    if context.invoked_subcommand is None:
        sys.stdout.write(context.get_help() + "\n")
        raise typer.Exit()


def guarded(action: Callable[[], _T]) -> _T:
    """Run ``action``, turning the engine's and the file system's errors into ``fail``."""
    try:
        return action()
    except RaspisnoyError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{error.filename}: {error.strerror}")
    except UnicodeDecodeError:
        fail("the input is not UTF-8 text")


def print_json(data: Any) -> None:
    """One JSON document on standard output (UTF-8, not escaped)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def rules_from(name: str, settings: list[str]) -> Rules:
    """The rules of preset ``name`` with ``--set OPTION=VALUE`` overrides."""
    overrides: dict[str, Any] = {}
    for setting in settings:
        option, sep, value = setting.partition("=")
        if not sep:
            raise RaspisnoyError(f"an option setting is OPTION=VALUE, not {setting!r}")
        overrides[option.strip()] = parse_option_value(option.strip(), value)
    return resolve_rules(name, **overrides)
