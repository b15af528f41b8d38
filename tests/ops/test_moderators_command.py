"""``raspisnoy moderators grant NAME`` / ``revoke NAME`` / ``list``: the only way to give
the moderator role, run by whoever runs the server, on the database ``serve`` uses; an
unknown account is one ``error:`` line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from raspisnoy.store import Moderation, Players, Store


def moderators(data: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``raspisnoy moderators ARGUMENTS... --data-dir DATA`` as an operator runs it."""
    command = [sys.executable, "-m", "raspisnoy", "moderators", *arguments, "--data-dir", str(data)]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


def test_grant_list_and_revoke_by_user_name(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'raspisnoy.sqlite3'}")
    olga = Players(store).register("Ольга", "not a real hash")
    Players(store).register("Ivan", "not a real hash")
    role = Moderation(store)

    granted = moderators(tmp_path, "grant", "ольга")
    assert granted.returncode == 0, granted.stderr
    assert granted.stdout == f"ольга ({olga.id}) is a moderator\n"
    assert role.is_moderator(olga.id)
    listed = moderators(tmp_path, "list")
    [line] = listed.stdout.splitlines()
    assert line.split("\t")[:2] == ["Ольга", olga.id]

    unknown = moderators(tmp_path, "grant", "Nobody")
    assert (unknown.returncode, unknown.stdout) == (1, "")
    assert unknown.stderr == "error: no account named 'Nobody'\n"

    revoked = moderators(tmp_path, "revoke", "Ольга")
    assert revoked.stdout == "Ольга is no longer a moderator\n"
    assert not role.is_moderator(olga.id)
    assert moderators(tmp_path, "revoke", "Ольга").stdout == "Ольга was no moderator\n"
    assert moderators(tmp_path, "list").stdout == ""
    store.close()
