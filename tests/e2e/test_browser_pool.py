"""«Играть с людьми» in the browser: four visitors on small Russian phones choose the same
table in the lobby's pool panel, press the button, see the time they wait, and all land at
one table whose game starts. A fifth leaves the pool again. Screenshots of the panel, the
wait and the table are kept (build/e2e-screens) and checked for overflow and
accessibility."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2e_helpers import PHONE_SMALL, check_screen, enter, open_private_tables
from playwright.sync_api import Browser, BrowserContext, Page

#: Long enough for a pairing pass and the table's start under a loaded machine.
LANDING_MS = 60_000


@pytest.fixture
def phones(browser: Browser, server: str) -> Iterator[list[BrowserContext]]:
    contexts = [
        browser.new_context(base_url=server, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True)
        for _ in range(5)
    ]
    yield contexts
    for context in contexts:
        context.close()


def choose(page: Page) -> None:
    """Classic rules only, four players, no bots: wait for people."""
    panel = page.locator("#pool-panel")
    panel.locator(".pool-join").wait_for()
    panel.locator(".pool-choices > summary").click()
    for box in panel.locator("input[name=preset]").all():
        box.set_checked(box.get_attribute("value") == "classic")
    panel.locator("input[name=players][value='4']").check()
    panel.locator("input[name=speed][value=slow]").check()
    panel.locator("select[name=bot_wait]").select_option("never")


def join(page: Page) -> None:
    """Press «Играть с людьми» and wait until the server has answered the join."""
    with page.expect_response(
        lambda response: response.url.endswith("/api/pool") and response.request.method == "POST"
    ) as answer:
        page.locator("#pool-panel .pool-join").click()
    assert answer.value.ok


def test_four_people_press_play_with_people_and_land_at_one_table(
    phones: list[BrowserContext],
) -> None:
    pages = [context.new_page() for context in phones]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    problems: list[str] = []
    for number, page in enumerate(pages, 1):
        enter(page, f"Игрок {number}")
        if number == 1:  # the lobby's first screen: the pool's panel, closed, and the quick game
            page.locator("#pool-panel .pool-join").wait_for()
            problems += check_screen(page, "pool-lobby")
        choose(page)
    # The panel comes first on the lobby's first screen, above the quick game.
    first = pages[0]
    panels = first.locator(".lobby .side > section").evaluate_all("s => s.map(e => e.className)")
    assert panels[:2] == ["panel pool", "panel quick"]
    assert first.locator("#pool-panel h2").inner_text() == "Играть с людьми"
    problems += check_screen(first, "pool-panel")
    summary = first.locator(".pool-summary").inner_text()
    assert (
        summary
        == "Классические · игроков: 4 · медленно · боты: никогда, ждать людей · без рейтинга"
    )
    # Each join is answered before the next person presses: the pairing seats the four
    # who waited longest, so the fifth must be the last to join, on a loaded machine too.
    for page in pages[:4]:
        join(page)
    # Whoever is still waiting sees the time waited and the button to leave.
    waiting = pages[4]
    join(waiting)
    waiting.locator(".pool-waited").wait_for()
    assert waiting.locator(".pool-waiting").inner_text() == "Ищем стол с людьми…"
    assert waiting.locator(".pool-waited").inner_text().startswith("Ждёте 0:")
    problems += check_screen(waiting, "pool-waiting")
    tables = set()
    for page in pages[:4]:
        page.wait_for_url("**/?table=*", timeout=LANDING_MS)
        page.wait_for_selector(".game", timeout=LANDING_MS)
        tables.add(page.evaluate("new URLSearchParams(location.search).get('table')"))
    assert len(tables) == 1
    problems += check_screen(pages[0], "pool-table", axe=False)
    # The fifth is not at it: still waiting, and leaves the pool.
    assert "table=" not in waiting.url
    waiting.locator(".pool-leave").click()
    waiting.locator("#pool-panel .pool-join").wait_for()
    assert waiting.locator(".toast").last.inner_text() == "Вы больше не ищете стол."
    assert problems == []
    assert errors == []


def test_a_person_at_the_cap_of_games_is_told_the_pool_waits_for_one_to_end(
    phones: list[BrowserContext],
) -> None:
    """One who joined the pool, then started games elsewhere up to the cap (4 at once),
    is told in Russian, on the waiting panel, that the pool will seat them once a game
    ends, and may still leave the pool."""
    page = phones[0].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enter(page, "Четыре партии")
    choose(page)
    # Choices nobody else in this module waits with, so nobody is paired with them.
    panel = page.locator("#pool-panel")
    for box in panel.locator("input[name=preset]").all():
        box.set_checked(box.get_attribute("value") == "oh-hell")
    panel.locator("input[name=players][value='5']").check()
    join(page)
    page.locator(".pool-waited").wait_for()
    assert page.locator(".pool-held").count() == 0
    started = open_private_tables(page, 4, start=True)
    assert started == [200] * 4
    held = page.locator(".pool-held")
    held.wait_for()
    assert held.inner_text() == (
        "Вы уже играете 4 партии — больше 4 одновременно нельзя. "
        "Пул подберёт вам стол, когда одна из них закончится."
    )
    assert page.locator(".pool-waiting").inner_text() == "Ищем стол с людьми…"
    problems = check_screen(page, "pool-held")
    page.locator(".pool-leave").click()
    page.locator("#pool-panel .pool-join").wait_for()
    assert problems == []
    assert errors == []
