"""A database failure made on purpose: the first statement of a kind that an engine
runs fails as a dropped connection would (``OperationalError``), so a test can check
what a failed transaction leaves behind and that trying again stores it once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError


@contextmanager
def first_statement_fails(engine: Engine, starting: str) -> Iterator[list[str]]:
    """Inside, the first statement of ``engine`` that starts with ``starting`` (compared
    in capitals, e.g. ``"INSERT INTO GAME_RESULTS"``) fails; the list yielded holds it
    once it has."""
    failed: list[str] = []

    def fail_the_first(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith(starting) and not failed:
            failed.append(statement)
            raise OperationalError(statement, None, Exception("injected: the connection dropped"))

    event.listen(engine, "before_cursor_execute", fail_the_first)
    try:
        yield failed
    finally:
        event.remove(engine, "before_cursor_execute", fail_the_first)
