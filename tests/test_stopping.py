"""``raspisnoy.stopping``: a stop signal interrupts a wait for the person's line at once,
is kept for the next safe point anywhere else, and is forgotten once the program is out."""

from __future__ import annotations

import os
import signal

import pytest

from raspisnoy.stopping import STOP_SIGNALS, check_stop, read_line, stopping_at_safe_points


def test_a_signal_outside_the_wait_stops_at_the_next_safe_point() -> None:
    with stopping_at_safe_points():
        os.kill(os.getpid(), signal.SIGINT)  # handled at once: nothing raised here
        with pytest.raises(KeyboardInterrupt):
            check_stop()
        with pytest.raises(KeyboardInterrupt):
            read_line()  # it stops before waiting


def test_a_signal_during_the_wait_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def input_interrupted() -> str:
        os.kill(os.getpid(), signal.SIGTERM)  # as the person's kill arrives mid-wait
        return "never read"

    monkeypatch.setattr("builtins.input", input_interrupted)
    with stopping_at_safe_points(), pytest.raises(KeyboardInterrupt):
        read_line()


def test_the_handlers_come_back_and_a_stop_is_forgotten_outside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    with stopping_at_safe_points():
        assert all(signal.getsignal(signum) is not before[signum] for signum in STOP_SIGNALS)
        os.kill(os.getpid(), signal.SIGHUP)
    assert {signum: signal.getsignal(signum) for signum in STOP_SIGNALS} == before
    check_stop()
    monkeypatch.setattr("builtins.input", lambda: "7")
    assert read_line() == "7"
