"""The casino page (/casino) on a 360×640 touch phone: whole hands with three boxes, a
change, a sixth card and the dealer's game bought, chosen from the cards the page shows
(nothing about the deal is fixed in advance: hands are dealt until the dealer fails to
qualify, which happens in about half of them); the hint, the history and the seed's
check; each screen in ru, uk and en with nothing wider than the screen or cut off."""

from __future__ import annotations

import re
from typing import Any

from e2e_helpers import (
    LANGUAGES,
    LAPTOP,
    PHONE_TALL,
    check_screen,
    set_language,
)
from playwright.sync_api import Page

#: Hands dealt at most while waiting for a dealer who does not qualify (each hand has
#: about a 45% chance, so 30 fail together about once in 10⁸ runs).
MOST_HANDS = 30
#: The first hint may wait for the advisor's compiled loops to load (or compile).
HINT_MS = 240_000


def casino(page: Page) -> dict[str, str]:
    """The casino screen's data attributes once no request is in flight."""
    page.wait_for_selector(".casino[data-busy=false]")
    data: dict[str, str] = page.eval_on_selector(".casino", "c => ({...c.dataset})")
    return data


def wait_phase(page: Page, *phases: str) -> dict[str, str]:
    page.wait_for_function(
        "ps => { const c = document.querySelector('.casino');"
        " return c && c.dataset.busy === 'false' && ps.includes(c.dataset.phase); }",
        arg=list(phases),
    )
    return casino(page)


def box_cards(page: Page, box: int) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        f".casino-box[data-box='{box}'] .card[data-card]", "cs => cs.map(c => c.dataset.card)"
    )
    return cards


def act(page: Page, action: str) -> dict[str, str]:
    """Taps a decision and waits for the server's answer to be drawn."""
    before = casino(page)
    page.click(f"button.act[data-action='{action}']")
    page.wait_for_function(
        "b => { const c = document.querySelector('.casino');"
        " return c.dataset.busy === 'false' && (c.dataset.toAct !== b.toAct"
        " || c.dataset.phase !== b.phase || c.dataset.balance !== b.balance); }",
        arg=before,
    )
    return casino(page)


def every_language(page: Page, name: str) -> list[str]:
    problems: list[str] = []
    for lang in LANGUAGES:
        set_language(page, lang)
        page.wait_for_selector(".casino[data-busy=false]")
        problems += check_screen(page, name)
    set_language(page, "ru")
    return problems


def api(page: Page, path: str) -> Any:
    answer = page.request.get(path)
    assert answer.ok, answer.text()
    return answer.json()


