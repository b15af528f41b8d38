"""The set of 500 puzzles the tests check (docs/review.md, "Puzzles"), built by
``raspisnoy puzzles generate`` itself, once: kept under ``build/puzzle-sets/`` (ignored
by git) in a file named by a digest of the generator's code (the ``raspisnoy.puzzles``,
``raspisnoy.review`` and ``raspisnoy.bots`` packages and the rules engine) and its
options, so a change to any of them builds it again and an unchanged checkout reuses it.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from typer.testing import CliRunner

import raspisnoy
from raspisnoy.cli import app

#: The set: how many puzzles, from which seed (the defaults of every other option).
COUNT, SEED = 500, "0"
ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "puzzle-sets"
#: The packages whose code decides the set.
GENERATOR = ("puzzles", "review", "bots", "core")


def generator_digest() -> str:
    """A digest of the generator's code and this set's options."""
    package = Path(raspisnoy.__file__).parent
    digest = hashlib.sha256(f"count={COUNT} seed={SEED}".encode())
    for part in GENERATOR:
        for path in sorted((package / part).rglob("*.py")):
            digest.update(str(path.relative_to(package)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def puzzle_set() -> tuple[Path, float | None]:
    """The set's file and, when it was built now rather than found, the CPU seconds its
    building took (this process's)."""
    path = CACHE / f"puzzles-{SEED}-{COUNT}-{generator_digest()}.json"
    if path.exists():
        return path, None
    CACHE.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(f".{os.getpid()}.part")
    started = time.process_time()
    result = CliRunner().invoke(
        app, ["puzzles", "generate", "--count", str(COUNT), "--seed", SEED, "--out", str(part)]
    )
    assert result.exit_code == 0, result.output
    cpu = time.process_time() - started
    part.replace(path)  # whole or not at all, even with two test workers building it
    return path, cpu
