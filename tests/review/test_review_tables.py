"""``raspisnoy review``'s tables as a reader sees them: cards in the reader's letters, as
``raspisnoy play`` writes them, the two expectations under headers of their own, whole
tables at 80 columns and whole rows at 40 (a phone's terminal)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console

from raspisnoy.bots import make_bot
from raspisnoy.core import Game, resolve_rules
from raspisnoy.core.record import game_to_record
from raspisnoy.i18n import LANGUAGES, translate
from raspisnoy.review import Budget, Review, review_game
from raspisnoy.review.command import _print_review

#: A card in record notation: what a Russian reader would misread (TH is not «туз червей»).
RECORD_CARD = re.compile(r"\b(?:[2-9TJQKA]|10)[SCDH]\b|\bX\d?:")


@pytest.fixture(scope="module")
def review() -> Review:
    game = Game(resolve_rules(custom_plan=("3", "2:no-trump", "1:forehead")), 3, seed=4)
    bots = [make_bot("heuristic", seed=seat) for seat in range(3)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)
    return review_game(game_to_record(game), None, Budget(iterations=64, screen=None))


def printed(review: Review, lang: str, width: int) -> str:
    def text(key: str, **values: Any) -> str:
        return translate(f"review.{key}", lang, **values)

    output = io.StringIO()
    _print_review(review, text, lang, Console(file=output, width=width, color_system=None))
    return output.getvalue()


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_review_is_whole_and_written_in_the_readers_cards(
    review: Review, lang: str, width: int
) -> None:
    text = printed(review, lang, width)
    assert "…" not in text, text
    for line in text.splitlines():
        assert len(line) <= width, f"{line!r}:\n{text}"
    assert not RECORD_CARD.search(text), RECORD_CARD.search(text)
    assert re.search(r"(?:10|[2-9]|[ВДКТJQKA])[♠♣♦♥]", text)
    for moment in review.moments:
        assert f"{moment.loss:.1f}" in text
        assert translate(f"review.class.{moment.severity}", lang) in text.replace("\n", " ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_at_80_columns_the_moves_are_a_table_with_two_expectations_told_apart(
    review: Review, lang: str
) -> None:
    text = printed(review, lang, 80)
    expected = translate("review.col.expected", lang)
    best = translate("review.col.best_expected", lang)
    assert expected != best
    header = text.split(translate("review.moves", lang))[1].split("─")[0]
    words = header.split()
    assert words.count(expected.split()[0]) == 2  # both headers begin with it, or
    assert all(word in words for word in best.split())  # the best's is wholly there
    assert "│" not in text and "┃" not in text  # tables drawn as tables, framed lightly
    assert any(line.startswith("─") for line in text.splitlines())
