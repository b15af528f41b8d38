"""The browser client satisfies the server's Content-Security-Policy (issue 27, item 12):
Chromium, opening the lobby, the leaderboard, the scorekeeper and the casino as a guest,
reports no violation of it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from server_process import ServerProcess

CHROMIUM = Path(os.environ.get("RASPISNOY_CHROMIUM", "/usr/lib/chromium/chromium"))
#: Counts the page's CSP violations (``securitypolicyviolation`` events), from its start.
WATCH = (
    "window.__violations = [];"
    "document.addEventListener('securitypolicyviolation',"
    " (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("csp-data")
    process = ServerProcess("--data-dir", str(data), log=data / "server.log")
    process.start()
    yield process.url
    process.stop()


def test_the_client_breaks_no_rule_of_the_policy(server: str) -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_context(base_url=server, locale="en-US").new_page()
        page.add_init_script(WATCH)
        console = []
        page.on("console", lambda message: console.append(message.text))
        page.goto("/")
        page.fill("#nickname", "Policy")
        page.click(".nickname-form button[type=submit]")
        page.wait_for_selector(".lobby, .tables, main", timeout=20_000)
        seen = []
        for path in ("/", "/?leaderboard", "/score", "/casino"):
            page.goto(path)
            page.wait_for_load_state("networkidle")
            seen += page.evaluate("window.__violations")
        browser.close()
    assert seen == [], seen
    assert not [line for line in console if "Content Security Policy" in line], console
