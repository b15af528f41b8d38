"""The engine in the browser is the server's: Pyodide (under Node, as the page's worker
loads it) replays the record fixtures to the server's reports, and plays the same games
with the same bots, move for move, as CPython does (docs/offline.md)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from raspisnoy.core import PRESETS
from raspisnoy.server.services.offline import OfflineFiles, default_pyodide_dir

HERE = Path(__file__).parent
DATA = HERE.parent / "data"
#: One game of every preset at four players, with each offline bot.
GAMES = [
    {
        "settings": {"rules": preset, "players": 4, "bots": bot},
        "seed": f"{preset}/{bot}",
    }
    for preset in sorted(PRESETS)
    for bot in ("random", "beginner", "heuristic")
]


def jobs() -> str:
    records = [(DATA / "record-example.json").read_text(encoding="utf-8")]
    return json.dumps({"records": records, "games": GAMES})


def run_in_cpython(bundle: Path) -> Any:
    source = (HERE / "engine_agrees.py").read_text(encoding="utf-8")
    script = f"import sys; sys.path.insert(0, {str(bundle)!r})\n{source}"
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script, jobs()],  # no site-packages: as Pyodide
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(run.stdout)


def run_in_pyodide(bundle_zip: Path) -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.fail("no node: the browser's engine is checked under Node (README: requirements)")
    pyodide = default_pyodide_dir()
    if not OfflineFiles(pyodide).installed:
        pytest.fail("Pyodide is not in .offline/: run scripts/bootstrap (it needs npm)")
    run = subprocess.run(
        [
            node,
            str(HERE / "run_in_pyodide.mjs"),
            str(pyodide),
            str(bundle_zip),
            str(HERE / "engine_agrees.py"),
            jobs(),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_pyodide_replays_the_records_and_plays_as_the_server_does(tmp_path: Path) -> None:
    bundle = OfflineFiles(None).bundle
    (tmp_path / "bundle.zip").write_bytes(bundle)
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        archive.extractall(tmp_path / "bundle")
    browser = run_in_pyodide(tmp_path / "bundle.zip")
    server = run_in_cpython(tmp_path / "bundle")
    expected = json.loads((DATA / "record-example.report.json").read_text(encoding="utf-8"))
    assert browser["reports"] == server["reports"] == [expected]
    assert len(browser["games"]) == len(GAMES)
    for game, mine, theirs in zip(GAMES, browser["games"], server["games"], strict=True):
        assert mine == theirs, game
        assert mine["report"]["complete"] is True
