"""The scorekeeper page (/score) on a phone: a table playing with real cards keeps its
«расписная» by tapping big buttons, and everything the page shows is what the server's
scorekeeper computes (checked against ``raspisnoy score --sheet FILE --json``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from e2e_helpers import check_screen
from playwright.sync_api import (
    APIResponse,
    Browser,
    BrowserContext,
    Dialog,
    Page,
    Response,
    Route,
    ViewportSize,
)

PHONE: ViewportSize = {"width": 360, "height": 640}
#: A portrait A4 page at 96 dpi, as the browser prints it.
A4: ViewportSize = {"width": 794, "height": 1123}
NAMES = ["Анна", "Борис", "Вера", "Григорий"]
#: A short game through the rules options: three normal rounds and a misère (no bids).
PLAN = "1, 2, 3, 4:misere"
#: Seconds a read-only page may take to show a change (it looks every 5 s).
SHARE_REFRESH_MS = 15_000


def no_horizontal_overflow(page: Page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"page is {widths[0]} px wide on a {widths[1]} px screen"


def next_entry(page: Page) -> tuple[str, int, int] | None:
    """What the sheet expects next, from the page: (bid|taken|control, round, seat), or
    ``None`` once the game is complete."""
    page.wait_for_selector(".score-page[data-busy=false]")
    expected = page.get_attribute(".score-page", "data-next")
    if not expected:
        return None
    kind, number, seat = expected.split(":")
    return kind, int(number), int(seat)


def tap(page: Page, selector: str) -> None:
    """Taps a button of the entry pad and waits until the server's answer is shown."""
    version = page.get_attribute(".score-page", "data-version")
    page.click(selector)
    page.wait_for_function(
        "v => { const p = document.querySelector('.score-page');"
        " return p && p.dataset.version !== v && p.dataset.busy === 'false'; }",
        arg=version,
    )


def enter(page: Page, kind: str, values: list[int]) -> None:
    """Enters the bids or tricks (``values`` by seat) of the round in play that are still
    missing, in the order the page asks for them."""
    first = next_entry(page)
    assert first is not None
    while (entry := next_entry(page)) is not None and entry[:2] == (kind, first[1]):
        tap(page, f".entry-pad button.bid[data-value='{values[entry[2]]}']")


def page_totals(page: Page) -> list[int]:
    cells = page.locator("[data-sheet-total]").all_inner_texts()
    return [int(text) for text in cells]


def sheet_api(page: Page, sheet_id: str) -> Any:
    """The sheet as the server has it, fetched by the page (with its session)."""
    return page.evaluate("id => fetch(`/api/sheets/${id}`).then((r) => r.json())", sheet_id)


