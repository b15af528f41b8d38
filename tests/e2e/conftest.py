"""Browser tests: the real ``raspisnoy serve`` in a subprocess (a free port, a temporary
data directory) and Debian's Chromium driven by Playwright, clicking like a person.

Chromium comes from ``apt-get install -y chromium`` (``.ci/run`` installs it);
``RASPISNOY_CHROMIUM`` points at another binary.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_helpers import PHONE_SMALL, server_process
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from server_process import ServerProcess

CHROMIUM = Path(os.environ.get("RASPISNOY_CHROMIUM", "/usr/lib/chromium/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server with a database of its own, shared by the tests."""
    process = server_process(tmp_path_factory.mktemp("e2e-data"))
    process.start()
    yield process.url
    process.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server for one test alone, which the test may restart."""
    process = server_process(tmp_path)
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for one test file. Not for the session: Playwright's sync API keeps an event
    loop running in this thread while it is started, and the test files that a parallel
    worker runs after a browser file (``asyncio.run`` in tests/cluster) need it gone."""
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


@pytest.fixture
def calm_context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    """A visitor like ``context`` whose system asks for less motion: the deal and the
    taking of tricks are not animated, so a long game's clicks do not wait for cards to
    stop moving (the animation itself is checked in test_browser_screens.py)."""
    fresh = browser.new_context(
        base_url=server,
        locale="en-US",
        viewport={"width": 1280, "height": 800},
        reduced_motion="reduce",
    )
    yield fresh
    fresh.close()


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    """A Russian visitor on a small touch phone, with errors of the page collected."""
    context = browser.new_context(
        base_url=server, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []
