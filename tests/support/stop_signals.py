"""A terminal's output that sends this process a stop signal (SIGINT, a Ctrl-C) as a
given text is written: a Ctrl-C typed just as a prompt appears, with the program not
yet waiting for the line. The terminal programs' tests use it to check that such a
signal neither cuts the prompt off nor makes it written twice (``raspisnoy.stopping``)."""

from __future__ import annotations

import io
import os
import signal


class SignallingOutput(io.StringIO):
    """Sends SIGINT once, from inside the first write that holds ``text``."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text, self.signalled = text, False

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.text in text and not self.signalled:
            self.signalled = True
            os.kill(os.getpid(), signal.SIGINT)
        return written
