"""``raspisnoy serve`` as a child process: started on a free loopback port, ready once
``/healthz`` answers, stopped, killed with SIGKILL and started again on the same port and
data (a restart, or a crash). The browser and server tests, the audits and the benchmarks
all run their servers through it (a test harness: it lives beside the tests, not in the
package).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

__all__ = ["ServerProcess", "ServerStartError", "free_port"]

#: How long a server may take to answer ``/healthz`` after it starts (a busy machine
#: compiles the expert's search and migrates the database first).
STARTUP_SECONDS = 60.0


#: Asks loopback directly, whatever proxy the environment names.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now (the system's choice for a throwaway socket)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


class ServerStartError(RuntimeError):
    """The server exited or did not answer in time; the message ends with its log."""


class ServerProcess:
    """``raspisnoy serve --port PORT OPTIONS...`` with ``env`` added to this process's
    environment, its output appended to ``log`` (by default a file in a new temporary
    folder, named in the error if it does not start). ``start`` again after ``stop`` or
    ``kill`` reuses the port, so clients reconnect to the same address."""

    def __init__(
        self,
        *options: str,
        port: int | None = None,
        env: Mapping[str, str] | None = None,
        log: Path | None = None,
        startup_seconds: float = STARTUP_SECONDS,
    ) -> None:
        self.options = options
        self.port = free_port() if port is None else port
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.log = log or Path(tempfile.mkdtemp(prefix="raspisnoy-serve-")) / "server.log"
        self.startup_seconds = startup_seconds
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server and wait until it answers; ``ServerStartError`` otherwise."""
        command = [sys.executable, "-m", "raspisnoy", "serve", "--port", str(self.port)]
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [*command, *self.options], env=self.env, stdout=output, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + self.startup_seconds
        while not self._answers():
            if not self.alive() or time.monotonic() > deadline:
                self.kill()
                raise ServerStartError(f"the server did not start: {self._log_tail()}")
            time.sleep(0.1)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 30) -> None:
        """SIGTERM: the server finishes what it was doing and shuts down."""
        if self.process is not None and self.alive():
            self.process.terminate()
            self.process.wait(timeout)

    def kill(self, timeout: float = 30) -> None:
        """SIGKILL: no shutdown, no flush; whatever was not committed is gone."""
        if self.process is not None and self.alive():
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout)

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _value: BaseException | None,
        _traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _answers(self) -> bool:
        try:
            with _DIRECT.open(f"{self.url}/healthz", timeout=2) as answer:
                return bool(answer.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def _log_tail(self) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return f"{self.log}:\n{text[-2000:]}"
