"""The screens on a small phone (360×640, Russian), defect by defect of issue 28: what a
player needs at a moment is on the screen and not under the sticky header or the table
dock. A screenshot of each moment is kept under build/e2e-screens/ (``check_screen``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from e2e_helpers import (
    ACTIONABLE,
    PHONE_SMALL,
    SCREENS,
    act,
    create_table,
    enter,
    game_state,
    layout_problems,
    open_create_form,
    server_process,
    set_language,
)
from playwright.sync_api import Browser, Page, Route


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This file's own server: the shared one's settings, but a person may write five
    chat lines a year instead of five in ten seconds. The chat test counts up to the limit,
    and the server's sliding-window counter lets one more line through just past a
    window's boundary (``server_helpers.at_most`` says how): a loaded machine, typing
    slower, straddled a 10-second boundary now and then (CI, session 20)."""
    process = server_process(
        tmp_path_factory.mktemp("phone-data"),
        env={"RASPISNOY_CHAT_MESSAGES_PER_USER": "5/year"},
    )
    process.start()
    yield process.url
    process.stop()


#: Page-side: for each selector, why its element is not fully usable on the screen now
#: (missing, outside the viewport, or covered at its centre or a corner by something that
#: is not itself, such as the sticky header or the table dock); empty when all of them are.
#: Every element a selector matches is checked.
_HIDDEN = """(selectors) => selectors.flatMap((sel) => {
  const all = [...document.querySelectorAll(sel)];
  return all.length ? all.flatMap((el) => problems(sel, el)) : [`${sel}: missing`];
  function problems(sel, el) {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return [`${sel}: outside the screen (${Math.round(r.top)}..${Math.round(r.bottom)})`];
  const [x0, x1, y0, y1] = [r.left + 2, r.right - 2, r.top + 2, r.bottom - 2];
  const points = [[(x0 + x1) / 2, (y0 + y1) / 2], [x0, y0], [x1, y0], [x0, y1], [x1, y1]];
  return points.flatMap(([x, y]) => {
    const top = document.elementFromPoint(x, y);
    if (top && (el.contains(top) || top.contains(el))) return [];
    const name = top
      ? top.tagName.toLowerCase() + [...top.classList].map((c) => "." + c).join("")
      : "nothing";
    return [`${sel}: covered at ${Math.round(x)},${Math.round(y)} by ${name}`];
  });
  }
})"""


