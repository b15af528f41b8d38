"""The command line, run as a real subprocess (``run``; in this process with ``run_here``
where one test tries many inputs): the ``schedule`` and ``replay`` contract of
docs/record.md."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
import typer
import typer.core
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raspisnoy.cli import app, main
from raspisnoy.core import PRESETS, Game, resolve_rules, round_plan
from raspisnoy.core.record import dumps_record, game_to_record, replay_report

DATA = Path(__file__).parent / "data"
EXAMPLE = DATA / "record-example.json"
# docs/record.md's example record and the ``replay --json`` report it gives for it.
EXPECTED_REPORT = json.loads((DATA / "record-example.report.json").read_text())


def run(
    *args: str, stdin: str | None = None, lang: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``raspisnoy ARGS`` in a new process; ``lang``: the system's language (``LANG``)."""
    env = None
    if lang is not None:
        env = {**os.environ, "LANG": f"{lang}_XX.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run(
        [sys.executable, "-m", "raspisnoy", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def run_here(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """What ``run`` returns, from ``raspisnoy.cli.main`` called in this process with its
    arguments, standard input and outputs swapped in: for the tests that try many inputs
    (every preset, a property), where a new process each time would spend seconds
    importing; the other tests keep the real process. A traceback here is an exception
    that fails the test, as it would be in the process's standard error."""
    out, err = io.StringIO(), io.StringIO()
    raw = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    with (
        mock.patch.object(sys, "argv", ["raspisnoy", *args]),
        mock.patch.object(sys, "stdin", raw),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.raises(SystemExit) as exited,
    ):
        main()
    code = exited.value.code
    returncode = code if isinstance(code, int) else 0 if code is None else 1
    return subprocess.CompletedProcess(args, returncode, out.getvalue(), err.getvalue())


def assert_one_error_line(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.parametrize(("players", "rounds"), [(3, 26), (4, 28), (5, 31)])
def test_schedule_json_lists_the_plan(players: int, rounds: int) -> None:
    result = run("schedule", "--players", str(players), "--json")
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    assert len(plan) == rounds
    assert plan[0] == {"round": 1, "cards": 1, "kind": "normal"}
    assert plan[-1] == {"round": rounds, "cards": 36 // players, "kind": "golden"}
    assert [r["round"] for r in plan] == list(range(1, rounds + 1))


def test_schedule_descending_option() -> None:
    result = run("schedule", "--players", "4", "--set", "descending=true", "--json")
    cards = [r["cards"] for r in json.loads(result.stdout)]
    assert cards[:17] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert len(cards) == 28 + 8


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["raspisnoy.com: 3 players, 26 rounds", "Cards", "no trump", "golden"]),
        ("ru", ["raspisnoy.com — игроков: 3, раздач: 26", "Карт", "бескозырка", "золотая"]),
        ("uk", ["raspisnoy.com — гравців: 3, роздач: 26", "Карт", "безкозирка", "золота"]),
    ],
)
def test_schedule_human_table_in_the_persons_language(lang: str, words: list[str]) -> None:
    for result in (run("schedule", "--players", "3", "--lang", lang), run(
        "schedule", "--players", "3", lang=lang
    )):  # fmt: skip
        assert result.returncode == 0
        assert all(word in result.stdout for word in words), result.stdout


def test_the_contract_is_the_same_in_every_language() -> None:
    """A Russian system gets Russian tables, but the same JSON and error lines."""
    english = run("schedule", "--players", "4", "--json", lang="en").stdout
    assert run("schedule", "--players", "4", "--json", lang="ru").stdout == english
    assert json.loads(run("replay", str(EXAMPLE), "--json", lang="ru").stdout) == EXPECTED_REPORT
    record = json.loads(EXAMPLE.read_text())
    record["rounds"][0]["bids"] = [0, 1, 0]
    wrong = run("replay", "-", stdin=json.dumps(record), lang="ru")
    assert_one_error_line(wrong, "round 1: Anna (dealer) may not bid 0")
    for rules in (("list",), ("show", "classic"), ("diff", "classic", "georgian")):
        listed = run("rules", *rules, "--json", lang="uk").stdout
        assert listed == run("rules", *rules, "--json", lang="en").stdout


def test_rules_show_and_diff_speak_the_persons_language() -> None:
    """Titles, columns and each option's description as the web page's rules form words
    them; the options' names and values as ``--set`` takes them."""
    shown = run("rules", "show", "raspisnoy.com", "--lang", "ru")
    assert shown.returncode == 0, shown.stderr
    for words in ("Правила raspisnoy.com", "параметр", "значение", "описание"):
        assert words in shown.stdout
    assert "Наименьшее число игроков" in shown.stdout and "dealer_constraint" in shown.stdout
    assert "Fewest players" not in shown.stdout
    same = run("rules", "diff", "classic", "classic", lang="uk")
    assert (same.returncode, same.stdout) == (0, "відмінностей немає\n")
    changed = run("rules", "diff", "classic", "classic", "--set", "descending=on", lang="ru")
    assert "Правила classic и classic с --set" in changed.stdout
    assert "нисходящую" in changed.stdout and "descending" in changed.stdout


def test_rules_show_and_diff_refuse_in_the_persons_language() -> None:
    shown = run("rules", "show", "bridge", "--lang", "ru")
    assert_one_error_line(shown, "нет таких правил: «bridge»")
    differing = run("rules", "diff", "classic", "classic", "--set", "foo=1", lang="uk")
    assert_one_error_line(differing, "немає такого параметра правил: «foo»")


def test_rules_show_names_round_kinds_as_set_takes_them() -> None:
    """The form's help says «9:тёмная»; the terminal's says what ``--set`` accepts."""
    shown = run("rules", "show", "classic", "--lang", "ru").stdout.replace("\n", " ")
    assert "9:blind" in shown and "тёмная" not in shown
    ok = run("rules", "show", "classic", "--set", "custom_plan=9:blind", "--json")
    assert json.loads(ok.stdout)["custom_plan"] == ["9:blind"]


def test_an_unknown_language_is_one_error_line_in_the_systems() -> None:
    result = run("schedule", "--players", "4", "--lang", "de", lang="ru")
    assert result.stderr == "error: неизвестный язык 'de'; языки: ru, uk, en\n"
    assert result.returncode == 1 and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("schedule", "--players", "6"), "3 to 5 players, not 6"),
        (("schedule", "--players", "3", "--set", "nonsense=1"), "unknown rules option 'nonsense'"),
        (("schedule", "--players", "3", "--set", "descending"), "OPTION=VALUE"),
        (("schedule", "--players", "3", "--rules", "bridge"), "unknown rules preset 'bridge'"),
        (("rules", "show", "bridge"), "unknown rules preset 'bridge'"),
        (("replay", "/no/such/file.json"), "No such file"),
    ],
)
def test_bad_options_are_one_error_line(args: tuple[str, ...], fragment: str) -> None:
    assert_one_error_line(run(*args), fragment)


