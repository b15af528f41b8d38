"""Clubs in the browser, on a small phone in Russian (360×640): a person registers,
creates a club, and a second person joins it by its invite link; both see the club with
its two members, and the second opens a club table that the first sees listed. An admin
mutes a member, who is refused at the club table's chat until the mute is lifted.
Screenshots are kept under build/e2e-screens/ (``check_screen``)."""

from __future__ import annotations

import uuid

from e2e_helpers import PHONE_SMALL, check_screen, enter, russian_phones
from playwright.sync_api import Browser, Page
from test_browser_moderation import open_chat, registered


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


def test_an_admin_mutes_a_member_who_is_refused_at_a_club_table(
    browser: Browser, server: str
) -> None:
    tag = uuid.uuid4().hex[:6]
    with russian_phones(browser, server, 2, reduced_motion="reduce") as (owner, member):
        registered(owner, f"olga_{tag}")
        registered(member, f"boris_{tag}")
        made = owner.request.post("/api/clubs", data={"name": f"Клуб тишины {tag}"})
        assert made.status == 201, made.text()
        club = made.json()
        joined = member.request.post(f"/api/clubs/join/{club['invite']}")
        assert joined.ok, joined.text()
        (boris,) = (m["user_id"] for m in joined.json()["members"] if m["role"] == "member")
        member.goto(f"/?club={club['id']}")
        member.click("button[data-club=table]")  # Boris opens a club table and sits at it
        member.wait_for_selector(".seating .seat-line.mine")

        owner.goto(f"/?club={club['id']}")
        owner.click(f".club-members button[data-what=mute][data-member='{boris}']")
        owner.wait_for_selector("dialog .mute-choices")
        assert owner.inner_text("dialog h2") == f"Запретить чат: boris_{tag}"
        problems = check_screen(owner, "club-mute-dialog")
        owner.screenshot(path=f"/tmp/clubs-mute-dialog-{tag}.png")
        owner.click("dialog .mute-choices button[data-minutes='60']")
        owner.wait_for_selector(".club-muted")
        muted = owner.inner_text(".club-muted")
        assert f"boris_{tag}" in muted and "до " in muted and "Снять запрет" in muted
        problems += check_screen(owner, "club-muted")
        owner.screenshot(path=f"/tmp/clubs-muted-{tag}.png", full_page=True)

        open_chat(member)
        member.fill(".chat-form input", "можно сказать?")
        member.press(".chat-form input", "Enter")
        member.wait_for_selector(
            "#toast.show:has-text('Администраторы клуба запретили вам писать в чат его столов до')"
        )
        problems += check_screen(member, "club-muted-chat", axe=False)
        member.screenshot(path=f"/tmp/clubs-muted-chat-{tag}.png")
        assert member.locator(".chat-line:has-text('можно сказать?')").count() == 0

        owner.click(".club-muted button[data-what=unmute]")
        owner.wait_for_selector(".club-muted", state="detached")
        member.fill(".chat-form input", "спасибо")
        member.press(".chat-form input", "Enter")
        member.wait_for_selector(".chat-line.mine:has-text('спасибо')")
        assert problems == []


def test_an_admin_changes_the_club_settings_with_the_rules_options(
    browser: Browser, server: str
) -> None:
    tag = uuid.uuid4().hex[:6]
    with russian_phones(browser, server, 1, reduced_motion="reduce") as (owner,):
        registered(owner, f"olga_{tag}")
        owner.goto("/?clubs")
        form = "form.club-form"
        owner.fill(f"{form} input[name=name]", f"Клуб правил {tag}")
        owner.click(f"{form} details.options summary")  # the new-table form's options
        owner.check(f"{form} input[data-option=trump_when_void]")
        assert owner.locator(f"{form} .option.changed").count() == 1
        problems = check_screen(owner, "club-new-options")
        owner.click(f"{form} button[type=submit]")
        owner.wait_for_selector(".club h1")
        club_id = owner.url.split("club=")[1]
        rules = owner.request.get(f"/api/clubs/{club_id}").json()["rules"]
        assert (rules["preset"], rules["trump_when_void"]) == ("raspisnoy.com", True)

        settings = "form.club-settings"
        owner.click(".club-edit > details > summary")
        assert owner.input_value(f"{settings} input[name=name]") == f"Клуб правил {tag}"
        owner.fill(f"{settings} textarea[name=description]", "Играем по вторникам")
        owner.select_option(f"{settings} select[name=preset]", "classic")
        owner.click(f"{settings} details.options summary")
        owner.fill(f"{settings} input[data-option=exact_bonus]", "7")
        owner.dispatch_event(f"{settings} input[data-option=exact_bonus]", "change")
        problems += check_screen(owner, "club-settings")
        owner.locator(".club-edit > details > summary").scroll_into_view_if_needed()
        owner.screenshot(path=f"/tmp/clubs-settings-{tag}.png")
        owner.locator(f"{settings} button[type=submit]").scroll_into_view_if_needed()
        owner.screenshot(path=f"/tmp/clubs-settings-end-{tag}.png")
        owner.click(f"{settings} button[type=submit]")
        owner.wait_for_selector("#toast.show:has-text('Настройки сохранены.')")
        owner.wait_for_selector(".club:has-text('Играем по вторникам')")
        rules = owner.request.get(f"/api/clubs/{club_id}").json()["rules"]
        assert (rules["preset"], rules["exact_bonus"]) == ("classic", 7)

        # A refusal is worded on the form, and nothing is saved.
        owner.click(".club-edit > details > summary")
        owner.fill(f"{settings} input[name=name]", " я ")
        owner.click(f"{settings} button[type=submit]")
        owner.wait_for_function(
            "() => document.querySelector('form.club-settings .form-error').textContent !== ''"
        )
        assert (
            owner.inner_text(f"{settings} .form-error") == "В названии клуба от 2 до 64 символов."
        )
        assert owner.request.get(f"/api/clubs/{club_id}").json()["name"] == f"Клуб правил {tag}"
        assert problems == []


def test_the_directory_is_searched_by_name_and_paged(browser: Browser, server: str) -> None:
    tag = uuid.uuid4().hex[:6]
    with russian_phones(browser, server, 1, reduced_motion="reduce") as (visitor,):
        registered(visitor, f"vera_{tag}")
        for number in range(27):  # a page is 25 clubs
            made = visitor.request.post("/api/clubs", data={"name": f"Двор {tag} {number:02}"})
            assert made.status == 201, made.text()
        private = {"name": f"Двор {tag} тайный", "private": True}
        assert visitor.request.post("/api/clubs", data=private).status == 201
        visitor.goto("/?clubs")
        visitor.fill("form.club-search input[name=search]", f"ДВОР {tag}")
        visitor.press("form.club-search input[name=search]", "Enter")
        visitor.wait_for_function(
            "n => document.querySelectorAll('.club-found .club-list li').length === n", arg=25
        )
        problems = check_screen(visitor, "club-directory")
        visitor.screenshot(path=f"/tmp/clubs-directory-{tag}.png")
        visitor.click(".club-found button.more")
        visitor.wait_for_function(
            "n => document.querySelectorAll('.club-found .club-list li').length === n", arg=27
        )
        assert visitor.locator(".club-found button.more").count() == 0
        names = visitor.locator(".club-found .club-list li a").all_inner_texts()
        assert names == [f"Двор {tag} {number:02}" for number in range(27)]  # none private
        visitor.fill("form.club-search input[name=search]", f"нет такого {tag}")
        visitor.press("form.club-search input[name=search]", "Enter")
        visitor.wait_for_selector(".club-found :text('Открытых клубов с таким названием нет.')")
        assert problems == []
