"""Offline play in Chromium (docs/offline.md), at 360×640 in Russian: after one visit
with the network, a whole short game against bots with the network off, closed in the
middle and resumed; the totals shown are what the server's engine makes of the kept
game; a server without Pyodide's files says offline play is not installed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import (
    ACTIONABLE,
    PHONE_SMALL,
    TOASTS,
    act,
    enter,
    phone_shot,
    russian_device,
    server_process,
)
from playwright.sync_api import Browser, BrowserContext, Page
from server_process import ServerProcess

from raspisnoy.ratings import level_strengths
from raspisnoy.server.offline import LocalTable

#: Three rounds of one, two and three cards, three players: a short whole game.
SHORT = {
    "rules": {"preset": "classic", "custom_plan": ["1", "2", "3"]},
    "players": 3,
    "bots": "heuristic",
    "bot_delay_ms": 0,
}
#: Whether the service worker controls the page and has kept offline play's files.
KEPT = """() => navigator.serviceWorker.controller !== null && caches.keys()
  .then((names) => Promise.all(names.map((name) => caches.open(name)
    .then((cache) => cache.match('/offline/pyodide/pyodide.asm.wasm')))))
  .then((found) => found.some(Boolean))"""
#: Keeps whether the page's offline engine was restored from its snapshot
#: (``window.engineRestored``, from the worker's ``ready`` message).
ENGINE_READY = """(() => {
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (event.data?.type === 'ready') window.engineRestored = event.data.timings.restored;
      });
    }
  };
})()"""
#: The engine's snapshot kept on the device, by name (js/offline_engine.js).
SNAPSHOTS = """() => caches.open('raspisnoy-engine')
  .then((cache) => cache.keys()).then((keys) => keys.map((key) => new URL(key.url).pathname))"""
#: Waits until the player may act or the results are on show; the round, or "over".
TURN_OR_RESULTS = """actionable => document.querySelector('#results') ? 'over'
  : document.querySelector(actionable) ? document.querySelector('.game').dataset.round : null"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this file's own whose pages make offline play's engine ready in the
    background on a first visit, as a real server's do (the shared one's do not)."""
    process = server_process(tmp_path_factory.mktemp("offline-e2e"), prepare_offline=True)
    process.start()
    yield process.url
    process.stop()


@pytest.fixture
def visitor(browser: Browser, server: str) -> Iterator[BrowserContext]:
    """A Russian visitor on a small phone, asking for less motion."""
    with russian_device(browser, server, reduced_motion="reduce") as context:
        yield context


def first_visit(context: BrowserContext) -> Page:
    """A visit with the network: the lobby says what offline play is; the service worker
    keeps its files; the next new game is a short one."""
    page = context.new_page()
    enter(page, "Аня")
    page.wait_for_selector(".offline-note a[href='/?offline']")
    note = page.inner_text(".offline-note")
    assert "только на этом устройстве" in note and "на рейтинг не влияет" in note
    page.evaluate("body => localStorage.setItem('raspisnoy.lastTable', body)", json.dumps(SHORT))
    wait_until_kept(page)
    return page


def wait_until_kept(page: Page) -> None:
    """Until the service worker controls the page and has kept offline play's files."""
    for _ in range(600):
        if page.evaluate(KEPT):
            return
        page.wait_for_timeout(500)
    raise AssertionError("the service worker did not keep offline play's files")


def play_until(page: Page, stop: str | None) -> str:
    """Plays the person's turns until round ``stop`` is reached or the game is over."""
    while True:
        where = str(page.wait_for_function(TURN_OR_RESULTS, arg=ACTIONABLE).json_value())
        if where in ("over", stop):
            return where
        act(page)


def kept_games(page: Page) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = page.evaluate(
        "() => import('/js/offline_store.js').then((store) => store.savedGames())"
    )
    return games


def kept_snapshots(page: Page) -> list[str]:
    """The engine's snapshots kept on the device, once one is (the engine keeps it just
    after its first start)."""
    for _ in range(360):
        names: list[str] = page.evaluate(SNAPSHOTS)  # a promise's answer: not wait_for_function
        if names:
            return names
        page.wait_for_timeout(500)
    raise AssertionError("the engine's snapshot was not kept")


