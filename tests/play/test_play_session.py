"""The session of ``raspisnoy play``: seats and bots, its two files, resuming, and stopping
safely (a stop signal during an action waits for the action)."""

from __future__ import annotations

import io
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from stop_signals import SignallingOutput

from raspisnoy.bots import BOTS, make_bot
from raspisnoy.core import Action, Game, View, resolve_rules
from raspisnoy.core.record import loads_record, replay
from raspisnoy.i18n import translate
from raspisnoy.play.screen import TerminalScreen
from raspisnoy.play.session import (
    HUMAN,
    PlayError,
    PlaySession,
    RoundsSoFar,
    Seating,
    load_game,
    parse_levels,
    save_record,
    save_session,
    seat_names,
    session_file,
)
from raspisnoy.stopping import read_line

RULES = resolve_rules("raspisnoy.com", custom_plan=("2", "3:blind", "2"))


def test_levels_are_one_for_all_bots_or_one_per_bot() -> None:
    assert parse_levels("random", 4) == (None, "random", "random", "random")
    assert parse_levels(" Random,random ", 3) == (None, "random", "random")
    with pytest.raises(PlayError) as error:
        parse_levels("random,random", 4)
    assert "3 levels" in error.value.message("en")
    with pytest.raises(PlayError) as error:
        parse_levels("genius", 3)
    levels = ", ".join(BOTS)
    assert error.value.message("ru") == f"неизвестный уровень бота 'genius'; уровни: {levels}"


def test_seat_names_put_the_person_first_and_never_repeat_a_name() -> None:
    assert seat_names("ru", 3) == ("Вы", "Анна", "Борис")
    assert seat_names("uk", 3) == ("Ви", "Оксана", "Богдан")
    assert seat_names("en", 3, "Anna") == ("Anna", "Boris", "Vera")
    assert len(set(seat_names("en", 10))) == 10
    with pytest.raises(PlayError) as error:
        seat_names("en", 3, "x" * 41)
    assert error.value.key == "play.error.name"


def start(tmp_path: Path, seed: str = "5") -> tuple[Game, Seating, Path]:
    """A saved new game: the person and two random bots."""
    seating = Seating(seed, parse_levels("random", 3))
    game = Game(RULES, seat_names("en", 3), seed=seed)
    record = tmp_path / "game.json"
    save_session(seating, record)
    save_record(game, record)
    return game, seating, record


def advance(game: Game, seating: Seating, steps: int) -> None:
    """Play ``steps`` actions: the bots, and a random bot in the person's seat."""
    bots = seating.bots() | {HUMAN: make_bot("random", seed="person")}
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)


def test_a_saved_game_is_loaded_as_it_was_and_goes_on_the_same_way(tmp_path: Path) -> None:
    game, seating, record = start(tmp_path)
    assert session_file(record) == tmp_path / "game.session.json"
    advance(game, seating, 9)  # into the blind round's bidding
    save_record(game, record)
    loaded, loaded_seating = load_game(record)
    assert loaded_seating == seating
    assert loaded.events == game.events
    advance(game, seating, 1000)
    advance(loaded, loaded_seating, 1000)
    assert loaded.is_over
    assert loaded.events == game.events


def test_a_record_without_rounds_starts_the_seeds_game(tmp_path: Path) -> None:
    game, _, record = start(tmp_path)
    data = json.loads(record.read_text(encoding="utf-8"))
    record.write_text(json.dumps(data | {"rounds": []}), encoding="utf-8")
    loaded, _ = load_game(record)
    assert loaded.events == game.events  # the seed deals round 1 and draws its dealer


def test_a_record_written_mid_trick_replays(tmp_path: Path) -> None:
    game, seating, record = start(tmp_path)
    advance(game, seating, 5)  # round 1: three bids, two cards of the first trick
    save_record(game, record)
    replayed = replay(loads_record(record.read_text(encoding="utf-8")))
    assert replayed.events == game.events


def _break_session(record: Path, data: object) -> None:
    session_file(record).write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    ("damage", "key"),
    [
        (lambda r: r.unlink(), "play.error.no_record"),
        (lambda r: session_file(r).unlink(), "play.error.no_session"),
        (lambda r: session_file(r).write_text("{", encoding="utf-8"), "play.error.bad_session"),
        (lambda r: _break_session(r, {"format": "other"}), "play.error.bad_session"),
        (
            lambda r: _break_session(
                r, {"format": "raspisnoy-play-session/1", "seed": "5", "bots": ["random"] * 3}
            ),
            "play.error.bad_session",
        ),
        (
            lambda r: _break_session(
                r,
                {"format": "raspisnoy-play-session/1", "seed": "5", "bots": [None, "x", "random"]},
            ),
            "play.error.bad_session",
        ),
        (lambda r: r.write_text("[]", encoding="utf-8"), "play.error.bad_record"),
        (
            lambda r: save_session(Seating("6", (None, "random", "random")), r),
            "play.error.mismatch",
        ),
        (lambda r: save_session(Seating("5", (None, "random")), r), "play.error.seats"),
    ],
)
def test_a_game_that_cannot_be_continued_says_why(
    tmp_path: Path, damage: Callable[[Path], object], key: str
) -> None:
    _, _, record = start(tmp_path)
    damage(record)
    with pytest.raises(PlayError) as error:
        load_game(record)
    assert error.value.key == key
    assert str(tmp_path) in error.value.message("en")  # names the file at fault


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", "игроков в записи: 3, мест в сессии: 2"),
        ("uk", "гравців у записі: 3, місць у сесії: 2"),
        ("en", "players in the record: 3, seats in the session: 2"),
    ],
)
def test_a_session_with_another_number_of_seats_is_named_in_the_persons_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    _, _, record = start(tmp_path)
    save_session(Seating("5", (None, "random")), record)
    with pytest.raises(PlayError) as error:
        load_game(record)
    assert words in error.value.message(lang)


