"""Stopping a terminal program safely: Ctrl-C, a kill (SIGTERM) or the terminal closing
(SIGHUP) while ``raspisnoy play``, ``raspisnoy score`` or ``raspisnoy casino play`` runs.

Inside ``stopping_at_safe_points()`` a stop signal interrupts at once only while the
program waits for the person's line (``read_line``); anywhere else it is recorded, and
the program stops (``KeyboardInterrupt``) at the next safe point: the next ``check_stop()``
or ``read_line()``. Raised at an arbitrary moment, it would cut a print or a save off
halfway: Rich, cut off after writing a prompt but before clearing its buffer, wrote the
prompt a second time after the Ctrl-C (what the terminal tests caught under load), and a
change could be made in memory but not saved, while the program said it was.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["STOP_SIGNALS", "ask_line", "check_stop", "read_line", "stopping_at_safe_points"]

#: The signals that stop a program (and save its work): Ctrl-C, kill, the terminal closing.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class _Stop:
    """Where a stop signal stands, process-wide as signals are."""

    #: Whether the program is waiting for the person's line (where a stop acts at once).
    waiting = False
    #: Whether a stop signal has come and not yet been acted on.
    pending = False


@contextlib.contextmanager
def stopping_at_safe_points() -> Iterator[None]:
    """While inside, the stop signals stop the program only at safe points (the module's
    docstring); on the way out their handlers are put back and a stop that came is
    forgotten, so a line read afterwards in the same process waits as usual."""
    _Stop.pending = False
    previous = {signum: signal.signal(signum, _on_signal) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _Stop.pending = False


def check_stop() -> None:
    """Stop here (``KeyboardInterrupt``) if a stop signal has come."""
    if _Stop.pending:
        raise KeyboardInterrupt


def read_line() -> str:
    """The line the person types (``input()``); a stop signal that came before or comes
    during the wait stops the program here."""
    _Stop.waiting = True
    try:
        check_stop()
        return input()
    finally:
        _Stop.waiting = False


def ask_line(console: Console, prompt: str | Text) -> str:
    """``prompt`` written to ``console`` (a string as plain text, never Rich markup: ``[1]``
    stays ``[1]``), then the person's line (``read_line``), so a stop signal never cuts
    the prompt off. Rich is imported here, by the programs that ask."""
    from rich.text import Text

    console.print(Text(prompt) if isinstance(prompt, str) else prompt, end="")
    return read_line()


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """A stop signal's handler inside ``stopping_at_safe_points``."""
    _Stop.pending = True
    if _Stop.waiting:
        raise KeyboardInterrupt
