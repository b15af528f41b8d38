"""Offline play on a device shared by people, tabs and versions (docs/offline.md), in
Chromium at 360×640 in Russian: each person sees and uploads only their own offline games
and sheets; uploads wait out a limit instead of marking games refused, and viewing a game
keeps its marks; one game in two tabs never loses a move silently; an update of the
service worker whose download fails keeps offline play's files, and files that are not
kept are said, and downloaded on a later visit."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_helpers import ACTIONABLE, TOASTS, enter, phone_shot, russian_device
from playwright.sync_api import Browser, BrowserContext, Page, Route
from test_browser_offline import kept_games, wait_until_kept

from raspisnoy.server.offline import OFFLINE_BOTS, LocalTable

#: Three rounds of one, two and three cards, three players, no pause between bot moves.
SHORT = {
    "rules": {"preset": "classic", "custom_plan": ["1", "2", "3"]},
    "players": 3,
    "bots": "heuristic",
    "bot_delay_ms": 0,
}
#: The offline screen's and table's words that a game is not this person's, or files missing.
NO_SUCH_GAME = "Такой партии на этом устройстве нет."
NOT_KEPT = "Игра без сети недоступна: её файлов нет на этом устройстве."
#: The wasm of Pyodide, the largest of offline play's files.
WASM = "/offline/pyodide/pyodide.asm.wasm"
#: Each cache's name and whether it keeps the wasm.
CACHES = f"""() => caches.keys().then((names) => Promise.all(names.map(async (name) =>
  [name, Boolean(await (await caches.open(name)).match('{WASM}'))])))"""
#: The person the page's session is, by the server.
SESSION = "() => fetch('/api/session').then((r) => r.json()).then((body) => body.user.id)"
SAVE = "game => import('/js/offline_store.js').then((store) => store.saveGame(game))"


@pytest.fixture
def visitor(browser: Browser, server: str) -> Iterator[BrowserContext]:
    """A Russian visitor on a small phone, asking for less motion; the toasts kept."""
    with russian_device(browser, server, scripts=[TOASTS], reduced_motion="reduce") as context:
        yield context


def finished_game(name: str, owner: str) -> dict[str, Any]:
    """A finished offline game of ``owner`` as the device keeps it (the server's own
    engine plays it: a random bot in the person's seat)."""
    table = LocalTable.new(SHORT, name)
    me = OFFLINE_BOTS["random"](seed=table.seed + "/me")
    while not table.game.is_over:
        if table.game.to_act == 0:
            table.act("me", str(me.act(table.game.view(0))))
        else:
            table.bot_turn()
    return {**json.loads(json.dumps(table.save())), "owner": owner}


def kept(page: Page, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = page.evaluate(
        "id => import('/js/offline_store.js').then((store) => store.loadGame(id))", game_id
    )
    return game


def test_each_person_sees_and_uploads_only_their_own(visitor: BrowserContext) -> None:
    """Аня continues a server sheet offline (its edit token kept on the device), starts an
    offline game and has a finished one; she logs out and Борис signs in on the same
    device: his lobby uploads his own finished game only, his /score uploads and lists
    none of hers, his offline screen lists none of hers and her game and sheet do not open
    for him; hers stay on the device for when she comes back."""
    page = visitor.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enter(page, "Аня", "/score")
    wait_until_kept(page)
    anya = page.evaluate(SESSION)
    body = {"format": "raspisnoy-sheet/1", "rules": {"preset": "classic", "custom_plan": ["1"]}}
    sheet = page.evaluate(
        """body => fetch('/api/sheets', {method: 'POST', body: JSON.stringify(body),
          headers: {'content-type': 'application/json'}}).then((r) => r.json())""",
        {**body, "players": ["Аня", "Мама", "Папа"], "first_dealer": 0, "rounds": []},
    )
    page.goto(f"/score?sheet={sheet['id']}")
    page.wait_for_selector(".score-page .entry-pad")
    visitor.set_offline(True)
    page.click(".entry-pad button.bid[data-value='1']")  # continued on the device
    page.wait_for_function("() => new URLSearchParams(location.search).get('local')")
    sheet_local = page.evaluate("new URLSearchParams(location.search).get('local')")
    page.evaluate("body => localStorage.setItem('raspisnoy.offlineTable', body)", json.dumps(SHORT))
    page.goto("/?offline")
    page.click(".offline-start")
    page.wait_for_selector(".game")
    playing = page.evaluate("new URLSearchParams(location.search).get('offline')")
    assert kept(page, playing)["owner"] == anya  # the engine keeps whose game it is
    hers = finished_game("Аня", anya)
    page.evaluate(SAVE, hers)

    visitor.set_offline(False)
    page.goto("/?leaderboard")
    page.click("#me")
    page.click("button[data-do=logout]")
    page.fill("#nickname", "Борис")
    page.click(".nickname-form button[type=submit]")
    page.wait_for_selector(".lobby #create-form", state="attached")
    boris = page.evaluate(SESSION)
    his = finished_game("Борис", boris)
    page.evaluate(SAVE, his)
    page.goto("/")  # the lobby uploads the finished games of the person signed in
    page.wait_for_function(
        "() => window.toasts.some((t) => t.includes('добавлены в вашу историю'))"
    )
    assert "uploaded" in kept(page, his["id"])
    assert "uploaded" not in kept(page, hers["id"])
    history = page.evaluate("() => fetch('/api/me/games').then((r) => r.json())")["games"]
    assert len(history) == 1

    page.goto("/score")
    page.wait_for_selector("#sheet-form input[data-seat='0']")
    assert page.locator(".local-sheet").count() == 0
    assert page.evaluate("() => fetch('/api/sheets').then((r) => r.json())")["sheets"] == []
    phone_shot(page, "offline-people-score-of-another")
    page.goto("/?offline")
    page.wait_for_selector(".saved-game")
    assert page.eval_on_selector_all(".saved-game", "ls => ls.map((l) => l.dataset.id)") == [
        his["id"]
    ]
    phone_shot(page, "offline-people-screen-of-another")
    page.goto(f"/?offline={playing}")
    page.wait_for_selector(".panel.error")
    assert NO_SUCH_GAME in page.inner_text(".panel.error")
    page.goto(f"/score?local={sheet_local}")
    page.wait_for_selector(".panel.error")
    assert "Этой записи на устройстве нет" in page.inner_text(".panel.error")

    # hers stay on the device, the edit token with her own entry only
    games = {game["id"]: game["owner"] for game in kept_games(page)}
    assert games == {playing: anya, hers["id"]: anya, his["id"]: boris}
    (entry,) = page.evaluate("() => import('/js/offline_store.js').then((s) => s.savedSheets())")
    assert entry["owner"] == anya and entry["continues"]["token"] == sheet["edit_token"]
    assert errors == []


def test_uploads_wait_out_a_limit_and_viewing_a_game_keeps_its_marks(
    visitor: BrowserContext,
) -> None:
    """Finished games waiting; the server answers one upload 429: the run stops there, said
    once, nothing marked refused, and no upload is tried before its Retry-After; after it,
    every game goes, a game an older page marked refused for a limit too, and a game that
    does not replay is refused for good, said once. Viewing an uploaded game's results
    keeps its mark."""
    page = visitor.new_page()
    enter(page, "Аня")
    anya = page.evaluate(SESSION)
    games = [finished_game("Аня", anya) for _ in range(3)]
    marked_by_old_page = {**finished_game("Аня", anya), "refused": "too_many"}
    tampered = {
        **games[0],
        "id": "local-tampered",
        "actions": [[1, "AS"], *games[0]["actions"][1:]],
    }
    for game in [tampered, marked_by_old_page, *games]:  # sent the latest first
        page.evaluate(SAVE, game)
    sent: list[str] = []

    def second_over_limit(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}")["game"]["id"])
        if len(sent) != 2:
            route.continue_()
            return
        limit = {"detail": "too many", "code": "too_many", "params": {"seconds": 3}}
        route.fulfill(status=429, json=limit, headers={"retry-after": "3"})

    visitor.route("**/api/offline/games", second_over_limit)
    page.goto("/")
    page.wait_for_function("() => window.toasts.some((t) => t.includes('Слишком много попыток'))")
    page.wait_for_function(
        "() => window.toasts.some((t) => t.includes('добавлены в вашу историю'))"
    )
    assert sent == [games[2]["id"], games[1]["id"]]
    first_run = {
        game["id"]: (game.get("uploaded"), game.get("refused")) for game in kept_games(page)
    }
    assert [id for id, (uploaded, _) in first_run.items() if uploaded] == [games[2]["id"]]
    assert {refused for _, refused in first_run.values()} == {None, "too_many"}
    assert len(page.evaluate("window.toasts")) == 2  # one for the limit, one for the upload
    phone_shot(page, "offline-people-limit")
    page.goto("/")  # within the Retry-After: nothing is sent
    page.wait_for_selector(".offline-note a[href='/?offline']")
    assert len(sent) == 2

    page.wait_for_timeout(3000)  # the Retry-After
    page.goto("/")
    said = "t => t.includes('добавлены в вашу историю') && t.includes('не сходятся с правилами')"
    page.wait_for_function(f"() => window.toasts.some({said})")  # one message says both
    marks = {game["id"]: game for game in kept_games(page)}
    assert marks.pop("local-tampered")["refused"] == "offline_game_invalid"
    assert all(game.get("uploaded") and "refused" not in game for game in marks.values())
    assert sent[2:] == [games[1]["id"], games[0]["id"], marked_by_old_page["id"], "local-tampered"]
    assert len(page.evaluate("() => fetch('/api/me/games').then((r) => r.json())")["games"]) == 4

    uploaded = marks[games[1]["id"]]["uploaded"]
    page.goto(f"/?offline={games[1]['id']}")
    page.wait_for_selector("#results")
    page.wait_for_timeout(1500)  # a save the engine would write after showing it
    assert kept(page, games[1]["id"])["uploaded"] == uploaded
    page.goto("/?offline")
    page.wait_for_selector(f".saved-game[data-id='{games[1]['id']}']")
    assert "в истории" in page.inner_text(f".saved-game[data-id='{games[1]['id']}']")
    assert "не принята" in page.inner_text(".saved-game[data-id='local-tampered']")
    phone_shot(page, "offline-people-marks")


def test_one_game_in_two_tabs_never_loses_a_move_silently(visitor: BrowserContext) -> None:
    """One offline game open in two tabs: the first tab bids and plays on; the second,
    still showing the game as it was, bids otherwise: its bid is not kept over the
    first's, it is told in words, and it shows the game as kept."""
    first = visitor.new_page()
    enter(first, "Аня")
    anya = first.evaluate(SESSION)
    table = LocalTable.new({**SHORT, "rules": {"preset": "classic", "custom_plan": ["3"]}}, "Аня")
    while table.game.to_act != 0:
        table.bot_turn()
    game = {**json.loads(json.dumps(table.save())), "owner": anya}
    before = len(game["actions"])
    first.evaluate(SAVE, game)
    first.goto(f"/?offline={game['id']}")
    first.wait_for_selector(ACTIONABLE)
    second = visitor.new_page()
    second.goto(f"/?offline={game['id']}")
    second.wait_for_selector(ACTIONABLE)

    bid = first.locator(ACTIONABLE).first.get_attribute("data-bid")
    first.locator(ACTIONABLE).first.click()
    first.wait_for_function("() => document.querySelector('.game').dataset.busy === 'false'")
    for _ in range(120):
        actions = kept(first, game["id"])["actions"]
        if len(actions) > before + 2:  # the bid, and the bots' after it
            break
        first.wait_for_timeout(250)
    assert actions[before] == [0, bid]
    other = second.locator(ACTIONABLE).last.get_attribute("data-bid")
    assert other != bid
    second.locator(ACTIONABLE).last.click()
    second.wait_for_function(
        "() => window.toasts.some((t) => t.includes('продолжили в другой вкладке'))"
    )
    kept_now = kept(second, game["id"])
    assert kept_now["actions"][before] == [0, bid]  # the first tab's bid stays
    second.wait_for_function(
        "v => document.querySelector('.game')?.dataset.version === v",
        arg=str(len(kept_now["actions"])),
    )
    phone_shot(second, "offline-people-two-tabs")


def copy_then_drop(source: str, target: str) -> str:
    """Page code: every entry of cache ``source`` copied into ``target``, then ``source``
    deleted and the service worker unregistered, as a device of an older version."""
    return f"""async () => {{
      const from = await caches.open('{source}'), to = await caches.open('{target}');
      for (const request of await from.keys()) await to.put(request, await from.match(request));
      await caches.delete('{source}');
      await (await navigator.serviceWorker.getRegistration()).unregister();
      return true;
    }}"""


def refuse_wasm(route: Route) -> None:
    route.fulfill(status=503, body="busy")


def test_an_update_whose_download_fails_keeps_the_files(visitor: BrowserContext) -> None:
    """A device whose older version kept offline play's files (in its own cache) takes an
    update while the download of the wasm fails: the new cache gets the files kept before,
    nothing is lost, and offline play stays at hand with no network."""
    page = visitor.new_page()
    enter(page, "Аня")
    wait_until_kept(page)
    assert page.evaluate(copy_then_drop("raspisnoy-shell-v2", "raspisnoy-shell-v1"))
    visitor.route(f"**{WASM}", refuse_wasm)
    page.goto("/?leaderboard")  # the new service worker installs, its download fails
    page.wait_for_function(
        "() => caches.keys().then((names) => !names.includes('raspisnoy-shell-v1')"
        " && names.includes('raspisnoy-shell-v2'))",
    )
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    assert ["raspisnoy-shell-v2", True] in page.evaluate(CACHES)
    visitor.unroute(f"**{WASM}", refuse_wasm)
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".offline-start")


def test_files_not_kept_are_said_and_kept_on_a_later_visit(visitor: BrowserContext) -> None:
    """The download of offline play's files fails on the first visit: with no network the
    offline screen says they are not on the device (no start button); a later visit with
    the network keeps them, and offline play is at hand."""
    visitor.route(f"**{WASM}", refuse_wasm)
    page = visitor.new_page()
    enter(page, "Аня")
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null && caches.has('raspisnoy-shell-v2')"
    )
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".offline-play .error")
    assert NOT_KEPT in page.inner_text(".offline-play .error")
    assert page.locator(".offline-start").count() == 0
    phone_shot(page, "offline-people-files-not-kept")

    visitor.set_offline(False)
    visitor.unroute(f"**{WASM}", refuse_wasm)
    page.goto("/")  # a later visit with the network: the files are downloaded again
    wait_until_kept(page)
    visitor.set_offline(True)
    page.goto("/?offline")
    page.wait_for_selector(".offline-start")
