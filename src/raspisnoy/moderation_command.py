"""``raspisnoy moderators grant NAME`` / ``revoke NAME`` / ``list``: who may moderate
(docs/moderation.md, docs/operations.md). The role is given only here, by whoever runs
the server, never through the server itself. The database is found as ``raspisnoy
serve`` finds it, and brought up to date first. In the command layer, beside the other
commands; it imports the store and the server's settings only when a command runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from raspisnoy.cli_support import DatabaseUrl, DataDir, cli_help, fail, help_without_command

if TYPE_CHECKING:
    from raspisnoy.store import Moderation

__all__ = ["moderators_app"]

_T = TypeVar("_T")

moderators_app = typer.Typer(help=cli_help("moderators"), add_completion=False)


@moderators_app.callback(invoke_without_command=True)
def _moderators(context: typer.Context) -> None:
    """Without a command: the help, exit 0, as ``raspisnoy rules`` (Typer's
    ``no_args_is_help`` printed it, then an empty ``error:`` line, and exited 2)."""
    help_without_command(context)


Name = Annotated[str, typer.Argument(help=cli_help("moderators.name"))]


@contextmanager
def _moderation(data_dir: Path | None, database_url: str | None) -> Iterator[Moderation]:
    """The moderators of the server's database; a store failure is one ``error:`` line."""
    from raspisnoy.server.config import ServerSettings
    from raspisnoy.store import Moderation, Store, StoreError

    given: dict[str, Any] = {"data_dir": data_dir, "database_url": database_url}
    settings = ServerSettings(**{name: value for name, value in given.items() if value})
    try:
        store = Store.open(settings.database())
    except StoreError as error:
        fail(str(error))
    try:
        yield Moderation(store)
    finally:
        store.close()


def _run(call: Callable[[], _T]) -> _T:
    """``call()``; an unknown account or a store failure is one ``error:`` line."""
    from raspisnoy.store import StoreError

    try:
        return call()
    except StoreError as error:
        fail(str(error))


@moderators_app.command("grant", help=cli_help("moderators.grant"))
def grant(name: Name, data_dir: DataDir = None, database_url: DatabaseUrl = None) -> None:
    with _moderation(data_dir, database_url) as moderation:
        user = _run(lambda: moderation.grant(name))
    sys.stdout.write(f"{name} ({user.id}) is a moderator\n")


@moderators_app.command("revoke", help=cli_help("moderators.revoke"))
def revoke(name: Name, data_dir: DataDir = None, database_url: DatabaseUrl = None) -> None:
    with _moderation(data_dir, database_url) as moderation:
        had = _run(lambda: moderation.revoke(name))
    sys.stdout.write(f"{name} is no longer a moderator\n" if had else f"{name} was no moderator\n")


@moderators_app.command("list", help=cli_help("moderators.list"))
def list_moderators(data_dir: DataDir = None, database_url: DatabaseUrl = None) -> None:
    with _moderation(data_dir, database_url) as moderation:
        rows = _run(moderation.moderators)
    for row in rows:
        sys.stdout.write(f"{row.username}\t{row.user.id}\t{row.granted_at.isoformat()}\n")
