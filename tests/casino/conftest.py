"""The casino tests' fixture: the command line run in-process; and the benchmarks
(``benchmarks/casino_*.py``) importable, for the tests of their resumable runs."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from casino_helpers import Result

from raspisnoy.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Result]:
    """Run ``raspisnoy ARGS`` through the real entry point (``raspisnoy.cli.main``) in this
    process, with ``stdin`` as standard input; return its exit status and output."""

    def run(*args: str, stdin: str = "") -> Result:
        monkeypatch.setattr(sys, "argv", ["raspisnoy", *args])
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        capsys.readouterr()
        try:
            main()
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else 1
        else:
            status = 0
        out = capsys.readouterr()
        return Result(status, out.out, out.err)

    return run
