"""Puzzles in the browser (docs/review.md, "Puzzles on the server"): from the lobby's
«Задачи» a guest on a small Russian phone solves one puzzle with the right move and
misses the next with a wrong one, each drawn by the table's own components, the verdict
in words with the best move marked in the hand; then the daily puzzle. Screenshots are
kept as /tmp/puzzles-*.png and checked for overflow and accessibility."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_helpers import SCREENS, check_screen, enter, russian_phones, server_process
from playwright.sync_api import Browser, Page
from puzzle_positions import puzzles_with_states, store_test_puzzles

from raspisnoy.core import Play
from raspisnoy.puzzles import Puzzle, is_solution
from raspisnoy.server.wire import action_text
from raspisnoy.store import PuzzleStore, RatingPair, Store


@pytest.fixture
def puzzle_server(tmp_path: Path) -> Iterator[str]:
    """A server whose database holds the test puzzles before it starts."""
    store = Store.open(f"sqlite:///{tmp_path / 'raspisnoy.sqlite3'}")
    store_test_puzzles(store)
    store.close()
    process = server_process(tmp_path)
    process.start()
    yield process.url
    process.stop()


def shown_puzzle(page: Page) -> Puzzle:
    """The puzzle on the page, once its position is drawn."""
    page.wait_for_selector(".puzzle-table .game .actions")
    puzzle_id = page.get_attribute(".puzzle-head", "data-puzzle")
    return next(p for p, _ in puzzles_with_states() if p.id == puzzle_id)


def make(page: Page, action: str) -> None:
    """Makes ``action`` at the drawn table as a person would: a bid button or a card
    (and, for the joker, its mode in the dialog)."""
    if action.isdigit():
        page.click(f"button.bid[data-bid='{action}']")
        return
    page.click(f".hand button.card[data-card='{action.split(':')[0]}']")
    if ":" in action and page.locator("dialog[open] .joker-option").count():
        page.click(f"dialog[open] .joker-option[data-action='{action}']")


def keep(page: Page, name: str) -> list[str]:
    """Checks the screen and keeps its screenshots in /tmp: the whole page, and what the
    phone shows."""
    page.screenshot(path=f"/tmp/puzzles-{name}-screen.png", animations="disabled")
    problems = check_screen(page, f"puzzles-{name}")
    for shot in SCREENS.glob(f"puzzles-{name}-*.png"):
        shutil.copy(shot, f"/tmp/puzzles-{shot.name}")
    return problems


def test_a_guest_solves_one_puzzle_and_misses_the_next(
    browser: Browser, puzzle_server: str
) -> None:
    with russian_phones(browser, puzzle_server, 1) as (page,):
        enter(page, "Аня")
        page.click("a.puzzles-link")
        puzzle = shown_puzzle(page)
        assert "Найдите лучший ход" in page.inner_text(".puzzle-head")
        assert "Гости решают без рейтинга" in page.inner_text(".puzzle-head")
        problems = keep(page, "task")
        make(page, action_text(puzzle.best))
        page.wait_for_selector(".verdict[data-solved=true]")
        verdict = page.inner_text(".verdict")
        assert "Верно!" in verdict and "Лучший ход:" in verdict
        assert len(page.inner_text(".verdict .review-reason")) > 20  # the reason, in words
        if isinstance(puzzle.best, Play):
            assert page.locator(".hand .card.best-move").count() == 1
        problems += keep(page, "solved")

        page.click(".next-puzzle")
        page.wait_for_function(
            "id => document.querySelector('.puzzle-head')?.dataset.puzzle"
            " && document.querySelector('.puzzle-head').dataset.puzzle !== id",
            arg=puzzle.id,
        )
        missed = shown_puzzle(page)
        wrong = next(a for a in missed.view.legal_actions if not is_solution(missed, a))
        make(page, action_text(wrong))
        page.wait_for_selector(".verdict[data-solved=false]")
        assert "Это не лучший ход." in page.inner_text(".verdict")
        if isinstance(missed.best, Play):  # the best card marked in the hand
            assert page.locator(".hand .card.best-move").count() == 1
        problems += keep(page, "missed")

        page.click("a.daily-puzzle")
        page.wait_for_selector(".puzzle-table .game")
        assert "Задача дня" in page.inner_text(".puzzle-about")
        assert problems == []


def test_the_opt_out_is_a_checkbox_on_one_s_profile_and_is_kept(
    browser: Browser, puzzle_server: str
) -> None:
    with russian_phones(browser, puzzle_server, 1) as (page,):
        enter(page, "Боря")
        user_id = page.evaluate("fetch('/api/session').then(r => r.json()).then(b => b.user.id)")
        page.goto(f"/?player={user_id}")
        box = page.locator(".puzzle-settings input[type=checkbox]")
        box.wait_for()
        assert box.is_checked()
        assert "Можно делать задачи из моих партий" in page.inner_text(".puzzle-settings")
        with page.expect_response("**/api/puzzles/settings") as answer:
            box.uncheck()
        assert answer.value.json() == {"from_my_games": False}
        problems = keep(page, "profile")
        page.reload()
        page.locator(".puzzle-settings input[type=checkbox]").wait_for()
        assert not page.locator(".puzzle-settings input[type=checkbox]").is_checked()
        assert problems == []


def register(page: Page, username: str) -> None:
    """Registers ``username`` on the welcome screen, then the lobby."""
    page.goto("/")
    page.click(".account-entry [data-mode=register]")
    page.fill(".account-entry input[name=username]", username)
    page.fill(".account-entry input[name=password]", "browser password 1")
    page.click(".account-entry button[type=submit]")
    page.wait_for_selector("a.puzzles-link")


def off_screen(page: Page, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly on the first screen, under the header."""
    found: list[str] = page.eval_on_selector_all(
        selector,
        """(found) => {
          const top = document.querySelector(".topbar").getBoundingClientRect().bottom;
          return found.filter((el) => { const box = el.getBoundingClientRect();
            return box.top < top - 1 || box.bottom > innerHeight + 1; })
            .map((el) => `${el.className}: ${Math.round(el.getBoundingClientRect().top)}`
              + `..${Math.round(el.getBoundingClientRect().bottom)} of ${innerHeight}`);
        }""",
    )
    return found