def screen(page: Page, name: str) -> list[str]:
    """Keeps what the phone shows now (the viewport, not the whole page) as
    ``phone-NAME.png`` under build/e2e-screens/; returns the layout problems of the page."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / f"phone-{name}.png", animations="disabled")
    return layout_problems(page)


def hidden(page: Page, selectors: list[str]) -> list[str]:
    """Which of ``selectors`` are not wholly on the screen and uncovered now."""
    found: list[str] = page.evaluate(_HIDDEN, selectors)
    return found


#: What a player who bids needs on one screen (and the bid sum once a bid is in).
BIDDING = [
    ".round-info",  # the round, its cards and kind
    ".trump-info",
    ".bids",
    ".hand .card",
    ".bar-buttons .hint-button",
    ".bar-buttons .last-trick",
    ".bar-buttons .open-sheet",
]


def type_custom_plan(page: Page, plan: str) -> None:
    """Opens the new-table form and its options and types ``plan`` as the custom round plan."""
    open_create_form(page)
    page.click("details.options summary")
    page.fill("input[name=option-custom_plan]", plan)
    page.dispatch_event("input[name=option-custom_plan]", "change")


#: The cards of every round in the nine-card test.
NINE = 9


def test_nine_card_bidding_fits_one_phone_screen(phone: Page) -> None:
    """Four players, 9-card rounds: whenever this player bids from round 2 on, the trump,
    the round and its kind, the bid sum, the bid buttons, the hand and the round bar's
    buttons are all on the screen, none under the header; when they deal and a bid is
    barred (the others' bids sum to 9 or less), the reason it is barred too. The previous
    round's result stays folded. At every turn, the table dock (🔔, 💬) covers no card of
    the hand."""
    page = phone
    enter(page, "Дмитрий")
    type_custom_plan(page, ", ".join([str(NINE)] * 5))
    create_table(page, players=4)
    page.click("button.start")
    dealt = unfolded = False
    while True:
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        if page.locator("#results").count():
            break
        game = page.eval_on_selector(".game", "g => ({...g.dataset})")
        page.wait_for_function(  # the deal is over
            "() => [...document.querySelectorAll('.hand .card')]"
            ".every((c) => c.getAnimations().every((a) => a.playState !== 'running'))"
        )
        # the 🔔/💬 dock never covers a card of the hand, however its last row is filled
        assert not hidden(page, [".hand .card"]), (game, hidden(page, [".hand .card"]))
        assert not dock_over_hand(page), game
        if game["phase"] == "bid" and int(game["round"]) >= 2:
            needed = [*BIDDING, ".bid-sum"] if bids_in(page) else list(BIDDING)
            if game["me"] == dealer(page) and others_bid(page) <= NINE:
                needed.append(".reason")
            problems = hidden(page, needed) + screen(page, f"bidding-{game['round']}")
            assert not problems, (game["round"], problems)
            result = page.locator(".centre .round-result")
            if result.count():
                assert not result.evaluate("r => r.open"), "the last round's result is unfolded"
            if result.count() and not unfolded:  # a tap unfolds it, and a redraw keeps it so
                result.locator("summary").click()
                set_language(page, "uk")
                set_language(page, "ru")
                assert result.evaluate("r => r.open")
                result.locator("summary").click()
                unfolded = True
            dealt = dealt or game["me"] == dealer(page)
        act(page)
    assert dealt, "this player never dealt in rounds 2 to 5"


def dealer(page: Page) -> str:
    """The seat of this round's dealer, as the page marks it."""
    seat: str = page.eval_on_selector(".seat-chip:has(.badge.dealer)", "c => c.dataset.seat")
    return seat


def others_bid(page: Page) -> int:
    """The sum of the other seats' bids in this round, as the seat chips show them."""
    total: int = page.eval_on_selector_all(
        ".seat-chip:not(.mine)", "cs => cs.reduce((sum, c) => sum + Number(c.dataset.bid), 0)"
    )
    return total


def bids_in(page: Page) -> bool:
    """Whether someone has bid in this round already."""
    return page.locator(".seat-chip:not([data-bid=''])").count() > 0


def dock_over_hand(page: Page) -> bool:
    """Whether a button of the table dock lies over the hand's box (where a longer last
    row of cards would be covered)."""
    covered: bool = page.evaluate(
        """() => {
        const hand = document.querySelector('.hand').getBoundingClientRect();
        return [...document.querySelectorAll('.table-dock .dock-button')].some((button) => {
          const b = button.getBoundingClientRect();
          return b.left < hand.right && b.right > hand.left
            && b.top < hand.bottom && b.bottom > hand.top;
        });
    }"""
    )
    return covered


def test_a_plan_that_cannot_be_dealt_is_refused_in_words(phone: Page) -> None:
    """Five players and the plan ``5, 9`` (36 cards deal seven each): the new table is
    refused with the reason in Russian, and no table is opened or listed."""
    page = phone
    enter(page, "Планировщик")
    open_create_form(page)
    page.click("details.options summary")
    page.select_option("#create-form select[name=players]", "5")
    page.fill("input[name=option-custom_plan]", "5, 9")
    page.dispatch_event("input[name=option-custom_plan]", "change")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#create-form .form-error:not(:empty)")
    message = page.inner_text("#create-form .form-error")
    assert "не сдать на 5 игроков" in message, message
    assert "custom_plan" not in message
    assert "table=" not in page.url
    mine = [
        table
        for table in page.request.get("/api/tables").json()["tables"]
        if table["host"] == "Планировщик"
    ]
    assert mine == []
    assert not screen(page, "plan-refused")


def test_no_empty_name_button_or_profiles_label(phone: Page) -> None:
    """The welcome screen has no sliver of the (hidden) name button at the header's edge;
    the results of a game without registered players have no empty «Профили:» line."""
    page = phone
    page.goto("/")
    page.wait_for_selector("#nickname")
    assert page.locator("#me").evaluate("b => b.hidden && b.getBoundingClientRect().width === 0")
    assert not screen(page, "welcome")
    enter(page, "Гость")
    type_custom_plan(page, "1")
    create_table(page, players=3)
    page.click("button.start")
    while not page.locator("#results").count():
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        if not page.locator("#results").count():
            act(page)
    page.wait_for_selector("#results table.sheet")
    assert page.locator("#results .profiles").count() == 0
    assert "Профили" not in page.inner_text("#results")
    assert not screen(page, "results")


#: Page-side: whether each shortened name (ui.js shortName) in ``sel`` keeps one line and
#: its whole name in its title.
_ONE_LINE = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const style = getComputedStyle(el);  // a line height of "normal" is about 1.2 em
  const line = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
  const lines = Math.round(el.getBoundingClientRect().height / line);
  return { name: el.title, text: el.textContent, lines };
})"""


def one_line_names(page: Page, sel: str) -> list[dict[str, object]]:
    """The shortened names under ``sel``: title, text and how many lines each takes."""
    names: list[dict[str, object]] = page.evaluate(_ONE_LINE, sel)
    assert names, sel
    for name in names:
        assert name["lines"] == 1 and name["name"] == name["text"], name
    return names


def test_names_are_shortened_not_broken_and_the_last_trick_names_its_round(phone: Page) -> None:
    """A long name keeps one line under its card in the trick and in the sheet's header
    (cut with an ellipsis, whole in its title, unfolded by a tap); the last-trick dialog
    says which round and trick it shows, also while the next round is bid."""
    page = phone
    long_name = "Длинноеимяигрока"
    enter(page, long_name)
    type_custom_plan(page, "2, 1")
    create_table(page, players=4)
    page.click("button.start")
    seen: set[str] = set()
    while len(seen) < 2:
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        assert not page.locator("#results").count(), seen
        game = page.eval_on_selector(".game", "g => ({...g.dataset})")
        if page.locator("button.last-trick:not([disabled])").count() and game["round"] not in seen:
            seen.add(game["round"])
            page.click("button.last-trick")
            page.wait_for_selector("dialog[open] .played")
            said = page.inner_text("dialog[open] .trick-from")
            if game["round"] == "1":
                assert said == "Раздача 1, взятка 1", said
            else:
                assert said == "Из прошлой раздачи: раздача 1, взятка 2", said
            names = one_line_names(page, "dialog[open] .played .short-name")
            assert long_name in [name["name"] for name in names]
            assert not screen(page, f"last-trick-{game['round']}")
            page.keyboard.press("Escape")
        act(page)
    one_line_names(page, f".seat-chip .short-name[title='{long_name}']")  # the chip too
    page.click("button.open-sheet")
    page.wait_for_selector("dialog[open] table.sheet")
    one_line_names(page, "dialog[open] thead .short-name")
    mine = page.locator(f"dialog[open] thead .short-name[title='{long_name}']")
    assert mine.evaluate("el => el.scrollWidth > el.clientWidth")  # cut: it does not fit
    assert not screen(page, "sheet-names")
    mine.click()
    assert mine.evaluate("el => el.scrollWidth <= el.clientWidth")  # whole after a tap
    screen(page, "sheet-name-unfolded")


def test_chat_keeps_a_refused_text_and_counts_the_limit(phone: Page) -> None:
    """A text over the 200-character limit is counted and held back (not cut); a text the
    server refuses (the sixth: this file's server allows five) stays in the line to be
    sent again."""
    page = phone
    enter(page, "Болтун")
    create_table(page, players=3)
    page.click(".table-dock .chat-toggle")
    line = page.locator(".chat-form input")
    counter = page.locator(".chat-count")
    line.fill("а" * 190)
    assert counter.inner_text() == "Осталось 10 символов"
    line.fill("слово " * 34)  # 203 characters once the last space is trimmed
    assert counter.inner_text() == "Лишних 3 символа — сократите"
    assert page.locator(".chat-form button[type=submit]").is_disabled()
    assert not screen(page, "chat-over")
    line.press("Enter")
    assert line.input_value() == "слово " * 34  # nothing sent, nothing cut
    for n in range(1, 6):
        line.fill(f"сообщение {n}")
        line.press("Enter")
        page.wait_for_selector(f".table-dock[data-messages='{n}']")
        page.wait_for_function("() => document.querySelector('.chat-form input').value === ''")
    line.fill("шестое подряд")
    line.press("Enter")
    page.wait_for_selector("#toast.show.error")
    assert "Слишком много сообщений" in page.inner_text("#toast")
    assert line.input_value() == "шестое подряд"
    assert not screen(page, "chat-refused")


def test_casino_says_why_a_deal_is_refused_and_folds_the_hashes(phone: Page) -> None:
    """At a balance of 400, three boxes of 100 (500 with the closed bet): «Раздать · 500»
    is disabled and says why and what to do; the shuffle's hashes are folded under
    «Проверка честности» until tapped."""
    page = phone
    enter(page, "Игрок")

    def poorer(route: Route) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, json={**answer.json(), "balance": 400})

    page.route("**/api/casino", poorer)
    page.goto("/casino")
    page.wait_for_selector(".casino[data-phase=betting][data-busy=false]")
    assert page.get_attribute(".casino", "data-balance") == "400"
    page.click(".chip[data-chip='100']")
    for spot in (1, 2, 3):
        page.click(f".spot[data-spot='{spot}']")
    deal = page.locator("button.deal")
    assert "500" in deal.inner_text() and deal.is_disabled()
    why = page.inner_text("#deal-why")
    assert "500" in why and "400" in why and "уберите бокс" in why, why
    assert not page.is_visible(".commitment")  # folded
    assert page.is_visible("details.fairness summary")
    assert not screen(page, "casino-short")
    page.click("details.fairness summary")
    assert page.is_visible(".commitment")
    page.click(".spot[data-spot='3']")  # two boxes: 200
    assert not deal.is_disabled() and not page.locator("#deal-why").count()
    assert page.is_visible(".commitment")  # still unfolded after the redraw


def heading_problems(page: Page, name: str) -> list[str]:
    """axe-core's page-has-heading-one (a moderate rule the screen checks let pass) and
    how many level-one headings a reader finds."""
    violations = Axe().run(page).response["violations"]
    found = [f"{name}: {v['id']}" for v in violations if v["id"] == "page-has-heading-one"]
    shown = page.eval_on_selector_all("h1", "hs => hs.filter(h => !h.hidden).length")
    return found + ([] if shown == 1 else [f"{name}: {shown} level-one headings"])


def test_every_screen_has_one_level_one_heading(phone: Page) -> None:
    """The welcome, the lobby, a table, the scorekeeper and the casino each have exactly
    one level-one heading (visually hidden where the screen shows none)."""
    page = phone
    page.goto("/")
    page.wait_for_selector("#nickname")
    problems = heading_problems(page, "welcome")
    enter(page, "Заголовок")
    problems += heading_problems(page, "lobby")
    create_table(page, players=3)
    problems += heading_problems(page, "seating")
    page.click("button.start")
    page.wait_for_selector(ACTIONABLE)
    problems += heading_problems(page, "table")
    page.goto("/score")
    page.wait_for_selector("#sheet-form")
    problems += heading_problems(page, "score")
    page.goto("/casino")
    page.wait_for_selector(".casino[data-busy=false]")
    problems += heading_problems(page, "casino")
    assert not problems, problems
    assert page.text_content("#page-heading") == "Расписной покер"


def test_the_joker_dialog_by_keyboard_alone(phone: Page) -> None:
    """Two players, 18 cards and two jokers each round, played with keys only: → and Enter
    on the joker open its dialog with the first mode focused; Escape closes it with
    nothing played and the joker focused again; Enter reopens it, Tab moves to the next
    mode and Enter plays the joker in that mode."""
    page = phone
    enter(page, "Клавиатура")
    open_create_form(page)
    page.click("details.options summary")
    page.select_option("#create-form select[name=preset]", "ukrainian")
    for name, value in (("jokers", "7♠, 6♠"), ("custom_plan", "18, 18, 18, 18, 18, 18")):
        page.fill(f"input[name=option-{name}]", value)
        page.dispatch_event(f"input[name=option-{name}]", "change")
    create_table(page, players=2)
    page.click("button.start")
    first_legal = ".hand button.card.legal:not([disabled])"
    while True:
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        assert page.locator("#results").count() == 0, "the joker never came"
        joker_first = page.locator(first_legal).count() and str(
            page.locator(first_legal).first.get_attribute("data-card")
        ).startswith("X")
        if not joker_first:
            act(page, keyboard=True)
            continue
        version = game_state(page)["version"]
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => document.querySelector('dialog[open] .joker-option')"
            " || document.querySelector('.game').dataset.version !== v",
            arg=version,
        )
        if page.locator("dialog[open] .joker-option").count() > 1:
            break
    focused = "() => document.activeElement.closest('.joker-option')?.dataset.action ?? null"
    modes = page.eval_on_selector_all(
        "dialog[open] .joker-option", "os => os.map(o => o.dataset.action)"
    )
    assert page.evaluate(focused) == modes[0]
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    assert game_state(page)["version"] == version  # nothing played
    assert page.evaluate("document.activeElement.dataset.card ?? ''").startswith("X")
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog[open] .joker-option")
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == modes[1]
    assert not screen(page, "joker-keyboard")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => document.querySelector('.game').dataset.version !== v", arg=version
    )
    cards = "ps => ps.map(p => p.dataset.card)"
    played = page.eval_on_selector_all(".centre .played", cards)
    if modes[1] not in played:  # the trick is over and the next one begun: the last trick
        page.click("button.last-trick")
        played = page.eval_on_selector_all("dialog[open] .played", cards)
    assert modes[1] in played, (modes, played)


def test_the_profile_speaks_plainly_and_is_reached_from_the_lobby(phone: Page) -> None:
    """From the lobby (not the name menu) to one's profile and the leaderboard; the rating
    chart has its range and dates, the hint no «μ − 3σ», the recent games no line that is
    only «·»; «Выйти на всех устройствах» is there; a guest who registers is told so."""
    page = phone
    enter(page, "Профиль")
    open_create_form(page)  # a game of one round: the profile needs one game, not a long one
    page.click("details.options summary")
    page.fill("input[name=option-custom_plan]", "1")
    page.dispatch_event("input[name=option-custom_plan]", "change")
    create_table(page, players=3)
    page.click("button.start")
    while not page.locator("#results").count():
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        if not page.locator("#results").count():
            act(page)
    page.goto("/")
    page.wait_for_selector(".player-links")
    page.click(".player-links a[href='/?leaderboard']")
    page.wait_for_url("**/?leaderboard")
    page.go_back()

    def rated(route: Route) -> None:  # three rated games, as a rated player's profile has
        answer = route.fetch()
        history = [
            {"at": f"2026-11-{day:02d}T20:00:00+00:00", "rating": rating}
            for day, rating in ((3, 20.4), (10, 24.9), (24, 23.1))
        ]
        route.fulfill(response=answer, json={**answer.json(), "history": history})

    page.route("**/api/players/*", rated)
    page.click(".player-links a[href^='/?player=']")
    page.wait_for_selector(".profile .rating-chart")
    ticks = page.eval_on_selector_all(".rating-chart text", "ts => ts.map(t => t.textContent)")
    assert ticks == ["25", "20", "3 нояб.", "24 нояб."], ticks
    # The chart is drawn: later loads of the profile (after the registration below) go to
    # the server itself, and no handler is left fetching when the page closes.
    page.unroute_all(behavior="wait")
    text = page.inner_text(".profile")
    assert "μ" not in text and "σ" not in text
    assert "рейтинг" in text.lower()
    recent = page.locator(".profile .game-row:has(a[href*='replay'])")
    assert recent.count() == 1  # the game just played
    lines = [line.strip() for line in recent.inner_text().splitlines()]
    assert "·" not in lines, lines
    assert page.is_visible("button[data-do=everywhere]")
    assert not screen(page, "profile")
    page.fill(".account-slot input[name=username]", "profil_user")
    page.fill(".account-slot input[name=password]", "secret-enough")
    page.click(".account-slot button[type=submit]")
    page.wait_for_selector("#toast.show")
    assert "теперь у вас аккаунт" in page.inner_text("#toast")


#: The browser's install offer as Chromium makes it (``prompt()`` records that it ran).
_OFFER = """() => {
  const offer = new Event("beforeinstallprompt", { cancelable: true });
  offer.prompt = () => { window.prompted = (window.prompted ?? 0) + 1; return Promise.resolve(); };
  offer.userChoice = Promise.resolve({ outcome: "accepted", platform: "web" });
  dispatchEvent(offer);
  return offer.defaultPrevented;
}"""

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)


def test_the_lobby_offers_to_install_the_app(phone: Page, browser: Browser, server: str) -> None:
    """No install panel until the browser offers it; then the lobby's button shows the
    browser's prompt once. On an iPhone (no prompt in Safari) it explains how instead."""
    page = phone
    enter(page, "Установщик")
    assert page.locator(".lobby .install").is_hidden()
    assert page.evaluate(_OFFER)  # the page keeps the offer for its own button
    page.wait_for_selector(".lobby .install[data-way=prompt] .install-button")
    assert not screen(page, "install")
    page.click(".install-button")
    page.wait_for_function("() => window.prompted === 1")
    page.wait_for_selector(".lobby .install", state="hidden")  # a prompt is used once

    context = browser.new_context(
        base_url=server, locale="ru-RU", viewport=PHONE_SMALL, has_touch=True, user_agent=IPHONE
    )
    try:
        iphone = context.new_page()
        enter(iphone, "Айфон")
        iphone.click(".lobby .install[data-way=apple] .install-button")
        how = iphone.inner_text("dialog[open] .install-how")
        assert "«Поделиться»" in how and "«На экран „Домой“»" in how, how
        assert not screen(iphone, "install-iphone")
    finally:
        context.close()