def test_replay_json_matches_record_md() -> None:
    result = run("replay", str(EXAMPLE), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == EXPECTED_REPORT


def test_replay_reads_standard_input() -> None:
    result = run("replay", "-", "--json", stdin=EXAMPLE.read_text())
    assert json.loads(result.stdout) == EXPECTED_REPORT


def test_replay_prints_a_score_sheet() -> None:
    result = run("replay", str(EXAMPLE), "--lang", "en")
    assert result.returncode == 0
    assert "Boris" in result.stdout and "-9" in result.stdout
    assert "Game in progress." in result.stdout and "♣" in result.stdout  # trump: clubs


def test_replay_prints_the_sheet_in_the_systems_language() -> None:
    result = run("replay", str(EXAMPLE), lang="ru")
    assert result.returncode == 0
    for words in ("Расписка", "Козырь", "обычная", "Итог", "Игра не закончена."):
        assert words in result.stdout, result.stdout


def test_rules_list_in_the_persons_language() -> None:
    result = run("rules", "list", "--lang", "uk")
    assert result.returncode == 0
    assert "Правила" in result.stdout and "Класичний аркуш правил" in result.stdout


def test_replay_illegal_card_names_round_trick_player_and_card() -> None:
    record = json.loads(EXAMPLE.read_text())
    # Vera leads A♥ at once; Boris holds 6♥ and must follow, but plays Q♦.
    record["rounds"][1]["hands"][1] = ["QD", "6H"]
    record["rounds"][1]["tricks"] = [["AH", "9C", "QD"]]
    result = run("replay", "-", stdin=json.dumps(record))
    assert_one_error_line(result, "round 2, trick 1: Boris must follow ♥ and may not play QD")


def test_replay_joker_highest_demand_names_the_card() -> None:
    record = json.loads(EXAMPLE.read_text())
    record["rounds"][1]["hands"][0] = ["KD", "9D"]
    record["rounds"][1]["tricks"] = [["X:highest:D", "9D"]]
    result = run("replay", "-", stdin=json.dumps(record))
    assert_one_error_line(
        result, "round 2, trick 1: Anna must play the highest ♦ (KD) and may not play 9D"
    )


def test_replay_illegal_bid_names_the_dealer() -> None:
    record = json.loads(EXAMPLE.read_text())
    record["rounds"][0]["bids"] = [0, 1, 0]
    assert_one_error_line(
        run("replay", "-", stdin=json.dumps(record)), "round 1: Anna (dealer) may not bid 0"
    )


def test_replay_malformed_json() -> None:
    assert_one_error_line(run("replay", "-", stdin="{nope"), "not valid JSON")


_json_leaves = (
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.sampled_from(
        ["X", "X:take", "KD", "7S", "10h", "X:highest:D", "normal", "blind", "", "raspisnoy.com"]
    )
)
_json = st.recursive(_json_leaves, lambda inner: st.lists(inner, max_size=4), max_leaves=12)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(["dealer", "hands", "trump_card", "bids", "tricks", "cards", "kind"]),
    value=_json,
    round_index=st.integers(0, 1),
)
def test_replay_never_crashes_on_mangled_records(
    path: str, round_index: int, value: object
) -> None:
    """Whatever a field holds, replay either succeeds or prints one error line: no traceback."""
    record = json.loads(EXAMPLE.read_text())
    record["rounds"][round_index][path] = value
    result = run_here("replay", "-", "--json", stdin=json.dumps(record))
    if result.returncode == 0:
        assert json.loads(result.stdout)["players"] == ["Anna", "Boris", "Vera"]
    else:
        assert_one_error_line(result)


