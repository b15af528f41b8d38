"""Clubs in the browser, on a small phone in Russian (360×640): a person registers,
creates a club, and a second person joins it by its invite link; both see the club with
its two members, and the second opens a club table that the first sees listed.
Screenshots are kept under build/e2e-screens/ (``check_screen``)."""

from __future__ import annotations

import uuid

from e2e_helpers import PHONE_SMALL, check_screen, enter
from playwright.sync_api import Browser, Page


def register_here(page: Page, username: str) -> None:
    """From the lobby to one's profile, where the guest takes an account."""
    page.click(".player-links a[href^='/?player=']")
    page.fill(".account-slot input[name=username]", username)
    page.fill(".account-slot input[name=password]", "secret-enough")
    page.click(".account-slot button[type=submit]")
    page.wait_for_selector("#toast.show")


def test_a_club_is_created_and_joined_by_its_link(
    phone: Page, browser: Browser, server: str
) -> None:
    tag = uuid.uuid4().hex[:6]
    owner = phone
    enter(owner, "Ольга")
    register_here(owner, f"olga_{tag}")
    owner.goto("/")
    owner.click(".player-links a[href='/?clubs']")
    owner.wait_for_selector("form.club-form")
    assert not check_screen(owner, "clubs")
    owner.click("form.club-form button[type=submit]")  # no name: the page asks for one
    assert owner.locator("form.club-form input[name=name]:invalid").count() == 1
    owner.fill("form.club-form input[name=name]", " ы ")
    owner.click("form.club-form button[type=submit]")
    owner.wait_for_function("() => document.querySelector('.form-error').textContent !== ''")
    assert owner.inner_text(".form-error") == "В названии клуба от 2 до 64 символов."
    name = f"Пятничный клуб {tag}"
    owner.fill("form.club-form input[name=name]", name)
    owner.fill("form.club-form textarea[name=description]", "Играем по пятницам у Ольги")
    owner.click("form.club-form button[type=submit]")
    owner.wait_for_selector(".club-invite .invite-link")
    assert owner.inner_text(".club h1") == name
    assert "1 участник" in owner.inner_text(".club")
    assert not check_screen(owner, "club-owner")
    link = owner.input_value(".club-invite .invite-link")
    assert "/?club_invite=" in link

    context = browser.new_context(
        base_url=server, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True
    )
    try:
        member = context.new_page()
        errors: list[str] = []
        member.on("pageerror", lambda error: errors.append(str(error)))
        enter(member, "Борис")
        register_here(member, f"boris_{tag}")
        member.goto(link)
        member.wait_for_selector(".club-members")
        assert member.inner_text(".club h1") == name
        assert "2 участника" in member.inner_text(".club")
        people = member.inner_text(".club-members")
        assert "Ольга" in people and "Борис" in people and "владелец" in people
        assert member.locator(".club-invite").count() == 0  # the invite is the admins'
        assert member.is_visible("button[data-club=leave]")
        assert not check_screen(member, "club-member")
        member.click("button[data-club=table]")  # a club table, with the house rules
        member.wait_for_selector(".seating")
        assert errors == []
    finally:
        context.close()

    owner.reload()
    owner.wait_for_selector(".club-members")
    assert "2 участника" in owner.inner_text(".club")
    assert owner.locator(".club-members button[data-what=ban]").count() == 1
    assert "Ждёт игроков · мест: 4" in owner.inner_text(".club-tables")
    assert not check_screen(owner, "club-owner-two")
