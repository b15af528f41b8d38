"""Defects of a review on phones (360×640 and 320×640, and 640×360 on its side; in
Russian), each met the way a person meets it: the header fits whatever the connection
badge says, and a table that does not exist stops connecting; a 9-card round is played
on a phone on its side without scrolling; text boxes look like the other fields; buttons
one under another are apart; names in lists are tall enough to tap. A screenshot of each
screen is kept under build/e2e-screens/ (``screen``)."""

from __future__ import annotations

import uuid

import pytest
from e2e_helpers import ACTIONABLE, act, create_table, enter, game_state, russian_phones
from playwright.sync_api import Browser, Page, ViewportSize, WebSocketRoute
from test_browser_moderation import registered
from test_browser_phone import hidden, screen, type_custom_plan

# ------------------------------------------------------------------ the header

#: Page-side: what does not fit the screen's width: the page itself, or a control of the
#: header out of the screen or squeezed below a 44 px tap target.
_HEADER = """() => {
  const problems = [];
  const page = document.documentElement.scrollWidth;
  if (page > innerWidth) problems.push(`page ${page} px wide on ${innerWidth}`);
  for (const sel of ['.brand', '#conn', '#lang', '#theme', '#me']) {
    const el = document.querySelector(sel);
    if (el.hidden) continue;
    const box = el.getBoundingClientRect();
    if (box.left < 0 || box.right > innerWidth) problems.push(`${sel} ${box.left}..${box.right}`);
    if (sel !== '#conn' && box.width < 44) problems.push(`${sel} ${box.width} px wide`);
  }
  return problems;
}"""

#: The connection badge's words in each of its states.
BADGE = {
    "connecting": "соединение…",
    "online": "в сети",
    "offline": "переподключение…",
    "local": "на этом устройстве",
}


def badge_fits(page: Page, status: str, width: int) -> None:
    """Waits for the badge to say ``status``; then the header fits the screen, and the
    badge keeps its words (for screen readers) and shows them in its title."""
    page.wait_for_selector(f"#conn[data-status={status}]")
    problems = page.evaluate(_HEADER) + screen(page, f"header-{status}-{width}")
    assert not problems, (status, problems)
    assert page.text_content("#conn") == BADGE[status]
    assert page.get_attribute("#conn", "title") == BADGE[status]


@pytest.mark.parametrize("width", [320, 360])
def test_the_header_fits_whatever_the_connection_badge_says(phone: Page, width: int) -> None:
    """A table while its socket connects, once online, while it reconnects, and an
    offline game on this device: nothing sticks out of the header or the page, the theme
    and name buttons keep their size."""
    page = phone
    page.set_viewport_size({"width": width, "height": 640})
    enter(page, "Анна Каренина")
    create_table(page, players=3)
    # The table's socket goes through the test: on to the server, or nowhere (it opens and
    # nothing comes, as over a network that has stopped answering).
    way = {"server": False}
    live: list[WebSocketRoute] = []

    def socket(route: WebSocketRoute) -> None:
        if way["server"]:
            route.connect_to_server()
            live.append(route)

    page.route_web_socket("**/ws/tables/**", socket)
    page.reload()
    badge_fits(page, "connecting", width)
    way["server"] = True
    page.reload()
    badge_fits(page, "online", width)
    way["server"] = False
    live[-1].close()  # the connection drops; the page keeps trying
    badge_fits(page, "offline", width)
    page.goto("/?offline=new")  # a game against bots on this device
    page.wait_for_selector("#conn[data-status=local]", timeout=60_000)
    badge_fits(page, "local", width)