def cli_report(sheet: Any, folder: Path) -> Any:
    """``raspisnoy score --sheet FILE --json`` of the sheet."""
    path = folder / "sheet.json"
    path.write_text(json.dumps(sheet, ensure_ascii=False), encoding="utf-8")
    run = [sys.executable, "-m", "raspisnoy", "score", "--sheet", str(path), "--json"]
    done = subprocess.run(run, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def set_up(page: Page, names: list[str], plan: str, *, control: bool = False) -> str:
    """A new visitor (the first of ``names``) sets up a sheet for ``names`` with the round
    plan ``plan`` (and control rounds) through the page, and returns its id."""
    fill_in_sheet_form(page, names, plan, control=control)
    page.click("#sheet-form button[type=submit]")
    page.wait_for_selector(".score-page .entry-pad")
    sheet_id = page.evaluate("new URLSearchParams(location.search).get('sheet')")
    assert isinstance(sheet_id, str)
    return sheet_id


def fill_in_sheet_form(page: Page, names: list[str], plan: str, *, control: bool = False) -> None:
    """A new visitor (the first of ``names``) fills in the new sheet's form for ``names``
    with the round plan ``plan`` (and control rounds), not sending it yet."""
    page.goto("/score")
    page.fill("#nickname", names[0])
    page.click(".nickname-form button[type=submit]")
    page.wait_for_selector("#sheet-form input[data-seat='2']")
    assert page.input_value("#sheet-form input[data-seat='0']") == names[0]  # the nickname
    for _ in names[3:]:
        page.click("#sheet-form .add-player")
    for seat, name in enumerate(names[1:], 1):
        page.fill(f"#sheet-form input[data-seat='{seat}']", name)
    page.select_option("#sheet-form select[name=dealer]", label=names[0])
    page.click("#sheet-form details.options summary")
    page.fill("input[name=option-custom_plan]", plan)
    page.dispatch_event("input[name=option-custom_plan]", "change")
    page.set_checked("input[name=option-control_game]", control)
    no_horizontal_overflow(page)


def russian_phone(browser: Browser, server: str) -> tuple[BrowserContext, Page, list[str]]:
    """A small phone in Russian, its page, and the script errors the page meets."""
    phone = browser.new_context(base_url=server, locale="ru-RU", viewport=PHONE, has_touch=True)
    page, errors = phone.new_page(), []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return phone, page, errors


def test_keeping_score_of_a_game_on_a_phone(browser: Browser, server: str, tmp_path: Path) -> None:
    phone, page, errors = russian_phone(browser, server)
    friend = browser.new_context(base_url=server, locale="uk-UA", viewport=PHONE, has_touch=True)
    try:
        sheet_id = set_up(page, NAMES, PLAN)
        assert sheet_api(page, sheet_id)["sheet"]["rules"]["custom_plan"] == PLAN.split(", ")

        # Round 1: one card, Anna deals; Boris bids first.
        assert next_entry(page) == ("bid", 1, 1)
        assert "Раздача 1 из 4" in page.inner_text(".entry-pad .round-line")
        for value in (0, 0, 1):  # Boris, Vera, Grigory
            tap(page, f".entry-pad button.bid[data-value='{value}']")
        assert next_entry(page) == ("bid", 1, 0)
        # The dealer's forbidden bid: the button is off and the pad says why.
        assert page.is_disabled(".entry-pad button.bid[data-value='0']")
        reason = page.inner_text(".entry-pad")
        assert "Анна сдаёт и не может заказать 0" in reason
        for button in page.locator(".entry-pad button").all():
            box = button.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44
        no_horizontal_overflow(page)
        enter(page, "bid", [1, 0, 0, 1])
        enter(page, "taken", [0, 0, 0, 1])

        # Round 2: Boris deals two cards.
        enter(page, "bid", [1, 1, 1, 0])
        assert next_entry(page) == ("taken", 2, 2)
        enter(page, "taken", [1, 0, 1, 0])

        # Round 3: Vera deals three; a slip is taken back with Undo.
        enter(page, "bid", [0, 1, 0, 1])
        tap(page, ".entry-pad button.bid[data-value='0']")  # a slip: Grigory took 1, not 0
        assert next_entry(page) == ("taken", 3, 0)
        tap(page, ".entry-pad button.undo")
        assert next_entry(page) == ("taken", 3, 3)

        # A reload in the middle of a round loses nothing.
        before = page.inner_text(".sheet-panel")
        version = page.get_attribute(".score-page", "data-version")
        page.reload()
        page.wait_for_selector(".score-page .entry-pad")
        assert page.inner_text(".sheet-panel") == before
        assert page.get_attribute(".score-page", "data-version") == version
        assert next_entry(page) == ("taken", 3, 3)
        enter(page, "taken", [0, 1, 1, 1])
        no_horizontal_overflow(page)

        # The other players follow through the read-only link, without a name.
        share = page.input_value(".share .share-link")
        assert sheet_id not in share
        watcher = friend.new_page()
        watcher.on("pageerror", lambda error: errors.append(str(error)))
        watcher.goto(share)
        watcher.wait_for_selector(".score-page .sheet-panel")
        assert "лише для перегляду" in watcher.inner_text(".readonly-note")
        assert watcher.locator(".entry-pad, button[data-edit], .share").count() == 0
        assert page_totals(watcher) == page_totals(page)
        no_horizontal_overflow(watcher)

        # Round 4, a misère dealt by Grigory: no bids, only tricks.
        assert next_entry(page) == ("taken", 4, 0)
        pad = page.inner_text(".entry-pad").lower()
        assert "мизер" in pad and "заказов нет" in pad
        enter(page, "taken", [0, 2, 1, 1])
        page.wait_for_selector("#results .winners")
        assert page.locator("#results svg polyline").count() == 4
        watcher.wait_for_selector("#results .winners", timeout=SHARE_REFRESH_MS)

        # The page's totals are the command line's for the same sheet.
        stored = sheet_api(page, sheet_id)
        report = cli_report(stored["sheet"], tmp_path)
        assert report["complete"] and stored["report"] == report
        assert page_totals(page) == report["totals"] == page_totals(watcher)
        winners = page.inner_text("#results .winners")
        assert all(NAMES[seat] in winners for seat in report["winners"])

        # Correcting a past round: Anna did take round 1's trick; the totals follow.
        page.click("button[data-edit='1']")
        page.select_option("dialog[open] select[name=taken][data-seat='0']", "1")
        page.select_option("dialog[open] select[name=taken][data-seat='3']", "0")
        no_horizontal_overflow(page)
        tap(page, "dialog[open] button[type=submit]")
        page.wait_for_selector("dialog[open]", state="detached")
        corrected = sheet_api(page, sheet_id)
        assert corrected["sheet"]["rounds"][0] == {"bids": [1, 0, 0, 1], "taken": [1, 0, 0, 0]}
        assert page_totals(page) == cli_report(corrected["sheet"], tmp_path)["totals"]
        assert page_totals(page) != report["totals"]

        # A correction the rules refuse says where and why, in the page's language, and
        # changes nothing.
        page.click("button[data-edit='1']")
        page.select_option("dialog[open] select[name=bid][data-seat='0']", "0")
        page.click("dialog[open] button[type=submit]")
        page.wait_for_selector("dialog[open] .form-error:not(:empty)")
        assert page.inner_text("dialog[open] .form-error") == (
            "раздача 1, Анна: сдающему нельзя заказать 0: "
            "сумма заказов сравнялась бы с числом сданных карт (1)"
        )
        page.keyboard.press("Escape")
        assert sheet_api(page, sheet_id)["version"] == corrected["version"]

        # Reloaded, the finished sheet is all there; CSV and print are at hand.
        shown = page.inner_text("main")
        page.reload()
        page.wait_for_selector("#results .winners")
        assert page.inner_text("main") == shown
        csv = page.request.get(str(page.get_attribute("a.csv", "href")))
        assert csv.ok and csv.text().startswith("\ufeffРаздача,Карт,Вид,Сдаёт,Анна: заказ")
        page.emulate_media(media="print")
        page.set_viewport_size(A4)
        assert not page.is_visible(".topbar") and not page.is_visible("a.csv")
        assert page.is_visible("table.sheet") and page.is_visible("#results svg")
        no_horizontal_overflow(page)  # the whole sheet on the width of the paper
        assert errors == []
    finally:
        phone.close()
        friend.close()


def test_a_dealer_picked_for_the_control_round_stays_when_the_page_is_drawn_again(
    browser: Browser, server: str
) -> None:
    """The page draws itself again when a poll brings a newer sheet, or after a trick
    count it entered for the player: a dealer picked on the control-round pad, not sent
    yet, stays picked when the pad asks the same choice (it was reset to the first seat,
    and the round dealt by the wrong player)."""
    phone = browser.new_context(base_url=server, locale="en-US", viewport=PHONE, has_touch=True)
    try:
        page = phone.new_page()
        sheet_id = set_up(page, ["Anna", "Boris", "Vera"], "1", control=True)
        enter(page, "bid", [0, 0, 0])
        enter(page, "taken", [0, 1, 0])
        assert next_entry(page) == ("control", 2, 1)
        page.select_option(".entry-pad select[name=control-dealer]", label="Vera")
        version = page.get_attribute(".score-page", "data-version")
        # The first round written again, as it was, from elsewhere: a newer sheet that
        # asks the same choice.
        status = page.evaluate(
            """id => fetch(`/api/sheets/${id}/rounds/1`, {method: "PUT",
                 headers: {"content-type": "application/json"},
                 body: JSON.stringify({bids: [0, 0, 0], taken: [0, 1, 0]})})
               .then((r) => r.status)""",
            sheet_id,
        )
        assert status == 200
        page.wait_for_function(
            "v => document.querySelector('.score-page').dataset.version !== v",
            arg=version,
            timeout=SHARE_REFRESH_MS,
        )
        assert next_entry(page) == ("control", 2, 1)
        assert page.input_value(".entry-pad select[name=control-dealer]") == "2"
        tap(page, ".entry-pad button.choice[data-kind='misere']")
        assert next_entry(page) == ("taken", 2, 0)  # Vera deals: Anna, on her left, first
    finally:
        phone.close()


def test_a_tie_for_first_is_played_off_in_a_control_round(browser: Browser, server: str) -> None:
    """With the option ``control_game``, a tie for first after the plan gives the last
    player the choice of a control round («контрольная»): kind and dealer. A second phone
    keeps the sheet too, through the hand-over link."""
    phone = browser.new_context(base_url=server, locale="en-US", viewport=PHONE, has_touch=True)
    second = browser.new_context(base_url=server, locale="en-US", viewport=PHONE, has_touch=True)
    try:
        page = phone.new_page()
        set_up(page, ["Anna", "Boris", "Vera"], "1", control=True)
        # The hand-over link lets a second phone keep the sheet, without a name.
        page.click(".share details.handover summary")
        handover = page.input_value(".share .handover-link")
        assert "#token=" in handover
        helper = second.new_page()
        helper.goto(handover)
        helper.wait_for_selector(".score-page .entry-pad")
        # One card, nobody bids a trick, Boris takes it: Anna and Vera tie with 5.
        tap(helper, ".entry-pad button.bid[data-value='0']")  # Boris, from the second phone
        page.wait_for_selector(".score-page[data-next='bid:1:2']", timeout=SHARE_REFRESH_MS)
        tap(page, ".entry-pad button.bid[data-value='0']")  # Vera
        assert page.is_disabled(".entry-pad button.bid[data-value='1']")  # Anna deals
        enter(page, "bid", [0, 0, 0])
        enter(page, "taken", [0, 1, 0])
        assert next_entry(page) == ("control", 2, 1)
        assert "Boris, in last place, chooses" in page.inner_text(".entry-pad")
        kinds = page.locator(".entry-pad button.choice").all_inner_texts()
        assert "misère" in kinds and "forehead" not in kinds
        page.select_option(".entry-pad select[name=control-dealer]", label="Vera")
        tap(page, ".entry-pad button.choice[data-kind='misere']")
        # A misère of the largest deal (12 cards for three), dealt by Vera: no bids.
        assert next_entry(page) == ("taken", 2, 0)
        assert "Round 2: control round" in page.inner_text(".entry-pad .round-line")
        assert page.locator(".entry-pad button.bid").count() == 13
        no_horizontal_overflow(page)
        enter(page, "taken", [0, 11, 1])
        page.wait_for_selector("#results .winners")
        assert page.inner_text("#results .winners") == "Winner: Anna"
        assert "misère" in page.inner_text("tr[data-round='2']").lower()
        # The sheet is in the list of yours, finished.
        page.click("a[href='/score']")
        page.wait_for_selector(".score-home .game-row")
        assert "finished" in page.inner_text(".score-home .game-row")
        no_horizontal_overflow(page)
    finally:
        phone.close()
        second.close()


def test_a_poll_answered_after_a_tap_does_not_bring_back_the_older_sheet(
    browser: Browser, server: str
) -> None:
    """The page looks at the server's sheet every 5 s. A look sent before a tap whose
    answer comes back after it carries the sheet as it was before the tap: the page keeps
    the newer sheet the tap brought (a redraw with the older one would undo the tap on the
    screen and reset whatever was being chosen, such as a control round's dealer)."""
    phone = browser.new_context(base_url=server, locale="ru-RU", viewport=PHONE, has_touch=True)
    try:
        page = phone.new_page()
        sheet_id = set_up(page, NAMES, PLAN)
        held: list[tuple[Route, APIResponse]] = []

        def hold_first_poll(route: Route) -> None:
            """Holds the first look's answer, fetched from the server now (before the tap)."""
            if route.request.method != "GET" or held:
                route.continue_()
                return
            held.append((route, route.fetch()))

        page.route(f"**/api/sheets/{sheet_id}", hold_first_poll)
        for _ in range(150):  # the next look comes within 5 s
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the page did not look at the sheet within 15 s"
        before = page.get_attribute(".score-page", "data-version")
        tap(page, ".entry-pad button.bid[data-value='0']")
        after = page.get_attribute(".score-page", "data-version")
        route, stale = held[0]
        assert stale.json()["version"] == int(before or "") < int(after or "")
        with page.expect_event("requestfinished"):
            route.fulfill(response=stale)
        page.wait_for_timeout(1000)  # the page reads and weighs the answer
        assert page.get_attribute(".score-page", "data-version") == after
        assert next_entry(page) == ("bid", 1, 2)  # the tap's bid is still on the sheet
    finally:
        phone.close()


def test_a_sheet_is_deleted_from_the_list_on_a_phone(browser: Browser, server: str) -> None:
    """/score lists the person's sheets, each with a button to delete it (44×44, named
    with its players); asked to confirm in Russian, a sheet goes only when confirmed, the
    list shows what is left, and the deleted sheet's link finds nothing."""
    phone, page, errors = russian_phone(browser, server)
    try:
        gone = set_up(page, NAMES, PLAN)
        kept = page.evaluate(
            """body => fetch('/api/sheets', {method: 'POST', body: JSON.stringify(body),
                headers: {'content-type': 'application/json'}}).then((r) => r.json())""",
            {
                "format": "raspisnoy-sheet/1",
                "rules": "raspisnoy.com",
                "first_dealer": 0,
                "players": ["Дима", "Оля", "Света"],
            },
        )["id"]
        page.goto("/score")
        page.wait_for_selector(".sheet-list button[data-delete]")
        buttons = page.locator(".sheet-list button[data-delete]")
        assert buttons.count() == 2
        for button in buttons.all():
            box = button.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44
        delete = page.locator(f".sheet-list button[data-delete='{gone}']")
        assert delete.get_attribute("aria-label") == f"Удалить запись: {', '.join(NAMES)}"
        problems = check_screen(page, "score-list")
        asked: list[str] = []

        def dismiss(dialog: Dialog) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        page.once("dialog", dismiss)
        delete.click()
        page.wait_for_timeout(300)  # a dismissed dialog changes nothing
        assert buttons.count() == 2 and asked == [
            f"Удалить запись «{', '.join(NAMES)}» навсегда? Ссылки на неё перестанут работать."
        ]
        page.once("dialog", lambda dialog: dialog.accept())
        delete.click()
        page.wait_for_selector(".toast:has-text('Запись удалена.')")
        assert [b.get_attribute("data-delete") for b in buttons.all()] == [kept]
        problems += check_screen(page, "score-list-deleted")
        page.goto(f"/score?sheet={gone}")
        page.wait_for_selector("text=Такой записи нет: проверьте ссылку.")
        assert problems == [] and errors == []
    finally:
        phone.close()


def test_trick_counts_the_page_fills_in_are_each_sent_once(browser: Browser, server: str) -> None:
    """Once one player has taken every trick, the others' 0s are the only counts left and
    the page enters them by itself, one after another. Each goes to the server once: a
    second copy of one was applied to whatever came next (the next round's first bid
    expected) and refused with a red error, «взятки вводятся раньше заказа»."""
    phone, page, errors = russian_phone(browser, server)
    sent: list[tuple[str, int]] = []  # the entries posted: body and answer's status

    def record(answer: Response) -> None:
        if answer.request.method == "POST" and answer.url.endswith("/entries"):
            sent.append((answer.request.post_data or "", answer.status))

    page.on("response", record)
    try:
        sheet_id = set_up(page, NAMES, PLAN)
        enter(page, "bid", [1, 1, 0, 0])  # Anna deals one card
        assert next_entry(page) == ("taken", 1, 1)
        sent.clear()
        tap(page, ".entry-pad button.bid[data-value='1']")  # Boris takes the only trick
        page.wait_for_selector(".score-page[data-next='bid:2:2'][data-busy=false]")
        page.wait_for_load_state("networkidle")  # a second copy would be on its way by now
        assert [json.loads(body)["seat"] for body, _ in sent] == [1, 2, 3, 0]
        assert [status for _, status in sent] == [200] * 4
        assert page.inner_text(".entry-pad .score-error") == ""
        assert "Анна: 0 взяток — записано само" in page.inner_text(".entry-pad .score-note")
        assert sheet_api(page, sheet_id)["sheet"]["rounds"] == [
            {"bids": [1, 1, 0, 0], "taken": [0, 1, 0, 0]}
        ]
        assert check_screen(page, "score-autofilled") == []
        assert errors == []
    finally:
        phone.close()


def test_a_correction_made_on_an_older_sheet_is_refused_and_said_in_russian(
    browser: Browser, server: str
) -> None:
    """Two pages correct round 1 from the same sheet. The first correction is kept; the
    second, made on the sheet as it was, would have rewritten the round over it: it is
    refused (409 ``sheet_changed``), the page says so in Russian and shows the round as
    stored now, and nothing of the first is lost."""
    phone, page, errors = russian_phone(browser, server)
    try:
        sheet_id = set_up(page, NAMES, PLAN)
        enter(page, "bid", [1, 0, 0, 1])
        enter(page, "taken", [0, 0, 0, 1])
        other = phone.new_page()
        other.on("pageerror", lambda error: errors.append(str(error)))
        other.goto(f"/score?sheet={sheet_id}")
        other.wait_for_selector(".score-page button[data-edit='1']")
        before = other.get_attribute(".score-page", "data-version")
        for each in (page, other):
            each.click("button[data-edit='1']")
            each.wait_for_selector("dialog[open] select[name=taken]")
        # Anna took round 1's trick, not Grigory: the first page says so.
        page.select_option("dialog[open] select[name=taken][data-seat='0']", "1")
        page.select_option("dialog[open] select[name=taken][data-seat='3']", "0")
        tap(page, "dialog[open] button[type=submit]")
        page.wait_for_selector("dialog[open]", state="detached")
        first = {"bids": [1, 0, 0, 1], "taken": [1, 0, 0, 0]}
        assert sheet_api(page, sheet_id)["sheet"]["rounds"][0] == first
        # The other page, still on the sheet as it was, says Boris took it.
        other.select_option("dialog[open] select[name=taken][data-seat='1']", "1")
        other.select_option("dialog[open] select[name=taken][data-seat='3']", "0")
        other.click("dialog[open] button[type=submit]")
        other.wait_for_selector("dialog[open] .form-error:not(:empty)")
        assert other.inner_text("dialog[open] .form-error") == (
            "Запись изменили на другом устройстве, и ваше изменение не сохранено. "
            "Показана запись, как она есть сейчас."
        )
        stored = sheet_api(other, sheet_id)
        assert stored["sheet"]["rounds"][0] == first  # the first correction is kept
        assert other.get_attribute(".score-page", "data-version") == str(stored["version"])
        assert stored["version"] == int(before or "") + 1
        shown = [
            other.input_value(f"dialog[open] select[name=taken][data-seat='{seat}']")
            for seat in range(4)
        ]
        assert shown == ["1", "0", "0", "0"]  # the round as stored, to correct again
        assert page_totals(other) == page_totals(page)
        problems = check_screen(other, "score-changed-elsewhere")
        assert problems == [] and errors == []
    finally:
        phone.close()


def test_a_round_plan_that_cannot_be_dealt_is_said_in_russian(
    browser: Browser, server: str
) -> None:
    """A plan dealing 13 cards to each of three players, where the 36-card deck gives
    each at most 12: the server refuses the sheet, and the form says why in Russian
    (the engine's error by its code, in the plural form of 12), keeping what was typed."""
    phone, page, errors = russian_phone(browser, server)
    try:
        fill_in_sheet_form(page, NAMES[:3], "1, 13")
        page.click("#sheet-form button[type=submit]")
        page.wait_for_selector("#sheet-form .form-error:not(:empty)")
        assert page.inner_text("#sheet-form .form-error") == (
            "План раздач «Свой план раздач», раздача 2 «13»: "
            "когда игроков 3, каждому можно сдать не больше 12 карт"
        )
        assert page.input_value("input[name=option-custom_plan]") == "1, 13"
        assert page.input_value("#sheet-form input[data-seat='2']") == NAMES[2]
        page.locator("#sheet-form .form-error").scroll_into_view_if_needed()
        problems = check_screen(page, "score-plan-cannot-be-dealt")
        assert problems == [] and errors == []
    finally:
        phone.close()


ENGINE_TEXT = """async (cases) => {
  const i18n = await import("/js/i18n.js");
  const score = await import("/js/score.js");
  await i18n.setLanguage("ru", { remember: false });
  return cases.map(([template, params]) => score.engineText(template, params));
}"""


def test_a_rules_problem_of_a_sheet_is_worded_as_the_rules_form_words_it(
    browser: Browser, server: str
) -> None:
    """The engine's messages are written for the terminal, where options are typed by
    their ids («jokers», «custom_plan», «9:blind»); the score page words them as its
    rules form does, in Russian."""
    catalog = Path(__file__).resolve().parents[2] / "src/raspisnoy/i18n/ru/errors.json"
    errors = json.loads(catalog.read_text())
    cases = [
        (errors["error.joker_card"], {"card": "5S"}),
        (errors["error.special_round"], {"entry": "темная", "kinds": "no-trump, blind, misere"}),
        (errors["error.plan_entry"], {"number": 1, "entry": "x", "kinds": "blind, golden"}),
        (
            errors["error.option_choice"],
            {"option": "trump_source", "choices": "undealt, dealer_last", "value": "x"},
        ),
    ]
    context = browser.new_context(base_url=server)
    page = context.new_page()
    page.goto("/")
    texts: list[str] = page.evaluate(ENGINE_TEXT, [list(case) for case in cases])
    context.close()
    for text in texts:
        for raw in ("jokers", "special_rounds", "custom_plan", "trump_source", "blind", "misere"):
            assert raw not in text, text
    assert "«Джокеры»" in texts[0] and "бескозырка, тёмная, мизер" in texts[1]
    assert "9:тёмная" in texts[2] and "«Свой план раздач»" in texts[2]
    assert "верхняя карта остатка, последняя карта сдающего" in texts[3]
