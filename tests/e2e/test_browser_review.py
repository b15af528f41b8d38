"""The expert's review and hints in the browser (docs/review.md, "In the browser"): a
short game at an unrated table where the player asks for a hint (and plays it), then
the review asked for from the results screen, its progress, its summary and moves, a
move's moment; the game's line in the lobby says hints were used; the review screen at
phone size in three languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_helpers import (
    ACTIONABLE,
    act,
    check_screen,
    create_table,
    enter,
    open_create_form,
    set_language,
)
from playwright.sync_api import Browser, Page
from server_process import ServerProcess

#: Reviews and hints with the least budget the search accepts, at the usual priority (the
#: shared test machine is rarely idle enough for review processes at nice 19).
FAST_REVIEWS = {
    "RASPISNOY_REVIEW_ITERATIONS": "64",
    "RASPISNOY_HINT_ITERATIONS": "64",
    "RASPISNOY_REVIEW_NICE": "0",
}


@pytest.fixture
def review_server(tmp_path: Path) -> Iterator[str]:
    process = ServerProcess(
        "--data-dir", str(tmp_path), log=tmp_path / "server.log", env=FAST_REVIEWS
    )
    process.start()
    yield process.url
    process.stop()


def play_to_the_end(page: Page) -> None:
    """Makes the first allowed move at every turn until the results show."""
    while page.locator("#results").count() == 0:
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        if page.locator("#results").count() == 0:
            act(page)


def test_hint_then_review_of_a_finished_game(browser: Browser, review_server: str) -> None:
    context = browser.new_context(
        base_url=review_server, locale="en-US", viewport={"width": 360, "height": 640}
    )
    page = context.new_page()
    enter(page, "Anna")
    open_create_form(page)
    page.click("details.options summary")
    page.fill("input[name=option-custom_plan]", "3, 2")
    page.dispatch_event("input[name=option-custom_plan]", "change")
    table_id = create_table(page, players=3)
    page.click(".seating .start")
    # a hint on her first turn: the expert's move and the points of the top choices
    page.wait_for_selector(ACTIONABLE)
    page.click(".hint-button")
    suggested = page.locator("dialog[open] .hint-suggested")
    suggested.wait_for()
    assert page.locator("dialog[open] .choices-table tbody tr").count() >= 1
    action = suggested.get_attribute("data-action")
    assert action is not None
    offered = (
        f"button.bid[data-bid='{action}']:not([disabled])"
        if action.isdigit()
        else f".hand button.card.legal[data-card='{action.split(':')[0]}']"
    )
    assert page.locator(offered).count() == 1  # the suggestion is a move she may make
    page.click("dialog[open] .play-hint")
    page.wait_for_selector("dialog[open]", state="detached")
    play_to_the_end(page)

    # the review, asked for from the results screen
    page.click("#results .review-link")
    page.wait_for_selector(".review .ask")
    page.click(".review .ask")
    page.wait_for_selector(".review[data-status=done]", timeout=180_000)
    assert page.locator(".review .hints-used").count() == 1
    summary = page.inner_text(".review-summary")
    assert "Lost to bids" in summary and "Lost to play" in summary
    # every judged move is listed: those that lost points first, the others under a fold
    page.click(".review .all-moves summary")
    moves = page.locator(".review .move")
    assert moves.count() == int(summary.split("Moves judged")[1].split()[0])
    problems = check_screen(page, "review")
    moves.first.click()
    page.wait_for_selector(".review .moment .review-hand .card")
    assert page.locator(".review .moment .choices-table tbody tr").count() >= 1
    problems += check_screen(page, "review-moment")
    # reopened, it is there at once; in Russian and Ukrainian too
    page.reload()
    page.wait_for_selector(".review[data-status=done]")
    for lang in ("ru", "uk"):
        set_language(page, lang)
        problems += check_screen(page, "review")
    assert not problems, "\n".join(problems)

    # the lobby's list of games marks the one with hints
    set_language(page, "en")
    page.goto("/")
    line = page.locator(".game-row", has=page.locator(f"a[href='/?replay={table_id}']"))
    line.wait_for()
    assert "with hints" in line.inner_text()
    context.close()


@pytest.fixture
def screened_server(tmp_path: Path) -> Iterator[str]:
    """Reviews screened as by default (a quick search of every move, a deeper one of the
    moves it doubts), with small budgets."""
    env = {**FAST_REVIEWS, "RASPISNOY_REVIEW_ITERATIONS": "1000"}
    process = ServerProcess("--data-dir", str(tmp_path), log=tmp_path / "server.log", env=env)
    process.start()
    yield process.url
    process.stop()


def overbid_to_the_end(page: Page) -> None:
    """Bids the most allowed in every round (a mistake with almost any hand) and plays
    the first allowed card, until the results show."""
    while page.locator("#results").count() == 0:
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        bids = page.locator(".bids button.bid:not([disabled])")
        if page.locator("#results").count() or not bids.count():
            if page.locator("#results").count() == 0:
                act(page)
            continue
        version = page.get_attribute(".game", "data-version")
        bids.last.click()
        page.wait_for_function(
            "v => { const g = document.querySelector('.game');"
            " return !g || (g.dataset.version !== v && g.dataset.busy === 'false'); }",
            arg=version,
        )


def test_the_main_mistakes_with_their_reasons_on_a_phone_in_russian(
    browser: Browser, screened_server: str
) -> None:
    """A game played badly (the highest bid allowed every round), its review on a phone
    in Russian: the main mistakes first, grouped by round, each with its reason in words;
    one opens its moment in place with the cards; the other moves behind «показать все»."""
    context = browser.new_context(
        base_url=screened_server, locale="ru-RU", viewport={"width": 360, "height": 640}
    )
    page = context.new_page()
    enter(page, "Аня")
    set_language(page, "ru")
    open_create_form(page)
    page.click("details.options summary")
    page.fill("input[name=option-custom_plan]", "4, 3, 5")
    page.dispatch_event("input[name=option-custom_plan]", "change")
    create_table(page, players=3)
    page.click(".seating .start")
    overbid_to_the_end(page)
    page.click("#results .review-link")
    page.click(".review .ask")
    page.wait_for_selector(".review[data-status=done]", timeout=180_000)
    top = page.locator(".review .top-moves .move")
    assert 1 <= top.count() <= 4
    groups = page.locator(".review .top-moves .round-group h4").all_inner_texts()
    assert groups and all(text.startswith("Раздача ") for text in groups)
    assert len(groups) == len(set(groups))  # one group per round
    for reason in page.locator(".review .top-moves .move .review-reason").all_inner_texts():
        assert reason.strip() and "{" not in reason and "web." not in reason
    assert page.locator(".review .top-moves .move .review-reason").count() == top.count()
    problems = check_screen(page, "review-top")
    top.first.click()
    moment = page.locator(".review .top-moves .moment")
    moment.wait_for()
    assert page.locator(".review .top-moves .move.chosen").count() == 1
    if moment.locator(".review-hand .card").count():
        assert moment.locator(".played-move").count() >= 1
    problems += check_screen(page, "review-top-moment")
    assert page.inner_text(".review .all-moves summary").strip() == "Показать все ходы"
    page.click(".review .all-moves summary")
    page.wait_for_selector(".review .all-moves[open] .move")
    assert not problems, "\n".join(problems)
    context.close()


#: A trick reason's numbers (``web.reason.trick_lost``): ordinals of each CLDR category.
TRICKS = (1, 2, 3, 6, 23)
WORDED = """async (tricks) => {
  const i18n = await import("/js/i18n.js");
  const review = await import("/js/review.js");
  const out = {};
  for (const lang of ["ru", "uk", "en"]) {
    await i18n.setLanguage(lang, { remember: false });
    const lost = (trick) => ({
      code: "trick_lost", params: { played: "QS", best: "AS", trick, share: 64 },
    });
    const taken = {
      code: "trick_taken", params: { played: "AC", best: "JD", trick: 2, share: 59 },
    };
    const texts = tricks.map((trick) => review.reasonText(lost(trick)));
    out[lang] = [...texts, review.reasonText(taken)];
  }
  return out;
}"""


def test_a_trick_reason_names_the_trick_as_an_ordinal(browser: Browser, review_server: str) -> None:
    """The trick a move gives away (or takes too many), worded with the ordinal of each
    language's CLDR category: «6-ю» in Russian, «3-ю» but «6-у» in Ukrainian, 1st, 2nd,
    3rd, 6th, 23rd in English."""
    context = browser.new_context(base_url=review_server)
    page = context.new_page()
    page.goto("/")
    worded: dict[str, list[str]] = page.evaluate(WORDED, list(TRICKS))
    context.close()
    ordinals = {
        "ru": ["1-ю", "2-ю", "3-ю", "6-ю", "23-ю"],
        "uk": ["1-у", "2-у", "3-ю", "6-у", "23-ю"],
        "en": ["1st", "2nd", "3rd", "6th", "23rd"],
    }
    share = {"ru": "в 64% раскладов", "uk": "в 64% розкладів", "en": "in 64% of deals"}
    for lang, texts in worded.items():
        for text, ordinal in zip(texts, ordinals[lang], strict=False):
            assert f" {ordinal} " in text and share[lang] in text, (lang, text)
    assert "вы берёте лишнюю 2-ю взятку в 59% раскладов" in worded["ru"][-1]
    assert "ви берете зайву 2-у взятку в 59% розкладів" in worded["uk"][-1]
    assert "you take the 2nd trick, one too many, in 59% of deals" in worded["en"][-1]


LEGEND = """async (thresholds) => {
  const i18n = await import("/js/i18n.js");
  const review = await import("/js/review.js");
  await i18n.setLanguage("ru", { remember: false });
  return review.legendText(thresholds);
}"""


def test_the_legend_writes_its_thresholds_as_the_language_does(
    browser: Browser, review_server: str
) -> None:
    """A ruleset whose stake is 7 has thresholds of 0.7000000000000001, 1.75 and 3.5:
    the Russian legend writes «0,7», «1,75» and «3,5»."""
    context = browser.new_context(base_url=review_server)
    page = context.new_page()
    page.goto("/")
    thresholds = {"stake": 7, "inaccuracy": 7 * 0.1, "mistake": 7 * 0.25, "blunder": 7 * 0.5}
    legend: str = page.evaluate(LEGEND, thresholds)
    context.close()
    assert "неточность от 0,7, ошибка от 1,75, грубая ошибка от 3,5" in legend, legend
    assert "(цена взятки 7)" in legend
