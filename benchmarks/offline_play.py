"""Offline play's figures (issue 34, item 5; docs/offline.md): what it downloads, how soon
a game is playable with the network off, how long a bot's move takes in the browser, and
the page's memory, in Chromium with its CPU slowed down as a phone's (CDP
``Emulation.setCPUThrottlingRate``, ×4 by default).

- **bytes**: every file of offline play as served, and gzip-compressed (``-6``, what a
  reverse proxy in front would send); an update of the engine is the bundle alone, since
  Pyodide's files are the same for the same pinned version (the browser revalidates
  them: answers of a few hundred bytes).
- **tap → playable**: after one visit with the network, offline, from the tap on «Начать
  партию с ботами» to the game on screen, and to the person's first bid (the bots ahead
  of them have played): the first game of a page (Pyodide starts) and the next.
- **bot move**: the time between two bot moves in a row as the page receives them, with
  no bot delay: the bot's decision in Pyodide plus its messages and the save to
  IndexedDB; median and 95th percentile over whole games of heuristic bots.
- **memory**: the resident memory of this Chromium's renderer processes (the page and
  its worker), before the first offline game, during it and after the last, from
  ``/proc`` (Linux).

    .venv/bin/python benchmarks/offline_play.py [--throttle 4] [--games 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from raspisnoy.server.services.offline import PYODIDE_FILES, OfflineFiles, default_pyodide_dir

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))  # the real server, as the tests start it
from server_process import ServerProcess  # noqa: E402

CHROMIUM = os.environ.get("RASPISNOY_CHROMIUM", "/usr/lib/chromium/chromium")
#: A game of every round kind of raspisnoy.com's plan but short: three players, bots at once.
QUICK = {"rules": "raspisnoy.com", "players": 3, "bots": "heuristic", "bot_delay_ms": 0}
ACTIONABLE = ".bids button.bid:not([disabled]), .hand button.card.legal:not([disabled])"
#: Notes when a bot's move reaches the page (patched in before the page's own scripts).
WATCH_BOTS = """(() => {
  window.botMoves = [];
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const m = event.data;
        if (m && m.type === 'event') window.botMoves.push([performance.now(), m.action.by]);
      });
    }
  };
})()"""
KEPT = """() => navigator.serviceWorker.controller !== null && caches.keys()
  .then((names) => Promise.all(names.map((name) => caches.open(name)
    .then((cache) => cache.match('/offline/pyodide/pyodide.asm.wasm')))))
  .then((found) => found.some(Boolean))"""


def file_bytes() -> dict[str, Any]:
    """Every offline file's size as served and gzip-compressed."""
    folder = default_pyodide_dir()
    files = {name: (folder / name).read_bytes() for name in PYODIDE_FILES}
    files["raspisnoy.zip"] = OfflineFiles(None).bundle
    rows = {name: [len(data), len(gzip.compress(data, 6))] for name, data in files.items()}
    return {
        "files": rows,
        "first_bytes": sum(raw for raw, _ in rows.values()),
        "first_gzip_bytes": sum(packed for _, packed in rows.values()),
        "update_bytes": rows["raspisnoy.zip"][0],
        "update_gzip_bytes": rows["raspisnoy.zip"][1],
    }


def _processes() -> dict[int, tuple[int, bytes]]:
    """Every process: its parent and its command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            found[int(entry.name)] = (parent, (entry / "cmdline").read_bytes())
        except (OSError, ValueError, IndexError):
            continue
    return found


def renderer_rss_mb(marker: str) -> float:
    """The resident memory, in MB, of the renderer processes (the page and its worker)
    of the Chromium launched with ``marker`` among its arguments, not of any other."""
    processes = _processes()
    ours = {pid for pid, (_, line) in processes.items() if marker.encode() in line}
    grown = True
    while grown:
        more = {pid for pid, (parent, _) in processes.items() if parent in ours} - ours
        ours |= more
        grown = bool(more)
    total = 0
    for pid in ours:
        if b"--type=renderer" not in processes[pid][1]:
            continue
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total += sum(
            int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")
        )
    return total / 1024


def play_out(page: Page) -> None:
    """Takes the first allowed action at each of the person's turns to the results."""
    while True:
        where = page.wait_for_function(
            "a => document.querySelector('#results') ? 'over'"
            " : document.querySelector(a) ? 'turn' : null",
            arg=ACTIONABLE,
            timeout=120_000,
        ).json_value()
        if where == "over":
            return
        page.locator(ACTIONABLE).first.click()
        if page.locator("dialog[open] .joker-option").count():
            page.locator("dialog[open] .joker-option").first.click()


def tap_to_playable(page: Page, selector: str) -> tuple[float, float]:
    """Seconds from the tap on ``selector`` to the game on screen and to the first turn."""
    start = time.perf_counter()
    page.click(selector)
    page.wait_for_selector(".game", timeout=120_000)
    shown = time.perf_counter() - start
    page.wait_for_selector(ACTIONABLE, timeout=120_000)
    return shown, time.perf_counter() - start


def bot_move_ms(page: Page) -> list[float]:
    """The gaps between bot moves received one right after another, in ms."""
    moves: list[list[Any]] = page.evaluate("window.botMoves")
    return [
        later[0] - earlier[0]
        for earlier, later in itertools.pairwise(moves)
        if earlier[1] == later[1] == "bot"
    ]


def measure(throttle: float, games: int) -> dict[str, Any]:
    figures: dict[str, Any] = {"throttle": throttle, "load_average": os.getloadavg()}
    figures.update(file_bytes())
    data = Path(tempfile.mkdtemp(prefix="raspisnoy-offline-bench-"))
    server = ServerProcess("--data-dir", str(data))
    server.start()
    try:
        with sync_playwright() as playwright:
            marker = f"--raspisnoy-bench={uuid.uuid4().hex}"  # finds this browser's processes
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--headless", "--no-sandbox", "--disable-gpu", marker],
            )
            context = browser.new_context(
                base_url=server.url, locale="ru-RU", viewport={"width": 360, "height": 640}
            )
            context.add_init_script(WATCH_BOTS)
            page = context.new_page()
            page.goto("/?offline")
            page.evaluate(
                "body => localStorage.setItem('raspisnoy.lastTable', body)", json.dumps(QUICK)
            )
            while not page.evaluate(KEPT):  # an answer of a promise: not wait_for_function
                page.wait_for_timeout(500)
            context.set_offline(True)
            page.reload()
            page.wait_for_selector(".offline-start")
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            figures["rss_before_mb"] = renderer_rss_mb(marker)
            first = tap_to_playable(page, ".offline-start")
            figures["rss_playing_mb"] = renderer_rss_mb(marker)
            play_out(page)
            later = []
            for _ in range(games - 1):
                later.append(tap_to_playable(page, "#results a[href='/?offline=new']"))
                play_out(page)
            figures["rss_after_mb"] = renderer_rss_mb(marker)
            figures["first_game"] = {"shown_s": first[0], "playable_s": first[1]}
            figures["next_games"] = [{"shown_s": s, "playable_s": p} for s, p in later]
            gaps = bot_move_ms(page)
            figures["bot_moves"] = len(gaps)
            figures["bot_move_median_ms"] = statistics.median(gaps)
            figures["bot_move_p95_ms"] = statistics.quantiles(gaps, n=20)[-1]
            browser.close()
    finally:
        server.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown (×)")
    parser.add_argument("--games", type=int, default=2, help="whole games to play (≥ 1)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    arguments = parser.parse_args()
    figures = measure(arguments.throttle, max(1, arguments.games))
    text = json.dumps(figures, indent=2)
    print(text)
    if arguments.json:
        arguments.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
