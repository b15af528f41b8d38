"""Offline play (docs/offline.md): its files, and offline games brought to the history.

The files: Pyodide's, which ``scripts/bootstrap``
installs with npm into ``.offline/`` (never committed), the bundle of raspisnoy's pure
modules that the browser's worker runs, zipped from the package's own files, and the
engine's memory snapshot of these very files, which ``scripts/bootstrap`` makes with Node
(``make_snapshot``), so that a device's first offline game restores it instead of
starting Python.

A server without Pyodide's files still runs online; ``status`` says offline play is not
installed, and the pages say so."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from raspisnoy.core import InvalidInputError
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.offline import OFFLINE_BOTS, LocalTable
from raspisnoy.server.services.results import Results
from raspisnoy.server.services.threads import in_thread
from raspisnoy.store import NotFoundError, Store, TableRow, UserRow
from raspisnoy.store.offline_games import GAME_ID_LENGTH, OfflineGameIn, OfflineGamesRepository

__all__ = [
    "BUNDLE_FILES",
    "OFFLINE_PATHS",
    "PYODIDE_FILES",
    "OfflineFiles",
    "OfflineGames",
    "default_pyodide_dir",
    "make_snapshot",
]

#: Pyodide's files that the worker loads (all of them: nothing comes from a CDN).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: Offline play's files as the page and its service worker fetch them, one set that is
#: kept whole (``status``'s ``files``; routes/offline.py serves each): the status first,
#: which names the versions of the others.
OFFLINE_PATHS = (
    "/offline/status",
    "/offline/raspisnoy.zip",
    *(f"/offline/pyodide/{name}" for name in PYODIDE_FILES),
)
#: The ``raspisnoy`` package's folder (``server/services/`` is two below it).
_PACKAGE = Path(__file__).resolve().parents[2]
#: What the workers' Python needs, relative to the package's folder: the rules, the pure
#: bots, the socket's message shapes, the offline table and the scorekeeper (with the
#: file writer its sheet module imports, standard library only). Folders
#: whose ``__init__`` would pull in the server's or Numba's imports (``bots``,
#: ``server/wire``) are shipped without it, as namespace packages.
BUNDLE_FILES = (
    "__init__.py",
    "files.py",
    "core/*.py",
    "bots/base.py",
    "bots/beginner.py",
    "bots/heuristic.py",
    "bots/knowledge.py",
    "bots/random_bot.py",
    "bots/tactics.py",
    "server/__init__.py",
    "server/offline.py",
    "server/wire/messages.py",
    "scorekeeper/__init__.py",
    "scorekeeper/errors.py",
    "scorekeeper/page.py",
    "scorekeeper/sheet.py",
    "scorekeeper/sheetfile.py",
)


#: The checkout's folder of offline play's installed files (ignored by git).
_INSTALLED = _PACKAGE.parents[1] / ".offline"
#: The Node script that makes the engine's snapshot as the browser's worker would.
_SNAPSHOT_SCRIPT = _PACKAGE.parents[1] / "scripts" / "engine_snapshot.mjs"
#: The longest a snapshot's making may take (Python's start and imports under Node).
_SNAPSHOT_SECONDS = 600


def default_pyodide_dir() -> Path:
    """Where ``scripts/bootstrap`` installs Pyodide: the checkout's ``.offline`` folder."""
    return _INSTALLED / "node_modules" / "pyodide"


