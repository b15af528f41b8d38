"""The play screen in a narrow terminal (a phone's, 40 columns) and at 80 columns with five
players: no table cell is cut with «…», no line is wider than the terminal, and the hand
breaks between cards, never inside one."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from raspisnoy.bots import make_bot
from raspisnoy.core import Game, Phase, resolve_rules
from raspisnoy.i18n import LANGUAGES, translate
from raspisnoy.i18n.cards import card_text
from raspisnoy.play.screen import TerminalScreen, hand_order
from raspisnoy.play.session import seat_names

WIDTHS = (40, 80)
LEVELS = (None, "random", "heuristic", "expert", "master")


def five_seat_game(lang: str, plan: tuple[str, ...], rounds_done: int) -> Game:
    """Random bots at every seat play ``rounds_done`` rounds and on to the person's first
    card of the next (or to the end of the game)."""
    rules = resolve_rules("raspisnoy.com", custom_plan=plan)
    game = Game(rules, seat_names(lang, 5), seed="9")
    bots = [make_bot("random", seed=seat) for seat in range(5)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        ready = len(game.rounds()) > rounds_done and game.phase is Phase.PLAY
        if ready and seat == 0:
            break
        game.apply(bots[seat].act(game.view(seat)), seat)
    return game


def screen_at(lang: str, width: int) -> tuple[TerminalScreen, io.StringIO]:
    output = io.StringIO()
    console = Console(file=output, width=width, color_system=None)
    return TerminalScreen(console, lang, levels=LEVELS), output


def assert_fits(text: str, width: int) -> None:
    assert "…" not in text, text
    for line in text.splitlines():
        assert len(line) <= width, f"{line!r} is wider than {width}:\n{text}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_score_sheet_keeps_kinds_bids_and_totals_whole(lang: str, width: int) -> None:
    game = five_seat_game(lang, ("1", "3:no-trump", "2:golden"), rounds_done=2)
    screen, output = screen_at(lang, width)
    view = game.view(0)
    finished = [result for result in game.rounds() if result.points is not None]
    screen.score_sheet(view, game.rounds())
    text = output.getvalue()
    assert_fits(text, width)
    lines = text.splitlines()
    for result in finished:
        assert translate(f"kind.{result.kind}", lang) in text
        bids = result.bids or ("–",) * 5
        for bid, taken, points in zip(bids, result.taken, result.points or (), strict=True):
            assert f"{bid}/{taken}" in text
            assert f"{points:+d}" in text
    total = translate("play.col.total", lang)
    totals = next(line for line in lines if line.startswith(total)).split()[1:]
    assert totals == [str(value) for value in view.totals]  # all five, whole


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_of_seats_keeps_its_headers_apart_and_names_on_one_line(
    lang: str, width: int
) -> None:
    game = five_seat_game(lang, ("1", "3:no-trump", "2:golden"), rounds_done=1)
    screen, output = screen_at(lang, width)
    view = game.view(0)
    screen.round_start(view)
    screen.show(view)
    text = output.getvalue()
    assert_fits(text, width)
    assert translate("kind.no-trump", lang) in text  # the round's heading keeps its kind
    for seat, name in enumerate(view.names):  # name, tricks and total on one line
        row = rf"{name}\b.*[ │]{view.taken[seat]} .*[ │]{view.totals[seat]}\b"
        assert re.search(row, text), (row, text)
    for level in LEVELS[1:]:
        assert translate(f"bot.{level}", lang) in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_round_over_table_fits_a_phone(lang: str) -> None:
    game = five_seat_game(lang, ("1", "3:no-trump"), rounds_done=1)
    screen, output = screen_at(lang, 40)
    result = game.rounds()[0]
    screen.round_over(game.view(0), result)
    text = output.getvalue()
    assert_fits(text, 40)
    for points in result.points or ():
        assert f"{points:+d}" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hand_breaks_between_cards(lang: str) -> None:
    game = five_seat_game(lang, ("7",), rounds_done=0)
    screen, output = screen_at(lang, 40)
    view = game.view(0)
    hand = screen._show_hand(view, legal=set(view.hand or ()))
    text = output.getvalue()
    assert_fits(text, 40)
    assert len(hand) == 7
    for number, card in enumerate(hand_order(hand), start=1):
        unit = f"{number}] {card_text(card, lang)}"
        assert any(unit in line for line in text.splitlines()), f"{unit!r} broken in:\n{text}"