def forget_snapshot(page: Page) -> None:
    """Leaves the lobby (ending the worker that makes the engine's snapshot in the
    background) and drops any snapshot it kept: a device whose visit ended before one was
    made."""
    page.goto("/favicon.svg")
    page.evaluate("() => caches.delete('raspisnoy-engine')")


def test_a_first_visit_keeps_the_snapshot_the_first_offline_game_starts_from(
    visitor: BrowserContext,
) -> None:
    """A first visit with the network (a new visitor's nickname form: no session needed)
    keeps the engine's snapshot made at install time with offline play's files; left as
    soon as they are kept, then with the network cut, the device's very first offline
    game restores it (docs/offline.md, "Starting in a second")."""
    visitor.add_init_script(ENGINE_READY)
    page = visitor.new_page()
    page.goto("/")
    page.wait_for_selector("#nickname")
    page.evaluate("body => localStorage.setItem('raspisnoy.lastTable', body)", json.dumps(SHORT))
    wait_until_kept(page)
    status = page.evaluate("() => fetch('/offline/status').then((r) => r.json())")
    assert status["snapshot"], "no snapshot of this tree's engine: scripts/bootstrap makes it"
    assert status["snapshot"].startswith("/offline/snapshot/")
    assert page.evaluate(SNAPSHOTS) == [status["snapshot"]]  # kept with the files
    page.goto("/favicon.svg")  # the visit ends at once
    visitor.set_offline(True)
    page.goto("/?offline")
    page.click(".offline-start")
    page.wait_for_selector(".game")
    assert page.evaluate("window.engineRestored") is True
    phone_shot(page, "offline-first-game-from-snapshot")
    assert play_until(page, "2") == "2"
    assert page.evaluate(SNAPSHOTS) == [status["snapshot"]]


def test_a_short_game_offline_closed_and_resumed(visitor: BrowserContext) -> None:
    """A device with no snapshot yet (a server without an install-time one, and the
    visit ended before the page made one): the engine's first start keeps one; the page
    opened again after the app was closed starts from it (docs/offline.md, "Starting in
    a second")."""
    visitor.add_init_script(ENGINE_READY)
    page = first_visit(visitor)
    forget_snapshot(page)
    # a server without an install-time snapshot (its service worker's own requests are
    # not cut by set_offline: the engine would download it)
    visitor.route("**/offline/snapshot/**", lambda route: route.abort())
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".offline-start")
    assert "на рейтинг не влияет" in page.inner_text(".offline-terms")
    phone_shot(page, "offline-screen")
    page.click(".offline-start")
    page.wait_for_selector(".game")
    assert page.inner_text("#conn") == "на этом устройстве"
    assert page.url.split("?offline=")[1].startswith("local-")
    phone_shot(page, "offline-game")
    assert play_until(page, "2") == "2"
    assert page.evaluate("window.engineRestored") is False  # the device's first start
    (snapshot,) = kept_snapshots(page)
    assert snapshot.startswith("/offline/snapshot/")
    before = int(str(page.get_attribute(".game", "data-version")))
    act(page)  # the person's bid, shown
    page.close()  # the app closed at once, in the middle of the game

    page = visitor.new_page()
    page.goto("/?offline")
    page.wait_for_selector(".saved-game")
    assert "идёт" in page.inner_text(".saved-game")
    (kept,) = kept_games(page)
    assert kept["actions"][before][0] == 0  # the bid the person saw taken is kept
    phone_shot(page, "offline-kept")
    page.click(".saved-game a")
    page.wait_for_selector(".game[data-round='2']")
    assert page.evaluate("window.engineRestored") is True
    assert play_until(page, None) == "over"
    page.wait_for_selector("#results table.sheet")
    phone_shot(page, "offline-results")
    assert "Ещё партия без сети" in page.inner_text("#results")

    (game,) = kept_games(page)
    engine = LocalTable.load(game)  # the server's engine on what the device kept
    assert engine.game.is_over and len(engine.game.rounds()) == 3
    pairs = "els => els.map(e => [Number(e.dataset.totalSeat), Number(e.textContent)])"
    shown = dict(page.eval_on_selector_all("#results [data-total-seat]", pairs))
    assert shown == dict(enumerate(engine.game.totals))
    upload_when_back_online(visitor, page, game)


