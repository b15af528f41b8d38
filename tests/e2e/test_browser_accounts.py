"""Accounts in the browser: register on one device, log in on a second (another browser
context, own cookies), see both sessions on the profile, end the other one and log out;
the new screens (welcome with log-in, account menu, profile, leaderboard) in ru, uk and
en at 360×640 with the layout and axe-core checks of the other screens; names at tables
and in lists link to the profiles of registered players, not of guests or bots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from e2e_helpers import (
    ACTIONABLE,
    LANGUAGES,
    PHONE_SMALL,
    act,
    check_screen,
    create_table,
    enter,
    game_state,
    open_create_form,
    set_language,
)
from playwright.sync_api import Browser, BrowserContext, Page
from test_browser_phone import IPHONE
from test_browser_screens import every_language

PASSWORD = "browser password 1"


@pytest.fixture
def two_devices(browser: Browser, server: str) -> Iterator[tuple[Page, Page]]:
    """One person's two phones (own cookies each), whose systems ask for less motion: no
    deal animation for the clicks of a whole game to wait out (the animation itself is
    checked in test_browser_screens.py)."""
    contexts: list[BrowserContext] = [
        browser.new_context(
            base_url=server, locale="en-US", viewport=PHONE_SMALL, reduced_motion="reduce"
        )
        for _ in range(2)
    ]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    yield pages[0], pages[1]
    for context in contexts:
        context.close()
    assert errors == []


def account(page: Page, mode: str, username: str) -> None:
    """On the welcome screen: log in or register with ``username``, then the lobby."""
    page.goto("/")
    page.click(f".account-entry [data-mode={mode}]")
    page.fill(".account-entry input[name=username]", username)
    page.fill(".account-entry input[name=password]", PASSWORD)
    page.click(".account-entry button[type=submit]")
    page.wait_for_selector("#create-form select[name=preset]", state="attached")


def user_id(page: Page) -> str:
    found: str = page.evaluate("fetch('/api/session').then(r => r.json()).then(a => a.user.id)")
    return found


def test_register_and_log_in_on_two_devices_then_log_out(two_devices: tuple[Page, Page]) -> None:
    laptop, phone = two_devices
    account(laptop, "register", "Two Devices")
    assert laptop.text_content("#me") == "Two Devices"
    account(phone, "login", "two devices")
    assert phone.text_content("#me") == "Two Devices"
    assert user_id(phone) == user_id(laptop)
    laptop.click("#me")
    laptop.click("dialog[open] a[href^='/?player=']")
    laptop.wait_for_selector(".profile .own")
    assert laptop.locator(".own li").count() == 2
    laptop.click(".own [data-end]")  # the phone's session
    laptop.wait_for_function("document.querySelectorAll('.own li').length === 1")
    phone.reload()
    phone.wait_for_selector(".account-entry")  # the phone is signed out
    laptop.click(".own [data-do=logout]")
    laptop.wait_for_selector(".account-entry")
    assert laptop.evaluate("fetch('/api/session').then(r => r.status)") == 401


def test_a_guest_registers_mid_game_and_plays_on(two_devices: tuple[Page, Page]) -> None:
    page, second = two_devices
    enter(page, "Midgame Guest")
    guest = user_id(page)
    table_id = create_table(page, players=3)
    page.click("button.start")
    act(page)
    page.click("#me")
    page.fill("dialog[open] input[name=username]", "Midgame Account")
    page.fill("dialog[open] input[name=password]", PASSWORD)
    page.click("dialog[open] button[type=submit]")
    page.wait_for_selector("dialog[open]", state="detached")
    assert user_id(page) == guest  # the same user: seat, game and history stay
    before = int(game_state(page)["version"])
    act(page)  # the game plays on at the same seat
    assert int(game_state(page)["version"]) > before
    account(second, "login", "Midgame Account")
    second.goto(f"/?table={table_id}")
    second.wait_for_selector(".game")
    assert game_state(second)["me"] == game_state(page)["me"]


def test_a_rated_game_shows_on_the_profile_and_leaderboard_of_both_devices(
    two_devices: tuple[Page, Page],
) -> None:
    """Issue 18's "done when": register, play a rated game with bots, see the rating on
    the profile and oneself on the leaderboard, from a second device too. The game is
    oh-hell for seven, the preset game with the fewest moves for one player (110, against
    266 for raspisnoy.com for three, which test_browser_game.py plays whole)."""
    page, second = two_devices
    account(page, "register", "Whole Game")
    open_create_form(page)
    page.select_option("#create-form select[name=preset]", "oh-hell")
    page.check("#create-form input[name=rated]")
    create_table(page, players=7)
    page.click("button.start")
    while True:
        page.wait_for_selector(f"{ACTIONABLE}, #results", timeout=60_000)
        if page.locator("#results").count():
            break
        act(page)
    page.click("#results .profiles a")
    page.wait_for_selector(".profile .rating")
    assert page.locator(".profile .rating-chart, .profile .rating").count() >= 1
    account(second, "login", "Whole Game")
    second.goto("/?leaderboard")
    second.wait_for_selector(".leaderboard tr.mine")
    assert "Whole Game" in (second.text_content(".leaderboard tr.mine") or "")
    second.click(".leaderboard tr.mine a")
    second.wait_for_selector(".profile .rating")
    assert second.text_content(".profile .rating") == page.text_content(".profile .rating")


def test_a_wrong_password_is_shown(two_devices: tuple[Page, Page]) -> None:
    page, _ = two_devices
    page.goto("/")
    page.fill(".account-entry input[name=username]", "Nobody Such")
    page.fill(".account-entry input[name=password]", "wrong password")
    page.click(".account-entry button[type=submit]")
    page.wait_for_function(
        "document.querySelector('.account-entry .form-error').textContent.includes('wrong')"
    )


def test_account_screens_in_every_language(browser: Browser, server: str) -> None:
    context = browser.new_context(
        base_url=server, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.wait_for_selector(".account-entry")
    problems = every_language(page, "welcome-account")
    page.fill("#nickname", "Гость")
    page.click(".nickname-form button[type=submit]")
    page.wait_for_selector("#create-form select[name=preset]", state="attached")

    def menu() -> None:
        """Opens the account menu afresh (a language switch does not redraw a dialog)."""
        page.evaluate("document.getElementById('dialog').close()")
        page.click("#me")
        page.wait_for_selector("dialog[open] .account-menu")

    menu()
    problems += every_language(page, "account-menu", redo=menu)
    page.keyboard.press("Escape")
    page.goto(f"/?player={user_id(page)}")
    page.wait_for_selector(".profile .own")
    problems += every_language(page, "profile")
    page.goto("/?leaderboard")
    page.wait_for_selector(".leaderboard")
    problems += every_language(page, "leaderboard")
    context.close()
    assert errors == []
    assert problems == [], "\n".join(problems)


def profile_links(page: Page, where: str) -> list[str]:
    """The profiles that the names under ``where`` link to."""
    found: list[str] = page.eval_on_selector_all(
        f"{where} a.profile-link", "links => links.map(a => a.getAttribute('href'))"
    )
    return found


def test_names_link_to_the_profiles_of_registered_players(browser: Browser, server: str) -> None:
    """A registered host, a guest and a bot at one table: in the lobby's open tables, the
    seating, the game's seats and the lists of one's games only the host's name is a
    link (to their profile), in ru, uk and en at 360×640."""
    contexts = [
        browser.new_context(base_url=server, locale="ru-RU", viewport=PHONE_SMALL) for _ in range(2)
    ]
    host, guest = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda error: errors.append(str(error)))
    account(host, "register", "Linked Host")
    profile = f"/?player={user_id(host)}"
    table_id = create_table(host, players=3)
    enter(guest, "Plain Guest")
    problems: list[str] = []

    def linked(page: Page, where: str, screen: str) -> None:
        """In every language: only the host's name under ``where`` is a link."""
        for lang in LANGUAGES:
            set_language(page, lang)
            page.wait_for_selector(f"{where} a.profile-link")
            assert profile_links(page, where) == [profile], (screen, lang)
            problems.extend(check_screen(page, screen))

    guest.goto("/")
    linked(guest, f"#open-tables li:has(a[href='/?table={table_id}'])", "links-open-tables")
    guest.goto(f"/?table={table_id}")
    guest.click(".seating button.sit >> nth=0")
    guest.wait_for_selector(".seat-line.mine")
    host.wait_for_selector(".seat-line:has-text('Plain Guest')")
    linked(host, ".seat-list", "links-seating")
    host.click("button.start")
    host.wait_for_selector(".game")
    linked(host, ".seat-chip", "links-game")
    guest.wait_for_selector(".game")
    assert "Plain Guest" in (guest.text_content(".seat-chip.mine .name") or "")
    assert profile_links(guest, ".seat-chip") == [profile]
    guest.goto("/")
    linked(guest, f"#my-games li:has(a[href='/?table={table_id}'])", "links-my-games")
    host.click(f".seat-chip .name a[href='{profile}']")
    host.wait_for_selector(".profile")
    assert "Linked Host" in (host.text_content(".profile h1") or "")
    for context in contexts:
        context.close()
    assert errors == []
    assert problems == [], "\n".join(problems)


