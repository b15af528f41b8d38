"""Whole games and rounds played by clicking, checked against the server's record."""

from __future__ import annotations

import httpx
from e2e_helpers import (
    ACTIONABLE,
    act,
    create_table,
    enter,
    game_state,
    visible_state,
)
from playwright.sync_api import Browser, BrowserContext, Page
from server_process import ServerProcess

#: Waits until the player may act (``arg``: the selector of what they may do) or the
#: results are on show, and reads in one step what the whole game checks: the game's data,
#: the barred bids, the reason given, the cards face down and the round bar's text.
_TURN_OR_RESULTS = """actionable => {
  if (document.querySelector('#results')) return {over: true};
  if (!document.querySelector(actionable)) return null;
  const text = (sel) => document.querySelector(sel)?.innerText ?? '';
  return {
    over: false,
    ...document.querySelector('.game').dataset,
    barred: document.querySelectorAll('.bids button.bid[disabled]').length,
    reason: text('.reason'),
    faceDown: document.querySelectorAll('.hand.face-down .card').length,
    roundBar: text('.round-bar'),
  };
}"""


def test_whole_game_against_two_bots(calm_context: BrowserContext, server: str) -> None:
    """A new visitor creates a 3-seat raspisnoy.com table with two instant bots and plays
    all 26 rounds to the results; the page's totals are the server's."""
    page = calm_context.new_page()
    enter(page, "Anna")
    table_id = create_table(page, players=3)
    page.click("button.start")
    page.wait_for_selector(".game")
    jokers = blind_bids = 0
    dealer_rule_shown = False
    rounds_seen = set()
    while not (state := page.wait_for_function(_TURN_OR_RESULTS, arg=ACTIONABLE).json_value())[
        "over"
    ]:
        rounds_seen.add(state["round"])
        if state["phase"] == "bid" and state["barred"]:
            assert "You deal: you may not bid" in state["reason"]
            dealer_rule_shown = True
        if state["phase"] == "bid" and state["kind"] == "blind":
            assert state["faceDown"] == 12
            assert "shown after the bids" in state["roundBar"]
            blind_bids += 1
        jokers += act(page)
    assert rounds_seen == {str(n) for n in range(1, 27)}  # she plays a card in every round
    assert jokers > 0, "the joker never came to Anna in 26 rounds: the dialog went untested"
    assert blind_bids == 3  # three blind rounds, bid face down
    assert dealer_rule_shown  # Anna deals every third round: one bid is barred then

    report = httpx.get(f"{server}/api/games/{table_id}/score").json()
    assert report["complete"] is True
    assert len(report["rounds"]) == 26
    page.wait_for_selector("table.sheet")
    pairs = "els => els.map(e => [Number(e.dataset.totalSeat), Number(e.textContent)])"
    shown = dict(page.eval_on_selector_all("#results [data-total-seat]", pairs))
    assert shown == dict(enumerate(report["totals"]))
    numbers = "els => els.map(e => Number(e.textContent))"
    sheet = page.eval_on_selector_all("[data-sheet-total]", numbers)
    assert sheet == report["totals"]
    winners = page.eval_on_selector_all(
        "#results li.winner [data-total-seat]", "els => els.map(e => Number(e.dataset.totalSeat))"
    )
    assert sorted(winners) == report["winners"]
    if 0 in winners:
        assert "Anna" in page.inner_text(".winners")
    assert page.locator(".chart polyline").count() == 3


