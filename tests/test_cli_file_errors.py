"""The file system's errors on the command line (``cli_support.guarded``): a command a
person reads says them in the person's language; the contract's commands (docs/record.md,
CASINO.md §3), whose error lines programs read, keep the C library's English exactly."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest
import typer

from raspisnoy.cli_support import guarded


def _failing(number: int, filename: str | None = "game.json") -> NoReturn:
    raise OSError(number, os.strerror(number), filename)


def _error_line(number: int, language: str | None, filename: str | None = "game.json") -> str:
    """The ``error:`` line ``guarded`` prints for an ``OSError`` of ``errno`` ``number``."""
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured), pytest.raises(typer.Exit) as stop:
        guarded(lambda: _failing(number, filename), language)
    assert stop.value.exit_code == 1
    return captured.getvalue()


ERRNOS = [
    errno.ENOENT,
    errno.EACCES,
    errno.EPERM,
    errno.EISDIR,
    errno.ENOTDIR,
    errno.ENOSPC,
    errno.EROFS,
    errno.EEXIST,
    errno.EIO,
]


@pytest.mark.parametrize("number", ERRNOS, ids=[errno.errorcode[n] for n in ERRNOS])
def test_without_a_language_the_line_is_the_c_librarys_english(number: int) -> None:
    """The contract's commands: ``FILE: strerror``, exactly as before."""
    assert _error_line(number, None) == f"error: game.json: {os.strerror(number)}\n"


#: An errno and its words in Russian, Ukrainian and English.
WORDS: list[tuple[int, str, str, str]] = [
    (
        errno.ENOENT,
        "нет такого файла или папки",
        "немає такого файлу або папки",
        "no such file or folder",
    ),
    (errno.EACCES, "нет прав доступа", "немає прав доступу", "permission denied"),
    (errno.EPERM, "нет прав доступа", "немає прав доступу", "permission denied"),
    (
        errno.EISDIR,
        "это папка, а не файл",
        "це папка, а не файл",
        "this is a folder, not a file",
    ),
    (
        errno.ENOTDIR,
        "часть пути — не папка",
        "частина шляху — не папка",
        "a part of the path is not a folder",
    ),
    (
        errno.ENOSPC,
        "на диске не осталось места",
        "на диску не залишилося місця",
        "no space left on the disk",
    ),
    (
        errno.EROFS,
        "диск доступен только для чтения",
        "диск доступний лише для читання",
        "the disk is read-only",
    ),
    (errno.EEXIST, "такой файл уже есть", "такий файл уже існує", "already exists"),
]


@pytest.mark.parametrize(
    ("number", "ru", "uk", "en"), WORDS, ids=[errno.errorcode[case[0]] for case in WORDS]
)
def test_a_person_is_told_in_their_language(number: int, ru: str, uk: str, en: str) -> None:
    for language, problem in (("ru", ru), ("uk", uk), ("en", en)):
        assert _error_line(number, language) == f"error: game.json: {problem}\n"


def test_any_other_error_names_the_file_and_keeps_the_c_librarys_words() -> None:
    strerror = os.strerror(errno.EIO)
    assert _error_line(errno.EIO, "ru") == (
        f"error: game.json: ошибка файловой системы ({strerror})\n"
    )
    assert _error_line(errno.EIO, "uk") == (
        f"error: game.json: помилка файлової системи ({strerror})\n"
    )
    assert _error_line(errno.EIO, "en") == f"error: game.json: {strerror}\n"


def test_an_error_without_a_file_is_its_problem_alone() -> None:
    assert _error_line(errno.ENOSPC, "ru", None) == "error: на диске не осталось места\n"


def _run(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
    """``raspisnoy ARGS`` in a new process whose system language is ``lang``."""
    env = {**os.environ, "LANG": f"{lang}_XX.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run(
        [sys.executable, "-m", "raspisnoy", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_a_persons_command_says_a_missing_file_in_their_language(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    review = _run("review", str(missing), lang="uk")
    assert review.returncode == 1 and review.stdout == ""
    assert review.stderr == f"error: {missing}: немає такого файлу або папки\n"
    folder = _run("review", str(tmp_path), "--lang", "ru", lang="en")
    assert folder.stderr == f"error: {tmp_path}: это папка, а не файл\n"


def test_a_contract_command_keeps_the_english_line_in_any_language(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    replayed = _run("replay", str(missing), lang="ru")
    assert replayed.returncode == 1 and replayed.stdout == ""
    assert replayed.stderr == f"error: {missing}: No such file or directory\n"
