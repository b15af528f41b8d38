"""Offline play's figures (issue 34, item 5; docs/offline.md): what it downloads, how soon
a game is playable with the network off, how long a bot's move takes in the browser, and
the page's memory, in Chromium with its CPU slowed down as a phone's (CDP
``Emulation.setCPUThrottlingRate``, ×4 by default).

- **bytes**: every file of offline play as served, and gzip-compressed (``-6``, what a
  reverse proxy in front would send; the engine's snapshot made at install time is
  served gzipped as it is kept, ``-9``); an update of the engine is the bundle and its
  snapshot, since Pyodide's files are the same for the same pinned version (the browser
  revalidates them: answers of a few hundred bytes).
- **tap → playable**: after one visit with the network (a new visitor's first screen,
  which keeps offline play's files), offline, on a fresh page load of the offline
  screen, from the tap on «Начать партию с ботами» (as soon as it shows) to the game on
  screen, and to the person's first bid (the bots ahead of them have played). Four
  cases: the device's first offline game after one visit that ended as soon as offline
  play's files were kept (with them, the engine's snapshot made at install time:
  restored from it, the figure the target is about; with how long the visit took to
  keep them, the visit's CPU slowed too), the first start of the engine on a device
  with no snapshot (a server that has none: Python starts afresh and takes the snapshot
  that later starts restore: docs/offline.md), a later
  fresh page (restored), and the next game of the same page. For each fresh page, the
  engine's own steps (from its ``ready`` message) and how long it had been starting
  before the tap (the warm-up that opening the screen gives it).
- **bot move**: with no bot delay, over whole games of heuristic bots, median and 95th
  percentile of: the engine's time for a bot's move (its decision in Pyodide and its
  messages to the page: the worker's ``raspisnoy:bot-move`` measures); the save of the
  game to IndexedDB that follows it (``raspisnoy:save``; saves queued meanwhile are one);
  and the time between two bot moves in a row as the page receives them, which also
  holds the page's own work on the first (the page's CPU slowed too) and the save.
- **memory**: the resident memory of this Chromium's renderer processes (the page and
  its worker), during a game on a fresh page (the engine restored) and after the last
  game, from ``/proc`` (Linux); and the bytes of the engine's snapshot on the device.

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

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

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
        if (m && m.type === 'ready') window.engineReady = [performance.now(), m.timings];
      });
    }
  };
})()"""
#: Whether the engine's snapshot is kept on the device (js/offline_engine.js), its bytes.
SNAPSHOT = """() => caches.open('raspisnoy-engine').then((cache) => cache.keys()
  .then((keys) => keys.length
    ? cache.match(keys[0]).then((kept) => kept.blob()).then((blob) => blob.size) : 0))"""
KEPT = """() => navigator.serviceWorker.controller !== null && caches.keys()
  .then((names) => Promise.all(names.map((name) => caches.open(name)
    .then((cache) => cache.match('/offline/pyodide/pyodide.asm.wasm')))))
  .then((found) => found.some(Boolean))"""


