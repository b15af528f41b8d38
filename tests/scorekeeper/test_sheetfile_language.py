"""A damaged sheet file as ``raspisnoy score resume`` says it: the sheet's shape (not JSON,
a missing field, a value of the wrong type), the file system's errors and a failed save
are in the person's language; ``score --sheet`` keeps its English line, which programs
read, and the JSON of a sheet's problem (``SheetError.to_json``, the web API's) is as it
was."""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from raspisnoy.scorekeeper import Sheet, SheetError, command, sheet_from_json
from raspisnoy.scorekeeper.sheetfile import dumps_sheet

from .helpers import fill

PLAYERS = ("Anna", "Boris", "Vera")


def _data() -> dict[str, Any]:
    """A sheet of two whole rounds, as its file holds it."""
    data: dict[str, Any] = json.loads(dumps_sheet(fill(Sheet.start("raspisnoy.com", PLAYERS), 2)))
    return data


def _round(**changes: Any) -> str:
    """The sheet with its second round changed."""
    data = _data()
    data["rounds"][1] = {**data["rounds"][1], **changes}
    return json.dumps(data)


def _resume(path: Path, *args: str) -> tuple[int, str]:
    """``score resume PATH ARGS`` in this process: its exit status and standard error."""
    result = CliRunner().invoke(command.score_app, ["resume", str(path), *args])
    return result.exit_code, result.stderr


#: A damaged sheet file's text, and what ``score resume`` says of it after the file's name
#: in Russian and in Ukrainian.
DAMAGED: list[tuple[str, str, str, str]] = [
    (
        "not JSON",
        '{"format": ',
        "это не JSON: ошибка в строке 1, столбце 12",
        "це не JSON: помилка в рядку 1, стовпці 12",
    ),
    (
        "not an object",
        "[1]",
        "это не запись игры: нужен JSON-объект",
        "це не запис гри: потрібен JSON-об'єкт",
    ),
    (
        "another version",
        json.dumps(_data() | {"format": "raspisnoy-sheet/2"}),
        'format: нужен "raspisnoy-sheet/1", а не "raspisnoy-sheet/2"',
        'format: потрібен "raspisnoy-sheet/1", а не "raspisnoy-sheet/2"',
    ),
    (
        "no format",
        json.dumps({k: v for k, v in _data().items() if k != "format"}),
        'format: нужен "raspisnoy-sheet/1", а не null',
        'format: потрібен "raspisnoy-sheet/1", а не null',
    ),
    (
        "unknown field",
        json.dumps(_data() | {"extra": 1}),
        "неизвестное поле «extra»",
        "невідоме поле «extra»",
    ),
    (
        "players not a list",
        json.dumps(_data() | {"players": "Аня, Боря"}),
        'players: нужен список имён, а не "Аня, Боря"',
        'players: потрібен список імен, а не "Аня, Боря"',
    ),
    (
        "no first dealer",
        json.dumps(_data() | {"first_dealer": None}),
        "first_dealer: нужен номер места, а не null",
        "first_dealer: потрібен номер місця, а не null",
    ),
    (
        "rounds not a list",
        json.dumps(_data() | {"rounds": {}}),
        "rounds: нужен список, а не {}",
        "rounds: потрібен список, а не {}",
    ),
    (
        "a round not an object",
        json.dumps(_data() | {"rounds": [_data()["rounds"][0], []]}),
        "раздача 2: нужен объект, а не []",
        "роздача 2: потрібен об'єкт, а не []",
    ),
    (
        "bids of too few players",
        _round(bids=[1, 1]),
        "раздача 2: bids: нужен список из 3 значений (числа или null), а не [1, 1]",
        "роздача 2: bids: потрібен список з 3 значень (числа або null), а не [1, 1]",
    ),
    (
        "a trick count not a number",
        _round(taken=[0, "2", 0]),
        'раздача 2: taken: "2" — не целое число',
        'роздача 2: taken: "2" — не ціле число',
    ),
    (
        "an unknown kind",
        _round(kind="tea", dealer=1, bids=None),
        'раздача 2: kind: вида раздачи "tea" нет, есть только normal, ',
        'роздача 2: kind: виду роздачі "tea" немає, є лише normal, ',
    ),
    (
        "a dealer not a seat number",
        _round(dealer="Boris"),
        'раздача 2: dealer: нужен номер места, а не "Boris"',
        'роздача 2: dealer: потрібен номер місця, а не "Boris"',
    ),
    (
        "an unknown field of a round",
        _round(tricks=[]),
        "раздача 2: неизвестное поле «tricks»",
        "роздача 2: невідоме поле «tricks»",
    ),
]


