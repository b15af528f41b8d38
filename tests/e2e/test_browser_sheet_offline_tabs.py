"""Sheets kept on the device by the scorekeeper offline (docs/offline.md, "The scorekeeper
offline"), in Chromium at 360×640 in Russian, with two tabs and uploads under way: a
change made while the sheet is being uploaded is kept for the next upload, and a sheet
that has left the device is said in words; a tab left behind by another tab's change
does not write over it; one sheet the server fails on does not hold back the others."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from e2e_helpers import TOASTS, enter, phone_shot, russian_device
from playwright.sync_api import Browser, BrowserContext, Page, Route
from test_browser_offline import wait_until_kept
from test_browser_score import enter as enter_round
from test_browser_score import next_entry
from test_browser_sheet_offline import kept_sheets

NAMES = ["Вера", "Глеб", "Дина"]
#: Holds this page's uploads of sheets until ``window.releaseUploads()``; sets
#: ``window.uploading`` once one is held.
HELD_UPLOADS = """(() => {
  const fetched = window.fetch;
  const released = new Promise((resolve) => { window.releaseUploads = resolve; });
  window.fetch = async (url, options) => {
    if (String(url).includes('/api/sheets/uploads')) {
      window.uploading = true;
      await released;
    }
    return fetched(url, options);
  };
})()"""


@pytest.fixture
def visitor(browser: Browser, server: str) -> Iterator[BrowserContext]:
    """A Russian visitor on a small phone; the toasts kept."""
    with russian_device(browser, server, scripts=[TOASTS]) as context:
        yield context


def sheet_on_device(page: Page, plan: str) -> None:
    """A new sheet of NAMES with the round plan ``plan``, made with no network: kept on
    the device, its page shown."""
    page.goto("/score")
    page.wait_for_selector("#sheet-form input[data-seat='2']")
    for seat, name in enumerate(NAMES):
        page.fill(f"#sheet-form input[data-seat='{seat}']", name)
    page.click("#sheet-form details.options summary")
    page.fill("input[name=option-custom_plan]", plan)
    page.dispatch_event("input[name=option-custom_plan]", "change")
    page.click("#sheet-form button[type=submit]")
    page.wait_for_selector(".score-page .entry-pad")


def tap(page: Page, value: int) -> None:
    """Taps a value of the entry pad and waits until the change is shown."""
    version = page.get_attribute(".score-page", "data-version")
    page.click(f".entry-pad button.bid[data-value='{value}']")
    page.wait_for_function(
        "v => { const p = document.querySelector('.score-page');"
        " return p && p.dataset.version !== v && p.dataset.busy === 'false'; }",
        arg=version,
    )


def correct(page: Page, field: str, values: list[int]) -> None:
    """Corrects round 1's ``field`` (bid or taken) to ``values`` with ✎ and submits."""
    page.click("button[data-edit='1']")
    for seat, value in enumerate(values):
        page.select_option(f"select[name={field}][data-seat='{seat}']", str(value))
    page.click(".edit-form button[type=submit]")


def test_a_change_made_while_uploading_is_kept(visitor: BrowserContext) -> None:
    """A sheet on the device with two bids; back online, another tab uploads it, slowly;
    meanwhile the sheet's tab enters one more bid. The upload stores the sheet as sent and
    the newer version stays on the device, and the tab goes on entering. Once that is
    uploaded too, the tab's next entry says in words that the sheet is not on the device."""
    page = visitor.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enter(page, NAMES[0], "/score")
    wait_until_kept(page)
    visitor.set_offline(True)
    sheet_on_device(page, "1, 2, 3")
    tap(page, 1)
    tap(page, 1)

    visitor.set_offline(False)
    uploader = visitor.new_page()
    uploader.add_init_script(HELD_UPLOADS)
    uploader.goto("/score")  # the list uploads the device's sheets
    uploader.wait_for_function("() => window.uploading === true")
    tap(page, 0)  # the third bid, while the upload is under way
    uploader.evaluate("window.releaseUploads()")
    uploader.wait_for_function("() => window.toasts.some((t) => t.includes('загружены'))")
    (kept,) = kept_sheets(page)
    assert kept["version"] == 4 and kept["sheet"]["rounds"][0]["bids"] == [0, 1, 1]
    (stored,) = page.evaluate("() => fetch('/api/sheets').then((r) => r.json())")["sheets"]
    assert stored["rounds"] == 0  # the upload as sent: two bids of round 1
    assert next_entry(page) == ("taken", 1, 1)
    tap(page, 1)  # the tab goes on, on the device

    uploader.goto("/score")  # the next upload takes the newer version
    uploader.evaluate("window.releaseUploads()")
    uploader.wait_for_function("() => window.toasts.some((t) => t.includes('загружены'))")
    assert kept_sheets(page) == []
    page.click(".entry-pad button.bid[data-value='0']")
    page.wait_for_function(
        "() => window.toasts.some((t) => t.includes('Этой записи на устройстве нет'))"
    )
    phone_shot(page, "sheet-tabs-gone")
    assert errors == []


