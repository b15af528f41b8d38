"""Moderation in the browser, on small phones in Russian (docs/moderation.md): a player
reports a chat line; a moderator (given the role by ``raspisnoy moderators grant``, as an
operator gives it) finds the report with its chat, mutes the writer for an hour; the
muted player is shown the moderator's notice on the next page load and is told why the
chat refuses their message. Every new screen is kept as a screenshot and checked for
overflow and accessibility."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_helpers import check_screen, russian_phones
from playwright.sync_api import Browser, Page
from server_process import ServerProcess

PASSWORD = "correct horse battery"


@pytest.fixture
def phones(browser: Browser, own_server: ServerProcess) -> Iterator[list[Page]]:
    """Three people on small Russian touch phones (own cookies each): the reporter, the
    reported player and the moderator; errors of their pages collected."""
    with russian_phones(browser, own_server.url, 3, reduced_motion="reduce") as pages:
        yield pages


def registered(page: Page, username: str) -> None:
    """The page's visitor has an account named ``username`` (its session in the cookie)."""
    answer = page.request.post("/api/account", data={"username": username, "password": PASSWORD})
    assert answer.ok, answer.text()


def grant(data: Path, username: str) -> None:
    """``raspisnoy moderators grant USERNAME`` on the running server's data directory."""
    command = [sys.executable, "-m", "raspisnoy", "moderators", "grant", username]
    done = subprocess.run(
        [*command, "--data-dir", str(data)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def open_chat(page: Page) -> None:
    if page.get_attribute(".chat-toggle", "aria-expanded") != "true":
        page.click(".chat-toggle")
    page.wait_for_selector(".chat-panel:not([hidden])")


def test_a_report_of_a_chat_line_a_mute_and_the_muted_players_notice(
    phones: list[Page], tmp_path: Path
) -> None:
    anna, boris, mod = phones
    problems: list[str] = []
    for page, name in ((anna, "Анна"), (boris, "Борис"), (mod, "Модератор")):
        registered(page, name)
    grant(tmp_path, "Модератор")

    made = anna.request.post("/api/tables", data={"players": 3, "turn_seconds": 0})
    assert made.status == 201, made.text()
    table_id = made.json()["id"]
    anna.goto(f"/?table={table_id}")
    boris.goto(f"/?table={table_id}")
    boris.click(".seating button.sit[data-seat='1']")
    boris.wait_for_selector(".seat-line.mine")

    # Boris writes something rude; Anna reports the line from the chat.
    open_chat(boris)
    boris.fill(".chat-form input", "ты дурак")
    boris.press(".chat-form input", "Enter")
    open_chat(anna)
    anna.fill(".chat-form input", "привет")
    anna.press(".chat-form input", "Enter")
    line = ".chat-line:has-text('ты дурак')"
    anna.wait_for_selector(line)
    anna.wait_for_selector(".chat-line.mine:has-text('привет')")
    assert anna.locator(".chat-line.mine button.report").count() == 0  # not one's own line
    anna.click(f"{line} button.report")
    anna.wait_for_selector("dialog .report-form")
    assert anna.inner_text("dialog h2") == "Пожаловаться на игрока Борис"
    assert "«ты дурак»" in anna.inner_text("dialog .report-form .quoted")
    anna.check("dialog input[name=reason][value=abuse]")
    anna.fill("dialog textarea[name=note]", "Грубит с первой раздачи")
    problems += check_screen(anna, "report-dialog")
    anna.click("dialog .report-form button[type=submit]")
    anna.wait_for_selector("#toast.show:has-text('Жалоба отправлена')")

    # The moderator finds it from the account menu, with the chat around the line.
    with mod.expect_response("**/api/moderation/me"):  # whether the visitor moderates
        mod.goto("/")
    mod.click("#me")
    mod.click("dialog a[href='/?moderation']")
    mod.wait_for_selector(".moderation .report-line")
    assert "Анна → Борис" in mod.inner_text(".moderation .report-line")
    assert "Оскорбления" in mod.inner_text(".moderation .report-line")
    problems += check_screen(mod, "moderation-list")
    mod.click(".moderation .report-line button[data-open]")
    mod.wait_for_selector(".report-detail .chat-line.reported")
    assert mod.inner_text(".report-detail .chat-line.reported .said") == "ты дурак"
    assert "Партия ещё не началась." in mod.inner_text(".report-detail")
    mod.select_option(".action-form select[name=kind]", "mute")
    mod.wait_for_selector(".action-form .duration:not([hidden])")
    mod.select_option(".action-form select[name=minutes]", "60")
    mod.fill(".action-form textarea[name=note]", "Без оскорблений, пожалуйста")
    problems += check_screen(mod, "moderation-report")
    mod.click(".action-form button[type=submit]")
    mod.wait_for_selector("#toast.show:has-text('Готово: Запрет писать в чат.')")
    mod.wait_for_selector(".moderation :text('Жалоб нет.')")
    mod.click(".moderation [data-tab=log]")
    mod.wait_for_selector(".moderation-log li")
    assert "Модератор → Борис: Запрет писать в чат" in mod.inner_text(".moderation-log li")

    # Boris is told on his next page load, in his language, and the chat refuses him.
    boris.goto(f"/?table={table_id}")
    boris.wait_for_selector("dialog .notices .notice.mute")
    notice = boris.inner_text("dialog .notices")
    assert "Модератор запретил вам писать в чат до " in notice
    assert "Причина: Оскорбления." in notice
    assert "«Без оскорблений, пожалуйста»" in notice
    problems += check_screen(boris, "moderation-notice")
    boris.click("dialog [data-do=seen]")
    open_chat(boris)
    boris.fill(".chat-form input", "а теперь?")
    boris.press(".chat-form input", "Enter")
    boris.wait_for_selector("#toast.show:has-text('Модератор запретил вам писать в чат до')")
    problems += check_screen(boris, "muted-chat", axe=False)
    boris.reload()
    boris.wait_for_selector(".seating")
    assert boris.locator("dialog .notices").count() == 0  # shown once

    # A player at the table and a profile can be reported too (the same dialog).
    anna.click(".chat-panel .close-chat")
    anna.click(".seating .start")
    anna.wait_for_selector(".game .seat-chip")
    flag = ".seat-chip button.report[data-place=table]"
    assert anna.locator(flag).count() == 1  # Boris's seat: not Anna's own, not the bot's
    problems += check_screen(anna, "table-report-flag")
    anna.click(flag)
    assert anna.inner_text("dialog h2") == "Пожаловаться на игрока Борис"
    anna.click("dialog button.close")
    boris_id = boris.evaluate("fetch('/api/session').then(r => r.json()).then(a => a.user.id)")
    anna.goto(f"/?player={boris_id}")
    anna.click(".profile button.report")
    anna.wait_for_selector("dialog .report-form")
    anna.check("dialog input[name=reason][value=name]")
    anna.click("dialog .report-form button[type=submit]")
    anna.wait_for_selector("#toast.show:has-text('Жалоба отправлена')")
    problems += check_screen(anna, "profile-report")
    assert problems == []
