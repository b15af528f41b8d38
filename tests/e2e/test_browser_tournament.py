"""A club's tournament in the browser, on small phones in Russian (360×640): the owner
creates a club, two members join it by its link, the owner creates a tournament of
short games from the club's page and enters six bots as players, the two members
register, the owner starts it, the members go to their tables from the tournament page
and play each round, and the event runs to its final standings and its shareable final
table; and a duplicate rating on its person's profile. Screenshots are kept under
build/e2e-screens/ (``check_screen``) and copied to /tmp/tourney-*.png."""

from __future__ import annotations

import shutil
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from e2e_helpers import ACTIONABLE, SCREENS, act, check_screen, enter, russian_phones
from playwright.sync_api import Browser, Page
from server_process import ServerProcess
from sqlalchemy.orm import Session
from test_browser_clubs import register_here

from raspisnoy.ratings import Rating, displayed
from raspisnoy.store import DUPLICATE_SCOPE, Store
from raspisnoy.store.models import PlayerRating

#: A round of short games with people clicking, on a loaded machine.
PATIENCE_MS = 240_000
#: This page's state: ``over`` (the game's results are on show), ``act`` (the person
#: may act) or ``wait``.
_STATE = """actionable => document.querySelector('#results') ? 'over'
  : document.querySelector(actionable) ? 'act' : 'wait'"""


def keep(page: Page, name: str) -> None:
    """Checks the screen and keeps its screenshot under /tmp as well."""
    assert not check_screen(page, name)
    for shot in SCREENS.glob(f"{name}-ru-*.png"):
        shutil.copy(shot, f"/tmp/tourney-{shot.name}")


def play_round(members: list[Page], tournament: str, played: list[set[str]]) -> None:
    """Each member goes to their table of the new round from the tournament page (a table
    not in their ``played``) and acts whenever they may until every game is over."""
    for member, before in zip(members, played, strict=True):
        member.goto(tournament)
        link = member.wait_for_function(
            """played => [...document.querySelectorAll('.tournament a[href^="/?table="]')]
              .map((a) => a.getAttribute('href')).find((h) => !played.includes(h))""",
            arg=sorted(before),
            timeout=PATIENCE_MS,
        ).json_value()
        before.add(link)
        member.click(f".tournament a[href='{link}']")
        member.wait_for_selector(".game", timeout=PATIENCE_MS)
    over: set[int] = set()
    deadline = time.monotonic() + PATIENCE_MS / 1000
    while len(over) < len(members):
        assert time.monotonic() < deadline, "the round's games did not end"
        for index, member in enumerate(members):
            if index in over:
                continue
            state = member.evaluate(_STATE, ACTIONABLE)
            if state == "over":
                over.add(index)
            elif state == "act":
                act(member)
        members[0].wait_for_timeout(100)  # let the bots move between looks


def test_a_club_tournament_runs_to_its_final_standings(browser: Browser, server: str) -> None:
    tag = uuid.uuid4().hex[:6]
    with russian_phones(browser, server, 3) as (owner, anna, boris):
        enter(owner, "Ольга")
        register_here(owner, f"olga_{tag}")
        owner.goto("/?clubs")
        owner.fill("form.club-form input[name=name]", f"Клуб турниров {tag}")
        owner.click("form.club-form button[type=submit]")
        owner.wait_for_selector(".club-invite .invite-link")
        link = owner.input_value(".club-invite .invite-link")
        club = owner.url
        for member, name in ((anna, "Анна"), (boris, "Борис")):
            enter(member, name)
            register_here(member, f"{name.lower()}_{tag}")
            member.goto(link)
            member.wait_for_selector(".club-members")

        owner.reload()
        owner.click(".club-tournaments a.button")
        owner.wait_for_selector("form.tournament-form")
        keep(owner, "tournament-new")
        owner.fill("form.tournament-form input[name=name]", "Кубок пятницы")
        owner.select_option("form.tournament-form select[name=length]", "short")
        owner.select_option("form.tournament-form select[name=rounds]", "2")
        owner.click("form.tournament-form button[type=submit]")
        owner.wait_for_selector(".tournament-director form.bot-form")
        tournament = owner.evaluate("location.pathname + location.search")
        for number in range(1, 7):
            owner.fill("form.bot-form input[name=name]", f"Бот {number}")
            owner.click("form.bot-form button[type=submit]")
            owner.wait_for_function(
                "n => document.querySelectorAll('.tournament-entrants li').length === n",
                arg=number,
            )
        for member in (anna, boris):
            member.goto(club)  # the tournament, found on the club's page
            member.click(f".club-tournaments a[href='{tournament}']")
            member.click("button[data-act=register]")
            member.wait_for_selector("button[data-act=unregister]")
        keep(anna, "tournament-registered")
        owner.reload()
        owner.wait_for_function(
            "() => document.querySelectorAll('.tournament-entrants li').length === 8"
        )
        assert "мест занято: 8 из 16" in owner.inner_text(".tournament")
        owner.click("button[data-act=start]")

        played: list[set[str]] = [set(), set()]
        play_round([anna, boris], tournament, played)
        anna.goto(tournament)
        anna.wait_for_selector(".tournament-rounds")
        keep(anna, "tournament-running")
        play_round([anna, boris], tournament, played)

        for page in (owner, anna):
            page.goto(tournament)
            page.wait_for_selector(".tournament-final", timeout=PATIENCE_MS)
        standings = anna.locator(".tournament-standings tbody tr")
        assert standings.count() == 8
        places = [standings.nth(n).locator("td").first.inner_text() for n in range(8)]
        assert places == [str(n) for n in range(1, 9)]
        text = anna.inner_text(".tournament-standings")
        assert "Анна" in text and "Борис" in text and "Бот 6" in text
        assert "дубль" in anna.inner_text(".tournament-standings .hint").lower()
        assert anna.locator(".tournament-final .podium li").count() == 3
        assert anna.locator(".tournament-final .share-box").count() == 1
        assert anna.locator(".tournament-rounds a[href^='/?replay=']").count() == 4
        assert "завершён" in anna.inner_text(".tournament")
        keep(anna, "tournament-final")
        owner.goto(club)
        owner.wait_for_selector(f".club-tournaments a[href='{tournament}']")
        assert "завершён" in owner.inner_text(".club-tournaments")
        keep(owner, "tournament-club")


def test_the_duplicate_rating_shows_on_the_profile(
    browser: Browser, own_server: ServerProcess, tmp_path: Path
) -> None:
    """A person with a duplicate rating (as a rated event's round end stores it, in the
    ``duplicate`` scope) sees it on their profile, under the overall rating."""
    with russian_phones(browser, own_server.url, 1) as (anna,):
        enter(anna, "Анна")
        href = anna.get_attribute(".player-links a[href^='/?player=']", "href") or ""
        user_id = href.split("=", 1)[1]
        store = Store.open(f"sqlite:///{tmp_path / 'raspisnoy.sqlite3'}")
        rating = Rating(31.0, 5.0)
        with Session(store.engine) as session, session.begin():
            session.add(
                PlayerRating(
                    scope=DUPLICATE_SCOPE,
                    user_id=user_id,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    display=displayed(rating),
                    games=3,
                    last_played_at=datetime.now(UTC),
                )
            )
        store.close()
        anna.goto(href)
        anna.wait_for_selector(".profile .duplicate-rating")
        line = anna.inner_text(".profile .duplicate-rating")
        assert "Дубль-рейтинг" in line and str(displayed(rating)) in line.replace("\u00a0", "")
        keep(anna, "profile-duplicate-rating")
