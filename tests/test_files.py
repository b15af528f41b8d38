"""``raspisnoy.files.write_atomically``: a file replaced whole or not at all, with the
permissions it had (a new one shared, or private when it holds a secret)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from raspisnoy.files import write_atomically


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    path = tmp_path / "file.json"
    write_atomically(path, "old")
    write_atomically(path, "new")
    assert path.read_text(encoding="utf-8") == "new"
    with pytest.raises(UnicodeEncodeError):
        write_atomically(path, "\ud800 cannot be encoded")
    assert path.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.json"]


def test_a_new_file_is_shared_or_private_and_an_old_one_keeps_its_mode(tmp_path: Path) -> None:
    shared, private = tmp_path / "record.json", tmp_path / "wallet.json"
    write_atomically(shared, "{}")
    write_atomically(private, "{}", private=True)
    assert (mode(shared), mode(private)) == (0o644, 0o600)
    os.chmod(shared, 0o640)
    write_atomically(shared, "[]")
    write_atomically(private, "[]")  # not private any more: it keeps the mode it has
    assert (mode(shared), mode(private)) == (0o640, 0o600)
    assert shared.read_text(encoding="utf-8") == "[]"