#: The gap, in CSS pixels, that sets a heading apart from the button above it (at least
#: half a line: a heading right under a button reads as the button's caption).
HEADING_GAP = 8

#: The headings of the own profile's account forms, which follow buttons.
PROFILE_HEADINGS = ("Сменить пароль", "Удалить аккаунт")

#: The distance of each heading in ``scope`` from the last button above it there, by the
#: heading's text.
_GAPS_ABOVE = """(scope) => {
  const within = document.querySelector(scope);
  const buttons = [...within.querySelectorAll("button, a.button")]
    .filter((b) => b.checkVisibility());
  return Object.fromEntries([...within.querySelectorAll("h2, h3")].map((h) => {
    const above = buttons.filter(
      (b) => b.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);
    const bottom = Math.max(...above.map((b) => b.getBoundingClientRect().bottom));
    return [h.textContent, Math.round(h.getBoundingClientRect().top - bottom)];
  }));
}"""

#: Whether every line of the text of the checkbox's label in ``scope`` starts to the right
#: of the box (none wrapped under it).
_TEXT_BESIDE_BOX = """(scope) => {
  const box = document.querySelector(`${scope} input[type=checkbox]`);
  const text = document.createRange();
  text.selectNodeContents(box.closest("label"));
  text.setStartAfter(box);
  const lines = [...text.getClientRects()].filter((line) => line.width > 1);
  return lines.length > 0 && lines.every((line) => line.left >= box.getBoundingClientRect().right);
}"""