def answered(page: Page) -> dict[str, dict[str, Any]]:
    """The kept games by id, once the server has taken or refused each (the lobby sends
    them when it has loaded)."""
    for _ in range(360):
        kept = {game["id"]: game for game in kept_games(page)}
        if all("uploaded" in game or "refused" in game for game in kept.values()):
            return kept
        page.wait_for_timeout(500)
    raise AssertionError(f"not all uploaded or refused: {kept}")


def upload_when_back_online(context: BrowserContext, page: Page, game: dict[str, Any]) -> None:
    """Back online, the lobby brings the finished game to Аня's history, and refuses, in
    words, a copy whose first bot move was altered on the device."""
    tampered = {**game, "id": "local-tampered", "actions": [[1, "AS"], *game["actions"][1:]]}
    page.evaluate(
        "game => import('/js/offline_store.js').then((store) => store.saveGame(game))", tampered
    )
    context.set_offline(False)
    context.add_init_script(TOASTS)
    page.goto("/")
    kept = answered(page)
    assert kept["local-tampered"]["refused"] == "offline_game_invalid"
    toasts = page.evaluate("window.toasts")
    assert any("не принята: её ходы не сходятся с правилами" in text for text in toasts)
    page.wait_for_function(
        "() => window.toasts.some((t) => t.includes('добавлены в вашу историю'))"
    )
    page.reload()
    page.wait_for_selector(f"#my-games a[href*='{kept[game['id']]['uploaded']}']")


def test_a_damaged_kept_game_is_said_and_kept(visitor: BrowserContext) -> None:
    """A kept game that does not replay (its actions altered): a clear message in Russian,
    the entry still there, the offline screen still works."""
    page = first_visit(visitor)
    page.evaluate(
        """() => import('/js/offline_store.js').then((store) => store.saveGame({
          format: 1, id: 'local-broken', name: 'Аня', seed: 's', over: false,
          settings: {rules: 'classic', players: 3}, actions: [[1, 'AS'], [1, 'AS']]}))"""
    )
    visitor.set_offline(True)
    page.goto("/?offline=local-broken")
    page.wait_for_selector(".panel.error")
    assert "повреждена" in page.inner_text(".panel.error")
    phone_shot(page, "offline-damaged")
    page.goto("/?offline")
    page.wait_for_selector(".saved-game[data-id='local-broken']")


def test_a_full_storage_is_said_and_the_game_goes_on(visitor: BrowserContext, server: str) -> None:
    """The device's storage full (the origin's quota cut below what the kept files
    take): the game is not kept, the player is told so once, and plays on."""
    page = first_visit(visitor)
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".offline-start")
    cdp = visitor.new_cdp_session(page)
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": server, "quotaSize": 1})
    page.click(".offline-start")
    page.wait_for_selector("#toast.show")
    assert "Память устройства заполнена" in page.inner_text("#toast")
    phone_shot(page, "offline-storage-full")
    assert play_until(page, "2") == "2"  # the game went on


def test_a_server_without_pyodide_says_offline_play_is_not_installed(
    browser: Browser, tmp_path: Path
) -> None:
    process = ServerProcess(
        "--data-dir",
        str(tmp_path),
        log=tmp_path / "server.log",
        env={"RASPISNOY_PYODIDE_DIR": str(tmp_path)},
    )
    process.start()
    try:
        context = browser.new_context(base_url=process.url, locale="ru-RU", viewport=PHONE_SMALL)
        page = context.new_page()
        enter(page, "Аня")
        page.wait_for_selector(".offline-note p.muted")
        assert page.inner_text(".offline-note") == "Игра без сети на этом сервере не установлена."
        page.goto("/?offline")
        page.wait_for_selector(".offline-play .error")
        assert page.locator(".offline-start").count() == 0
        context.close()
    finally:
        process.stop()


