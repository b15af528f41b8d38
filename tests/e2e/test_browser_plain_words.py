"""What the page says when something goes wrong is in the reader's language, never the
server's field names or English: on a small Russian phone a pool search with no rules
ticked is held back with a hint, a body's field is named by its label, a rated table
with changed rules shows the conflict before it is sent (and the server's refusal of one
is said alone), the scorekeeper's fallbacks are translated, a start-up failure and the
<noscript> line speak Russian, Ukrainian and English, and a limit on new sessions is not
called a name that does not fit. Screenshots go to build/e2e-screens."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_helpers import (
    PHONE_SMALL,
    SCREENS,
    check_screen,
    create_table,
    enter,
    open_create_form,
    phone_shot,
    server_process,
)
from playwright.sync_api import Browser, Page, Request, Route

LATIN = re.compile(r"[A-Za-z]")
#: What a page that cannot start says, in ru, uk and en: without JavaScript (index.html's
#: <noscript>) and when its start fails (main.js).
NO_SCRIPT = "Для игры нужен JavaScript. · Для гри потрібен JavaScript. · The game needs JavaScript."
NO_START = (
    "Игра не загрузилась: обновите страницу. · Гра не завантажилася: оновіть сторінку. · "
    "The game did not load: reload the page."
)


@pytest.fixture
def russian_phone(browser: Browser, server: str) -> Iterator[Page]:
    """A fresh visitor on a small Russian touch phone; no script error may happen. Its
    service worker is blocked, so that the requests the tests answer themselves (routes)
    are the page's own, never answered by the worker from the network."""
    context = browser.new_context(
        base_url=server,
        locale="ru-RU",
        viewport=PHONE_SMALL,
        has_touch=True,
        service_workers="block",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def refusal(page: Page, code: str, params: dict[str, object]) -> str:
    """``code`` with ``params`` as api.js words it on this page."""
    worded: str = page.evaluate(
        """([code, params]) => import('/js/api.js')
          .then((api) => api.refusalText(code, params, 'English'))""",
        [code, params],
    )
    return worded


def test_a_pool_search_with_no_rules_ticked_is_held_back_in_russian(russian_phone: Page) -> None:
    """Every preset unticked: «Играть с людьми» sends nothing and says what to tick, in
    Russian; a body's field the server names is its label, and one the page does not
    know is a general line, never the raw name."""
    page = russian_phone
    enter(page, "Без правил")
    panel = page.locator("#pool-panel")
    panel.locator(".pool-join").wait_for()
    panel.locator(".pool-choices > summary").click()
    for box in panel.locator("input[name=preset]").all():
        box.set_checked(False)
    joins: list[str] = []

    def record(request: Request) -> None:
        if request.url.endswith("/api/pool") and request.method == "POST":
            joins.append(request.url)

    page.on("request", record)
    panel.locator(".pool-join").click()
    hint = panel.locator(".pool-form .form-error")
    hint.wait_for()
    assert hint.inner_text() == "Отметьте хотя бы одни правила, по которым готовы играть."
    assert page.locator("#toast.show").count() == 0  # no refusal: nothing was asked
    panel.locator(".pool-join").scroll_into_view_if_needed()
    phone_shot(page, "pool-no-rules-hint")
    problems = check_screen(page, "pool-no-rules")
    assert joins == []  # nothing was sent
    # Ticking one again clears the hint.
    panel.locator("input[name=preset][value=classic]").check()
    assert hint.inner_text() == ""
    assert refusal(page, "bad_field", {"field": "presets"}) == "Проверьте поле «Правила»."
    assert refusal(page, "bad_field", {"field": "players.0"}) == "Проверьте поле «Число игроков»."
    assert refusal(page, "bad_field", {"field": "turn_seconds"}) == "Проверьте поле «Время на ход»."
    unknown = refusal(page, "bad_field", {"field": "body.something_else"})
    assert unknown == "Что-то в запросе не подходит: проверьте, что вы ввели."
    assert problems == []


def test_a_rated_table_with_changed_rules_shows_the_conflict_before_it_is_sent(
    russian_phone: Page,
) -> None:
    """«Рейтинговая игра» ticked, then a rules option changed: the box is unticked and
    disabled, its hint says why; the option back as the preset has it, the box is ticked
    again. The server's own refusal of such a table is said alone, in Russian."""
    page = russian_phone
    enter(page, "Рейтинг")
    open_create_form(page)
    form = page.locator("#create-form")
    rated = form.locator("input[name=rated]")
    rated.check()
    form.locator("details.options > summary").click()
    option = form.locator("input[name=option-dealer_constraint]")
    option.set_checked(not option.is_checked())
    assert not rated.is_checked() and rated.is_disabled()
    hint = form.locator(".rated-hint")
    assert hint.inner_text() == (
        "Рейтинговая игра — только по правилам «Как на raspisnoy.com» без изменений, "
        "а здесь настройки правил изменены."
    )
    rated.scroll_into_view_if_needed()
    phone_shot(page, "create-rated-changed-box")
    problems = check_screen(page, "create-rated-changed")
    option.set_checked(not option.is_checked())
    assert rated.is_checked() and rated.is_enabled()
    assert "изменены" not in hint.inner_text()

    # The server's refusal (another client, an older page) is said as it stands.
    def refuse(route: Route) -> None:
        body = {
            "detail": "rated: only a preset's own rules are rated; classic with changed options",
            "code": "rated_rules_changed",
            "params": {"preset": "classic"},
        }
        route.fulfill(status=422, body=json.dumps(body), content_type="application/json")

    page.route("**/api/tables", refuse)
    form.locator("button[type=submit]").click()
    error = form.locator(".form-error")
    page.wait_for_function("document.querySelector('#create-form .form-error').textContent")
    assert error.inner_text() == (
        "Рейтинговой бывает только игра по правилам «Классические» без изменений: "
        "верните настройки правил или снимите «Рейтинговая игра»."
    )
    error.scroll_into_view_if_needed()
    phone_shot(page, "create-rated-refused")
    assert problems == []


def test_the_scorekeeper_never_falls_back_to_english(russian_phone: Page) -> None:
    """A sheet the rules refuse while the problems' words cannot be had, and the device's
    scorekeeper failing or naming a problem the page does not know: each is said in
    Russian, never in the server's or the engine's English."""
    page = russian_phone
    page.route("**/api/sheets/problems/*", lambda route: route.abort("internetdisconnected"))
    page.goto("/score")
    page.fill("#nickname", "Анна")
    page.click(".nickname-form button[type=submit]")
    page.wait_for_selector("#sheet-form input[data-seat='2']")
    for seat, name in enumerate(["Борис", "Вера"], 1):
        page.fill(f"#sheet-form input[data-seat='{seat}']", name)
    page.click("#sheet-form details.options summary")
    page.fill("input[name=option-custom_plan]", "1, 13")  # 13 cards each: cannot be dealt
    page.dispatch_event("input[name=option-custom_plan]", "change")
    page.click("#sheet-form button[type=submit]")
    page.wait_for_selector("#sheet-form .form-error:not(:empty)")
    shown = page.inner_text("#sheet-form .form-error")
    assert shown == "Это изменение не сохранено. Проверьте запись и попробуйте ещё раз."
    page.locator("#sheet-form .form-error").scroll_into_view_if_needed()
    phone_shot(page, "score-problem-unworded")

    # The device's scorekeeper (a worker) that fails, and one naming an unknown problem.
    said = [device_scorekeeper_says(page, answer) for answer in WORKER_ANSWERS]
    assert said == [
        "Запись не удалось проверить на этом устройстве. Попробуйте ещё раз.",
        "Это изменение не сохранено. Проверьте запись и попробуйте ещё раз.",
    ]


#: What the device's scorekeeper (sheet_worker.js) may answer besides a sheet: its
#: failure (the engine not loaded), and a problem of a code the page does not know.
WORKER_ANSWERS = (
    "{ request, failed: 'PythonError: Traceback (most recent call last)' }",
    "{ request, answer: { problem: { problem: 'new_problem', message: 'An English text' } } }",
)


def device_scorekeeper_says(page: Page, answer: str) -> str:
    """What sheet_local.js rejects with when the device's scorekeeper answers ``answer``
    (a worker standing in for sheet_worker.js, which answers every request so)."""
    worker = f"self.onmessage = ({{ data: {{ request }} }}) => self.postMessage({answer});"

    def stand_in(route: Route) -> None:
        route.fulfill(body=worker, content_type="text/javascript")

    page.unroute("**/js/sheet_worker.js*")
    page.route("**/js/sheet_worker.js*", stand_in)
    said: str = page.evaluate(
        """() => import(`/js/sheet_local.js?${Math.random()}`)
          .then((local) => local.viewOfSheet({ players: ['А', 'Б', 'В'] }))
          .then(() => 'no refusal', (error) => error.message)"""
    )
    return said


def test_a_page_that_cannot_start_says_so_in_three_languages(russian_phone: Page) -> None:
    """The translations themselves not to be had (a proxy's 503): the page says it did not
    load in Russian, Ukrainian and English, not the script's «Error: translations …»."""
    page = russian_phone
    page.route("**/i18n/ru.json", lambda route: route.fulfill(status=503, body="busy"))
    page.goto("/")
    page.wait_for_selector("#toast.show.error")
    assert page.inner_text("#toast") == NO_START
    assert page.inner_text("#view") == NO_START
    phone_shot(page, "start-failed")


def test_the_page_without_javascript_speaks_three_languages(browser: Browser, server: str) -> None:
    context = browser.new_context(
        base_url=server, locale="ru-RU", viewport=PHONE_SMALL, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto("/")
        assert page.inner_text("noscript") == NO_SCRIPT
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENS / "noscript-ru-360x640.png")
    finally:
        context.close()


def test_a_limit_on_new_sessions_is_not_called_a_name_that_does_not_fit(
    russian_phone: Page,
) -> None:
    """Too many new sessions from one address: the welcome form says to wait, without
    «Это имя не подходит»; a name the rules refuse keeps that prefix."""
    page = russian_phone

    def limit(route: Route) -> None:
        if route.request.method != "POST":  # who the visitor is: nobody yet
            route.continue_()
            return
        body = {
            "detail": "new sessions from this address: at most 30 per minute",
            "code": "too_many",
            "params": {"seconds": 22},
        }
        headers = {"retry-after": "22"}
        route.fulfill(
            status=429, body=json.dumps(body), content_type="application/json", headers=headers
        )

    page.route("**/api/session", limit)
    page.goto("/")
    page.fill("#nickname", "Анна")
    page.click(".nickname-form button[type=submit]")
    page.wait_for_function("document.querySelector('.welcome .form-error').textContent")
    assert page.inner_text(".welcome .form-error") == (
        "Слишком много попыток: попробуйте через 22 секунды."
    )
    phone_shot(page, "nickname-too-many")
    page.unroute("**/api/session")
    page.fill("#nickname", "Ann<a")
    page.click(".nickname-form button[type=submit]")
    page.wait_for_function(
        "document.querySelector('.welcome .form-error').textContent.includes('«<»')"
    )
    assert page.inner_text(".welcome .form-error").startswith("Это имя не подходит: ")


def test_a_full_table_says_so_and_stops_trying(browser: Browser, tmp_path: Path) -> None:
    """A table that takes one socket, its host's: a guest's page opening it is closed
    with 4409, says the table is full (not that the guest has too many tabs open), and
    does not keep reconnecting."""
    process = server_process(tmp_path, env={"RASPISNOY_MAX_SOCKETS_PER_TABLE": "1"})
    process.start()
    try:
        host, guest = (
            browser.new_context(
                base_url=process.url, locale="ru-RU", viewport=PHONE_SMALL
            ).new_page()
            for _ in range(2)
        )
        enter(host, "Хозяин")
        table = create_table(host, players=3)
        sockets: list[str] = []
        guest.on("websocket", lambda socket: sockets.append(socket.url))
        enter(guest, "Гость")
        guest.goto(f"/?table={table}")
        view = guest.locator("#view")
        view.get_by_text("мест нет", exact=False).wait_for()
        assert "вкладк" not in view.inner_text()
        phone_shot(guest, "table-full")
        guest.wait_for_timeout(1500)  # past the first reconnection's back-off
        assert len([url for url in sockets if table in url]) == 1
        assert check_screen(guest, "table-full", axe=False) == []
    finally:
        process.stop()