def russian_phone(browser: Browser, server: str, **options: Any) -> Page:
    """A new visitor on a small Russian touch phone (``options`` add to its context)."""
    context = browser.new_context(
        base_url=server, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True, **options
    )
    return context.new_page()


def test_a_phone_shows_the_own_profile_in_words_with_its_parts_apart(
    browser: Browser, server: str
) -> None:
    """On a 360×640 phone in Russian, one's profile names each device by its browser and
    system («Chrome, Linux», «Safari, iPhone»; the whole user agent in its title), not by
    four lines of «Mozilla/5.0 (X11; Linux x86_64) AppleWebKit…»; «Сменить пароль» and
    «Удалить аккаунт» stand apart from the buttons above them, the first asking for the
    «Текущий пароль»; the puzzle setting's text stands beside its box, not under it; and
    kinds of rounds never played read «—», not «— · 0»."""
    page = russian_phone(browser, server)
    iphone = russian_phone(browser, server, user_agent=IPHONE)
    errors: list[str] = []
    for each in (page, iphone):
        each.on("pageerror", lambda error: errors.append(str(error)))
    try:
        account(page, "register", "Профильная")
        account(iphone, "login", "Профильная")
        page.goto(f"/?player={user_id(page)}")
        page.wait_for_function("document.querySelectorAll('.own li').length === 2")
        devices = page.locator(".own li > span > span:first-child")
        titles = [devices.nth(i).get_attribute("title") or "" for i in range(2)]
        gaps = page.evaluate(_GAPS_ABOVE, ".profile")
        figures = page.locator(".profile .seat-stats").first
        shown = {
            "devices": sorted(devices.all_inner_texts()),
            "user agents": sorted(titles),
            "user agent in the text": "Mozilla" in page.inner_text(".own"),
            "headings apart": [gaps.get(h, 0) >= HEADING_GAP for h in PROFILE_HEADINGS],
            "password asked": page.inner_text("label[for=old-password]"),
            "setting beside its box": page.evaluate(_TEXT_BESIDE_BOX, ".puzzle-settings"),
            "blind": figures.locator(".stat:has(dt:text-is('Тёмные')) dd").inner_text(),
            "a dash and points": "— ·" in page.inner_text(".profile"),
        }
        assert shown == {
            "devices": ["Chrome, Linux", "Safari, iPhone"],
            "user agents": sorted([IPHONE, page.evaluate("navigator.userAgent")]),
            "user agent in the text": False,
            "headings apart": [True, True],
            "password asked": "Текущий пароль",
            "setting beside its box": True,
            "blind": "—",
            "a dash and points": False,
        }
        problems = check_screen(page, "profile-own-parts")
        assert problems == [], "\n".join(problems)
        assert errors == []
    finally:
        page.context.close()
        iphone.context.close()


def test_a_guest_s_account_menu_sets_saving_the_account_apart(
    browser: Browser, server: str
) -> None:
    """The account menu of a guest on a 360×640 phone: «Сохранить как аккаунт» starts
    below «Выйти» with room between, not flush under the button as its caption."""
    page = russian_phone(browser, server)
    try:
        enter(page, "Гостья")
        page.click("#me")
        page.wait_for_selector("dialog[open] .account-menu")
        gaps = page.evaluate(_GAPS_ABOVE, "dialog[open] .dialog-body")
        assert gaps["Сохранить как аккаунт"] >= HEADING_GAP, gaps
        problems = check_screen(page, "account-menu-guest")
        assert problems == [], "\n".join(problems)
    finally:
        page.context.close()
