"""Browser tests: the real ``raspisnoy serve`` in a subprocess (a free port, a temporary
data directory) and Debian's Chromium driven by Playwright, clicking like a person.

Chromium comes from ``apt-get install -y chromium`` (``.ci/run`` installs it);
``RASPISNOY_CHROMIUM`` points at another binary.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, sync_playwright

CHROMIUM = Path(os.environ.get("RASPISNOY_CHROMIUM", "/usr/lib/chromium/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
#: How long the server may take to answer /healthz after it starts.
STARTUP_SECONDS = 30


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server with a database of its own."""
    data = tmp_path_factory.mktemp("e2e-data")
    log_path = data / "server.log"
    port = _free_port()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "raspisnoy", "serve", f"--port={port}", f"--data-dir={data}"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + STARTUP_SECONDS
        try:
            while True:
                if process.poll() is not None:
                    pytest.fail(f"the server exited: {log_path.read_text(errors='replace')}")
                try:
                    if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        pytest.fail(f"the server did not start: {log_path.read_text()}")
                    time.sleep(0.1)  # polling a process that is starting up
            yield url
        finally:
            process.terminate()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    """A fresh visitor (own cookies and storage) on a laptop-sized screen in English."""
    fresh = browser.new_context(
        base_url=server, locale="en-US", viewport={"width": 1280, "height": 800}
    )
    yield fresh
    fresh.close()
