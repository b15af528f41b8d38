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


#: The engine's refusals of what was asked (the players, a preset, an option, a round plan,
#: a name), which the engine words in English, said in the person's language; Russian and
#: Ukrainian count in their CLDR plural forms (21 игрок, 2 игрока, 7 игроков).
PLAN = ["--players", "4", "--set", "custom_plan=1,10"]
ENGINE_REFUSALS = [
    (
        ["--lang", "ru", "--players", "7"],
        "error: за столом 7 игроков, а по правилам «raspisnoy.com» играют от 3 до 5",
    ),
    (
        ["--lang", "ru", "--players", "2"],
        "error: за столом 2 игрока, а по правилам «raspisnoy.com» играют от 3 до 5",
    ),
    (
        ["--lang", "ru", "--players", "21", "--rules", "classic"],
        "error: за столом 21 игрок, а по правилам «classic» играют от 3 до 6",
    ),
    (
        ["--lang", "uk", "--players", "7"],
        "error: за столом 7 гравців, а за правилами «raspisnoy.com» грають від 3 до 5",
    ),
    (
        ["--lang", "uk", "--players", "2"],
        "error: за столом 2 гравці, а за правилами «raspisnoy.com» грають від 3 до 5",
    ),
    (["--lang", "en", "--players", "7"], "error: raspisnoy.com is played by 3 to 5 players, not 7"),
    (
        ["--lang", "ru", "--set", "nonsense=1"],
        "error: нет такого параметра правил: «nonsense» (есть: min_players, max_players, ",
    ),
    (
        ["--lang", "uk", "--set", "nonsense=1"],
        "error: немає такого параметра правил: «nonsense» (є: min_players, max_players, ",
    ),
    (
        ["--lang", "en", "--set", "nonsense=1"],
        "error: unknown rules option 'nonsense' (known: min_players, max_players, ",
    ),
    (
        ["--lang", "ru", "--rules", "whist"],
        "error: нет таких правил: «whist» (есть: raspisnoy.com, classic, ukrainian, ",
    ),
    (
        ["--lang", "ru", "--set", "descending=maybe"],
        "error: параметр правил descending — да или нет (true или false), а не 'maybe'",
    ),
    (
        ["--lang", "uk", "--set", "descending"],
        "error: параметр задається як ПАРАМЕТР=ЗНАЧЕННЯ, а не «descending»",
    ),
    (
        ["--lang", "ru", *PLAN],
        "error: план раздач custom_plan, раздача 2 «10»: когда игроков 4, "
        "каждому можно сдать не больше 9 карт",
    ),
    (
        ["--lang", "uk", *PLAN],
        "error: план роздач custom_plan, роздача 2 «10»: коли гравців 4, "
        "кожному можна роздати не більше 9 карт",
    ),
    (
        ["--lang", "en", *PLAN],
        "error: custom_plan entry 2 '10': with 4 players, each can be dealt at most 9 cards",
    ),
    (
        ["--lang", "ru", "--name", "x" * 41],
        f"error: --name: игроки: имя '{'x' * 41}' длиннее 40 символов",
    ),
    (
        ["--lang", "ru", "--set", "custom_plan=1,x"],
        "error: план раздач custom_plan, раздача 2 «x»: нужно число карт или число карт и вид",
    ),
]


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
        *ENGINE_REFUSALS,
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