def kept_game_when_saved(page: Page) -> dict[str, Any]:
    """The one game kept on the device, once the engine has written it."""
    for _ in range(360):
        games = kept_games(page)
        if games:
            (game,) = games
            return game
        page.wait_for_timeout(500)
    raise AssertionError("the new game was not kept")


def test_the_new_table_form_offline_starts_the_game_chosen(visitor: BrowserContext) -> None:
    """Offline, the lobby's own new-table form (every preset and option, each seat's bot,
    the pace), without what needs the server; the game is the one chosen, and rules that
    do not fit are said in words."""
    page = first_visit(visitor)  # the lobby kept the rules catalogue
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".offline-start")
    page.click(".offline-create summary")
    form = "#offline-form"
    page.wait_for_selector(f"{form} select[name=preset]")
    for online_only in ("public", "rated", "spectator_chat", "timer", "stand_in"):
        assert page.locator(f"{form} [name={online_only}]").count() == 0
    presets = page.eval_on_selector_all(f"{form} select[name=preset] option", "os => os.length")
    assert presets == 5
    page.select_option(f"{form} select[name=preset]", "oh-hell")
    page.select_option(f"{form} select[name=players]", "3")
    levels = "os => os.map((o) => o.value)"
    assert page.eval_on_selector_all(f"{form} select[data-seat='2'] option", levels) == [
        "random",
        "beginner",
        "heuristic",
    ]
    # The levels' ratings kept from the visit with the network: the offline bots only.
    ratings = {line.level: line.rating for line in level_strengths()}
    labels = "os => os.map((o) => o.textContent)"
    shown = page.eval_on_selector_all(f"{form} select[data-seat='2'] option", labels)
    assert shown[1:] == [f"новичок · {ratings['beginner']}", f"опытный · {ratings['heuristic']}"]
    assert page.locator(f"{form} .bot-levels li").count() == 3
    page.locator(f"{form} .bot-levels").scroll_into_view_if_needed()
    phone_shot(page, "offline-form-levels")
    page.select_option(f"{form} select[data-seat='2']", "beginner")
    page.select_option(f"{form} select[name=speed]", "0")
    page.locator(f"{form} select[name=preset]").scroll_into_view_if_needed()
    phone_shot(page, "offline-form")
    page.click(f"{form} details.options summary")
    page.fill("input[name=option-custom_plan]", "1, 2")
    page.dispatch_event("input[name=option-custom_plan]", "change")
    phone_shot(page, "offline-form-options")
    page.click(f"{form} button[type=submit]")
    page.wait_for_selector(".game")
    settings = kept_game_when_saved(page)["settings"]
    assert settings["players"] == 3 and settings["bot_delay_ms"] == 0
    assert settings["bots"][1:] == ["heuristic", "beginner"]
    assert settings["rules"]["preset"] == "oh-hell"
    assert settings["rules"]["custom_plan"] == ["1", "2"]
    assert play_until(page, None) == "over"

    page.goto("/?offline")  # the same form, with a plan that 3 players cannot be dealt
    page.click(".offline-create summary")
    page.click(f"{form} details.options summary")
    page.select_option(f"{form} select[name=players]", "3")
    page.fill("input[name=option-custom_plan]", "20")
    page.dispatch_event("input[name=option-custom_plan]", "change")
    page.click(f"{form} button[type=submit]")
    page.wait_for_selector(".panel.error")
    assert "Партию с такими настройками не начать" in page.inner_text(".panel.error")
    phone_shot(page, "offline-form-refused")
    page.click(".panel.error a[href='/?offline']")  # back to the form, offline
    page.wait_for_selector(".offline-create")