def test_whole_hands_with_three_boxes_a_change_a_buy_and_the_dealers_game(phone: Page) -> None:
    page = phone
    page.goto("/")
    page.fill("#nickname", "Крупье")
    page.click(".nickname-form button[type=submit]")
    page.wait_for_selector(".casino-link a[href='/casino']")
    page.click(".casino-link a[href='/casino']")
    state = wait_phase(page, "betting")
    start = api(page, "/api/casino")
    assert int(state["balance"]) == start["balance"]
    assert start["next_commitment"] in str(page.text_content(".commitment"))  # folded: not rendered

    page.click(".chip[data-chip='5']")
    for spot in (1, 3, 5):
        page.click(f".spot[data-spot='{spot}']")
    assert page.locator(".spot[data-spot='5'] .closed-mark").count() == 1
    assert "25" in page.inner_text("button.deal")  # three antes of 5 and the closed bet of 10
    problems = every_language(page, "casino-betting")

    bought = False
    hints = 0
    for hand in range(1, MOST_HANDS + 1):
        committed = api(page, "/api/casino")["next_commitment"]
        page.click("button.deal")
        state = wait_phase(page, "decide")
        assert state["hand"] == str(hand) and state["toAct"] == "1"
        assert page.locator(".dealer-cards .card.back").count() == 4
        assert box_cards(page, 2) == [] and box_cards(page, 3) == []  # not shown yet
        assert committed in str(page.text_content(".commitment"))  # folded: not rendered

        # Box 1: tap two cards and change them; then only bet or fold.
        cards = box_cards(page, 1)
        assert len(cards) == 5
        for card in cards[:2]:
            page.click(f".casino-box[data-box='1'] .card[data-card='{card}']")
        assert "2" in page.inner_text("button.act[data-action='change']")
        if hand == 1:
            problems += every_language(page, "casino-decide")
            page.click("button.hint-button")
            page.wait_for_selector("dialog[open] table.advice tbody tr", timeout=HINT_MS)
            assert page.locator("dialog[open] tr.best").count() == 1
            # the advisor's figures as Russian writes them: «-0,183», «± 0,074»
            figures = page.eval_on_selector_all(
                "dialog[open] table.advice td", "tds => tds.map(td => td.textContent)"
            )
            decimals = [f for f in figures if any(c.isdigit() for c in f) and "," in f]
            assert decimals and not [f for f in figures if re.search(r"\d\.\d", f)], figures
            problems += check_screen(page, "casino-hint")
            page.keyboard.press("Escape")
            hints += 1
        act(page, "change")
        after = box_cards(page, 1)
        assert len(after) == 5 and not set(cards[:2]) & set(after)
        if hand == 1:  # a reload shows the same hand, from the server
            page.reload()
            wait_phase(page, "decide")
            assert box_cards(page, 1) == after
        assert page.locator("button.act[data-action='buy']").count() == 0
        act(page, "bet")
        # Box 2: a sixth card, then the bet.
        assert casino(page)["toAct"] == "2" and len(box_cards(page, 2)) == 5
        act(page, "buy")
        assert len(box_cards(page, 2)) == 6
        state = act(page, "bet")
        # Box 3 played closed: the dealer shows his hand.
        assert len(box_cards(page, 3)) == 5
        if state["phase"] == "purchase":
            assert state["toAct"] == "1"
            problems += every_language(page, "casino-purchase")
            act(page, "buy-dealer")
            state = act(page, "decline")
            bought = True
        assert state["phase"] == "over"
        assert page.locator(".box-result").count() == 3
        assert page.locator(".verify-status[data-status='ok']").count() == 1
        if bought:
            assert page.locator(".dealer-cards .card[data-drawn]").count() == 1
            assert page.locator(".casino-box[data-box='1'] .box-marks").count() == 1
            break
    assert bought, f"the dealer qualified in all {MOST_HANDS} hands"
    problems += every_language(page, "casino-over")

    # The page's figures are the server's: balance, and each box's net.
    wallet = api(page, "/api/casino")
    assert int(casino(page)["balance"]) == wallet["balance"]
    history = api(page, "/api/casino/history?limit=100")["hands"]
    assert len(history) == hand
    assert sum(line["net"] for line in history) == wallet["balance"] - start["balance"]
    last = history[0]
    shown = [
        int(n) for n in page.eval_on_selector_all(".box-result", "rs => rs.map(r => r.dataset.net)")
    ]
    assert shown == [result["net"] for result in last["results"]]

    page.click("button.history-button")
    page.wait_for_selector("dialog[open] .history-hand")
    assert page.locator("dialog[open] .history-hand").count() == hand
    assert page.locator("dialog[open] .verify-status[data-status='ok']").count() == hand
    assert last["verify"] in page.inner_text("dialog[open] .history-hand >> nth=0")
    problems += check_screen(page, "casino-history")
    page.keyboard.press("Escape")
    assert hints == 1
    page.click("#theme")  # the dark theme: contrast and layout hold too
    page.wait_for_selector("html[data-theme=dark]")
    problems += check_screen(page, "casino-over")
    for size in (PHONE_TALL, LAPTOP):  # and the layout on a taller phone and a laptop
        page.set_viewport_size(size)
        problems += check_screen(page, "casino-over", axe=False)
    assert not problems, "\n".join(problems)