def test_a_tab_left_behind_does_not_write_over_another(visitor: BrowserContext) -> None:
    """One sheet on the device open in two tabs: the first corrects round 1's tricks; the
    second, still showing the sheet as it was, corrects a bid: its change is not kept over
    the first's, it is told so in words in the correction's dialog, which shows the round
    as kept now, as a correction refused by the server's sheet is."""
    first = visitor.new_page()
    enter(first, NAMES[0], "/score")
    wait_until_kept(first)
    visitor.set_offline(True)
    sheet_on_device(first, "1, 2")
    enter_round(first, "bid", [1, 1, 0])  # by seat: Вера, Глеб, Дина
    enter_round(first, "taken", [0, 1, 0])
    assert next_entry(first) == ("bid", 2, 2)
    second = visitor.new_page()
    second.goto(first.url)
    second.wait_for_selector(".score-page .entry-pad")

    round_one = kept_sheets(first)[0]["sheet"]["rounds"][0]
    version = first.get_attribute(".score-page", "data-version")
    correct(first, "taken", [1, 0, 0])
    first.wait_for_function(
        "v => document.querySelector('.score-page')?.dataset.version !== v", arg=version
    )
    (kept,) = kept_sheets(first)
    assert kept["sheet"]["rounds"][0]["taken"] == [1, 0, 0]

    correct(second, "bid", [0, 0, 0])
    second.wait_for_selector(".edit-form .form-error:has-text('изменили в другой вкладке')")
    assert kept_sheets(second) == [kept]  # nothing written over the first tab's change
    second.wait_for_selector(f".score-page[data-version='{kept['version']}'][data-busy=false]")
    shown = [
        second.input_value(f".edit-form select[name={field}][data-seat='{seat}']")
        for field in ("bid", "taken")
        for seat in range(3)
    ]
    assert shown == ["1", "1", "0", "1", "0", "0"]  # round 1 as the first tab kept it
    phone_shot(second, "sheet-tabs-left-behind")
    assert kept["sheet"]["rounds"][0]["bids"] == round_one["bids"]


def test_one_sheet_the_server_fails_on_does_not_hold_back_the_others(
    visitor: BrowserContext,
) -> None:
    """Three sheets on the device; the server fails on the upload of one (a 500 each
    time): the other two are uploaded, and that one stays for the next try."""
    page = visitor.new_page()
    enter(page, NAMES[0], "/score")
    wait_until_kept(page)
    visitor.set_offline(True)
    page.goto("/score")
    page.wait_for_selector("#sheet-form input[data-seat='2']")
    body = {"format": "raspisnoy-sheet/1", "rules": "raspisnoy.com", "players": NAMES}
    made = [
        page.evaluate(
            "body => import('/js/sheet_local.js').then((m) => m.createLocalSheet(body))",
            {**body, "first_dealer": seat, "rounds": []},
        )["local"]
        for seat in range(3)
    ]
    failing = made[-1]  # the latest: the first uploaded

    def fail_one(route: Route) -> None:
        if json.loads(route.request.post_data or "{}").get("id") == failing:
            route.fulfill(status=500, json={"detail": "trouble"})
        else:
            route.continue_()

    visitor.route("**/api/sheets/uploads", fail_one)
    visitor.set_offline(False)
    page.goto("/score")
    page.wait_for_function("() => window.toasts.some((t) => t.includes('загружены на сервер'))")
    assert [sheet["id"] for sheet in kept_sheets(page)] == [failing]
    sheets = page.evaluate("() => fetch('/api/sheets').then((r) => r.json())")["sheets"]
    assert len(sheets) == 2