def file_bytes() -> dict[str, Any]:
    """Every offline file's size as served and gzip-compressed (the snapshot: unpacked
    and as kept, gzipped)."""
    folder = default_pyodide_dir()
    files = {name: (folder / name).read_bytes() for name in PYODIDE_FILES}
    files["raspisnoy.zip"] = OfflineFiles(None).bundle
    rows = {name: [len(data), len(gzip.compress(data, 6))] for name, data in files.items()}
    snapshot = OfflineFiles(folder).snapshot_file()
    if snapshot is None:
        raise RuntimeError("no engine snapshot in .offline/snapshots: run scripts/bootstrap")
    packed = snapshot.read_bytes()
    rows["snapshot"] = [len(gzip.decompress(packed)), len(packed)]
    return {
        "files": rows,
        "first_bytes": sum(raw for raw, _ in rows.values()),
        "first_gzip_bytes": sum(packed for _, packed in rows.values()),
        "update_bytes": rows["raspisnoy.zip"][0] + rows["snapshot"][1],
        "update_gzip_bytes": rows["raspisnoy.zip"][1] + rows["snapshot"][1],
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


def tap_to_playable(page: Page, selector: str) -> dict[str, float]:
    """Seconds from the tap on ``selector`` to the game on screen and to the first turn."""
    start = time.perf_counter()
    page.click(selector)
    page.wait_for_selector(".game", timeout=120_000)
    shown = time.perf_counter() - start
    page.wait_for_selector(ACTIONABLE, timeout=120_000)
    return {"shown_s": shown, "playable_s": time.perf_counter() - start}


def fresh_page_game(context: BrowserContext, throttle: float) -> tuple[Page, dict[str, Any]]:
    """A new page of the offline screen (CPU slowed from its start), tapped as soon as the
    start button shows: the figures of ``tap_to_playable``, the screen's own load, the
    engine's steps and its head start on the tap."""
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    opened = time.perf_counter()
    page.goto("/?offline")
    page.wait_for_selector(".offline-start")
    figures: dict[str, Any] = {"screen_s": time.perf_counter() - opened}
    tapped_at = page.evaluate("performance.now()")
    figures.update(tap_to_playable(page, ".offline-start"))
    ready_at, timings = page.wait_for_function("window.engineReady", timeout=120_000).json_value()
    figures["engine_ms"] = timings
    # the worker's clock starts when it is made: its head start is the tap minus that
    figures["engine_head_start_s"] = (tapped_at - (ready_at - timings["since_start"])) / 1000
    return page, figures


def wait_for_snapshot(page: Page) -> int:
    """Until the engine's snapshot is kept on the device; its size in bytes."""
    for _ in range(600):
        size = int(page.evaluate(SNAPSHOT))  # an answer of a promise: not wait_for_function
        if size:
            return size
        page.wait_for_timeout(500)
    raise RuntimeError("the engine's snapshot was not kept")


def visit_online(context: BrowserContext, throttle: float) -> Page:
    """A first visit with the network (CPU slowed), until the service worker has kept
    offline play's files; the next new game is QUICK."""
    visit = context.new_page()
    context.new_cdp_session(visit).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    visit.goto("/")  # a first visit (its nickname form) keeps the files, makes the snapshot
    visit.evaluate("body => localStorage.setItem('raspisnoy.lastTable', body)", json.dumps(QUICK))
    while not visit.evaluate(KEPT):  # an answer of a promise: not wait_for_function
        visit.wait_for_timeout(500)
    return visit


def first_game_after_one_visit(browser: Browser, url: str, throttle: float) -> dict[str, Any]:
    """A new device (browser context): one visit that ends as soon as offline play's files
    are kept (seconds from the visit's start; and the bytes of the engine's snapshot kept
    with them), then offline, a fresh page's game."""
    context = browser.new_context(
        base_url=url, locale="ru-RU", viewport={"width": 360, "height": 640}
    )
    context.add_init_script(WATCH_BOTS)
    opened = time.perf_counter()
    visit = visit_online(context, throttle)
    figures: dict[str, Any] = {
        "visit_files_kept_s": time.perf_counter() - opened,
        "snapshot_kept_with_files_bytes": int(visit.evaluate(SNAPSHOT)),
    }
    visit.goto("/favicon.svg")  # the visit ends: no background work goes on
    context.set_offline(True)
    visit.close()
    _, game = fresh_page_game(context, throttle)
    figures.update(game)
    context.close()
    return figures


def engine_measures_ms(page: Page, name: str) -> list[float]:
    """The durations of the offline worker's User Timing measures ``name``, in ms."""
    (worker,) = [worker for worker in page.workers if "offline_worker" in worker.url]
    durations: list[float] = worker.evaluate(
        "name => performance.getEntriesByName(name).map((entry) => entry.duration)", name
    )
    return durations


def spread(values: list[float]) -> dict[str, float]:
    """The median and 95th percentile of ``values``, and how many."""
    return {
        "median": statistics.median(values),
        "p95": statistics.quantiles(values, n=20)[-1],
        "count": len(values),
    }


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
            figures["first_game_after_one_visit"] = first_game_after_one_visit(
                browser, server.url, throttle
            )
            context = browser.new_context(
                base_url=server.url, locale="ru-RU", viewport={"width": 360, "height": 640}
            )
            context.add_init_script(WATCH_BOTS)
            visit = visit_online(context, throttle)
            # a device with no snapshot (a server without one): Python starts afresh
            visit.goto("/favicon.svg")
            visit.evaluate("() => caches.delete('raspisnoy-engine')")
            # nor one to download (the service worker's own requests are not cut offline)
            context.route("**/offline/snapshot/**", lambda route: route.abort())
            context.set_offline(True)
            visit.close()
            page, figures["first_start_on_device"] = fresh_page_game(context, throttle)
            figures["snapshot_bytes"] = wait_for_snapshot(page)
            play_out(page)
            gaps = bot_move_ms(page)
            moves = engine_measures_ms(page, "raspisnoy:bot-move")
            saves = engine_measures_ms(page, "raspisnoy:save")
            page.close()
            page, figures["first_game"] = fresh_page_game(context, throttle)
            figures["rss_playing_mb"] = renderer_rss_mb(marker)
            play_out(page)
            figures["next_games"] = []
            for _ in range(games - 1):
                figures["next_games"].append(
                    tap_to_playable(page, "#results a[href='/?offline=new']")
                )
                play_out(page)
            figures["rss_after_mb"] = renderer_rss_mb(marker)
            gaps += bot_move_ms(page)
            moves += engine_measures_ms(page, "raspisnoy:bot-move")
            saves += engine_measures_ms(page, "raspisnoy:save")
            figures["bot_move_ms"] = spread(moves)
            figures["save_ms"] = spread(saves)
            figures["bot_to_bot_on_the_page_ms"] = spread(gaps)
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
