"""What every ``raspisnoy`` subcommand shares: the one-line error convention, JSON output,
rules from ``--rules``/``--set``, command groups whose commands are imported only when
one runs (``LazyGroup``), parameters read without Pydantic (``coerce_plain_values``), the
help of every command and option in the system's language (``cli_help``) and the person's
language from ``--lang`` (``chosen_language``) and a file system's error in it
(``file_error``).

Every expected failure ends with one line ``error: ...`` on standard error and exit
status 1; nothing else is printed then, and never a traceback.
"""

from __future__ import annotations

import errno
import importlib
import json
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, NoReturn, TypeVar, get_args, get_origin

import typer
import typer.core
import typer.main
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer._param_types import coerce_cli_path

if TYPE_CHECKING:
    from raspisnoy.core import Rules

__all__ = [
    "DataDir",
    "DatabaseUrl",
    "LangOption",
    "LazyCommand",
    "LazyGroup",
    "PlainRuntimeParam",
    "SetOption",
    "chosen_language",
    "cli_help",
    "coerce_plain_values",
    "escape_markup",
    "fail",
    "file_error",
    "guarded",
    "help_without_command",
    "print_json",
    "rules_from",
]

_T = TypeVar("_T")


def cli_help(key: str) -> str:
    """The help text ``cli.<key>`` of a command, an option or an argument, in the system's
    language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``detect_language``), English where
    it names another: ``--help`` is shown before ``--lang`` is read, so the environment
    decides. The command modules word their help with it when they are imported, and
    ``LazyCommand`` the summaries a group lists without importing them.

    The texts are the ``cli`` catalog (``i18n/<lang>/cli.json``), read alone: every
    command's start reads it, and merging every catalog (``raspisnoy.i18n.catalog``, the
    browser's ``web.json`` included) would cost each start more than its help does. A
    text the language lacks is the English one, else the key, as ``translate`` falls back.
    """
    from raspisnoy.i18n import DEFAULT_LANGUAGE, detect_language

    name = f"cli.{key}"
    return _help_texts(detect_language()).get(name) or _help_texts(DEFAULT_LANGUAGE).get(name, name)


@cache
def _help_texts(lang: str) -> Mapping[str, str]:
    """The ``cli`` catalog of ``lang``, one of ``raspisnoy.i18n.LANGUAGES``."""
    from raspisnoy import i18n

    path = Path(i18n.__file__).parent / lang / "cli.json"
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return texts


#: ``--data-dir`` and ``--database-url`` of the commands that open the server's database
#: (found from them as ``raspisnoy serve`` finds it).
DataDir = Annotated[
    Path | None,
    typer.Option(help=cli_help("option.data-dir"), envvar="RASPISNOY_DATA_DIR"),
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(help=cli_help("option.database-url"), envvar="RASPISNOY_DATABASE_URL"),
]


#: ``--lang`` of a command that prints for a person (``chosen_language`` reads it).
LangOption = Annotated[str | None, typer.Option("--lang", help=cli_help("option.lang"))]
#: ``--set OPTION=VALUE`` of a command that takes a ruleset (``rules_from`` reads it).
SetOption = Annotated[list[str] | None, typer.Option("--set", help=cli_help("option.set"))]


def chosen_language(lang: str | None) -> str:
    """The language ``--lang`` names, the system's where none is given (``LANG``…); an
    unknown one fails, said in the system's language."""
    from raspisnoy.i18n import LANGUAGES, detect_language, translate

    system = detect_language()
    if lang is None:
        return system
    if lang not in LANGUAGES:
        fail(translate("lang.unknown", system, lang=lang, langs=", ".join(LANGUAGES)))
    return lang


def fail(message: str) -> NoReturn:
    """Print one ``error:`` line on standard error and exit 1."""
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(1)


def help_without_command(context: typer.Context) -> None:
    """A command group called without a command shows its help."""
    if context.invoked_subcommand is None:
        sys.stdout.write(context.get_help() + "\n")
        raise typer.Exit()


def guarded(action: Callable[[], _T], language: str | None = None) -> _T:
    """Run ``action``, turning the engine's and the file system's errors into ``fail``:
    in ``language`` for a command a person reads (``translate_error``, ``file_error``), in
    English without one, as the error lines of the contract's commands are (docs/record.md).
    (The rules are imported here and in ``rules_from``, not with the module: the command
    line's own ``--help`` and ``--version`` need none of them.)"""
    from raspisnoy.core import RaspisnoyError
    from raspisnoy.i18n import translate, translate_error

    try:
        return action()
    except RaspisnoyError as error:
        fail(str(error) if language is None else translate_error(error, language))
    except OSError as error:
        fail(file_error(error, language))
    except UnicodeDecodeError:
        fail("the input is not UTF-8 text" if language is None else translate("not_utf8", language))


