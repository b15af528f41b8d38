"""Friends in the browser, two visitors on small phones in Russian: he follows her from
her table, she follows him back from his profile, the friends screen shows the friend
online, an invitation sent from the table reaches the friend's lobby as a notice that
leads to the table, the table sees who watches, and a block ends the friendship
(nobody left to invite)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2e_helpers import check_screen, enter, russian_phones
from playwright.sync_api import Browser, Page, Route
from test_browser_chat import HOOKS


@pytest.fixture
def two_phones(browser: Browser, server: str) -> Iterator[list[Page]]:
    """Two Russian visitors on small touch phones, with the pages' errors collected."""
    with russian_phones(browser, server, 2) as pages:
        yield pages


def user_id(page: Page) -> str:
    found: str = page.request.get("/api/session").json()["user"]["id"]
    return found


def follow(page: Page, other_id: str) -> None:
    page.goto(f"/?player={other_id}")
    page.click("[data-friend=follow]")
    page.wait_for_selector("[data-friend=unfollow]")


def test_follows_invitations_spectators_and_a_block(two_phones: list[Page]) -> None:
    anna, boris = two_phones
    enter(anna, "Анна")
    enter(boris, "Борис")
    anna_id, boris_id = user_id(anna), user_id(boris)
    answer = anna.request.post("/api/tables", data={"players": 3, "bot_delay_ms": 0})
    assert answer.status == 201, answer.text()
    table_id = answer.json()["id"]
    boris.goto(f"/?table={table_id}")  # Boris follows Anna from her table
    boris.wait_for_selector(f".seating [data-follow='{anna_id}']")
    problems = check_screen(boris, "seating-follow")
    boris.click(f".seating [data-follow='{anna_id}']")
    boris.wait_for_selector("#toast.show:has-text('Вы подписались: Анна.')")
    boris.wait_for_selector(".seating [data-follow]", state="detached")
    follow(anna, boris_id)  # Anna follows Boris from his profile
    boris.goto("/")  # the lobby: Boris is online
    boris.wait_for_selector(".lobby .friends-link")

    anna.click("header .brand")
    anna.click(".friends-link")
    line = anna.locator(".friend-line[data-online=true]")
    line.wait_for()
    assert "в сети" in line.inner_text() and "Борис" in line.inner_text()
    problems += check_screen(anna, "friends")

    anna.goto(f"/?table={table_id}")
    anna.click(".seating .invite-friend")
    anna.click("dialog [data-invite]")
    anna.wait_for_selector("#toast.show:has-text('Приглашение отправлено: Борис.')")
    anna.click("dialog button.close")

    notice = boris.locator(".invitation")
    notice.wait_for()
    assert "Анна зовёт вас за стол." in notice.inner_text()
    problems += check_screen(boris, "invitation")
    boris.click(".invitation a")
    boris.wait_for_selector(".seating")
    assert f"table={table_id}" in boris.url
    assert boris.locator(".invitation").count() == 0

    watching = anna.locator(".seating .spectators[data-count='1']")
    watching.wait_for()
    assert watching.inner_text() == "Смотрит 1 человек"  # a guest: counted, not named
    problems += check_screen(anna, "spectators")
    anna.click(".seating .start")
    playing = anna.locator(".game .spectators[data-count='1']")
    playing.wait_for()
    assert playing.inner_text() == "Смотрит 1 человек"
    problems += check_screen(anna, "spectators-game")

    boris.on("dialog", lambda dialog: dialog.accept())
    boris.goto(f"/?player={anna_id}")
    boris.click("[data-friend=block]")
    boris.wait_for_selector("[data-friend=unblock]")
    assert boris.locator("[data-friend=follow]").count() == 0
    boris.click("header .brand")
    boris.click(".friends-link")
    blocked = boris.locator(".friends li:has-text('Анна') [data-unblock]")
    blocked.wait_for()
    assert blocked.inner_text() == "Разблокировать"
    problems += check_screen(boris, "friends-blocked")

    second = anna.request.post("/api/tables", data={"players": 3})  # invited to before the start
    anna.goto(f"/?table={second.json()['id']}")
    anna.click(".seating .invite-friend")
    anna.wait_for_selector("dialog .empty:has-text('Сейчас никого из друзей нет в сети.')")
    assert problems == []


def test_an_invitation_to_a_hidden_tab_shows_in_its_title_and_as_a_notification(
    two_phones: list[Page],
) -> None:
    anna, boris = two_phones
    boris.context.add_init_script(HOOKS)  # a fake Notification, and a tab hidden at will
    enter(anna, "Анна")
    enter(boris, "Борис")
    anna_id, boris_id = user_id(anna), user_id(boris)
    assert anna.request.put(f"/api/friends/{boris_id}").ok
    assert boris.request.put(f"/api/friends/{anna_id}").ok
    boris.goto("/?friends")
    boris.click(".friends .notify")  # asks for the permission, once
    boris.wait_for_selector(".friends .notify:checked")
    assert boris.evaluate("window.__asked") == 1
    boris.evaluate("window.__hidden = true")
    table = anna.request.post("/api/tables", data={"players": 3}).json()["id"]
    sent = anna.request.post(f"/api/friends/{boris_id}/invite", data={"table_id": table})
    assert sent.ok, sent.text()
    boris.wait_for_function("() => window.__notifications.length > 0")
    assert boris.evaluate("window.__notifications[0]") == {
        "title": "Приглашение от Анна",
        "body": "Анна зовёт вас за стол.",
    }
    assert boris.title() == "Приглашение от Анна"
    assert boris.locator(".invitation").count() == 1  # in the page as well


#: Page-side: resolves once the screen has not changed for a second (a loaded machine's
#: late messages drawn).
QUIET = """() => new Promise((done) => {
  let timer = setTimeout(done, 1000);
  new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, 1000); })
    .observe(document.getElementById('view'), {childList: true, subtree: true});
})"""


def test_a_following_list_that_changes_nothing_keeps_the_tables_buttons(
    two_phones: list[Page],
) -> None:
    """Whom she follows arrives after her table is drawn; with nobody at the table to
    follow it changes nothing, so the buttons she may be tapping stay the same elements
    (a redraw between a finger's down and up loses the tap)."""
    anna = two_phones[0]
    enter(anna, "Анна")
    table = anna.request.post("/api/tables", data={"players": 3}).json()["id"]
    held: list[Route] = []
    anna.route("**/api/friends", lambda route: held.append(route))
    anna.goto(f"/?table={table}")
    anna.wait_for_selector(".seating button.leave")
    while not held:  # the list is asked for once the table is drawn; it waits unanswered
        anna.wait_for_timeout(20)
    anna.evaluate(QUIET)  # the table's own messages after connecting have been drawn
    leave = anna.query_selector(".seating button.leave")
    assert leave is not None
    with anna.expect_response("**/api/friends"):
        held[0].continue_()
    anna.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # its redraw, if any
    assert leave.evaluate("(button) => button.isConnected")
