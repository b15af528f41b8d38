"""The server under test, and what a person does in the browser client as Playwright
steps that wait on the page's state (never on the clock): enter a name, create a table,
make one move."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize
from server_process import ServerProcess


def server_process(
    data: Path, *, prepare_offline: bool = False, env: Mapping[str, str] | None = None
) -> ServerProcess:
    """``raspisnoy serve`` over the data folder ``data`` on a free loopback port, its
    output kept in ``data/server.log``; it can be stopped and started again. Its pages
    make offline play's engine ready in the background only with ``prepare_offline``
    (``RASPISNOY_OFFLINE_PREPARE``): a Python start in every fresh visitor's page would
    load the tests that do not play offline. ``env``: more settings of the server."""
    return ServerProcess(
        "--data-dir",
        str(data),
        log=data / "server.log",
        env={"RASPISNOY_OFFLINE_PREPARE": "true" if prepare_offline else "false", **(env or {})},
    )


#: Something this page's player can do now: an allowed bid or a highlighted card.
ACTIONABLE = ".bids button.bid:not([disabled]), .hand button.card.legal:not([disabled])"


def enter(page: Page, nickname: str, path: str = "/") -> None:
    """Opens ``path`` as a new visitor and picks ``nickname``."""
    page.goto(path)
    page.fill("#nickname", nickname)
    page.click(".nickname-form button[type=submit]")
    page.wait_for_selector(
        ".lobby #create-form, #sheet-form select, .seating, .game", state="attached"
    )


def open_create_form(page: Page) -> None:
    """Opens the lobby's new-table form (behind its button on a phone; open on a laptop)."""
    page.wait_for_selector("#create-panel", state="attached")
    if page.locator("#create-panel[open]").count() == 0:
        page.click("#create-panel > summary")
    page.wait_for_selector("#create-form select[name=preset]")


def create_table(
    page: Page, *, players: int, speed_ms: int = 0, timer: int = 0, public: bool = True
) -> str:
    """Fills the lobby's form, creates the table and returns its id (from the new URL)."""
    open_create_form(page)
    page.select_option("#create-form select[name=players]", str(players))
    page.select_option("#create-form select[name=speed]", str(speed_ms))
    page.select_option("#create-form select[name=timer]", str(timer))
    page.set_checked("#create-form input[name=public]", public)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".seating")
    table_id = page.evaluate("new URLSearchParams(location.search).get('table')")
    assert isinstance(table_id, str)
    return table_id


def open_private_tables(page: Page, count: int, *, start: bool = False) -> list[int]:
    """Open ``count`` private four-seat tables as the page's user, through the API as the
    page calls it (and start each game, its empty seats played by bots, with ``start``);
    the status of each answer (the start's, with ``start``)."""
    statuses: list[int] = page.evaluate(
        """async ([count, start]) => {
          const statuses = [];
          for (let i = 0; i < count; i++) {
            const answer = await fetch("/api/tables", {
              method: "POST", headers: { "content-type": "application/json" },
              body: JSON.stringify({ public: false }),
            });
            if (!start) {
              statuses.push(answer.status);
              continue;
            }
            const { id } = await answer.json();
            statuses.push((await fetch(`/api/tables/${id}/start`, { method: "POST" })).status);
          }
          return statuses;
        }""",
        [count, start],
    )
    return statuses


def game_state(page: Page) -> dict[str, str]:
    """The game's data attributes (round, phase, to-act, me, version, busy)."""
    page.wait_for_selector(".game")
    attributes: dict[str, str] = page.eval_on_selector(".game", "g => ({...g.dataset})")
    return attributes


def act(page: Page, *, keyboard: bool = False) -> bool:
    """Waits until this page's player may act, then makes the first allowed bid or plays
    the first highlighted card, answering the joker dialog with its first mode; by mouse,
    or with ``keyboard`` as a desktop player would (a digit to bid; arrow and Enter to
    play). Returns whether the joker dialog was used."""
    version = page.wait_for_function(
        "sel => document.querySelector(sel) && document.querySelector('.game').dataset.version",
        arg=ACTIONABLE,
    ).json_value()
    first = page.locator(ACTIONABLE).first
    if not keyboard:
        first.click()
    elif first.get_attribute("data-bid") is not None:
        page.keyboard.press(str(first.get_attribute("data-bid")))
    else:
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    joker = page.locator("dialog[open] .joker-option").count() > 0
    if joker and keyboard:
        page.keyboard.press("Enter")  # the dialog opens with its first mode focused
    elif joker:
        page.locator("dialog[open] .joker-option").first.click()
    page.wait_for_function(
        "v => { const g = document.querySelector('.game');"
        " return !g || (g.dataset.version !== v && g.dataset.busy === 'false'); }",
        arg=version,
    )
    return joker