def test_a_table_that_does_not_exist_stops_connecting(phone: Page) -> None:
    """The page says there is no such table, and nothing else says it is connecting: no
    badge, no turn-sound or chat buttons; coming back to the tab or to the network does
    not open the table's socket again."""
    page = phone
    enter(page, "Анна Каренина")
    sockets: list[str] = []
    page.on("websocket", lambda opened: sockets.append(opened.url))
    page.goto("/?table=nosuchtable")
    page.wait_for_selector(".panel.error:has-text('Такого стола нет.')")
    assert page.locator("#conn").is_hidden()
    assert page.locator(".table-dock").is_hidden()
    assert not screen(page, "no-such-table")
    page.evaluate(
        "() => { dispatchEvent(new Event('online'));"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    page.wait_for_timeout(1000)  # a socket opened again would be there at once
    tables = [url for url in sockets if "/ws/tables/" in url]
    assert len(tables) == 1, tables


# ------------------------------------------------------------------ a phone on its side

#: A phone held on its side.
LANDSCAPE: ViewportSize = {"width": 640, "height": 360}


def test_a_nine_card_round_is_played_on_a_phone_on_its_side(phone: Page) -> None:
    """Four players, 9 cards, at 640×360: at every turn of the round the player sees,
    uncovered by the round bar or the turn-sound and chat buttons, the prompt and their
    own seat; while bidding every bid button and the whole hand; while playing the hand
    and the trick on the table. The chat, opened, is on the screen whole."""
    page = phone
    page.emulate_media(reduced_motion="reduce")  # the deal is not flown in: nothing to wait for
    page.set_viewport_size(LANDSCAPE)
    enter(page, "Анна Каренина")
    type_custom_plan(page, "9, 9")
    create_table(page, players=4)
    page.click("button.start")
    seen: set[str] = set()  # the kinds of turn checked: "bid", "trick", "lead"
    while True:
        page.wait_for_selector(ACTIONABLE)
        game = game_state(page)
        if game["round"] != "1":
            break
        needed = [".prompt", ".seats.me .seat-chip", ".hand .card"]
        if game["phase"] == "bid":
            assert page.locator(".hand .card").count() == 9
            needed.append(".bids button.bid")
            turn = "bid"
        elif page.locator(".centre .played").count():
            needed.append(".centre .played")
            turn = "trick"
        else:  # this player leads: no card on the table yet
            turn = "lead"
        problems = hidden(page, needed)
        assert not problems, (game, problems)
        assert page.locator(".table-dock .label:visible").count() == 0  # the buttons' words
        if turn not in seen:
            seen.add(turn)
            assert not screen(page, f"landscape-{turn}")
        act(page)
    assert {"bid", "trick"} <= seen, seen
    page.click(".chat-toggle")  # the chat opens beside the buttons, wholly on the screen
    page.wait_for_selector(".chat-panel:not([hidden])")
    problems = hidden(page, [".chat-panel .close-chat", ".chat-form input", ".chat-form button"])
    assert not problems, problems
    assert not screen(page, "landscape-chat")


# ------------------------------------------------------------------ text boxes, buttons, names

#: Page-side: how the first element ``sel`` matches looks, as far as fields are compared.
_LOOK = """(sel) => {
  const style = getComputedStyle(document.querySelector(sel));
  return {
    font: style.fontFamily,
    size: parseFloat(style.fontSize),
    border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
    corner: style.borderTopLeftRadius,
    background: style.backgroundColor,
    colour: style.color,
  };
}"""
#: Page-side: the outline of the element that has the focus.
_OUTLINE = """() => {
  const style = getComputedStyle(document.activeElement);
  return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
}"""


def look(page: Page, sel: str) -> dict[str, object]:
    found: dict[str, object] = page.evaluate(_LOOK, sel)
    return found


def outline_when_tapped(page: Page, sel: str) -> str:
    page.tap(sel)
    found: str = page.evaluate(_OUTLINE)
    return found


def user_id(page: Page) -> str:
    found: str = page.request.get("/api/session").json()["user"]["id"]
    return found


def test_text_boxes_look_like_the_other_fields(browser: Browser, server: str) -> None:
    """A new club's description and a report's details are written in boxes like the
    one-line fields: the page's font at 16 px at least (iOS Safari zooms in on smaller
    text when it is tapped), their border, corners and colours in the light theme and in
    the dark one, and their outline when tapped."""
    tag = uuid.uuid4().hex[:6]
    with russian_phones(browser, server, 2) as (anna, boris):
        registered(anna, f"anna_{tag}")
        fields = {}  # the club's name field as each theme draws it
        for theme in ("light", "dark"):
            anna.emulate_media(color_scheme=theme)
            anna.goto("/?clubs")
            anna.wait_for_selector("form.club-form textarea[name=description]")
            anna.fill("form.club-form textarea[name=description]", "Играем по пятницам у Ольги.")
            field = fields[theme] = look(anna, "form.club-form input[name=name]")
            box = look(anna, "form.club-form textarea[name=description]")
            assert box == field, (theme, box, field)
            assert float(str(box["size"])) >= 16
            focused = outline_when_tapped(anna, "form.club-form input[name=name]")
            assert focused.startswith("solid")
            assert outline_when_tapped(anna, "form.club-form textarea") == focused
            anna.locator("form.club-form textarea").scroll_into_view_if_needed()
            assert not screen(anna, f"club-description-{theme}")
        enter(boris, "Борис")
        boris.goto(f"/?player={user_id(anna)}")
        boris.click(".profile button.report")
        boris.wait_for_selector("dialog .report-form textarea")
        boris.fill("dialog .report-form textarea", "Грубит в чате")
        assert look(boris, "dialog .report-form textarea") == fields["light"]
        assert not screen(boris, "report-details")


#: Page-side: how far each of the elements ``sel`` matches (in page order) is below the
#: one before it: the gap between their boxes; one beside the one before is left out.
_GAPS = """(sel) => {
  const boxes = [...document.querySelectorAll(sel)].map((el) => el.getBoundingClientRect());
  return boxes.slice(1)
    .map((box, i) => [box, boxes[i]])
    .filter(([box, above]) => box.top >= above.top + above.height / 2)
    .map(([box, above]) => Math.round(box.top - above.bottom));
}"""
#: Page-side: the height of each element ``sel`` matches.
_HEIGHTS = """(sel) => [...document.querySelectorAll(sel)]
  .map((el) => el.getBoundingClientRect().height)"""
#: The least gap between buttons one under another, and the least height of a link to tap.
APART, TALL = 8, 40


def gaps(page: Page, sel: str) -> list[int]:
    found: list[int] = page.evaluate(_GAPS, sel)
    assert found, sel
    return found


def heights(page: Page, sel: str) -> list[float]:
    found: list[float] = page.evaluate(_HEIGHTS, sel)
    assert found, sel
    return found


def test_a_tables_buttons_are_apart_and_its_names_easy_to_tap(phone: Page) -> None:
    """Waiting for players, «Позвать друга», «Начать игру» and «Встать из-за стола» are
    apart; a registered player's name in the seats and in the results' profiles is a
    link 40 px tall."""
    page = phone
    registered(page, f"anna_{uuid.uuid4().hex[:6]}")
    page.goto("/")
    type_custom_plan(page, "1")
    create_table(page, players=3)
    buttons = ".seating > button"
    assert page.locator(buttons).all_inner_texts() == [
        "Позвать друга",
        "Начать игру",
        "Встать из-за стола",
    ]
    assert min(gaps(page, buttons)) >= APART, gaps(page, buttons)
    assert min(heights(page, ".seat-line .who a")) >= TALL
    page.locator(buttons).last.scroll_into_view_if_needed()
    assert not screen(page, "seating-buttons")
    page.click("button.start")
    while not page.locator("#results").count():
        page.wait_for_selector(f"{ACTIONABLE}, #results")
        if not page.locator("#results").count():
            act(page)
    assert min(heights(page, "#results .profiles a")) >= TALL
    page.locator("#results .profiles").scroll_into_view_if_needed()
    assert not screen(page, "results-profiles")


def test_lists_of_names_and_the_directors_buttons_are_easy_to_tap(
    browser: Browser, server: str
) -> None:
    """Links 40 px tall: a club's members, the tournaments, the friends; the casino's
    «Проверка честности»; a tournament director's «Записать бота» is apart from
    «Начать сейчас» under it."""
    tag = uuid.uuid4().hex[:6]
    with russian_phones(browser, server, 2) as (anna, boris):
        registered(anna, f"anna_{tag}")
        anna.goto("/?clubs")
        anna.fill("form.club-form input[name=name]", f"Клуб любителей {tag}")
        anna.click("form.club-form button[type=submit]")
        anna.wait_for_selector(".club-members")
        assert min(heights(anna, ".members .member-name a")) >= TALL
        anna.locator(".club-members").scroll_into_view_if_needed()
        assert not screen(anna, "club-members")

        anna.goto("/?tournaments")
        anna.fill("form.tournament-form input[name=name]", f"Кубок пятницы {tag}")
        anna.click("form.tournament-form button[type=submit]")
        anna.wait_for_selector(".tournament-director form.bot-form")
        director = ".tournament-director form.bot-form button, .tournament-director .actions button"
        assert min(gaps(anna, director)) >= APART, gaps(anna, director)
        anna.locator(".tournament-director").scroll_into_view_if_needed()
        assert not screen(anna, "tournament-director")
        anna.goto("/?tournaments")
        anna.wait_for_selector(".tournament-list")
        assert min(heights(anna, ".tournament-list > li > a")) >= TALL
        assert not screen(anna, "tournaments")

        enter(boris, "Борис")  # follows Anna from her profile, then sees his friends
        boris.goto(f"/?player={user_id(anna)}")
        boris.click("[data-friend=follow]")
        boris.wait_for_selector("[data-friend=unfollow]")
        boris.goto("/?friends")
        boris.wait_for_selector(".friend-line")
        assert min(heights(boris, ".friend-line a:not(.button)")) >= TALL
        assert not screen(boris, "friends")

        boris.goto("/casino")
        boris.wait_for_selector(".casino[data-busy=false] details.fairness")
        assert min(heights(boris, "details.fairness summary")) >= TALL
        assert not screen(boris, "casino")