class OfflineFiles:
    """Pyodide's folder (``None`` or missing: offline play not installed), the bundle, and
    the engine's snapshot made at install time (in ``snapshot_dir``), if there is one."""

    def __init__(
        self, pyodide_dir: Path | None, *, prepare: bool = True, snapshot_dir: Path | None = None
    ) -> None:
        self.pyodide_dir = pyodide_dir
        self.prepare = prepare
        self.snapshot_dir = snapshot_dir or _INSTALLED / "snapshots"

    @property
    def installed(self) -> bool:
        folder = self.pyodide_dir
        return folder is not None and all((folder / name).is_file() for name in PYODIDE_FILES)

    def pyodide_file(self, name: str) -> Path | None:
        """One of ``PYODIDE_FILES``, if installed; ``None`` for any other name."""
        if name not in PYODIDE_FILES or not self.installed or self.pyodide_dir is None:
            return None
        return self.pyodide_dir / name

    @cached_property
    def bundle(self) -> bytes:
        """The zip of ``BUNDLE_FILES`` under ``raspisnoy/``, made once (same bytes for the
        same sources: fixed dates, sorted names, so its hash names its version)."""
        paths = sorted({path for pattern in BUNDLE_FILES for path in _PACKAGE.glob(pattern)})
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in paths:
                name = f"raspisnoy/{path.relative_to(_PACKAGE).as_posix()}"
                archive.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), path.read_bytes())
        return buffer.getvalue()

    @property
    def version(self) -> str | None:
        """Pyodide's version (its ``package.json``), if installed."""
        if not self.installed or self.pyodide_dir is None:
            return None
        package = self.pyodide_dir / "package.json"
        version = json.loads(package.read_text()).get("version") if package.is_file() else None
        return version if isinstance(version, str) else None

    @cached_property
    def bundle_hash(self) -> str:
        """The start of the bundle's SHA-256, which names its version (and its snapshot's)."""
        return hashlib.sha256(self.bundle).hexdigest()[:16]

    @property
    def snapshot_path(self) -> str | None:
        """The address of the engine's snapshot of these files: the name the page keeps
        its own under (``snapshotKey`` in offline_engine.js). None if not installed."""
        version = self.version
        return None if version is None else f"/offline/snapshot/{version}/{self.bundle_hash}"

    @property
    def snapshot_target(self) -> Path | None:
        """Where the install-time snapshot of these files is (or would be) kept, gzipped."""
        version = self.version
        return None if version is None else self.snapshot_dir / f"{version}-{self.bundle_hash}.gz"

    def snapshot_file(self) -> Path | None:
        """The install-time snapshot of these very files, if it was made."""
        target = self.snapshot_target
        return target if target is not None and target.is_file() else None

    def status(self) -> dict[str, object]:
        """Whether offline play is installed, Pyodide's version and the bundle's: what the
        page and its service worker check to know what to keep (docs/offline.md); and
        the bots that run offline, for the offline new-table form; and whether pages make
        the engine ready in the background (``ServerSettings.offline_prepare``), which
        the install-time snapshot's address (``snapshot``, kept by the service worker
        with the files) is part of; and the files to keep (``files``, ``OFFLINE_PATHS``),
        so that the page and the service worker read one list."""
        prepare = self.installed and self.prepare
        return {
            "installed": self.installed,
            "pyodide": self.version,
            "bundle": self.bundle_hash if self.installed else None,
            "bots": list(OFFLINE_BOTS),
            "prepare": prepare,
            "snapshot": self.snapshot_path if prepare and self.snapshot_file() else None,
            "files": list(OFFLINE_PATHS) if self.installed else [],
        }


def make_snapshot(files: OfflineFiles) -> Path | None:
    """The engine's snapshot of ``files`` made at install time (``scripts/bootstrap``),
    unless it is there already: Node runs Pyodide as the browser's worker starts it
    (``scripts/engine_snapshot.mjs``, offline_engine.js's ``startPython``), and the
    snapshot is kept gzipped, replacing those of other files. None where it cannot be
    made (offline play not installed, no Node): the first offline start then makes it on
    the device, as before."""
    target, node = files.snapshot_target, shutil.which("node")
    if target is None or files.pyodide_dir is None or node is None:
        return None
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        bundle, made = Path(folder) / "bundle.zip", Path(folder) / "snapshot"
        bundle.write_bytes(files.bundle)
        script = [node, str(_SNAPSHOT_SCRIPT), str(files.pyodide_dir), str(bundle), str(made)]
        subprocess.run(script, check=True, timeout=_SNAPSHOT_SECONDS)
        partial = target.with_suffix(".part")
        with made.open("rb") as source, gzip.open(partial, "wb", compresslevel=9) as kept:
            shutil.copyfileobj(source, kept)
        partial.replace(target)
    for old in target.parent.glob("*.gz"):
        if old != target:
            old.unlink()
    return target


class OfflineGames:
    """Offline games brought to the player's history (``upload``): checked by replaying
    them (``LocalTable.load`` deals from the seed and applies every action by the
    rules), stored as a finished, unrated, private table of the player and bots, once
    per player and game however often it is uploaded (``OfflineGamesRepository``)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._games = OfflineGamesRepository(store)
        self._results = Results(store)

    async def upload(self, user: UserRow, save: Mapping[str, Any]) -> TableRow:
        """The finished game ``save`` (``LocalTable.save``'s) in ``user``'s history, or
        the table it was stored as before; ``offline_game_invalid`` if it does not
        replay, ``offline_game_not_over`` if it is unfinished: nothing is stored then."""
        try:
            table = LocalTable.load(save)
        except InvalidInputError as error:
            raise RequestError(Refusal.OFFLINE_GAME_INVALID, str(error)) from None
        if len(table.id) > GAME_ID_LENGTH:
            raise RequestError(Refusal.OFFLINE_GAME_INVALID, "the game's id is too long")
        if not table.game.is_over:
            raise RequestError(Refusal.OFFLINE_GAME_NOT_OVER, "the offline game is not over")
        stored = OfflineGameIn(
            game_id=table.id,
            rules=table.settings["rules"],
            bots=tuple(table.bots),
            bot_delay_ms=table.bot_delay_ms,
            seed=table.seed,
            names=(user.nickname, *table.game.names[1:]),
            first_dealer=table.first_dealer,
            actions=tuple(table.actions),
        )
        try:
            table_id, _ = await in_thread(self._games.store, user.id, stored)
        except NotFoundError:  # the account was deleted meanwhile
            raise RequestError(Refusal.NOT_FOUND, f"no user {user.id!r}") from None
        row = await in_thread(self._store.get_table, table_id)
        # again for a game stored before: a worker killed before its results left none
        await self._results.finish(row, table.game)
        return await in_thread(self._store.get_table, table_id)
