"""Server refusals in the reader's language (issue 28): on a Russian phone a wrong
password and a nickname with a forbidden character are worded in Russian, with no Latin
letter of the server's English text; the screenshots are kept with the other screens'."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from e2e_helpers import PHONE_SMALL, SCREENS, enter, open_private_tables, set_language
from playwright.sync_api import Browser, Page

LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture
def russian_phone(browser: Browser, server: str) -> Iterator[Page]:
    """A fresh visitor at 360×640 whose browser asks for Russian."""
    context = browser.new_context(base_url=server, locale="ru-RU", viewport=PHONE_SMALL)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def refusal_shown(page: Page, form: str, name: str) -> str:
    """The text of ``form``'s error line once the server's refusal is written there."""
    selector = f"{form} .form-error"
    page.wait_for_function(f"document.querySelector({selector!r})?.textContent.length > 0")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / f"refusal-{name}-ru-360x640.png", animations="disabled")
    return page.text_content(selector) or ""


def test_a_wrong_password_is_refused_in_russian(russian_phone: Page) -> None:
    page = russian_phone
    page.goto("/")
    page.click(".account-entry [data-mode=login]")
    page.fill(".account-entry input[name=username]", "Nobody Here")
    page.fill(".account-entry input[name=password]", "not the password")
    page.click(".account-entry button[type=submit]")
    shown = refusal_shown(page, ".account-entry", "login")
    assert "Неверное имя пользователя или пароль" in shown
    assert not LATIN.search(shown), shown


def test_a_nickname_with_a_forbidden_character_is_refused_in_russian(russian_phone: Page) -> None:
    page = russian_phone
    page.goto("/")
    page.fill(".welcome form input[name=nickname]", "Ann<a")
    page.click(".welcome form button[type=submit]")
    shown = refusal_shown(page, ".welcome form", "nickname")
    assert "но не «<»" in shown
    assert not LATIN.search(shown), shown


def test_an_unknown_code_and_a_count_are_worded_in_russian(russian_phone: Page) -> None:
    """A code the page does not know gives the general refusal, never the English text;
    a counted parameter picks its Russian plural form, and a bot level and a round
    plan's kinds are worded."""
    page = russian_phone
    page.goto("/")
    page.wait_for_selector(".welcome form")
    worded = page.evaluate(
        """() => import("/js/api.js").then(({ refusalText }) => [
          refusalText("some_new_code", {}, "an English explanation"),
          refusalText(undefined, undefined, "Internal Server Error"),
          refusalText("too_many", { seconds: 5 }, "too many"),
          refusalText("too_many", { seconds: 22 }, "too many"),
          refusalText("custom_plan", { plan: "9:blind,5", count: 5 }, "custom_plan: …"),
          refusalText("stand_in_too_strong", { level: "expert", strongest: "heuristic" }, "…"),
        ])"""
    )
    assert worded == [
        "Сервер отклонил запрос.",
        "Сервер отклонил запрос.",
        "Слишком много попыток: попробуйте через 5 секунд.",
        "Слишком много попыток: попробуйте через 22 секунды.",
        "Свой план раздач 9:тёмная, 5 не сдать на 5 игроков: в какой-то раздаче больше карт, чем "
        "достанется каждому. Уменьшите число карт или игроков.",
        "За рейтинговым столом замена — не сильнее бота «опытный», а не «эксперт».",
    ]


def test_what_a_refusal_names_is_worded_in_russian(russian_phone: Page) -> None:
    """A tournament's state, a rules option and a preset named by a refusal are worded
    in Russian, not shown as the server's ids; an id the page does not know stays."""
    page = russian_phone
    page.goto("/")
    page.wait_for_selector(".welcome form")
    worded = page.evaluate(
        """() => import("/js/api.js").then(({ refusalText }) => [
          refusalText("tournament_state", { state: "running" }, "…"),
          refusalText("bad_rules", { option: "custom_plan" }, "…"),
          refusalText("bad_rules", { option: "preset" }, "…"),
          refusalText("pool_players", { preset: "georgian", players: 3 }, "…"),
          refusalText("pool_preset", { preset: "no_such_rules" }, "…"),
        ])"""
    )
    assert worded == [
        "Сейчас этого сделать нельзя: турнир в состоянии «идёт».",
        "Это правило не подходит: Свой план раздач.",
        "Это правило не подходит: Правила.",
        "По правилам «Грузинский джокер» нельзя играть, когда игроков 3: "
        "выберите другое число игроков.",
        "Правил «no_such_rules» нет.",
    ]


def test_no_answer_from_the_server_is_said_in_russian(russian_phone: Page) -> None:
    """A request that gets no answer at all (offline) is said in the page's language,
    not as the browser's English «Failed to fetch», and not as a name that does not fit."""
    page = russian_phone
    page.goto("/")
    page.wait_for_selector(".welcome form")
    page.route("**/api/session", lambda route: route.abort("internetdisconnected"))
    page.fill("#nickname", "Без сети")
    page.click(".nickname-form button[type=submit]")
    shown = refusal_shown(page, ".welcome form", "network")
    assert shown == "Нет связи с сервером: проверьте подключение к интернету и попробуйте ещё раз."