#: The file system's errors a person meets, by ``errno``, and their ``file.error.<key>``
#: messages (``common.json``); any other is ``file.error.general``, with the C library's text.
_FILE_ERRORS = {
    errno.ENOENT: "not_found",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.EISDIR: "is_folder",
    errno.ENOTDIR: "not_folder",
    errno.ENOSPC: "no_space",
    errno.EROFS: "read_only",
    errno.EEXIST: "exists",
}


def file_error(error: OSError, language: str | None, *, named: bool = True) -> str:
    """What went wrong with a file, ``FILE: problem``: in ``language`` for a person, from
    ``file.error.<key>`` by the error's ``errno`` (any other keeps the C library's words,
    ``strerror``, in a sentence of the language); without one, the C library's English as
    it is (``FILE: No such file or directory``), as the contract's error lines are
    (docs/record.md). ``named=False``: the problem alone, for a message that names the file
    itself (a save writes a temporary file beside it, which the error would name)."""
    if language is None:
        return f"{error.filename}: {error.strerror}" if named else str(error.strerror)
    from raspisnoy.i18n import translate

    reason = error.strerror or str(error)
    key = _FILE_ERRORS.get(error.errno) if error.errno is not None else None
    problem = translate(f"file.error.{key or 'general'}", language, reason=reason)
    if not named or error.filename is None:
        return problem
    return translate("file.error", language, path=error.filename, problem=problem)


def escape_markup(text: str) -> str:
    """``text`` shown by Rich as itself, never read as markup. Rich is imported only by
    the commands that print with it, so their ``--json`` forms (a public contract, read by
    scripts) start without it."""
    from rich.markup import escape

    return escape(text)


def print_json(data: Any) -> None:
    """One JSON document on standard output, in UTF-8 (names not escaped) whatever the
    terminal's encoding: the contracts (RECORD.md, CASINO.md §3) promise UTF-8 JSON, and
    a cp1251 or latin-1 console would otherwise get other bytes or fail on a name."""
    text = json.dumps(data, ensure_ascii=False) + "\n"
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # a text-only stream (a capture in tests) takes the text itself
        sys.stdout.write(text)
        return
    sys.stdout.flush()  # what was written as text before goes first
    binary.write(text.encode("utf-8"))
    binary.flush()


def rules_from(name: str, settings: list[str]) -> Rules:
    """The rules of preset ``name`` with ``--set OPTION=VALUE`` overrides."""
    from raspisnoy.core import RaspisnoyError, parse_option_value, resolve_rules

    overrides: dict[str, Any] = {}
    for setting in settings:
        option, sep, value = setting.partition("=")
        if not sep:
            raise RaspisnoyError(
                f"an option setting is OPTION=VALUE, not {setting!r}",
                code="setting_syntax",
                params={"setting": setting},
            )
        overrides[option.strip()] = parse_option_value(option.strip(), value)
    return resolve_rules(name, **overrides)


@dataclass(frozen=True, slots=True)
class LazyCommand:
    """A command known by where it lives, imported when it runs.

    ``target`` is ``module:attribute``, a Typer app (a command group) or a command
    function; ``help`` is the key of its help text (``cli_help``): a function's help, and
    the summary the group's ``--help`` lists without importing the module, its first
    paragraph. A group's module words its own help (``typer.Typer(help=cli_help(...))``)
    with the same key (``tests/test_cli_start.py`` checks that each summary is the
    command's own)."""

    target: str
    help: str

    @property
    def summary(self) -> str:
        """The first paragraph of the command's help, in the system's language."""
        return cli_help(self.help).split("\n\n")[0]

    def load(self, name: str) -> typer.core.TyperGroup | typer.core.TyperCommand:
        """Import the command and build it as ``add_typer``/``command`` would have."""
        module, _, attribute = self.target.partition(":")
        found = getattr(importlib.import_module(module), attribute)
        if isinstance(found, typer.Typer):
            group = typer.main.get_group(found)
            group.name = name
            return group
        single = typer.Typer(add_completion=False)
        single.command(name, help=cli_help(self.help))(found)
        command = typer.main.get_command(single)
        assert isinstance(command, typer.core.TyperCommand)
        return command


class _Unloaded(typer.core.TyperCommand):
    """What a group holds for a lazy command until it runs: its name and summary, for the
    group's help and its "did you mean" suggestions."""