def test_rules_list_and_show_json() -> None:
    listed = json.loads(run("rules", "list", "--json").stdout)
    names = ["raspisnoy.com", "classic", "ukrainian", "georgian", "oh-hell"]
    assert [entry["name"] for entry in listed] == names
    shown = json.loads(run("rules", "show", "raspisnoy.com", "--json").stdout)
    assert shown["preset"] == "raspisnoy.com"
    assert shown["jokers"] == ["7S"] and shown["descending"] is False
    changed = run("rules", "show", "raspisnoy.com", "--set", "descending=on", "--json")
    assert json.loads(changed.stdout)["descending"] is True


def test_rules_show_table_describes_every_option() -> None:
    result = run("rules", "show", "raspisnoy.com")
    assert result.returncode == 0
    for option in ("dealer_constraint", "misere_zero", "custom_plan"):
        assert option in result.stdout


def test_names_are_shown_as_text_not_markup() -> None:
    record = json.loads(EXAMPLE.read_text())
    record["players"] = ["[/]", "[bold]Boris", "Vera"]
    result = run("replay", "-", stdin=json.dumps(record))
    assert result.returncode == 0, result.stderr
    assert "[/]" in result.stdout and "[bold]Boris" in result.stdout


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        ("[" * 100_000, "not a usable JSON document"),
        ('{"format": ' + "1" * 5000 + "}", "not a usable JSON document"),
    ],
)
def test_pathological_json_is_one_error_line(stdin: str, fragment: str) -> None:
    assert_one_error_line(run("replay", "-", stdin=stdin), fragment)


def test_standard_input_must_be_utf8() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "raspisnoy", "replay", "-"],
        input=EXAMPLE.read_bytes().replace(b"Anna", b"An\xffna"),
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == ["error: the input is not UTF-8 text"]


