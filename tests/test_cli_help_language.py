"""The command line's help speaks the person's language: Russian, Ukrainian, else English.

``--help`` is shown before ``--lang`` is read, so the environment decides (``LC_ALL``,
``LC_MESSAGES``, ``LANG``: ``raspisnoy.i18n.detect_language``), as it does for the rest
of a command's output without ``--lang``. The help is worded when the command modules
are imported, so every case runs the real command in a fresh interpreter with the
environment a person's system gives it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from raspisnoy.cli import _Commands
from raspisnoy.i18n import LANGUAGES

#: Every command's help, in the language of the environment it runs in: a JSON object of
#: ``"raspisnoy rules show"`` (the command's help), ``"raspisnoy rules show --set"`` (an
#: option's), ``"raspisnoy rules show NAME"`` (an argument's) and ``"raspisnoy rules
#: show (listed)"`` (what the group's listing says of the command, before it is loaded).
#: Each group's commands are loaded as they are to run (``LazyGroup.resolve_command``),
#: so a command added later is walked too.
WALK = """
import json, sys
import typer.core, typer.main
from raspisnoy.cli import app

found = {}

def walk(command, path):
    found[path] = command.help
    for param in command.params:
        name = param.opts[0] if param.param_type_name == "option" else param.name.upper()
        found[f"{path} {name}"] = getattr(param, "help", None)
    if isinstance(command, typer.core.TyperGroup):
        context = typer.Context(command)
        for name in command.list_commands(context):
            found[f"{path} {name} (listed)"] = command.commands[name].help
            walk(command.resolve_command(context, [name])[1], f"{path} {name}")

walk(typer.main.get_command(app), "raspisnoy")
json.dump(found, sys.stdout, ensure_ascii=False)
"""
#: ``raspisnoy --help`` in this process, then the modules it imported, on standard error.
IMPORTS = """
import json, sys
from raspisnoy.cli import main
sys.argv = ["raspisnoy", "--help"]
try:
    main()
except SystemExit:
    pass
