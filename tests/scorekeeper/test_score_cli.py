"""``raspisnoy score``, run as a real process: the sheet report, and keeping score
interactively through standard input and through a pseudo-terminal (pexpect), including a
resume after the process is killed in the middle of a round."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from stop_signals import SignallingOutput
from typer.testing import CliRunner

from raspisnoy.core import dumps_record, game_to_record
from raspisnoy.i18n import translate
from raspisnoy.scorekeeper import Sheet, command, read_sheet, write_sheet
from raspisnoy.scorekeeper.sheetfile import dumps_sheet

from .helpers import fill, played_game, sheet_of

PLAYERS = ("Anna", "Boris", "Vera")
#: Answers that set up a raspisnoy.com table of Anna, Boris and Vera with Anna dealing.
SET_UP = "1\n\nAnna, Boris, Vera\n1\n"


def run(*args: str, stdin: str = "", lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "LANG": f"{lang}_XX.UTF-8", "LC_ALL": ""}
    return subprocess.run(
        [sys.executable, "-m", "raspisnoy", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def assert_one_error_line(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]


# ---------------------------------------------------------------------- score --sheet


@pytest.mark.parametrize(("rules", "players", "seed"), [("raspisnoy.com", 4, 1), ("classic", 3, 2)])
def test_sheet_json_scores_a_game_as_replay_does(
    tmp_path: Path, rules: str, players: int, seed: int
) -> None:
    game = played_game(rules, players, seed)
    (tmp_path / "game.json").write_text(dumps_record(game_to_record(game)))
    write_sheet(sheet_of(game), tmp_path / "sheet.json")
    scored = run("score", "--sheet", str(tmp_path / "sheet.json"), "--json")
    replayed = run("replay", str(tmp_path / "game.json"), "--json")
    assert scored.returncode == 0, scored.stderr
    report, expected = json.loads(scored.stdout), json.loads(replayed.stdout)
    keys = ("round", "dealer", "cards", "kind", "points")
    assert report == {
        "rounds": [{key: r[key] for key in keys} for r in expected["rounds"]],
        "totals": expected["totals"],
        "complete": True,
        "winners": expected["winners"],
    }


def test_sheet_json_of_a_game_in_progress(tmp_path: Path) -> None:
    sheet = fill(Sheet.start("raspisnoy.com", PLAYERS), 2).bid(0, 1)
    write_sheet(sheet, tmp_path / "sheet.json")
    result = run("score", "--sheet", str(tmp_path / "sheet.json"), "--json")
    report = json.loads(result.stdout)
    assert [r["points"] for r in report["rounds"]] == [[5, 1, 5], [5, 5, 2], None]
    assert report["rounds"][2] == {
        "round": 3,
        "dealer": 2,
        "cards": 3,
        "kind": "normal",
        "points": None,
    }
    assert report["totals"] == [10, 6, 7]
    assert (report["complete"], report["winners"]) == (False, [])


def test_sheet_without_json_prints_the_sheet(tmp_path: Path) -> None:
    write_sheet(fill(Sheet.start("raspisnoy.com", PLAYERS), 2), tmp_path / "sheet.json")
    result = run("score", "--sheet", str(tmp_path / "sheet.json"), "--lang", "ru")
    assert result.returncode == 0, result.stderr
    assert "Расписная" in result.stdout
    assert re.search(r"итого.*10 .*6 .*7", result.stdout)


@pytest.mark.parametrize(
    ("edit", "fragments"),
    [
        (
            lambda data: data["rounds"][1].update(bids=[0, 2, 0]),
            ("round 2, Boris: the dealer may not bid 2",),
        ),
        (
            lambda data: data["rounds"][0].update(taken=[0, 0, 0]),
            ("round 1, Anna: the tricks taken would add up to 0",),
        ),
        (lambda data: data.update(format="raspisnoy-sheet/2"), ("format: expected",)),
        (lambda data: data["rounds"][0].update(tricks=[]), ("round 1: unknown field 'tricks'",)),
    ],
)
def test_an_invalid_sheet_is_one_error_line(tmp_path: Path, edit: object, fragments: str) -> None:
    data = json.loads(dumps_sheet(fill(Sheet.start("raspisnoy.com", PLAYERS), 2)))
    edit(data)  # type: ignore[operator]
    (tmp_path / "sheet.json").write_text(json.dumps(data))
    result = run("score", "--sheet", str(tmp_path / "sheet.json"), "--json")
    assert_one_error_line(result, *fragments)


def test_a_sheet_resumed_in_russian_says_what_is_wrong_in_russian(tmp_path: Path) -> None:
    """``score resume`` is a person's: a sheet the rules refuse is one error line in their
    language; ``score --sheet`` keeps the English line that programs read."""
    data = json.loads(dumps_sheet(fill(Sheet.start("raspisnoy.com", PLAYERS), 2)))
    data["rounds"][1].update(bids=[0, 2, 0])
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(data))
    resumed = run("score", "resume", str(path), "--lang", "ru", stdin="")
    assert_one_error_line(resumed, "раздача 2, Boris: сдающему нельзя заказать 2")
    checked = run("score", "--sheet", str(path), "--lang", "ru")
    assert_one_error_line(checked, "round 2, Boris: the dealer may not bid 2")


def test_unreadable_sheets_and_options_are_one_error_line(tmp_path: Path) -> None:
    assert_one_error_line(run("score", "--sheet", str(tmp_path / "none.json")), "none.json")
    (tmp_path / "bad.json").write_text("{")
    assert_one_error_line(run("score", "--sheet", str(tmp_path / "bad.json")), "not valid JSON")
    assert_one_error_line(
        run("score", "new", "--lang", "de"), "unknown language 'de'; languages: ru, uk, en"
    )


# ---------------------------------------------------------------------- interactive


def test_new_walks_the_table_through_the_rounds(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    answers = [
        SET_UP + str(path),
        # Round 1, Anna deals: Boris 1, Vera 0; Anna tries 0 (forbidden), then bids 1.
        "1",
        "0",
        "0",
        "1",
        # Tricks: Boris 1, Vera 0, and Enter gives Anna the only count left (0).
        "1",
        "0",
        "",
        # Round 2, Boris deals: Vera 1, Anna 0, Boris 0; tricks Vera 2, Anna 0, Boris 0.
        "1",
        "0",
        "0",
        "2",
        "0",
        "0",
        "q",
    ]
    result = run("score", "new", "--lang", "en", stdin="\n".join(answers) + "\n")
    assert result.returncode == 0, result.stderr
    assert "round 1, Anna: the dealer may not bid 0" in result.stdout
    assert "raspisnoy score resume" in result.stdout
    sheet = read_sheet(path)
    assert [(r.bids, r.taken) for r in sheet.rounds] == [
        ((1, 1, 0), (0, 1, 0)),
        ((0, 0, 1), (0, 0, 2)),
    ]
    assert sheet.totals == (-10 + 5, 10 + 5, 5 + 2)


def test_new_speaks_russian_and_refuses_bad_answers(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    answers = [
        "9",  # no such ruleset
        "1",
        "descending=maybe",  # a bad option value: the options are asked again
        "",
        "Anna, Anna, Vera",
        "Anna, Boris",
        "Anna, Boris, Vera",
        "Vera",
        str(path),
        "two",
        "5",
    ]
    result = run("score", "new", stdin="\n".join(answers) + "\n", lang="ru")
    out = result.stdout
    # the presets by their Russian names (the web client's), with the id one may type
    assert "2. Классические (classic) — Классический лист правил" in out
    assert "Введите число от 1 до 5" in out
    assert "параметр правил descending — да или нет (true или false), а не 'maybe'" in out
    assert out.count(translate("score.ruleset", "ru")) == 2  # not asked again after an option
    assert out.count(translate("score.options", "ru")) == 2
    assert "У каждого игрока должно быть своё имя" in out
    assert "По этим правилам играют от 3 до 5 игроков, а не 2" in out
    assert "two — не число" in out
    assert "раздача 1, Anna: заказ — от 0 до 1, а не 5" in out
    # The input ended: the sheet is saved, with Vera as the first dealer.
    assert "raspisnoy score resume" in out
    sheet = read_sheet(path)
    assert (sheet.first_dealer, sheet.rounds) == (2, ())


def test_new_words_the_rules_refusals_in_the_persons_language(tmp_path: Path) -> None:
    """An unknown option given on the command line ends the command; a round plan that
    cannot be dealt to the players named is refused, and the players asked for again."""
    refused = run("score", "new", "--lang", "uk", "--set", "nonsense=1")
    assert refused.returncode == 1
    assert refused.stderr.startswith("error: немає такого параметра правил: «nonsense» (є: ")
    assert len(refused.stderr.splitlines()) == 1
    answers = ["Anna, Boris, Vera, Gleb", "Anna, Boris, Vera", "Anna", str(tmp_path / "s.json")]
    stdin = "\n".join(answers) + "\n"
    result = run("score", "new", "--set", "custom_plan=12", stdin=stdin, lang="ru")
    assert result.returncode == 0, result.stderr
    assert (
        "план раздач custom_plan, раздача 1 «12»: когда игроков 4, "
        "каждому можно сдать не больше 9 карт"
    ) in result.stdout
    assert read_sheet(tmp_path / "s.json").players == PLAYERS


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_commands_name_the_keys_of_a_cyrillic_keyboard_too(lang: str) -> None:
    """u, e and q are also taken as г, у and й, the same keys on a Russian or Ukrainian
    keyboard: the prompt says so."""
    commands = translate("score.commands", lang)
    for keys in (command._UNDO, command._EDIT, command._QUIT):
        for key in keys:
            assert re.search(rf"\b{key}\b", commands), (key, commands)


def test_new_refuses_to_overwrite_a_sheet(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}")
    result = run("score", "new", str(path), "--rules", "classic")
    assert_one_error_line(result, "already exists", "raspisnoy score resume")
    assert path.read_text() == "{}"


def test_resume_edit_and_undo(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_sheet(fill(Sheet.start("raspisnoy.com", PLAYERS), 2), path)
    answers = [
        # Edit round 1: the bids stay, Anna rather than Boris took the trick.
        "e",
        "1",
        "",
        "",
        "",
        "0",
        "",
        "1",
        # Round 3 (Vera deals): Anna bids 1, then undo it and bid 2.
        "1",
        "u",
        "2",
        "q",
    ]
    result = run("score", "resume", str(path), "--lang", "en", stdin="\n".join(answers) + "\n")
    assert result.returncode == 0, result.stderr
    assert "Round 1 corrected" in result.stdout
    sheet = read_sheet(path)
    assert sheet.rounds[0].taken == (1, 0, 0)
    assert sheet.scored[0].points == (1, 5, 5)
    assert sheet.rounds[2].bids == (2, None, None)


def test_an_edit_that_breaks_the_rules_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_sheet(fill(Sheet.start("raspisnoy.com", PLAYERS), 1), path)
    before = path.read_text()
    result = run("score", "resume", str(path), stdin="e\n1\n\n\n\n1\n1\n\nq\n")
    assert "round 1, Vera: the tricks taken would add up to 2" in result.stdout
    assert path.read_text() == before


def test_resume_a_finished_game_shows_the_winners(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_sheet(fill(Sheet.start("raspisnoy.com", PLAYERS), 26), path)
    result = run("score", "resume", str(path), "--lang", "uk")
    assert result.returncode == 0, result.stderr
    assert re.search(r"Переможе?ц[ьі]: ", result.stdout)


def test_control_round_is_chosen_at_the_prompt(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1"], "control_game": True}
    sheet = Sheet.start(rules, PLAYERS).bid(1, 0).bid(2, 0).bid(0, 0)
    write_sheet(sheet.take(1, 1).take(2, 0).take(0, 0), path)
    # Boris is last: he picks 4 (misère) dealt by Vera; Anna, Boris and Vera take 0, 12, 0.
    result = run("score", "resume", str(path), stdin="4\nVera\n0\n12\n\n")
    assert "Control round: Boris, in last place" in result.stdout
    played = read_sheet(path)
    assert played.scored[1].control and played.scored[1].points == (100, -240, 100)
    assert played.next_entry is not None and played.next_entry.seat == 1  # still tied


# ---------------------------------------------------------------------- a real terminal


#: What Rich writes to clear a terminal before it redraws the sheet.
CLEAR_SCREEN = "\x1b[2J"


def spawn(*args: str) -> pexpect.spawn[str]:
    env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "raspisnoy", "score", *args, "--lang", "en"],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 160),
    )


def answer(child: pexpect.spawn[str], prompt: str, text: str) -> None:
    child.expect(re.escape(prompt))
    child.sendline(text)


def test_a_killed_session_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = spawn("new", str(path), "--rules", "raspisnoy.com")
    answer(child, "Players in seating order", "Anna, Boris, Vera")
    answer(child, "Who deals first", "2")
    for prompt, text in [("Vera's bid", "0"), ("Anna's bid", "1"), ("Boris's bid", "0")]:
        answer(child, prompt, text)
    # The dealer's 0 is refused: the sheet is redrawn, and the reason shows below it.
    child.expect(re.escape(CLEAR_SCREEN))
    child.expect(re.escape("round 1, Boris: the dealer may not bid 0"))
    assert child.before is not None and CLEAR_SCREEN not in child.before
    answer(child, "Boris's bid", "1")
    for prompt, text in [("Tricks Vera took", "1"), ("Tricks Anna took", "0")]:
        answer(child, prompt, text)
    answer(child, "Tricks Boris took", "0")
    answer(child, "Anna's bid", "2")
    # Anna's bid of round 2 is in: the next question shows it was saved. Kill the terminal.
    child.expect(re.escape("Boris's bid"))
    child.kill(signal.SIGKILL)
    child.close()
    saved = read_sheet(path)
    assert [(r.bids, r.taken) for r in saved.rounds] == [
        ((1, 1, 0), (0, 0, 1)),
        ((2, None, None), (None, None, None)),
    ]
    child = spawn("resume", str(path))
    answer(child, "Boris's bid", "0")
    answer(child, "Vera's bid", "1")
    for prompt, text in [("Tricks Anna took", "2"), ("Tricks Boris took", "0")]:
        answer(child, prompt, text)
    answer(child, "Tricks Vera took", "")
    answer(child, "Round 3", "q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    sheet = read_sheet(path)
    assert sheet.totals == (-10 + 20, -10 + 5, 1 - 10)
    assert sheet.next_entry is not None and sheet.next_entry.round == 3


def test_the_documented_example(tmp_path: Path) -> None:
    """docs/sheet-format.md: its example sheet gives its example report."""
    doc = (Path(__file__).parents[2] / "docs" / "sheet-format.md").read_text(encoding="utf-8")
    sheet, report = re.findall(r"```json\n(.*?)```", doc, re.DOTALL)[:2]
    (tmp_path / "sheet.json").write_text(sheet)
    result = run("score", "--sheet", str(tmp_path / "sheet.json"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(report)


@pytest.fixture
def signalled_console(monkeypatch: pytest.MonkeyPatch) -> SignallingOutput:
    """``raspisnoy score`` writes to a terminal that sends a Ctrl-C as a bid is asked."""
    out = SignallingOutput("'s bid")
    monkeypatch.setattr(
        command, "_console", lambda: Console(file=out, soft_wrap=True, highlight=False)
    )
    return out


def test_a_stop_signal_as_a_question_is_written_neither_cuts_nor_repeats_it(
    tmp_path: Path, signalled_console: SignallingOutput
) -> None:
    path = tmp_path / "sheet.json"
    write_sheet(Sheet.start("raspisnoy.com", PLAYERS), path)
    result = CliRunner().invoke(command.score_app, ["resume", str(path), "--lang", "en"])
    assert result.exit_code == 130
    assert signalled_console.signalled
    text = signalled_console.getvalue()
    assert text.count("'s bid") == 1
    assert text.rstrip().endswith(f"go on with: raspisnoy score resume {path}")


def test_a_stop_signal_while_an_entry_is_saved_waits_for_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry is in the file, and the program stops at the next question unread."""
    path = tmp_path / "sheet.json"
    write_sheet(Sheet.start("raspisnoy.com", PLAYERS), path)
    saves: list[Path] = []

    def write_signalled(sheet: Sheet, to: Path) -> None:
        saves.append(to)
        if len(saves) == 2:  # the first entry's save (the first: the sheet on resuming)
            os.kill(os.getpid(), signal.SIGINT)
        write_sheet(sheet, to)

    answers = iter(["1"])
    monkeypatch.setattr("builtins.input", lambda: next(answers))
    monkeypatch.setattr(command, "write_sheet", write_signalled)
    monkeypatch.setattr(command, "_console", lambda: Console(file=io.StringIO(), soft_wrap=True))
    result = CliRunner().invoke(command.score_app, ["resume", str(path), "--lang", "en"])
    assert result.exit_code == 130
    assert len(saves) == 2
    first = read_sheet(path).rounds[0]
    assert first.bids is not None and sorted(first.bids, key=str) == [1, None, None]
