"""The files of offline play (docs/offline.md): Pyodide's, which ``scripts/bootstrap``
installs with npm into ``.offline/`` (never committed), and the bundle of raspisnoy's
pure modules that the browser's worker runs, zipped from the package's own files.

A server without Pyodide's files still runs online; ``status`` says offline play is not
installed, and the pages say so."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import cached_property
from pathlib import Path

__all__ = ["BUNDLE_FILES", "PYODIDE_FILES", "OfflineFiles", "default_pyodide_dir"]

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
#: What the worker's Python needs, relative to the package's folder: the rules, the pure
#: bots, the socket's message shapes and the offline table. Folders whose ``__init__``
#: would pull in the server's or Numba's imports (``bots``, ``server/wire``) are shipped
#: without it, as namespace packages.
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
)


def default_pyodide_dir() -> Path:
    """Where ``scripts/bootstrap`` installs Pyodide: the checkout's ``.offline`` folder."""
    return _PACKAGE.parents[1] / ".offline" / "node_modules" / "pyodide"


class OfflineFiles:
    """Pyodide's folder (``None`` or missing: offline play not installed) and the bundle."""

    def __init__(self, pyodide_dir: Path | None) -> None:
        self.pyodide_dir = pyodide_dir

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
        page and its service worker check to know what to keep (docs/offline.md)."""
        version = None
        if self.installed and self.pyodide_dir is not None:
            package = self.pyodide_dir / "package.json"
            if package.is_file():
                version = json.loads(package.read_text()).get("version")
        bundle = hashlib.sha256(self.bundle).hexdigest()[:16] if self.installed else None
        return {"installed": self.installed, "pyodide": version, "bundle": bundle}
