"""The files the commands keep (a game's record and session, a score sheet, a casino
wallet, an arena's game records), each replaced in one step: a crash, a kill or a closed
terminal leaves the old file or the new one, never part of one.

One helper for all of them, so that every such file gets the same care: written to a
temporary file beside it (the same file system, so the rename is atomic), flushed to the
disk, then renamed over it; the temporary file removed if anything fails.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]

#: The permissions of a new file that may be shared (a record, a sheet).
SHARED_MODE = 0o644
#: The permissions of a new file no one else on the machine should read: a seed that deals
#: the cards to come, the hidden hands of a game in progress.
PRIVATE_MODE = 0o600


def write_atomically(path: Path, text: str, *, private: bool = False) -> None:
    """Replace ``path`` with ``text`` (UTF-8) in one step. A file that exists keeps its
    permissions; a new one gets 0644, or 0600 when ``private``."""
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        # mkstemp made it 0600, whatever it is for.
        os.chmod(temporary, mode if mode is not None else PRIVATE_MODE if private else SHARED_MODE)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