def test_a_finished_game_is_not_continued(tmp_path: Path) -> None:
    game, seating, record = start(tmp_path)
    advance(game, seating, 1000)
    save_record(game, record)
    with pytest.raises(PlayError) as error:
        load_game(record)
    assert error.value.message("uk") == f"партію в {record} уже закінчено"


class Scripted(TerminalScreen):
    """The real screen with the person's choices scripted: always the first legal action.
    It can end the input at the given prompt, or send this process a stop signal while
    the ``stop_at``-th action is being applied (as a Ctrl-C at that moment would)."""

    def __init__(self, stop_at: int | None = None, end_input_at: int | None = None) -> None:
        self.output = io.StringIO()
        super().__init__(Console(file=self.output, width=120), "en")
        self.stop_at, self.end_input_at = stop_at, end_input_at
        self.actions = 0
        self.prompts = 0

    def ask(self, view: View, rounds: RoundsSoFar) -> Action:
        self.show(view)
        self.prompts += 1
        if self.prompts == self.end_input_at:
            raise EOFError
        return view.legal_actions[0]

    def acted(self, seat: int, action: Action, view: View) -> None:
        super().acted(seat, action, view)
        self.actions += 1
        if self.actions == self.stop_at:
            os.kill(os.getpid(), signal.SIGINT)


def test_a_stop_signal_during_an_action_waits_for_it_then_saves(tmp_path: Path) -> None:
    game, seating, record = start(tmp_path)
    # The sixth action (three bids, three cards) ends the first trick; the signal arrives
    # while it is being applied and told, and must wait until the person has been told.
    screen = Scripted(stop_at=6)
    before = signal.getsignal(signal.SIGINT)
    assert PlaySession(game, seating, screen, record).run() is False
    assert signal.getsignal(signal.SIGINT) is before
    told = screen.output.getvalue()
    assert told.count("→ ") == 1  # who took the trick
    saved = replay(loads_record(record.read_text(encoding="utf-8")))
    actions = [event for event in saved.events if event.seat is not None]
    assert len(actions) == 6
    assert saved.events == game.events
    assert f"raspisnoy play --resume {record}" in told


def test_a_stop_signal_as_a_prompt_is_written_neither_cuts_nor_repeats_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen is whole after a Ctrl-C that comes while it is written: the prompt once,
    then the message that the game is saved (under load a Ctrl-C raised inside Rich's
    write made it write the prompt again)."""
    game, seating, record = start(tmp_path)
    prompt = translate("play.prompt.bid", "en")
    output = SignallingOutput(prompt)
    screen = TerminalScreen(Console(file=output, width=120), "en")
    assert PlaySession(game, seating, screen, record).run() is False
    told = output.getvalue()
    assert output.signalled
    assert told.count(prompt) == 1
    assert told.rstrip().endswith(f"raspisnoy play --resume {record}")
    assert replay(loads_record(record.read_text(encoding="utf-8"))).events == game.events
    # The stop was the stopped game's: a line read afterwards is read as usual.
    monkeypatch.setattr("builtins.input", lambda: "7")
    assert read_line() == "7"


def test_end_of_input_saves_the_game(tmp_path: Path) -> None:
    game, seating, record = start(tmp_path)
    screen = Scripted(end_input_at=1)
    assert PlaySession(game, seating, screen, record).run() is False
    assert replay(loads_record(record.read_text(encoding="utf-8"))).events == game.events
    assert "Game saved to" in screen.output.getvalue()


class Failing(Scripted):
    """A screen that breaks down at the person's third prompt."""

    def ask(self, view: View, rounds: RoundsSoFar) -> Action:
        if self.prompts == 2:
            raise RuntimeError("the screen broke")
        return super().ask(view, rounds)


def test_an_unexpected_error_still_saves_the_game_first(tmp_path: Path) -> None:
    game, seating, record = start(tmp_path)
    with pytest.raises(RuntimeError, match="the screen broke"):
        PlaySession(game, seating, Failing(), record).run()
    assert replay(loads_record(record.read_text(encoding="utf-8"))).events == game.events
    assert len([event for event in game.events if event.seat == HUMAN]) == 2


def test_a_game_played_to_the_end_is_saved_complete(tmp_path: Path) -> None:
    game, seating, record = start(tmp_path)
    screen = Scripted()
    assert PlaySession(game, seating, screen, record).run() is True
    saved = replay(loads_record(record.read_text(encoding="utf-8")))
    assert saved.is_over
    assert saved.totals == game.totals
    assert "Final totals: " in screen.output.getvalue()