@pytest.mark.parametrize(
    ("text", "ru", "uk"), [case[1:] for case in DAMAGED], ids=[case[0] for case in DAMAGED]
)
def test_resume_says_a_damaged_sheets_shape_in_the_persons_language(
    tmp_path: Path, text: str, ru: str, uk: str
) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(text, encoding="utf-8")
    for lang, problem in (("ru", ru), ("uk", uk)):
        status, stderr = _resume(path, "--lang", lang)
        assert status == 1
        assert stderr.startswith(f"error: {path}: {problem}"), stderr
        assert stderr.count("\n") == 1


def test_resume_in_english_says_the_shape_as_score_sheet_does(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(_round(bids=[1, 1]), encoding="utf-8")
    expected = "round 2: bids: expected a list of 3 numbers or nulls, got [1, 1]"
    assert _resume(path, "--lang", "en") == (1, f"error: {path}: {expected}\n")


def test_the_sheet_shape_keeps_its_english_line_and_its_json(tmp_path: Path) -> None:
    """``score --sheet`` is read by programs, as ``replay`` is: English whatever the
    language; and the web API's JSON of the problem has no new field."""
    path = tmp_path / "sheet.json"
    path.write_text(_round(bids=[1, 1]), encoding="utf-8")
    result = CliRunner().invoke(command.score_app, ["--sheet", str(path), "--lang", "ru"])
    detail = "bids: expected a list of 3 numbers or nulls, got [1, 1]"
    assert (result.exit_code, result.stderr) == (1, f"error: {path}: round 2: {detail}\n")
    with pytest.raises(SheetError) as error:
        sheet_from_json(json.loads(_round(bids=[1, 1])))
    assert error.value.to_json() == {
        "round": 2,
        "seat": None,
        "player": None,
        "problem": "format",
        "params": {"detail": detail},
        "message": f"round 2: {detail}",
    }


def test_resume_says_an_unreadable_file_in_the_persons_language(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    assert _resume(missing, "--lang", "ru") == (
        1,
        f"error: {missing}: нет такого файла или папки\n",
    )
    assert _resume(tmp_path, "--lang", "uk") == (1, f"error: {tmp_path}: це папка, а не файл\n")
    binary = tmp_path / "sheet.json"
    binary.write_bytes(b"\xff\xfe{")
    assert _resume(binary, "--lang", "ru") == (1, f"error: {binary}: файл не в кодировке UTF-8\n")
    sheet = CliRunner().invoke(command.score_app, ["--sheet", str(missing), "--lang", "ru"])
    assert sheet.stderr == f"error: {missing}: No such file or directory\n"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", "Не удалось сохранить {path}: на диске не осталось места."),
        ("uk", "Не вдалося зберегти {path}: на диску не залишилося місця."),
        ("en", "Could not save {path}: no space left on the disk."),
    ],
    ids=["ru", "uk", "en"],
)
def test_a_failed_save_is_said_in_the_persons_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, words: str
) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(dumps_sheet(Sheet.start("raspisnoy.com", PLAYERS)), encoding="utf-8")
    temporary = str(tmp_path / ".sheet.json.x.tmp")

    def full_disk(sheet: Sheet, to: Path) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), temporary)

    output = io.StringIO()
    answers = iter(["q"])
    monkeypatch.setattr("builtins.input", lambda: next(answers))
    monkeypatch.setattr(command, "write_sheet", full_disk)
    monkeypatch.setattr(
        command, "_console", lambda: Console(file=output, width=300, soft_wrap=True)
    )
    result = CliRunner().invoke(command.score_app, ["resume", str(path), "--lang", lang])
    assert result.exit_code == 0, result.output
    text = output.getvalue()
    assert words.format(path=path) in text
    assert temporary not in text
