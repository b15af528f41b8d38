"""``raspisnoy play`` options, run as a real subprocess: bad input ends in one translated
``error:`` line and leaves no files behind; input that ends at once still saves a record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from raspisnoy.core.record import loads_record, replay


def play(cwd: Path, *args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    """``raspisnoy play ARGS`` in ``cwd``, in an environment whose language is ``lang``."""
    return subprocess.run(
        [sys.executable, "-m", "raspisnoy", "play", "--delay", "0", *args],
        cwd=cwd,
        env={**os.environ, "LANG": f"{lang}_XX.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "en", "--players", "3", "--bots", "genius"], "unknown bot level 'genius'"),
        (["--lang", "ru", "--players", "3", "--bots", "genius"], "неизвестный уровень бота"),
        (["--lang", "uk", "--players", "4", "--bots", "random,random"], "--bots: один рівень"),
        (["--lang", "de"], "unknown language 'de'; languages: ru, uk, en"),
        (["--lang", "en", "--delay", "-1"], "--delay must be 0 or more seconds"),
        (["--lang", "en", "--players", "9", "--bots", "random"], "3 to 5 players, not 9"),
        (["--lang", "en", "--bots", "random", "--set", "nonsense=1"], "nonsense"),
        (["--lang", "en", "--bots", "random", "--name", "x" * 41], "--name"),
        (["--lang", "en", "--resume", "missing.json"], "missing.json: no such file"),
        (["--lang", "en", "--resume", "g.json", "--seed", "1"], "drop --seed"),
    ],
)
def test_bad_input_is_one_error_line_and_no_files(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = play(tmp_path, *args)
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert message in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_language_is_refused_in_the_environments_language(tmp_path: Path) -> None:
    """``--lang de`` cannot word its own refusal: it is said in the language ``LANG`` names."""
    result = play(tmp_path, "--lang", "de", lang="ru")
    assert result.stderr == "error: неизвестный язык 'de'; языки: ru, uk, en\n"


def test_an_existing_record_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "mine.json").write_text("precious", encoding="utf-8")
    result = play(tmp_path, "--lang", "en", "--bots", "random", "--save", "mine.json")
    assert result.stderr.startswith("error: mine.json already exists: continue it with --resume")
    assert (tmp_path / "mine.json").read_text(encoding="utf-8") == "precious"


def test_input_that_ends_at_once_saves_the_game_to_a_new_file(tmp_path: Path) -> None:
    result = play(tmp_path, "--lang", "en", "--players", "3", "--bots", "random", "--seed", "9")
    assert result.returncode == 0, result.stderr
    [record] = tmp_path.glob("raspisnoy-*[0-9].json")
    session = json.loads(record.with_suffix(".session.json").read_text(encoding="utf-8"))
    assert session == {
        "format": "raspisnoy-play-session/1",
        "seed": "9",
        "bots": [None, "random", "random"],
    }
    game = replay(loads_record(record.read_text(encoding="utf-8")))
    assert game.names == ("You", "Anna", "Boris")
    assert not game.is_over
    assert f"raspisnoy play --resume {record.name}" in result.stdout