#: Makes the store as the first version of offline play made it (IndexedDB version 1,
#: one store "games"), with one game in it.
STORE_V1 = """game => new Promise((resolve, reject) => {
  const request = indexedDB.open('raspisnoy-offline', 1);
  request.onupgradeneeded = () => request.result.objectStoreNames.contains('games')
    || request.result.createObjectStore('games', {keyPath: 'id'});
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const db = request.result;
    const transaction = db.transaction('games', 'readwrite');
    transaction.objectStore('games').put(game);
    transaction.oncomplete = () => { db.close(); resolve(true); };
    transaction.onerror = () => reject(transaction.error);
  };
})"""
#: An older version's files in an older service worker's cache, and an old snapshot.
OLD_FILES = """() => Promise.all([
  caches.open('raspisnoy-shell-v1').then((cache) => Promise.all([
    cache.put('/offline/raspisnoy.zip', new Response('an old bundle')),
    cache.put('/js/offline_worker.js', new Response('// an old worker')),
  ])),
  caches.open('raspisnoy-engine').then((cache) =>
    cache.put('/offline/snapshot/0.0.1/0000000000000000', new Response(new Uint8Array(64)))),
]).then(() => true)"""


def test_an_older_version_on_the_device_is_replaced_and_nothing_is_lost(
    visitor: BrowserContext,
) -> None:
    """A device with an older version of offline play: its store of the first format
    (IndexedDB version 1) with a game in the middle, an older service worker's cache of
    the files, an engine snapshot of another version. The new version takes over: the
    old files and snapshot are replaced, the game is listed and plays on to its end."""
    old = LocalTable("local-old", SHORT, "Аня", "an old game")
    while old.bot_due() or old.version < 2:  # two moves or more, then the person's turn
        if old.bot_due():
            old.bot_turn()
        else:
            old.act("c", old.state()["game"]["legal"][0])
    page = visitor.new_page()
    page.goto("/favicon.svg")  # the site's origin, before its page registers anything
    assert page.evaluate(STORE_V1, json.loads(json.dumps(old.save())))
    assert page.evaluate(OLD_FILES)
    page.close()

    page = first_visit(visitor)
    names = page.evaluate("() => caches.keys()")
    assert "raspisnoy-shell-v1" not in names and "raspisnoy-engine" in names
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".saved-game[data-id='local-old']")
    page.click(".saved-game[data-id='local-old'] a")
    page.wait_for_selector(".game")
    assert play_until(page, None) == "over"
    (game,) = kept_games(page)
    assert game["id"] == "local-old" and game["actions"][: old.version] == old.save()["actions"]
    assert LocalTable.load(game).game.is_over
    for _ in range(360):  # the engine's own snapshot replaces the other version's
        snapshots = page.evaluate(SNAPSHOTS)
        if snapshots and not any("/0.0.1/" in name for name in snapshots):
            break
        page.wait_for_timeout(500)
    assert len(snapshots) == 1 and "/0.0.1/" not in snapshots[0]


#: A store that this version cannot open: made by a later version (IndexedDB version 3),
#: with one game in it.
STORE_V3 = STORE_V1.replace("'raspisnoy-offline', 1", "'raspisnoy-offline', 3")
#: The games in the store of version 3, read as that version would.
GAMES_V3 = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open('raspisnoy-offline', 3);
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const get = request.result.transaction('games').objectStore('games').getAll();
    get.onsuccess = () => { request.result.close(); resolve(get.result.map((g) => g.id)); };
  };
})"""


def test_a_store_that_does_not_open_is_said_and_nothing_is_deleted(
    visitor: BrowserContext,
) -> None:
    """The device's store of games does not open (here: a later version's): the offline
    screen says so in Russian, a new game still plays, in memory, and says it is not
    kept; the store and its game are still there afterwards."""
    page = first_visit(visitor)
    kept = {**LocalTable("local-later", SHORT, "Аня", "later").save(), "updated": 1}
    assert page.evaluate(STORE_V3, kept)
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".offline-play .error")
    assert "не читается" in page.inner_text(".offline-play .error")
    phone_shot(page, "offline-store-unreadable")
    page.click(".offline-start")
    page.wait_for_selector("#toast.show")
    assert "не сохраняется" in page.inner_text("#toast")
    assert "заполнена" not in page.inner_text("#toast")
    assert play_until(page, "2") == "2"  # the game went on
    assert page.evaluate(GAMES_V3) == ["local-later"]
