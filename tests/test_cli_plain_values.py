"""The command line reads its parameters' plain values without Pydantic, exactly as Typer
does with it (``raspisnoy.cli_support.PlainRuntimeParam``).

Each property gives one parameter of a Typer command a generated value, as the command
line, an environment variable or a default would, and checks that ``PlainRuntimeParam``
ends as Typer's own coercion does: the same value of the same type, or the same error
with the same message. That holds whether it reads the value itself or hands it to
Typer's coercion, so a value it reads wrongly, or an error it words otherwise, fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
import typer.core
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from typer._click import Context
from typer._coercion import build_runtime_param

from raspisnoy.cli_support import PlainRuntimeParam

# A command with a parameter of every kind the commands use, and the kinds next to them
# that Typer reads with more care (bounds, path checks), which the plain reading leaves
# to Typer.
app = typer.Typer()


@app.command()
def every_kind(
    number: int = 0,
    bounded: Annotated[int, typer.Option(min=0, max=9)] = 0,
    text: str = "",
    flag: bool = False,
    path: Path | None = None,
    existing: Annotated[Path | None, typer.Option(exists=True)] = None,
    a_file: Annotated[Path | None, typer.Option(dir_okay=False)] = None,
    a_folder: Annotated[Path | None, typer.Option(file_okay=False, resolve_path=True)] = None,
    texts: list[str] | None = None,
    numbers: list[int] | None = None,
    paths: Annotated[list[Path] | None, typer.Option(exists=True)] = None,
    given_text: Annotated[str, typer.Argument()] = "",
) -> None:
    """Every kind of parameter."""


COMMAND = typer.main.get_command(app)
PARAMETERS = {
    parameter.name: parameter
    for parameter in COMMAND.params
    if isinstance(parameter, typer.core._TyperParameter)
}
HERE = Path(__file__).parent
#: Paths that exist (a file, a folder, the file through ``..``), with spellings Path
#: changes (``./``, a trailing ``/``, ``//``), and ones that do not.
PATH_SPELLINGS = [
    str(HERE / "data" / "record-example.json"),
    str(HERE / "data"),
    f"{HERE}/data//record-example.json/",
    f"{HERE}/data/../data/",
    "./tests",
    "tests/data/",
    "",
    ".",
    "-",
    "no/such/file.json",
    "a\x00b",
]
PATH_PARAMETERS = ["path", "existing", "a_file", "a_folder"]
PATHS = st.sampled_from(PATH_SPELLINGS)
#: Whole numbers as typed, plainly or not (signs, zeros, spaces, ``_``, fractions, huge).
NUMBERS = st.one_of(
    st.integers().map(str),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.from_regex(r"\s?[+-]?[0-9_]{1,22}(\.[05]?)?\s?", fullmatch=True),
)
TEXT = st.one_of(st.text(max_size=20), NUMBERS, PATHS)


def outcome(coerce: Callable[[], Any]) -> tuple[object, ...]:
    """What one coercion ends in: its value and type, or its error's type and words."""
    try:
        value = coerce()
    except Exception as error:  # any error: the two must raise the same
        return ("error", type(error), str(error))
    items = value if isinstance(value, list) else []
    return ("value", value, type(value), [type(item) for item in items])


def assert_read_as_typer_reads(name: str, value: object) -> None:
    parameter = PARAMETERS[name]
    descriptor = parameter.type_descriptor
    plain = PlainRuntimeParam(descriptor.parameter_info, descriptor.annotation, descriptor)
    typers = build_runtime_param(descriptor)
    context = Context(COMMAND)
    assert outcome(lambda: plain.coerce(value, parameter, context)) == outcome(
        lambda: typers.coerce(value, parameter, context)
    )


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["number", "bounded", "text", "flag", "given_text"]),
    value=st.one_of(TEXT, st.integers(), st.booleans(), st.none()),
)
def test_a_single_value_is_read_as_typer_reads_it(name: str, value: object) -> None:
    assert_read_as_typer_reads(name, value)


@pytest.mark.parametrize("value", PATH_SPELLINGS)
@pytest.mark.parametrize("name", PATH_PARAMETERS)
def test_a_path_is_read_and_checked_as_typer_does(name: str, value: str) -> None:
    """Every check's refusal is worded with the path as typed, as Typer words it."""
    assert_read_as_typer_reads(name, value)


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(PATH_PARAMETERS), value=st.text(max_size=20))
def test_any_text_is_read_as_a_path_as_typer_reads_it(name: str, value: str) -> None:
    assert_read_as_typer_reads(name, value)


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["texts", "numbers", "paths"]),
    values=st.one_of(
        st.lists(TEXT, max_size=4).map(tuple), st.lists(st.integers(), max_size=3), TEXT
    ),
)
def test_a_list_is_read_as_typer_reads_it(name: str, values: object) -> None:
    assert_read_as_typer_reads(name, values)


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("number", "42", 42),
        ("number", "-7", -7),
        ("text", "raspisnoy.com", "raspisnoy.com"),
        ("flag", True, True),
        ("texts", ("a=1", "b=2"), ["a=1", "b=2"]),
        ("path", "tests/data/", Path("tests/data")),
    ],
)
def test_the_plain_values_need_no_pydantic(name: str, value: object, expected: object) -> None:
    """The values the commands get are read without Typer's coercion, which would build
    a Pydantic adapter: ``_typers`` (a cached property) is never made."""
    descriptor = PARAMETERS[name].type_descriptor
    plain = PlainRuntimeParam(descriptor.parameter_info, descriptor.annotation, descriptor)
    context = Context(COMMAND)
    assert plain.coerce(value, PARAMETERS[name], context) == expected
    assert "_typers" not in vars(plain)
