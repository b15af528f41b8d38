"""Playing together in the browser, with two and three visitors (browser contexts): the
table chat both ways, phrases shown in each reader's language, markup shown as text, a
muted player; «One more game» accepted by one and declined by the other; the turn's
chime, its switch, and the notification of a hidden tab."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from e2e_helpers import ACTIONABLE, LANGUAGES, PHONE_SMALL, act, check_screen, enter, set_language
from playwright.sync_api import Browser, BrowserContext, Page

#: A game of two short rounds, so that whole games fit a test.
SHORT = {"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}
#: A text that would run script or draw an image if the page ever took it for markup.
HTML = '<img src=x onerror="window.__hacked=1"><b>bold</b> & <script>window.__hacked=2</script>'


@pytest.fixture
def visitors(browser: Browser, server: str) -> Iterator[list[BrowserContext]]:
    """Three visitors: two in English, one in Russian."""
    contexts = [
        browser.new_context(base_url=server, locale=locale, viewport={"width": 1000, "height": 800})
        for locale in ("en-US", "ru-RU", "en-US")
    ]
    yield contexts
    for context in contexts:
        context.close()


def open_table(page: Page, **options: Any) -> str:
    """The page's visitor opens a table (as the lobby's form would) and goes to it."""
    answer = page.request.post(
        "/api/tables", data={"bot_delay_ms": 0, "turn_seconds": 0, **options}
    )
    assert answer.status == 201, answer.text()
    table_id: str = answer.json()["id"]
    page.goto(f"/?table={table_id}")
    page.wait_for_selector(".seating")
    return table_id


def sit(page: Page, nickname: str, table_id: str, seat: int) -> None:
    enter(page, nickname, f"/?table={table_id}")
    page.click(f".seating button.sit[data-seat='{seat}']")
    page.wait_for_selector(".seat-line.mine")


def open_chat(page: Page) -> None:
    if page.get_attribute(".chat-toggle", "aria-expanded") != "true":
        page.click(".chat-toggle")
    page.wait_for_selector(".chat-panel:not([hidden])")


def lines(page: Page) -> list[str]:
    said: list[str] = page.eval_on_selector_all(
        ".chat-panel .chat-line .said", "els => els.map(e => e.textContent)"
    )
    return said


def test_chat_both_ways_phrases_in_each_language_and_a_muted_player(
    visitors: list[BrowserContext],
) -> None:
    anna, boris, vera = (context.new_page() for context in visitors)
    enter(anna, "Anna")
    table_id = open_table(anna, players=4)
    sit(boris, "Boris", table_id, 1)
    sit(vera, "Vera", table_id, 2)
    for page in (anna, boris, vera):
        open_chat(page)
    # Vera mutes Anna as soon as Anna has said something
    anna.fill(".chat-form input", "Hi all")
    anna.press(".chat-form input", "Enter")
    for page in (boris, vera):
        page.wait_for_selector(".chat-line:has-text('Hi all')")
    vera.click(".chat-line:has-text('Hi all') button.mute")
    vera.wait_for_selector(".chat-line:has-text('Hi all')", state="detached")
    assert vera.evaluate("JSON.parse(localStorage.getItem('raspisnoy.chat.muted'))") != {}

    anna.fill(".chat-form input", HTML)
    anna.click(".chat-form button[type=submit]")
    boris.wait_for_function(
        "n => document.querySelectorAll('.chat-panel .chat-line').length === n", arg=2
    )
    assert lines(boris)[-1] == HTML  # shown as the text it is
    assert boris.locator(".chat-panel img, .chat-panel b, .chat-panel script").count() == 0
    assert boris.evaluate("window.__hacked") is None

    boris.click(".chat-phrases button[data-phrase='well_played']")
    anna.wait_for_selector(".chat-line:has-text('Well played')")  # in Anna's English
    boris.wait_for_selector(".chat-line:has-text('Хорошо сыграно')")  # in Boris's Russian
    vera.wait_for_selector(".chat-line:has-text('Well played')")
    vera.click(".chat-phrases button[data-phrase='like']")
    for page in (anna, boris):
        page.wait_for_selector(".chat-line.reaction:has-text('👍')")
    assert lines(vera) == ["Well played", "👍"]  # nothing of Anna's reached her

    vera.reload()  # the mute is remembered, and sent again at the table
    vera.wait_for_selector(".chat-toggle")
    open_chat(vera)
    vera.wait_for_selector(".chat-line:has-text('👍')")
    assert lines(vera) == ["Well played", "👍"]
    vera.click(".chat-muted summary")
    vera.click(".chat-muted button.unmute")
    vera.wait_for_selector(".chat-line:has-text('Hi all')")
    assert lines(vera)[0] == "Hi all"


def play_to_the_end(pages: list[Page]) -> None:
    """Each person acts whenever it is their turn until every page shows the results."""
    while not all(page.locator("#results").count() for page in pages):
        moved = False
        for page in pages:
            if page.locator(ACTIONABLE).count():
                act(page)
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)  # the bots' turn: a short poll, not a check


def test_a_rematch_accepted_by_one_and_declined_by_the_other(
    visitors: list[BrowserContext], server: str
) -> None:
    anna, boris = visitors[0].new_page(), visitors[2].new_page()
    enter(anna, "Anna")
    old = open_table(anna, players=3, rules=SHORT, bots=["random", "beginner", "random"])
    sit(boris, "Boris", old, 1)
    anna.click("button.start")
    boris.wait_for_selector(".game")
    open_chat(boris)
    boris.click(".chat-phrases button[data-phrase='thanks']")
    anna.wait_for_selector(".chat-peek:has-text('Thanks!')")  # shown beside her closed chat
    boris.click(".close-chat")
    play_to_the_end([anna, boris])
    for page in (anna, boris):
        page.wait_for_selector(".rematch-box button.accept")
    assert check_screen(anna, "rematch") == []
    anna.click(".rematch-box button.accept")
    boris.wait_for_selector(".rematch-answers li[data-seat='0'].accepted")
    boris.click(".rematch-box button.decline")

    anna.wait_for_function(
        "old => new URLSearchParams(location.search).get('table') !== old", arg=old
    )
    anna.wait_for_selector(".game")  # she is at the new table, and its game is on
    new = anna.evaluate("new URLSearchParams(location.search).get('table')")
    assert anna.get_attribute(".game", "data-me") == "0"
    boris.wait_for_selector(".rematch-box[data-status='started']")
    assert "has started" in boris.inner_text(".rematch-box")
    assert boris.get_attribute(".rematch-box a", "href") == f"/?table={new}"
    table = httpx.get(f"{server}/api/tables/{new}").json()
    assert [seat["nickname"] for seat in table["seats"]] == ["Anna", None, None]
    assert table["seats"][1]["bot"] == "beginner"  # Boris's seat falls to its bot
    assert table["rules"]["custom_plan"] == SHORT["custom_plan"]

    boris.goto(f"/?replay={old}")  # the chat is kept with the game, in its place
    boris.wait_for_selector(".replay-chat .chat-line:has-text('Thanks!')")


#: Records what the page asks of the browser's notifications and audio; the tab's being
#: hidden is set by the test (``window.__hidden``).
HOOKS = """
window.__notifications = [];
window.__asked = 0;
window.__chimes = 0;
class FakeNotification {
  static permission = "default";
  static requestPermission() {
    window.__asked += 1;
    FakeNotification.permission = "granted";
    return Promise.resolve("granted");
  }
  constructor(title, options) { window.__notifications.push({title, body: options.body}); }
  close() {}
}
window.Notification = FakeNotification;
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (at) => { window.__chimes += 1; start(at); };
    return tone;
  }
};
Object.defineProperty(document, "hidden", { get: () => Boolean(window.__hidden) });
"""


def test_the_turn_chimes_can_be_silenced_and_notifies_a_hidden_tab(context: BrowserContext) -> None:
    context.add_init_script(HOOKS)
    page = context.new_page()
    enter(page, "Gleb")
    open_table(page, players=3, bot_delay_ms=200, turn_seconds=0)
    assert page.evaluate("window.__asked") == 0  # never asked on loading a page
    page.click("button.start")
    act(page)
    assert page.evaluate("window.__asked") == 1  # asked once, at the first move
    page.wait_for_function("() => window.__chimes > 0")  # the turn came back: a chime
    assert page.get_attribute(".sound-toggle", "aria-pressed") == "true"

    page.click(".sound-toggle")
    assert page.get_attribute(".sound-toggle", "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('raspisnoy.sound')") == "off"
    page.evaluate("window.__hidden = true; window.__chimes = 0")
    act(page)
    page.wait_for_function("() => window.__notifications.length > 0")
    note = page.evaluate("window.__notifications[0]")
    assert note["title"] == "Your turn — Raspisnoy poker"
    assert note["body"]
    assert page.evaluate("window.__chimes") == 0  # the sound is off
    page.reload()
    page.wait_for_selector(".sound-toggle")
    assert page.get_attribute(".sound-toggle", "aria-pressed") == "false"  # remembered
    act(page)
    assert page.evaluate("window.__asked") == 0  # this page (new hooks) never asked again


def test_the_chat_panel_on_a_phone_in_every_language(browser: Browser, server: str) -> None:
    """The open chat panel fits a small phone and passes axe in ru, uk and en."""
    context = browser.new_context(base_url=server, locale="ru-RU", viewport=PHONE_SMALL)
    try:
        page = context.new_page()
        enter(page, "Анна")
        open_table(page, players=3, bot_delay_ms=1000, turn_seconds=600)
        page.click("button.start")
        page.wait_for_selector(".game")
        open_chat(page)
        page.click(".chat-phrases button[data-phrase='well_played']")
        page.fill(".chat-form input", "Очень длинное сообщение " * 8)
        page.press(".chat-form input", "Enter")
        page.wait_for_function(
            "() => document.querySelectorAll('.chat-panel .chat-line').length === 2"
        )
        problems: list[str] = []
        for lang in LANGUAGES:
            set_language(page, lang)
            open_chat(page)
            problems += check_screen(page, "chat")
        assert problems == []
    finally:
        context.close()
