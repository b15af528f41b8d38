"""``raspisnoy casino play``: a scripted person plays, quits mid-hand and goes on."""

from __future__ import annotations

import io
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from stop_signals import SignallingOutput

from raspisnoy.casino.record import verify_record
from raspisnoy.casino_command.play import START_BALANCE, CasinoTerminal, Wallet


def _terminal(
    path: Path, answers: list[str], lang: str = "en"
) -> tuple[CasinoTerminal, io.StringIO]:
    replies: Iterator[str] = iter(answers)
    out = io.StringIO()

    def read(_prompt: str) -> str:
        try:
            return next(replies)
        except StopIteration:
            raise EOFError from None

    seeds = iter(f"play-test/{n}" for n in range(100))
    console = Console(file=out, width=100, color_system=None)
    return CasinoTerminal(console, lang, path, read=read, seeds=lambda: next(seeds)), out


def test_a_hand_is_played_settled_and_kept(tmp_path: Path) -> None:
    wallet = tmp_path / "wallet.json"
    # Two boxes of 10: fold the first, bet the second (the dealer may then be bought).
    terminal, out = _terminal(wallet, ["10 10", "1", "2", "2", "2"])
    terminal.run(hands=1)
    saved = Wallet.load(wallet)
    assert saved.hand is None and len(saved.history) == 1
    record = saved.history[0]
    assert verify_record(record)["final_balance"] == saved.balance
    nets = sum(result["net"] for result in record["results"])
    assert saved.balance == START_BALANCE + nets
    text = out.getvalue()
    assert "Shuffle committed: SHA-256 " + record["commitment"] in text
    assert "Seed revealed: " + record["seed"] in text


def test_quit_mid_hand_and_go_on(tmp_path: Path) -> None:
    wallet = tmp_path / "wallet.json"
    first, out = _terminal(wallet, ["5", "q"])
    first.run()
    assert "Saved in" in out.getvalue()
    kept = json.loads(wallet.read_text())["hand"]
    assert kept["antes"] == [5] and kept["actions"] == []
    # The hand in progress comes back with the same cards; the hint shows the advisor.
    second, out = _terminal(wallet, ["0", "2"], lang="ru")
    second.run(hands=1)
    text = out.getvalue()
    assert "Продолжаем начатую раздачу." in text
    assert "Лучше всего:" in text
    saved = Wallet.load(wallet)
    assert saved.hand is None
    assert saved.history[0]["commitment"] == kept["commitment"]
    assert saved.history[0]["actions"] == [{"box": 1, "action": "bet"}]


def test_a_change_by_card_numbers_and_bad_input(tmp_path: Path) -> None:
    wallet = tmp_path / "wallet.json"
    terminal, out = _terminal(wallet, ["abc", "10", "9", "4", "7", "4", "1 2", "2", "2"])
    terminal.run(hands=1)
    text = out.getvalue()
    assert "'abc': antes are whole numbers" in text
    assert "'9' is not one of the choices." in text
    assert "'7': name 1 to 5 of the numbers shown." in text
    actions = Wallet.load(wallet).history[0]["actions"]
    assert actions[0]["action"].startswith("change ") and len(actions[0]["action"].split()) == 3
    assert actions[1] == {"box": 1, "action": "bet"}


def test_an_empty_wallet_is_refilled(tmp_path: Path) -> None:
    wallet = tmp_path / "wallet.json"
    Wallet(balance=0).save(wallet)
    terminal, out = _terminal(wallet, ["10", "1"])
    terminal.run(hands=1)
    assert "a free refill to 1000" in out.getvalue()
    saved = Wallet.load(wallet)
    assert saved.refills == 1 and saved.balance == START_BALANCE - 10


def test_the_command_refuses_a_broken_wallet(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    wallet = tmp_path / "wallet.json"
    wallet.write_text('{"format": "something-else"}')
    result = cli("casino", "play", "--wallet", str(wallet), "--lang", "en")
    assert result.status == 1 and result.stderr.startswith("error: ")
    assert "not a raspisnoy-casino-wallet/1 file" in result.stderr


def test_a_wallet_the_command_cannot_use_is_said_in_the_persons_language(  # type: ignore[no-untyped-def]
    cli, tmp_path: Path
) -> None:
    wallet = tmp_path / "wallet.json"
    wallet.write_text("{not json")
    result = cli("casino", "play", "--wallet", str(wallet), "--lang", "ru")
    assert result.status == 1
    assert result.stderr == f"error: {wallet}: это не файл кошелька (raspisnoy-casino-wallet/1)\n"
    wallet.write_text('{"format": "raspisnoy-casino-wallet/1", "balance": -5}')
    result = cli("casino", "play", "--wallet", str(wallet), "--lang", "uk")
    assert result.stderr == f"error: {wallet}: баланс -5 — не число фішок\n"
    result = cli("casino", "play", "--wallet", str(tmp_path), "--lang", "ru")
    assert result.stderr == f"error: {tmp_path}: это папка, а не файл\n"


def test_a_stop_signal_as_a_prompt_is_written_neither_cuts_nor_repeats_it(tmp_path: Path) -> None:
    """A Ctrl-C typed as the question appears: the question once, then "saved"."""
    wallet = tmp_path / "wallet.json"
    question = "Antes (1-100)"
    out = SignallingOutput(question)
    CasinoTerminal(Console(file=out, width=200, color_system=None), "en", wallet).run()
    assert out.signalled
    text = out.getvalue()
    assert text.count(question) == 1
    assert text.rstrip().endswith(f"Saved in {wallet}; run the same command to go on.")


def test_a_stop_signal_while_the_wallet_is_saved_waits_for_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand is kept whole, then the game stops at the next question without reading."""
    wallet = tmp_path / "wallet.json"
    answers = iter(["10"])
    monkeypatch.setattr("builtins.input", lambda: next(answers))
    save = Wallet.save

    def save_signalled(self: Wallet, path: Path) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        save(self, path)

    monkeypatch.setattr(Wallet, "save", save_signalled)
    out = io.StringIO()
    CasinoTerminal(Console(file=out, width=200, color_system=None), "en", wallet).run()
    hand = Wallet.load(wallet).hand
    assert hand is not None and hand["antes"] == [10]  # the new hand, kept
    assert out.getvalue().rstrip().endswith("run the same command to go on.")


def test_antes_out_of_bounds_or_past_the_balance_are_refused_in_the_persons_words(
    tmp_path: Path,
) -> None:
    wallet = tmp_path / "wallet.json"
    Wallet(balance=50).save(wallet)
    terminal, out = _terminal(wallet, ["40 40", "0", "5 5 5 5", "10 10 10", "q"], lang="ru")
    terminal.run()
    text = out.getvalue()
    assert text.count("Не хватает фишек: этим анте нужно 80") == 1
    assert text.count("Анте — от 1 до 100 фишек, на 1–3 бокса.") == 2
    assert "целые числа" not in text
    hand = Wallet.load(wallet).hand
    assert hand is not None and hand["antes"] == [10, 10, 10]