def visible_state(page: Page) -> dict[str, Any]:
    """What the player sees of the game, without the ticking clocks."""
    state: dict[str, Any] = page.evaluate(
        """() => {
        const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.innerText.trim());
        const game = document.querySelector('.game');
        return {
          data: {...game.dataset},
          hand: [...document.querySelectorAll('.hand .card')].map((c) => c.dataset.card || 'back'),
          legal: [...document.querySelectorAll(`.hand .card.legal`)].map((c) => c.dataset.card),
          bids: [...document.querySelectorAll('.bids button.bid')]
            .map((b) => [b.textContent, b.disabled]),
          seats: [...document.querySelectorAll('.seat-chip .seat-stats')].map((e) => e.innerText),
          centre: text('.centre'),
          round: text('.round-bar .round-info, .round-bar .trump-info'),
          prompt: text('.prompt'),
        };
    }"""
    )
    return state


# ------------------------------------------------------------------ screens: a11y, layout

#: The page's languages, the order screens are checked in.
LANGUAGES = ("ru", "uk", "en")
#: The phone sizes every main screen is checked at, and a laptop.
PHONE_SMALL: ViewportSize = {"width": 360, "height": 640}
PHONE_TALL: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
#: Where the screenshots of the main screens go (``build/`` is ignored by git); CI keeps
#: them as the visual record of a run.
SCREENS = Path(__file__).resolve().parents[2] / "build" / "e2e-screens"
#: axe-core's impacts that fail a screen.
BLOCKING = {"serious", "critical"}

#: The page-side check of ``layout_problems`` (a JavaScript function of no arguments).
_LAYOUT_PROBLEMS = (Path(__file__).parent / "layout_problems.js").read_text(encoding="utf-8")


@contextmanager
def russian_phones(
    browser: Browser, base_url: str, count: int, **options: Any
) -> Iterator[list[Page]]:
    """``count`` visitors on small Russian touch phones, each with its own cookies
    (``options`` add to their contexts); their pages' errors are collected, and none may
    have happened by the time the phones are put away."""
    contexts = [
        browser.new_context(
            base_url=base_url, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True, **options
        )
        for _ in range(count)
    ]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    yield pages
    for context in contexts:
        context.close()
    assert errors == []


def layout_problems(page: Page) -> list[str]:
    """What on the screen is wider than the viewport or cut off (empty when it fits)."""
    problems: list[str] = page.evaluate(f"({_LAYOUT_PROBLEMS})()")
    return problems


def accessibility_problems(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (axe-core
    comes with the axe-playwright-python package: nothing is downloaded)."""
    violations = Axe().run(page).response["violations"]
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(
            f"{node['target']} {node.get('failureSummary', '')[:160]}"
            for node in violation["nodes"][:4]
        )
        for violation in violations
        if violation["impact"] in BLOCKING
    ]


def set_language(page: Page, lang: str) -> None:
    """Picks ``lang`` in the header and waits until the page is drawn in it."""
    if page.get_attribute("html", "lang") != lang:
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


#: How long a wait on an offline page may last: Pyodide's start takes seconds, and many
#: more on a loaded machine; a wait that includes it must not fail for the machine's load.
OFFLINE_WAIT_MS = 180_000
#: Keeps every text the toast shows (``window.toasts``).
TOASTS = """addEventListener('DOMContentLoaded', () => {
  window.toasts = [];
  const box = document.getElementById('toast');
  new MutationObserver(() => box.textContent && window.toasts.push(box.textContent))
    .observe(box, {childList: true, characterData: true, subtree: true});
})"""


@contextmanager
def russian_device(
    browser: Browser, base_url: str, *, scripts: Sequence[str] = (), **options: Any
) -> Iterator[BrowserContext]:
    """One visitor's small Russian touch phone for offline play: a context whose pages
    share its storage as a phone's tabs do, ``scripts`` run in each of its pages before the
    page's own, waits as long as ``OFFLINE_WAIT_MS``; ``options`` add to the context."""
    context = browser.new_context(
        base_url=base_url, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True, **options
    )
    for script in scripts:
        context.add_init_script(script)
    context.set_default_timeout(OFFLINE_WAIT_MS)
    yield context
    context.close()


def phone_shot(page: Page, name: str) -> None:
    """Keeps a screenshot of a small Russian phone's page as ``name``-ru-360x640.png."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / f"{name}-ru-360x640.png", animations="disabled")


def check_screen(page: Page, name: str, *, axe: bool = True) -> list[str]:
    """Keeps a screenshot of the page as ``name``-LANG-WxH.png, and returns what is wrong
    with it: overflow and cut-off text, and (with ``axe``) accessibility violations, each
    prefixed with the screen, language and size."""
    size = page.viewport_size or LAPTOP
    lang = page.get_attribute("html", "lang")
    theme = page.get_attribute("html", "data-theme") or "light"
    label = f"{name}-{lang}-{theme}-{size['width']}x{size['height']}"
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / f"{label}.png", full_page=True, animations="disabled")
    problems = layout_problems(page)
    if axe:
        problems += accessibility_problems(page)
    return [f"{label}: {problem}" for problem in problems]