json.dump(sorted(sys.modules), sys.stderr)
"""
#: A system's locale for each language.
LOCALES = {"ru": "ru_RU.UTF-8", "uk": "uk_UA.UTF-8", "en": "en_US.UTF-8"}


def environment(**variables: str) -> dict[str, str]:
    """This process's environment with the locale ``variables`` alone (``LANG=…``), and a
    terminal wide enough that no line of the help is wrapped."""
    env = {**os.environ, "COLUMNS": "2000"}
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        env.pop(name, None)
    return {**env, **variables}


def python(code_or_module: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in a fresh interpreter; it must succeed."""
    result = subprocess.run(
        [sys.executable, *code_or_module],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result


def help_text(env: dict[str, str], *args: str) -> str:
    """``raspisnoy ARGS --help``, its runs of white space (the panels' padding) made one
    space."""
    return " ".join(python(["-m", "raspisnoy", *args, "--help"], env).stdout.split())


@pytest.mark.parametrize(
    ("env", "args", "said", "unsaid"),
    [
        pytest.param(
            {"LANG": "ru_RU.UTF-8"},
            (),
            (
                "Расписной покер: движок правил, записи партий и инструменты.",
                "Показать версию и выйти.",
                "Играть в расписной покер в терминале против ботов",
                "Вести счёт игры живыми картами («расписная»).",
                "Русский покер в казино против дилера",
            ),
            (
                "rules engine, records and tools",
                "Print the version",
                "Play raspisnoy in the terminal",
                "Keep the score of a game",
                "Casino Russian poker",
            ),
            id="ru --help",
        ),
        pytest.param(
            {"LANG": "ru_RU.UTF-8"},
            ("rules", "show"),
            (
                "Показать все опции набора правил с итоговыми значениями.",
                "Название набора правил.",
                "Изменить опцию правил: ОПЦИЯ=ЗНАЧЕНИЕ.",
                "Язык вывода: ru, uk или en",
            ),
            ("Show every option", "Preset name", "Override", "Language of the output"),
            id="ru rules show",
        ),
        pytest.param(
            {"LANG": "ru_RU.UTF-8"},
            ("casino",),
            ("Назвать комбинацию бокса", "Играть в русский покер в терминале"),
            ("Name a box's combination", "Play casino Russian poker"),
            id="ru casino",
        ),
        pytest.param(
            {"LANG": "ru_RU.UTF-8"},
            ("casino", "advise"),
            ("Открытая карта дилера", "5 карт бокса", "Вывести JSON."),
            ("The dealer's up card", "The box's 5 cards", "Print JSON."),
            id="ru casino advise",
        ),
        pytest.param(
            {"LANG": "ru_RU.UTF-8"},
            ("score", "new"),
            ("Собрать стол и вести счёт по раздачам.", "Язык вопросов"),
            ("Set up a table", "Language of the questions"),
            id="ru score new",
        ),
        pytest.param(
            {"LANG": "ru_RU.UTF-8"},
            ("serve",),
            ("Запустить игровой сервер", "переменных окружения RASPISNOY_*"),
            ("Run the game server", "Every limit is a setting"),
            id="ru serve",
        ),
        pytest.param(
            {"LANG": "uk_UA.UTF-8"},
            (),
            (
                "Розписний покер: рушій правил, записи партій та інструменти.",
                "Грати в розписний покер у терміналі проти ботів",
            ),
            ("rules engine, records and tools", "Play raspisnoy in the terminal"),
            id="uk --help",
        ),
        pytest.param(
            {"LANG": "uk_UA.UTF-8"},
            ("replay",),
            ("Перевірити за правилами кожну карту", "Файл запису партії"),
            ("Check every card", "Record file"),
            id="uk replay",
        ),
        pytest.param(
            {"LANG": "uk_UA.UTF-8"},
            ("moderators", "grant"),
            ("Зробити акаунт NAME модератором.", "Ім'я користувача акаунта."),
            ("Make the account NAME a moderator", "The account's user name"),
            id="uk moderators grant",
        ),
        pytest.param(
            {"LANG": "en_US.UTF-8", "LC_ALL": "uk_UA.UTF-8"},
            ("puzzles",),
            ("Задачі: пошук перевірених позицій",),
            ("mine verified positions",),
            id="uk LC_ALL over en LANG",
        ),
        pytest.param(
            {"LANG": "en_US.UTF-8"},
            (),
            (
                "Raspisnoy poker («расписной покер»): rules engine, records and tools.",
                "Play raspisnoy in the terminal against bots",
            ),
            ("движок правил", "Играть в расписной покер"),
            id="en --help",
        ),
        pytest.param(
            {"LANG": "C"},
            ("rules", "show"),
            ("Show every option of a ruleset, resolved.", "Override a rules option"),
            ("Показать все опции", "Изменить опцию правил"),
            id="C rules show",
        ),
        pytest.param(
            {"LANG": "de_DE.UTF-8"},
            ("casino", "play"),
            ("Play casino Russian poker in the terminal", "The wallet file"),
            ("Играть в русский покер", "Файл кошелька"),
            id="de casino play",
        ),
    ],
)
def test_the_help_speaks_the_systems_language(
    env: dict[str, str], args: tuple[str, ...], said: tuple[str, ...], unsaid: tuple[str, ...]
) -> None:
    text = help_text(environment(**env), *args)
    assert [phrase for phrase in said if phrase not in text] == [], text
    assert [phrase for phrase in unsaid if phrase in text] == [], text


def every_help(lang: str) -> dict[str, str | None]:
    """Every help text of the command line in the system language ``lang`` (``WALK``)."""
    found: dict[str, str | None] = json.loads(
        python(["-c", WALK], environment(LANG=LOCALES[lang])).stdout
    )
    return found


@pytest.fixture(scope="module")
def helps() -> dict[str, dict[str, str | None]]:
    return {lang: every_help(lang) for lang in LANGUAGES}


def test_the_walk_finds_every_command_and_parameter(
    helps: dict[str, dict[str, str | None]],
) -> None:
    english = helps["en"]
    assert {"raspisnoy", "raspisnoy --version", "raspisnoy casino play --wallet"} <= english.keys()
    assert {"raspisnoy rules show NAME", "raspisnoy moderators grant --data-dir"} <= english.keys()
    assert {f"raspisnoy {name} (listed)" for name in _Commands.lazy} <= english.keys()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_and_parameter_has_help_in_every_language(
    helps: dict[str, dict[str, str | None]], lang: str
) -> None:
    """Every command, option and argument of the whole tree, and every command as its
    group lists it, has help; in Russian and Ukrainian none of it is the English."""
    found = helps[lang]
    assert found.keys() == helps["en"].keys()
    assert [where for where, text in found.items() if not (text or "").strip()] == []
    if lang != "en":
        same = [where for where, text in found.items() if text == helps["en"][where]]
        assert same == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_group_lists_each_command_by_the_first_paragraph_of_its_help(
    helps: dict[str, dict[str, str | None]], lang: str
) -> None:
    """The listing says of a command, before loading it, what its own help begins with,
    in the same language."""
    found = helps[lang]

    def summary(where: str) -> str:
        return (found[where] or "").split("\n\n")[0]

    listed = [where.removesuffix(" (listed)") for where in found if where.endswith(" (listed)")]
    assert [where for where in listed if summary(f"{where} (listed)") != summary(where)] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_in_any_language_imports_no_command(lang: str) -> None:
    """Wording the listing imports none of the commands it lists, nor the rules."""
    modules = set(json.loads(python(["-c", IMPORTS], environment(LANG=LOCALES[lang])).stderr))
    commands = {lazy.target.partition(":")[0] for lazy in _Commands.lazy.values()}
    assert sorted(modules & {*commands, "raspisnoy.core"}) == []
