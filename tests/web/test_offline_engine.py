"""The engine in the browser is the server's: Pyodide (under Node, as the page's worker
loads it: restored from the memory snapshot of a first start) replays the record
fixtures to the server's reports, and plays the same games with the same bots, move for
move, as CPython does (docs/offline.md). Each start from one snapshot draws anew, and a
damaged snapshot only means a fresh start."""

from __future__ import annotations

import io
import json
import os
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


def run_in_pyodide(
    bundle_zip: Path, script: Path = HERE / "engine_agrees.py", *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """``script`` run by run_in_pyodide.mjs (``env``: its RESTORES, DAMAGED)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("no node: the browser's engine is checked under Node (README: requirements)")
    pyodide = default_pyodide_dir()
    if not OfflineFiles(pyodide).installed:
        pytest.fail("Pyodide is not in .offline/: run scripts/bootstrap (it needs npm)")
    return subprocess.run(
        [node, str(HERE / "run_in_pyodide.mjs"), str(pyodide), str(bundle_zip), str(script), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
        env={**os.environ, **env},
    )


def starts(run: subprocess.CompletedProcess[str]) -> list[bool]:
    """Whether each start of the engine in ``run`` was restored from the snapshot."""
    lines = [line for line in run.stderr.splitlines() if line.startswith('{"restored"')]
    return [json.loads(line)["restored"] for line in lines]


def output(run: subprocess.CompletedProcess[str]) -> list[Any]:
    return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


def test_pyodide_replays_the_records_and_plays_as_the_server_does(tmp_path: Path) -> None:
    bundle = OfflineFiles(None).bundle
    (tmp_path / "bundle.zip").write_bytes(bundle)
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        archive.extractall(tmp_path / "bundle")
    run = run_in_pyodide(tmp_path / "bundle.zip", HERE / "engine_agrees.py", jobs())
    assert starts(run) == [True]
    browser = output(run)[-1]
    server = run_in_cpython(tmp_path / "bundle")
    expected = json.loads((DATA / "record-example.report.json").read_text(encoding="utf-8"))
    assert browser["reports"] == server["reports"] == [expected]
    assert len(browser["games"]) == len(GAMES)
    for game, mine, theirs in zip(GAMES, browser["games"], server["games"], strict=True):
        assert mine == theirs, game
        assert mine["report"]["complete"] is True


#: A new game's id and seed, and a draw of the random module, as JSON.
DRAWS = """import json, random
from raspisnoy.server.offline import LocalTable
table = LocalTable.new({"rules": "classic", "players": 3, "bots": "heuristic"}, "A")
print(json.dumps({"id": table.id, "seed": table.seed, "random": random.random()}))
"""


def test_each_start_from_one_snapshot_deals_anew(tmp_path: Path) -> None:
    """The snapshot holds the interpreter's memory, the random module's state with it: two
    starts from it must not make the same games."""
    (tmp_path / "bundle.zip").write_bytes(OfflineFiles(None).bundle)
    (tmp_path / "draws.py").write_text(DRAWS, encoding="utf-8")
    run = run_in_pyodide(tmp_path / "bundle.zip", tmp_path / "draws.py", RESTORES="2")
    assert starts(run) == [True, True]
    first, second = output(run)
    assert first["id"] != second["id"] and first["seed"] != second["seed"]
    assert first["random"] != second["random"]


def test_a_damaged_snapshot_starts_the_engine_afresh(tmp_path: Path) -> None:
    (tmp_path / "bundle.zip").write_bytes(OfflineFiles(None).bundle)
    (tmp_path / "draws.py").write_text(DRAWS, encoding="utf-8")
    run = run_in_pyodide(tmp_path / "bundle.zip", tmp_path / "draws.py", DAMAGED="1")
    assert starts(run) == [False]
    assert output(run)[0]["id"].startswith("local-")