def test_two_people_play_a_round_at_a_private_table(browser: Browser, server: str) -> None:
    """The host opens a private table; a friend comes through the invite link, sits, and
    both play the first round; both see the same result."""
    contexts = [browser.new_context(base_url=server, locale="en-US") for _ in range(2)]
    try:
        host, guest = (c.new_page() for c in contexts)
        enter(host, "Host")
        table_id = create_table(host, players=3, public=False)
        listed = httpx.get(f"{server}/api/tables").json()["tables"]
        assert table_id not in [table["id"] for table in listed]
        link = host.input_value("#invite-link")
        assert link.endswith(f"/?table={table_id}")
        guest.goto(link)
        guest.wait_for_selector(".welcome")
        assert "invited" in guest.inner_text(".welcome")
        guest.fill("#nickname", "Guest")
        guest.click(".nickname-form button[type=submit]")
        guest.click(".seating button.sit >> nth=0")
        guest.wait_for_selector(".seat-line.mine")
        host.wait_for_selector(".seat-line:has-text('Guest')")
        host.click("button.start")
        pages = {game_state(host)["me"]: host, game_state(guest)["me"]: guest}
        assert set(pages) == {"0", "1"}
        _play_until_round(pages, 2)
        results = [p.inner_text(".round-result") for p in pages.values()]
        assert results[0] == results[1]
        assert "Round 1 is over" in results[0]
    finally:
        for c in contexts:
            c.close()


def _play_until_round(pages: dict[str, Page], round_number: int) -> None:
    """Makes each person act in turn (bots act on their own) until the game reaches
    ``round_number``. The turn is read from the page that acted last, whose view is
    the newest."""
    current = next(iter(pages.values()))
    while int(game_state(current)["round"]) < round_number:
        to_act = game_state(current)["toAct"]
        mover = pages.get(to_act)
        if mover is None:  # a bot's turn: wait until this page sees it made
            current.wait_for_function(
                "t => document.querySelector('.game')?.dataset.toAct !== t", arg=to_act
            )
            continue
        act(mover)
        current = mover


def test_reload_in_the_middle_of_a_round_restores_it(context: BrowserContext) -> None:
    """Reloading the page mid-round shows the same round, hand, bids, trick and turn.
    This player uses the keyboard only."""
    page = context.new_page()
    enter(page, "Vera")
    create_table(page, players=3, timer=120)
    page.click("button.start")
    while not (
        int(game_state(page)["round"]) >= 4
        and game_state(page)["phase"] == "play"
        and page.locator(".centre .played").count() > 0
        and page.locator(ACTIONABLE).count() > 0
    ):
        act(page, keyboard=True)
    before = visible_state(page)
    page.reload()
    page.wait_for_selector(ACTIONABLE)
    after = visible_state(page)
    assert after == before
    assert len(before["hand"]) > 0
    # the game goes on from there: the next card leaves the hand once
    act(page, keyboard=True)
    now = visible_state(page)
    if now["data"]["round"] == before["data"]["round"]:
        assert len(now["hand"]) == len(before["hand"]) - 1


def test_server_restart_reconnects_and_resyncs(browser: Browser, own_server: ServerProcess) -> None:
    """The server goes away mid-round: the page says so, reconnects by itself when it is
    back, shows the same game, and the game goes on. A bid made while the server is away
    is sent when it is back."""
    context = browser.new_context(base_url=own_server.url, locale="en-US")
    try:
        page = context.new_page()
        enter(page, "Gleb")
        create_table(page, players=3, timer=120)
        page.click("button.start")
        while int(game_state(page)["round"]) < 3:
            act(page)
        page.wait_for_selector(ACTIONABLE)
        before = visible_state(page)
        own_server.stop()
        page.wait_for_selector("#conn[data-status=offline]")
        assert "reconnecting" in page.inner_text("#conn")
        own_server.start()
        page.wait_for_selector("#conn[data-status=online]", timeout=15000)
        page.wait_for_selector(ACTIONABLE)
        assert visible_state(page) == before

        while not (game_state(page)["phase"] == "bid" and page.locator(ACTIONABLE).count()):
            act(page)
        own_server.stop()
        page.wait_for_selector("#conn[data-status=offline]")
        version = game_state(page)["version"]
        bid = page.locator(ACTIONABLE).first.get_attribute("data-bid")
        page.locator(ACTIONABLE).first.click()
        assert game_state(page)["busy"] == "true"  # kept, waiting for the server
        own_server.start()
        page.wait_for_function(
            "v => { const g = document.querySelector('.game');"
            " return g.dataset.version !== v && g.dataset.busy === 'false'; }",
            arg=version,
        )
        assert page.get_attribute(".seats.me .seat-chip", "data-bid") == bid
        act(page)
    finally:
        context.close()