def test_dates_follow_the_page_language_not_the_browser(browser: Browser, server: str) -> None:
    """A browser set to English showing the page in Russian writes the profile's dates
    in Russian (the page's language), not in the browser's English."""
    context = browser.new_context(base_url=server, locale="en-US", viewport=PHONE_SMALL)
    page = context.new_page()
    try:
        enter(page, "Date Reader")
        set_language(page, "ru")
        user = page.evaluate("fetch('/api/session').then(r => r.json()).then(a => a.user.id)")
        page.goto(f"/?player={user}")
        shown = page.locator(".own .list .muted").first.text_content() or ""
    finally:
        context.close()
    assert "г." in shown and "это устройство" in shown, shown
    assert not LATIN.search(shown), shown


def test_a_socket_error_is_worded_with_its_params(russian_phone: Page) -> None:
    """The table socket's ``error`` is worded from its code and ``params`` (a count in its
    Russian plural form), and without ``params`` still in Russian."""
    page = russian_phone
    page.goto("/")
    page.wait_for_selector(".welcome form")
    worded = page.evaluate(
        """() => import("/js/api.js").then(({ socketErrorText }) => [
          socketErrorText({ code: "rate_limited", params: { seconds: 22 }, message: "x" }),
          socketErrorText({ code: "rate_limited", message: "x" }),
          socketErrorText({ code: "some_new_code", message: "the server's text" }),
        ])"""
    )
    assert worded == [
        "Слишком много сообщений подряд: подождите 22 секунды.",
        "Слишком много сообщений подряд: подождите немного.",
        "the server's text",
    ]


def test_a_player_at_the_waiting_tables_cap_is_told_what_to_do_in_russian(
    russian_phone: Page,
) -> None:
    """A player who already sits at as many tables waiting for players as a user may
    (5) and taps «Быстрая игра» is told so, with the count in its Russian plural form,
    and not asked to try again in a minute as if they had been too quick."""
    page = russian_phone
    enter(page, "Пять столов")
    page.wait_for_selector(".quick-start")
    statuses = open_private_tables(page, 5)
    assert statuses == [201] * 5
    page.click(".quick-start")
    page.wait_for_selector("#toast.show.error")
    shown = page.text_content("#toast") or ""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / "refusal-waiting-tables-ru-360x640.png", animations="disabled")
    assert shown == (
        "Вы уже сидите за 5 столами, которые ждут игроков, — "
        "больше 5 нельзя: начните игру за одним из них или встаньте из-за него."
    )
    assert page.locator(".lobby").count() == 1  # still in the lobby, nothing opened
    # «Ваши игры» now lists the five tables, so the player can go back to one and leave it.
    waiting = page.locator("#my-games .game-row.waiting")
    waiting.nth(4).wait_for()
    assert waiting.count() == 5
    assert "ждёт игроков · людей: 1 из 4" in waiting.first.inner_text()
    page.screenshot(path=SCREENS / "lobby-waiting-tables-ru-360x640.png", full_page=True)
    waiting.first.locator("a.button").click()
    page.click(".seating button.leave")
    page.wait_for_selector(".seating button.leave", state="detached")
    page.goto("/")
    page.wait_for_selector("#my-games")
    assert page.locator("#my-games .game-row.waiting").count() == 4
    page.click(".quick-start")  # room for one more now
    page.wait_for_selector(".game")


def test_a_server_without_puzzles_yet_says_so_in_russian(russian_phone: Page) -> None:
    """The first minutes of a new server (``scripts/serve`` builds its puzzle set beside
    it): «Задачи» says the set is being prepared, not that the visitor answered them all."""
    page = russian_phone
    enter(page, "Первый гость")
    page.click("a.puzzles-link")
    page.wait_for_selector(".panel.error")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / "refusal-no-puzzles-yet-ru-360x640.png", animations="disabled")
    shown = page.text_content(".panel.error") or ""
    assert (
        shown
        == "На этом сервере ещё нет задач: их набор готовится. Загляните через несколько минут."
    )


def test_a_known_refusal_of_a_screen_is_said_alone(russian_phone: Page) -> None:
    """A screen the server refuses in words of its own (a player who is no moderator at
    /?moderation) says just those words, not «Что-то пошло не так: Это могут…»: that
    prefix is for a fault of the page, not for an answer the person can act on."""
    page = russian_phone
    enter(page, "Не модератор")
    page.goto("/?moderation")
    page.wait_for_selector(".panel.error")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / "refusal-not-moderator-ru-360x640.png", animations="disabled")
    assert (page.text_content(".panel.error p") or "").strip() == "Это могут только модераторы."
