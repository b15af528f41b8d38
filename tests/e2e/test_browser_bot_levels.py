"""The bot levels' ratings in the lobby, in Chromium on a small Russian phone: the quick
game names its bots with their rating, and the new-table form gives every level's rating
in its level pickers and, under them, each level's strength in plain words."""

from __future__ import annotations

import httpx
from e2e_helpers import check_screen, enter, open_create_form
from playwright.sync_api import Page

#: The levels' names in Russian (web/i18n/ru.json), weakest first.
RUSSIAN_LEVELS = {
    "random": "случайный",
    "beginner": "новичок",
    "heuristic": "опытный",
    "expert": "эксперт",
}


def test_the_lobby_shows_each_levels_rating_and_strength(phone: Page, server: str) -> None:
    levels = httpx.get(f"{server}/api/bots").json()["levels"]
    assert [line["level"] for line in levels] == list(RUSSIAN_LEVELS)
    named = {
        line["level"]: f"{RUSSIAN_LEVELS[line['level']]} · {line['rating']}" for line in levels
    }
    enter(phone, "Лена")
    assert named["heuristic"] in phone.inner_text(".quick")  # the quick game's bots

    open_create_form(phone)
    picker = "#create-form select[name=bot] option"
    assert phone.locator(picker).all_inner_texts()[: len(levels)] == list(named.values())
    lines = phone.locator("#create-form .bot-levels li")
    lines.last.scroll_into_view_if_needed()
    for line, text in zip(levels, lines.all_inner_texts(), strict=True):
        versus = RUSSIAN_LEVELS[line["versus"]]
        assert text.startswith(named[line["level"]])
        assert f"обходит бота «{versus}» в {line['ahead_of_100']} парти" in text
        assert text.endswith("из 100")
    assert check_screen(phone, "bot-levels") == []
