"""``raspisnoy play --resume FILE`` with a saved game that cannot be resumed (a damaged
file, another version of the format, a record the rules refuse, a session that is not its
own): what is wrong is said in the person's language, not in the engine's English."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from test_play_cli import play

from raspisnoy.core import Game, resolve_rules
from raspisnoy.play.session import (
    PlayError,
    Seating,
    load_game,
    parse_levels,
    save_record,
    save_session,
    seat_names,
    session_file,
)

RULES = resolve_rules("raspisnoy.com", custom_plan=("2", "3:blind", "2"))


def saved_game(folder: Path, seed: str = "5") -> Path:
    """A new game of the person and two random bots, saved to ``folder/game.json``."""
    seating = Seating(seed, parse_levels("random", 3))
    game = Game(RULES, seat_names("en", 3), seed=seed)
    record = folder / "game.json"
    save_session(seating, record)
    save_record(game, record)
    return record


def _record(record: Path, **changes: object) -> None:
    data = json.loads(record.read_text(encoding="utf-8"))
    record.write_text(json.dumps(data | changes), encoding="utf-8")


def _session(record: Path, data: object) -> None:
    session_file(record).write_text(json.dumps(data), encoding="utf-8")


_SESSION = "raspisnoy-play-session/1"

#: A damage done to a saved game, and the problem said after the file's name, in Russian
#: and in Ukrainian. ``{session}`` is the session file's name.
DAMAGES: list[tuple[str, Callable[[Path], object], str, str]] = [
    (
        "no JSON",
        lambda r: r.write_text("{", encoding="utf-8"),
        "game.json: файл повреждён: это не JSON",
        "game.json: файл пошкоджено: це не JSON",
    ),
    (
        "no text",
        lambda r: r.write_bytes(b"\xff\xfe{"),
        "game.json: файл повреждён: это не текст в кодировке UTF-8",
        "game.json: файл пошкоджено: це не текст у кодуванні UTF-8",
    ),
    (
        "no record",
        lambda r: r.write_text("[]", encoding="utf-8"),
        "game.json: это не партия, сохранённая raspisnoy play",
        "game.json: це не партія, збережена raspisnoy play",
    ),
    (
        "a sheet",
        lambda r: _record(r, format="raspisnoy-sheet/1"),
        "game.json: это не партия, сохранённая raspisnoy play",
        "game.json: це не партія, збережена raspisnoy play",
    ),
    (
        "another version",
        lambda r: _record(r, format="raspisnoy-record/2"),
        "game.json: партия сохранена в формате raspisnoy-record/2, "
        "а эта версия raspisnoy читает только raspisnoy-record/1",
        "game.json: партію збережено у форматі raspisnoy-record/2, "
        "а ця версія raspisnoy читає лише raspisnoy-record/1",
    ),
    (
        "unknown rules",
        lambda r: _record(r, rules="whist"),
        "game.json: нет таких правил: «whist»",
        "game.json: немає таких правил: «whist»",
    ),
    (
        "damaged",
        lambda r: _record(r, rounds={}),
        "game.json: сохранённая партия повреждена: rounds: expected a list, got {{}}",
        "game.json: збережену партію пошкоджено: rounds: expected a list, got {{}}",
    ),
    (
        "session not JSON",
        lambda r: session_file(r).write_text("{", encoding="utf-8"),
        "{session} — не сессия raspisnoy play: это не JSON",
        "{session} — не сесія raspisnoy play: це не JSON",
    ),
    (
        "session not text",
        lambda r: session_file(r).write_bytes(b"\xff"),
        "{session} — не сессия raspisnoy play: это не текст в кодировке UTF-8",
        "{session} — не сесія raspisnoy play: це не текст у кодуванні UTF-8",
    ),
    (
        "session of another format",
        lambda r: _session(r, {"format": "other"}),
        "{session} — не сессия raspisnoy play: нужен JSON-объект с форматом " + _SESSION,
        "{session} — не сесія raspisnoy play: потрібен JSON-об'єкт із форматом " + _SESSION,
    ),
    (
        "session without a seed",
        lambda r: _session(r, {"format": _SESSION, "bots": [None, "random", "random"]}),
        "{session} — не сессия raspisnoy play: нужны текст seed и список bots",
        "{session} — не сесія raspisnoy play: потрібні текст seed і список bots",
    ),
    (
        "a bot in the person's seat",
        lambda r: _session(r, {"format": _SESSION, "seed": "5", "bots": ["random"] * 3}),
        "{session} — не сессия raspisnoy play: место 0 — ваше, поэтому bots[0] должно быть null",
        "{session} — не сесія raspisnoy play: місце 0 — ваше, тому bots[0] має бути null",
    ),
    (
        "a bot level that is no text",
        lambda r: _session(r, {"format": _SESSION, "seed": "5", "bots": [None, [1], "random"]}),
        "{session} — не сессия raspisnoy play: неизвестный уровень бота [1]",
        "{session} — не сесія raspisnoy play: невідомий рівень бота [1]",
    ),
    (
        "another seed",
        lambda r: save_session(Seating("6", (None, "random", "random")), r),
        "game.json не сходится со своей сессией {session}: "
        "раздачи в записи не те, что даёт сид сессии",
        "game.json не збігається зі своєю сесією {session}: "
        "роздачі в записі не ті, що дає сід сесії",
    ),
]


@pytest.mark.parametrize(
    ("damage", "ru", "uk"), [case[1:] for case in DAMAGES], ids=[case[0] for case in DAMAGES]
)
def test_a_game_that_cannot_be_resumed_is_said_in_the_persons_language(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    damage: Callable[[Path], object],
    ru: str,
    uk: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    record = Path(saved_game(tmp_path).name)
    damage(record)
    with pytest.raises(PlayError) as error:
        load_game(record)
    session = session_file(record).name
    assert error.value.message("ru").startswith(ru.format(session=session))
    assert error.value.message("uk").startswith(uk.format(session=session))


def test_a_game_the_rules_refuse_frames_the_engines_place_in_the_language(tmp_path: Path) -> None:
    """The engine words the place of a refused record (round, player) in English only: it
    is given as it is, inside a sentence in the person's language."""
    record = saved_game(tmp_path)
    data = json.loads(record.read_text(encoding="utf-8"))
    hands = [["QD"], ["KD"], ["AH"]]
    data |= {"rules": "raspisnoy.com", "players": ["Anna", "Boris", "Vera"]}
    data["rounds"] = [{"dealer": 0, "hands": hands, "trump_card": "7C", "bids": [5, 1, 0]}]
    record.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PlayError) as error:
        load_game(record)
    assert error.value.message("ru").startswith(f"{record}: партия нарушает правила: round 1")
    assert error.value.message("uk").startswith(f"{record}: партія порушує правила: round 1")
    assert error.value.message("en").startswith(f"{record}: the game breaks the rules: round 1")


def test_resume_says_a_damaged_game_in_one_line_of_the_persons_language(tmp_path: Path) -> None:
    record = saved_game(tmp_path)
    _record(record, format="raspisnoy-record/2")
    result = play(tmp_path, "--resume", "game.json", lang="ru")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "error: game.json: партия сохранена в формате raspisnoy-record/2, "
        "а эта версия raspisnoy читает только raspisnoy-record/1\n"
    )
    session_file(record).write_text("{", encoding="utf-8")
    result = play(tmp_path, "--resume", "game.json", "--lang", "uk", lang="en")
    assert result.stderr == "error: game.session.json — не сесія raspisnoy play: це не JSON\n"


def test_resume_says_a_file_system_error_in_the_persons_language(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    result = play(tmp_path, "--resume", "folder", lang="ru")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "error: folder: это папка, а не файл\n"