class LazyGroup(typer.core.TyperGroup):
    """A command group (``typer.Typer(cls=...)``, Typer's documented way to give an app
    its own Click group class) that imports a command's module only when that command
    runs, so that each command pays only for what it uses.

    A subclass names its commands in ``lazy``, listed before those registered on the app
    itself, in that order. Until a command runs the group holds a stand-in with its
    summary, so ``--help`` lists every command with its help text and imports none."""

    lazy: ClassVar[Mapping[str, LazyCommand]] = {}

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        stand_ins = {
            name: _Unloaded(name=name, help=lazy.summary) for name, lazy in self.lazy.items()
        }
        self.commands = {**stand_ins, **self.commands}

    # Typed loosely: the Click classes Typer passes are its own (vendored, not public).
    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        """Load the command about to run (Click resolves a command only to run it)."""
        if args and isinstance(self.commands.get(args[0]), _Unloaded):
            self.commands[args[0]] = self.lazy[args[0]].load(args[0])
        return super().resolve_command(ctx, args)


#: A whole number written as Python writes it (no sign but ``-``, no leading zero, no
#: ``_``, at most 18 digits): Pydantic reads it as ``int`` does.
_PLAIN_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
#: What ``PlainRuntimeParam`` returns for a value it leaves to Typer's own coercion.
_TYPERS = object()


@dataclass(frozen=True)
class PlainRuntimeParam(RuntimeParam):
    """Typer's coercion of one parameter's value, without Pydantic where Pydantic would
    change nothing.

    Typer (0.29) reads every parameter's value through a Pydantic ``TypeAdapter``, even
    the help option's (built when the command runs, whatever the command line holds);
    importing Pydantic for it costs a command more CPU than importing Typer itself
    (docs/architecture.md has the figures). The values the commands get are
    plain: a flag's ``bool``, a ``str``, a whole number, a path, a list of these. This
    returns them as Typer's coercion does and hands every other value, and every value
    its checks refuse, to Typer's own coercion, so unusual types and every error message
    are Typer's (``tests/test_cli_plain_values.py`` checks both against Typer's coercion
    with generated values)."""

    descriptor: TypeDescriptor

    @cached_property
    def _typers(self) -> RuntimeParam:
        """Typer's own coercion, built (with Pydantic) only for a value that needs it."""
        return build_runtime_param(self.descriptor)

    # Typed loosely: the Click classes Typer passes are its own (vendored, not public).
    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        plain = self._plain(value, param, ctx)
        if plain is _TYPERS:
            return self._typers._coerce_value(value, param=param, ctx=ctx)
        return plain

    def _plain(self, value: Any, param: Any, ctx: Any) -> Any:
        """``value`` coerced to the annotation, or ``_TYPERS``."""
        if self.parameter_info.parser is not None:
            return _TYPERS
        annotation: Any = self.annotation
        if get_origin(annotation) is list:
            (item_type,) = get_args(annotation)
            if not isinstance(value, (list, tuple)):
                return _TYPERS
            items = [self._plain_item(item_type, item, param, ctx) for item in value]
            return _TYPERS if _TYPERS in items else items
        return self._plain_item(annotation, value, param, ctx)

    def _plain_item(self, annotation: Any, value: Any, param: Any, ctx: Any) -> Any:
        """One value of type ``annotation``: unchanged if it has that type already, a
        plain whole number read, a path checked by Typer; else ``_TYPERS``."""
        info = self.parameter_info
        if annotation in (bool, str) and type(value) is annotation:
            return value
        if annotation is int and info.min is None and info.max is None:
            if type(value) is int:
                return value
            if type(value) is str and _PLAIN_INT.fullmatch(value):
                return int(value)
        if annotation is Path and info.path_type is None and type(value) is str:
            try:  # Typer's own checks (exists, readable…), given the path made as Pydantic does
                return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
            except (typer.BadParameter, ValueError):  # ValueError: a NUL in the path
                return _TYPERS  # Typer's coercion words the refusal (with the path as typed)
        return _TYPERS


def _plain_runtime_param(self: typer.core._TyperParameter) -> RuntimeParam:
    """``_TyperParameter.get_runtime_param`` with ``PlainRuntimeParam`` (Typer's own for a
    file parameter, which Typer opens without Pydantic)."""
    if self._runtime_param is None:
        descriptor = self.type_descriptor
        self._runtime_param = (
            build_runtime_param(descriptor)
            if descriptor.file_annotation is not None
            else PlainRuntimeParam(descriptor.parameter_info, descriptor.annotation, descriptor)
        )
    return self._runtime_param


def coerce_plain_values() -> None:
    """Make every Typer parameter of this process read its plain values without Pydantic
    (``PlainRuntimeParam``): ``raspisnoy``'s entry point calls it before it builds the
    command line. Typer has no setting for it: this replaces the one method through which
    Typer builds a parameter's coercion on first use (``get_runtime_param``)."""
    typer.core._TyperParameter.get_runtime_param = _plain_runtime_param  # type: ignore[method-assign]
