"""The language switch, the phone layout and the new-table form."""

from __future__ import annotations

import httpx
from e2e_helpers import ACTIONABLE, act, create_table, enter, open_create_form
from playwright.sync_api import Browser, BrowserContext, Page


def test_language_follows_the_browser_and_is_switched_and_remembered(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(base_url=server, locale="ru-RU")
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector(".welcome")
        assert page.inner_text(".welcome h1") == "Расписной покер"
        assert page.get_attribute("html", "lang") == "ru"
        texts = {"ru": page.inner_text(".welcome")}
        for lang in ("uk", "en"):
            page.select_option("#lang", lang)
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            texts[lang] = page.inner_text(".welcome")
        assert "Розписний покер" in texts["uk"]
        assert "Raspisnoy poker" in texts["en"]
        assert "Choose a name" in texts["en"]
        assert len(set(texts.values())) == 3
        page.reload()
        page.wait_for_selector(".welcome")
        assert page.inner_text(".welcome") == texts["en"]
        # in the lobby too, every option of the rules has its name in the chosen language
        page.select_option("#lang", "uk")
        # the screen is drawn anew in the new language: type into that one
        page.wait_for_function("() => document.documentElement.lang === 'uk'")
        page.fill("#nickname", "Олена")
        page.click(".nickname-form button[type=submit]")
        page.click("details.options summary")
        labels = page.inner_text("details.options")
        assert "Обов'язково козиряти" in labels
        assert "trump_when_void" not in labels
    finally:
        context.close()


def _no_horizontal_overflow(page: Page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"page is {widths[0]} px wide on a {widths[1]} px screen"


def test_phone_screen_has_no_horizontal_overflow(browser: Browser, server: str) -> None:
    """At 360×640 portrait the lobby, the seating with a long name, a 5-seat game, the
    score sheet, the replay and the lobby's list of games fit the width."""
    context = browser.new_context(
        base_url=server, locale="ru-RU", viewport={"width": 360, "height": 640}, has_touch=True
    )
    try:
        page = context.new_page()
        enter(page, "Длинноеимяигрока")
        _no_horizontal_overflow(page)  # the phone's lobby: quick game and lists first
        open_create_form(page)
        page.click("details.options summary")
        _no_horizontal_overflow(page)
        create_table(page, players=5, timer=30)
        _no_horizontal_overflow(page)
        page.click("button.start")
        for _ in range(12):  # bids and cards of the first rounds
            page.wait_for_selector(ACTIONABLE)
            _no_horizontal_overflow(page)
            act(page)
        page.wait_for_selector(ACTIONABLE)
        for target in page.locator(f"{ACTIONABLE}, .bar-buttons button").all():
            box = target.bounding_box()
            assert box is not None
            assert box["width"] >= 40
            assert box["height"] >= 44
        page.click("button.open-sheet")
        page.wait_for_selector("dialog[open] table.sheet")
        _no_horizontal_overflow(page)
        page.keyboard.press("Escape")
        table_id = page.evaluate("new URLSearchParams(location.search).get('table')")
        page.goto(f"/?replay={table_id}")
        page.wait_for_selector(".replay .trick-cards, .replay .centre-note")
        page.click(".replay button.next")
        _no_horizontal_overflow(page)
        page.goto("/")
        page.wait_for_selector("#my-games .game-row")
        _no_horizontal_overflow(page)
    finally:
        context.close()


def test_rules_options_reach_the_table(context: BrowserContext, server: str) -> None:
    """Options changed under "All rules options" are the created table's rules; the
    preset's description follows the chosen preset."""
    page = context.new_page()
    enter(page, "Ivan")
    page.select_option("#create-form select[name=preset]", "classic")
    assert "rules sheet" in page.inner_text("#create-form .field >> nth=0")
    page.click("details.options summary")
    page.set_checked("input[name=option-descending]", True)
    page.fill("input[name=option-exact_zero]", "7")
    page.dispatch_event("input[name=option-exact_zero]", "change")
    assert page.locator(".option.changed").count() == 2
    table_id = create_table(page, players=4)
    rules = httpx.get(f"{server}/api/tables/{table_id}").json()["rules"]
    assert rules["preset"] == "classic"
    assert rules["descending"] is True
    assert rules["exact_zero"] == 7
    assert rules["trump_when_void"] is True  # from the preset, untouched
