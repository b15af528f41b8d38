"""Every main screen at phone sizes, in every language: nothing wider than the screen or
cut off, no serious accessibility violation (axe-core), text contrast at least 4.5:1 in the
light and the dark theme; a screenshot of each is kept under build/e2e-screens/.

One page plays through the screens; each is checked in ru, uk and en by switching the
language on it (a redraw), not by playing the game again per language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from e2e_helpers import (
    ACTIONABLE,
    LANGUAGES,
    LAPTOP,
    PHONE_SMALL,
    PHONE_TALL,
    act,
    check_screen,
    create_table,
    enter,
    game_state,
    open_create_form,
    set_language,
)
from playwright.sync_api import Browser, Page

#: A score sheet of six players with negative totals (custom plan 1, 2): the widest
#: sheet the phone must show without sideways scrolling.
SIX = ["Анна", "Борис", "Вера", "Григорий", "Длинноеимяигрока", "Ефросинья"]


def every_language(page: Page, name: str, redo: Callable[[], None] | None = None) -> list[str]:
    """``check_screen`` in each language; ``redo`` redraws what a language switch does not
    (an open dialog)."""
    problems: list[str] = []
    for lang in LANGUAGES:
        set_language(page, lang)
        if redo is not None:
            redo()
        problems += check_screen(page, name)
    set_language(page, "ru")
    return problems


def every_size(page: Page, name: str) -> list[str]:
    """``check_screen`` (layout only) at the taller phone and a laptop, back to 360×640."""
    problems: list[str] = []
    for size in (PHONE_TALL, LAPTOP):
        page.set_viewport_size(size)
        problems += check_screen(page, name, axe=False)
    page.set_viewport_size(PHONE_SMALL)
    return problems


def bids_and_hand_on_one_screen(page: Page) -> None:
    """While bidding, the bid buttons and the whole hand are visible together, below the
    sticky header (once the page has scrolled the bids into view)."""
    box = page.evaluate(
        """() => {
        const rect = (sel) => document.querySelector(sel).getBoundingClientRect();
        const bids = rect('.bids'), hand = rect('.hand'), header = rect('.topbar');
        return {top: Math.min(bids.top, hand.top), bottom: Math.max(bids.bottom, hand.bottom),
                header: header.bottom, height: innerHeight};
    }"""
    )
    assert box["top"] >= box["header"] - 1, box
    assert box["bottom"] <= box["height"] + 1, box


def test_game_screens(phone: Page, server: str) -> None:
    """Lobby, bidding a 9-card round (hand and bids on one 360×640 screen), playing, the
    score sheet, the results and the replay, each in three languages."""
    page = phone
    enter(page, "Длинноеимяигрока")
    problems = every_language(page, "lobby") + every_size(page, "lobby")
    open_create_form(page)
    page.click("details.options summary")
    problems += every_language(page, "lobby-options")
    # the help texts speak the page's language, not the rules' internal names
    options = page.inner_text("details.options")
    for internal in ("per_trick_taken", "miss_scoring", "georgian", "9:blind", "X1"):
        assert internal not in options
    assert "от 2 до 10" in options  # a number's bounds
    page.fill("input[name=option-custom_plan]", "9")
    page.dispatch_event("input[name=option-custom_plan]", "change")
    table_id = create_table(page, players=4)
    assert httpx.get(f"{server}/api/tables/{table_id}").json()["rules"]["custom_plan"] == ["9"]
    problems += every_language(page, "seating")
    page.click("button.start")

    page.wait_for_selector(".bids button.bid:not([disabled])")
    assert page.locator(".hand .card").count() == 9
    assert "9 карт" in page.inner_text(".round-info")  # CLDR plurals: 1 карта, 2 карты, 9 карт
    set_language(page, "en")
    assert "9 cards" in page.inner_text(".round-info")
    set_language(page, "ru")
    brand = page.locator(".brand").bounding_box()
    assert brand is not None and brand["width"] >= 44 and brand["height"] >= 44
    bids_and_hand_on_one_screen(page)
    problems += every_language(page, "bidding") + every_size(page, "bidding")
    page.set_viewport_size(PHONE_TALL)
    bids_and_hand_on_one_screen(page)
    page.set_viewport_size(PHONE_SMALL)

    act(page)
    page.wait_for_selector(".hand button.card.legal:not([disabled])")
    # every bid is in: the round bar adds them up against the cards dealt
    bids = [
        int(b)
        for b in page.eval_on_selector_all(
            ".felt .seat-chip, .seats.me .seat-chip", "els => els.map(e => e.dataset.bid)"
        )
    ]
    total = page.locator(".bid-sum")
    assert int(str(total.get_attribute("data-sum"))) == sum(bids)
    assert f"заказано {sum(bids)} из 9" in total.inner_text()
    problems += every_language(page, "playing") + every_size(page, "playing")
    problems += spectator_screen(page, table_id)

    page.click("button.open-sheet")
    page.wait_for_selector("dialog[open] table.sheet")
    problems += every_language(page, "sheet", redo=lambda: reopen_sheet(page))
    page.keyboard.press("Escape")

    # the last trick, its winner named in gold on the dialog's paper
    while not page.locator("button.last-trick:not([disabled])").count():
        act(page)
    page.click("button.last-trick")
    page.wait_for_selector("dialog[open] .played.won")
    problems += check_screen(page, "last-trick")
    page.keyboard.press("Escape")
    while page.locator("#results").count() == 0:
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        if page.locator("#results").count() == 0:
            act(page)
    page.wait_for_selector("#results table.sheet")
    problems += every_language(page, "results") + every_size(page, "results")

    page.goto(f"/?replay={table_id}")
    page.click(".replay button.next")
    page.wait_for_selector(".replay .trick-cards")
    assert not page.is_visible(".replay .keys-hint")  # no keyboard on a phone
    problems += every_language(page, "replay") + every_size(page, "replay")
    assert not problems, "\n".join(problems)


def spectator_screen(page: Page, table_id: str) -> list[str]:
    """The game as someone who is not seated sees it (the spectator's line on the felt)."""
    context = page.context.browser.new_context(  # type: ignore[union-attr]
        base_url=page.url.split("/?")[0], locale="ru-RU", viewport=PHONE_SMALL, has_touch=True
    )
    try:
        watcher = context.new_page()
        enter(watcher, "Зритель", f"/?table={table_id}")
        watcher.wait_for_selector(".game .spectator")
        return check_screen(watcher, "spectator")
    finally:
        context.close()


def reopen_sheet(page: Page) -> None:
    page.keyboard.press("Escape")
    page.click("button.open-sheet")
    page.wait_for_selector("dialog[open] table.sheet")


def test_joker_dialog(phone: Page) -> None:
    """The joker's dialog in three languages: two players, 18 cards each and two jokers,
    round after round until the joker comes (it is sorted first, so it is played first)."""
    page = phone
    enter(page, "Ольга")
    open_create_form(page)
    page.click("details.options summary")
    page.select_option("#create-form select[name=preset]", "ukrainian")
    for name, value in (("jokers", "7♠, 6♠"), ("custom_plan", "18, 18, 18, 18, 18, 18, 18, 18")):
        page.fill(f"input[name=option-{name}]", value)
        page.dispatch_event(f"input[name=option-{name}]", "change")
    create_table(page, players=2)
    page.click("button.start")
    joker = page.locator(".hand button.card.legal[data-card^=X]:not([disabled])")
    while True:
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        assert page.locator("#results").count() == 0, "the joker never came"
        if not joker.count():
            act(page)
            continue
        version = game_state(page)["version"]
        joker.first.click()
        page.wait_for_function(
            "v => document.querySelector('dialog[open] .joker-option')"
            " || document.querySelector('.game').dataset.version !== v",
            arg=version,
        )
        if page.locator("dialog[open] .joker-option").count():
            break

    def reopen() -> None:
        page.keyboard.press("Escape")
        joker.first.click()
        page.wait_for_selector("dialog[open] .joker-option")

    problems = every_language(page, "joker", redo=reopen)
    assert not problems, "\n".join(problems)


def test_dark_theme_and_the_toggle(phone: Page) -> None:
    """The dark theme follows the system, the toggle overrides it and is remembered; text
    keeps its contrast in it."""
    page = phone
    page.emulate_media(color_scheme="dark")
    enter(page, "Тёмная")
    assert page.get_attribute("html", "data-theme") == "dark"
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    problems = check_screen(page, "lobby")
    page.click("#theme")
    assert page.get_attribute("html", "data-theme") == "light"
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") != background
    page.reload()
    page.wait_for_selector("#create-form", state="attached")
    assert page.get_attribute("html", "data-theme") == "light"  # the choice is kept
    page.click("#theme")
    assert page.get_attribute("html", "data-theme") == "dark"
    create_table(page, players=3)
    page.click("button.start")
    page.wait_for_selector(ACTIONABLE)
    problems += check_screen(page, "table")
    page.click("button.open-sheet")
    page.wait_for_selector("dialog[open] table.sheet")
    problems += check_screen(page, "sheet")
    assert not problems, "\n".join(problems)


def test_motion_is_dealt_and_reduced_on_request(browser: Browser, server: str) -> None:
    """A new round's cards are dealt with an animation, which is off for people who ask
    their system for less motion."""
    names = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(
            base_url=server, locale="en-US", viewport=PHONE_SMALL, reduced_motion=motion
        )
        page = context.new_page()
        enter(page, "Mover")
        create_table(page, players=3, speed_ms=1600)  # slow bots: the deal stays on show
        page.click("button.start")
        names[motion] = page.wait_for_function(
            "() => { const card = document.querySelector('.hand .card.dealing');"
            " return card && getComputedStyle(card).animationName; }"
        ).json_value()
        context.close()
    assert names == {"no-preference": "deal", "reduce": "none"}


def new_sheet(page: Page, players: list[str], plan: list[str], rounds: list[dict[str, Any]]) -> str:
    """A sheet made through the API as this page's visitor; its id."""
    answer = page.request.post(
        "/api/sheets",
        data={
            "format": "raspisnoy-sheet/1",
            "rules": {"preset": "ukrainian", "custom_plan": plan},
            "players": players,
            "first_dealer": 0,
            "rounds": rounds,
        },
    )
    assert answer.ok, answer.text()
    sheet_id: str = answer.json()["id"]
    return sheet_id


def test_scorekeeper_screens(phone: Page) -> None:
    """The scorekeeper at 360 px: a six-player sheet fits without sideways scrolling, its
    legend whole; the only possible trick count is entered by itself (and undo brings it
    back for a tap); the finished sheet's chart keeps its minus signs."""
    page = phone
    enter(page, "Анна", "/score")
    page.wait_for_selector("#sheet-form")
    problems = every_language(page, "score-home")
    # Round 1 done; round 2 (two cards, Борис deals): every bid in, and the tricks of all
    # but Борис, who enters last.
    playing = new_sheet(
        page,
        SIX,
        ["1", "2", "3"],
        [
            {"bids": [0, 0, 0, 0, 1, 1], "taken": [0, 0, 0, 0, 1, 0]},
            {"bids": [1, 0, 0, 1, 0, 1], "taken": [1, None, 0, 0, 0, 1]},
        ],
    )
    page.goto(f"/score?sheet={playing}")
    # Борис can only have taken 0: the page enters it and says so.
    page.wait_for_selector(".score-page[data-next='bid:3:3'][data-busy=false]")
    stored = page.request.get(f"/api/sheets/{playing}").json()
    assert stored["sheet"]["rounds"][1]["taken"] == [1, 0, 0, 0, 0, 1]
    # said in the pad: no toast covers the sheet's totals row
    assert "Борис" in page.inner_text(".entry-pad .score-note")
    assert not page.locator("#toast.show").count()
    page.click(".entry-pad button.undo")
    page.wait_for_selector(".score-page[data-next='taken:2:1'][data-busy=false]")
    assert page.locator(".entry-pad button.bid:not([disabled])").count() == 1  # a tap, not a loop
    page.click(".entry-pad button.bid:not([disabled])")
    page.wait_for_selector(".score-page[data-next='bid:3:3'][data-busy=false]")
    legend = page.locator(".sheet caption")
    assert legend.evaluate("c => c.scrollWidth <= c.clientWidth")
    problems += every_language(page, "score-sheet") + every_size(page, "score-sheet")

    finished = new_sheet(
        page,
        SIX,
        ["1", "2"],
        [
            {"bids": [0, 1, 0, 0, 1, 0], "taken": [0, 0, 0, 0, 1, 0]},
            {"bids": [1, 1, 0, 1, 1, 1], "taken": [0, 0, 2, 0, 0, 0]},
        ],
    )
    page.goto(f"/score?sheet={finished}")
    page.wait_for_selector("#results .chart")
    totals = page.request.get(f"/api/sheets/{finished}").json()["report"]["totals"]
    assert min(totals) < 0
    shown = page.eval_on_selector_all(
        "#results [data-chart-total]", "els => els.map(e => e.textContent)"
    )
    assert shown == [str(total) for total in totals]  # "-20", not "20"
    low = page.locator("#results .chart text[data-low]")
    assert low.text_content() == str(min(totals))
    chart = page.locator("#results .chart svg").bounding_box()
    label = low.bounding_box()
    assert chart is not None and label is not None and label["x"] >= chart["x"]
    problems += every_language(page, "score-results") + every_size(page, "score-results")
    assert not problems, "\n".join(problems)