def test_a_player_sees_the_position_at_once_and_the_rating_change_in_words(
    browser: Browser, puzzle_server: str
) -> None:
    """On a 360×640 phone the puzzle opens with what to answer on screen (the prompt, the
    bids or the hand: the table scrolls them into view on the player's turn), not a
    screen further down under the head; once answered, the rating's change reads as a
    signed number in its colour, not as markup («(<span class="neg">-105</span>)»)."""
    with russian_phones(browser, puzzle_server, 1) as (page,):
        register(page, "Задачник")
        page.click("a.puzzles-link")
        puzzle = shown_puzzle(page)
        page.wait_for_timeout(300)  # whatever moves the page after drawing has moved it
        answer = ".puzzle-table .prompt, .puzzle-table .bids, .puzzle-table .hand"
        assert page.locator(answer).count() >= 2
        assert off_screen(page, answer) == []
        problems = keep(page, "position")
        make(page, action_text(puzzle.best))
        page.wait_for_selector(".verdict[data-solved=true] .puzzle-change")
        change = page.inner_text(".verdict .puzzle-change")
        assert re.fullmatch(r"Ваш рейтинг в задачах: \d+ \(\+\d+\)\.", change), change
        assert page.locator(".verdict .puzzle-change span.pos").count() == 1
        problems += keep(page, "rating-change")
        assert problems == []


#: The names at the seats of a game whose puzzle a server stored before puzzles kept none.
SECRET = ["Тайный Ник", "Скрытый Ник", "Забытый Ник", "Ушедший Ник"]


def test_the_seats_are_players_by_number_and_the_solver_is_themselves(
    browser: Browser, puzzle_server: str, tmp_path: Path
) -> None:
    """A puzzle names nobody (docs/review.md, "Puzzles"): the page words the other seats
    «Игрок N» (not «Бот N»: a mined game's seats were people) and the solver's own seat
    by the solver's name, as before, and words them again in another language chosen; a
    puzzle stored with its players' names (as they were kept before) shows none of
    them."""
    puzzle, _ = puzzles_with_states()[0]
    old = copy.deepcopy(puzzle.to_json())
    old["view"]["names"] = SECRET
    text = json.dumps([old["view"], old["best"]], sort_keys=True)
    old["id"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    store = Store.open(f"sqlite:///{tmp_path / 'raspisnoy.sqlite3'}")
    PuzzleStore(store, RatingPair(25.0, 25.0 / 3)).add([old], "game")
    store.close()
    me = puzzle.view.seat
    assert me is not None
    with russian_phones(browser, puzzle_server, 1) as (page,):
        enter(page, "Аня")
        with page.expect_response(f"**/api/puzzles/{old['id']}") as answer:
            page.goto(f"/?puzzles={old['id']}")
        assert not [name for name in SECRET if name in answer.value.text()]
        page.wait_for_selector(".puzzle-table .game .actions")
        names = {
            int(seat): page.inner_text(f".puzzle-table .seat-chip[data-seat='{seat}'] .name")
            for seat in range(4)
        }
        assert names == {seat: "Аня" if seat == me else f"Игрок {seat + 1}" for seat in range(4)}
        shown = page.inner_text(".puzzle-table")
        assert "Бот" not in shown and not [name for name in SECRET if name in shown]
        assert page.locator(".puzzle-table .seat-chip .report").count() == 0
        problems = keep(page, "seats")
        page.select_option("#lang", "uk")  # the seats are worded again, in Ukrainian
        other = (me + 1) % 4
        page.wait_for_function(
            "([seat, label]) => document.querySelector("
            "`.puzzle-table .seat-chip[data-seat='${seat}'] .name`)?.textContent === label",
            arg=[other, f"Гравець {other + 1}"],
        )
        assert problems == []