@pytest.mark.parametrize(
    "args", [("replay",), ("schedule", "--players", "x"), ("schedule", "--no-such-option")]
)
def test_usage_errors_are_one_error_line(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert_one_error_line(result)


def test_no_command_shows_help() -> None:
    result = run()
    assert result.returncode == 0
    assert "schedule" in result.stdout and "replay" in result.stdout


def _command_groups() -> list[str]:
    """Every command group of ``raspisnoy`` (``rules``, ``casino``…), found by loading each
    command the application registers, so that a group added later is tested too."""
    root = typer.main.get_group(app)
    context = typer.Context(root)
    return [
        name
        for name in root.list_commands(context)
        if isinstance(root.resolve_command(context, [name])[1], typer.core.TyperGroup)
    ]


@pytest.mark.parametrize("group", _command_groups())
def test_a_group_without_a_command_shows_its_help(group: str) -> None:
    """``raspisnoy GROUP`` alone prints what ``raspisnoy GROUP --help`` prints and exits 0,
    as ``raspisnoy`` alone does, with nothing on standard error (Typer's
    ``no_args_is_help`` printed the help, then an empty ``error:`` line, and exited 2)."""
    result = run_here(group)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == run_here(group, "--help").stdout


def test_rules_diff_of_a_preset_with_itself_has_no_differences() -> None:
    result = run("rules", "diff", "raspisnoy.com", "raspisnoy.com")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "no differences\n"


def test_rules_diff_set_applies_to_b() -> None:
    args = ("rules", "diff", "raspisnoy.com", "raspisnoy.com", "--set", "descending=true")
    result = run(*args, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "a": "raspisnoy.com",
        "b": "raspisnoy.com",
        "differences": [{"option": "descending", "a": False, "b": True}],
    }
    table = run(*args).stdout
    assert "descending" in table and "no differences" not in table


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("bridge", "raspisnoy.com"), "unknown rules preset 'bridge'"),
        (("raspisnoy.com", "bridge"), "unknown rules preset 'bridge'"),
        (("raspisnoy.com", "raspisnoy.com", "--set", "nonsense=1"), "unknown rules option"),
    ],
)
def test_rules_diff_errors_are_one_error_line(args: tuple[str, ...], fragment: str) -> None:
    assert_one_error_line(run("rules", "diff", *args), fragment)


def test_rules_doc_prints_and_writes_the_reference(tmp_path: Path) -> None:
    printed = run("rules", "doc")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.startswith("# Rules reference\n")
    page = tmp_path / "rules-reference.md"
    written = run("rules", "doc", "--output", str(page))
    assert written.returncode == 0, written.stderr
    assert written.stdout == ""
    assert page.read_text(encoding="utf-8") == printed.stdout


@pytest.mark.parametrize("preset", PRESETS)
def test_schedule_of_every_preset(preset: str) -> None:
    rules = resolve_rules(preset)
    for players in rules.player_counts:
        result = run_here("schedule", "--players", str(players), "--rules", preset, "--json")
        assert result.returncode == 0, result.stderr
        expected = [spec.to_json() for spec in round_plan(rules, players)]
        assert json.loads(result.stdout) == expected


PRESET_SEATS = [(name, n) for name in PRESETS for n in resolve_rules(name).player_counts]


@pytest.mark.parametrize(("preset", "players"), PRESET_SEATS)
def test_replay_of_every_preset(preset: str, players: int) -> None:
    game = Game(preset, players, seed=7)
    rng = random.Random(7)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    result = run_here("replay", "-", "--json", stdin=dumps_record(game_to_record(game)))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == replay_report(game)


def test_list_options_from_the_command_line() -> None:
    result = run(
        "schedule", "--players", "3", "--rules", "classic",
        "--set", "special_rounds=blind,forehead", "--set", "jokers=6s", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    kinds = [entry["kind"] for entry in json.loads(result.stdout)]
    assert kinds[-6:] == ["blind"] * 3 + ["forehead"] * 3
    shown = run("rules", "show", "raspisnoy.com", "--set", "jokers=6s", "--json")
    assert json.loads(shown.stdout)["jokers"] == ["6S"]


@pytest.mark.parametrize("encoding", ["cp1251", "ascii"])
@pytest.mark.parametrize(
    ("args", "expected"),
    [(("replay", str(EXAMPLE)), "Anna"), (("schedule", "--players", "3"), "mis?re")],
)
def test_text_output_survives_an_output_encoding_without_the_symbols(
    encoding: str, args: tuple[str, ...], expected: str
) -> None:
    """A terminal or pipe in cp1251 or ASCII gets ``?`` for a suit's symbol or a
    letter it cannot hold, not a traceback (RECORD.md: ``replay`` exits 0 on success)."""
    result = subprocess.run(
        [sys.executable, "-m", "raspisnoy", *args],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": encoding, "LANG": "en_XX.UTF-8", "LC_ALL": ""},
    )
    assert result.returncode == 0, result.stderr.decode(encoding, "replace")
    assert result.stderr == b""
    assert expected in result.stdout.decode(encoding)
