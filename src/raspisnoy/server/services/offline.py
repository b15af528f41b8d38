"""Offline play (docs/offline.md): its files, and offline games brought to the history.

The files: Pyodide's, which ``scripts/bootstrap``
installs with npm into ``.offline/`` (never committed), and the bundle of raspisnoy's
pure modules that the browser's worker runs, zipped from the package's own files.

A server without Pyodide's files still runs online; ``status`` says offline play is not
installed, and the pages say so."""

from __future__ import annotations

import hashlib
import io
import json
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
from raspisnoy.store import Store, TableRow, UserRow
from raspisnoy.store.offline_games import GAME_ID_LENGTH, OfflineGameIn, OfflineGamesRepository

__all__ = ["BUNDLE_FILES", "PYODIDE_FILES", "OfflineFiles", "OfflineGames", "default_pyodide_dir"]

#: Pyodide's files that the worker loads (all of them: nothing comes from a CDN).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The ``raspisnoy`` package's folder (``server/services/`` is two below it).
_PACKAGE = Path(__file__).resolve().parents[2]
#: What the workers' Python needs, relative to the package's folder: the rules, the pure
#: bots, the socket's message shapes, the offline table and the scorekeeper. Folders
#: whose ``__init__`` would pull in the server's or Numba's imports (``bots``,
#: ``server/wire``) are shipped without it, as namespace packages.
BUNDLE_FILES = (
    "__init__.py",
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


def default_pyodide_dir() -> Path:
    """Where ``scripts/bootstrap`` installs Pyodide: the checkout's ``.offline`` folder."""
    return _PACKAGE.parents[1] / ".offline" / "node_modules" / "pyodide"


class OfflineFiles:
    """Pyodide's folder (``None`` or missing: offline play not installed) and the bundle."""

    def __init__(self, pyodide_dir: Path | None, *, prepare: bool = True) -> None:
        self.pyodide_dir = pyodide_dir
        self.prepare = prepare

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

    def status(self) -> dict[str, object]:
        """Whether offline play is installed, Pyodide's version and the bundle's: what the
        page and its service worker check to know what to keep (docs/offline.md); and
        the bots that run offline, for the offline new-table form; and whether pages make
        the engine ready in the background (``ServerSettings.offline_prepare``)."""
        version = None
        if self.installed and self.pyodide_dir is not None:
            package = self.pyodide_dir / "package.json"
            if package.is_file():
                version = json.loads(package.read_text()).get("version")
        bundle = hashlib.sha256(self.bundle).hexdigest()[:16] if self.installed else None
        bots = list(OFFLINE_BOTS)
        return {
            "installed": self.installed,
            "pyodide": version,
            "bundle": bundle,
            "bots": bots,
            "prepare": self.installed and self.prepare,
        }


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
        table_id, _ = await in_thread(self._games.store, user.id, stored)
        row = await in_thread(self._store.get_table, table_id)
        # again for a game stored before: a worker killed before its results left none
        await self._results.finish(row, table.game)
        return await in_thread(self._store.get_table, table_id)
