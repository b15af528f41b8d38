"""The scorekeeper's sheet in a narrow terminal (a phone's, 40 columns) and at 80: every
round's kind, every bid/taken and points, and every total whole, no cell cut with «…»
and no line wider than the terminal, for three to five players."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from raspisnoy.i18n import LANGUAGES, translate
from raspisnoy.scorekeeper import Sheet, command

from .helpers import fill

#: Names too long for a phone's sheet of five, two of them beginning alike.
NAMES = ("Анна", "Борис", "Вероника", "Глеб", "Вера")


def drawn(lang: str, width: int, sheet: Sheet) -> str:
    output = io.StringIO()
    console = Console(file=output, width=width, color_system=None)
    command._Session(console, lang, Path("sheet.json"), sheet).show(clear=False)
    return output.getvalue()


def cells(line: str) -> list[str]:
    """The words of a line of a table, its frame left out."""
    return re.findall(r"[^\s│┃]+", line)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sheet_is_whole_at_any_width(lang: str, width: int, players: int) -> None:
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1", "3:no-trump", "2:golden", "2"]}
    sheet = fill(Sheet.start(rules, NAMES[:players]), 3)
    text = drawn(lang, width, sheet)
    lines = text.splitlines()
    assert "…" not in text, text
    for line in lines:
        assert len(line) <= width, f"{line!r}:\n{text}"
    for row in sheet.scored[:3]:
        assert translate(f"kind.{row.kind}", lang) in text
        assert row.points is not None
        bids = row.bids or ("–",) * players
        for bid, taken, points in zip(bids, row.taken, row.points, strict=True):
            assert f"{bid}/{taken}" in text
            assert re.search(rf"(^|\s){re.escape(f'{points:+d}')}(\s|$)", text, re.M), points
    totals = next(line for line in lines if translate("score.total", lang) in line)
    assert cells(totals)[-players:] == [str(total) for total in sheet.totals]
    # Every name whole or shortened to its first letters and a dot, and told apart.
    shown = cells(next(line for line in lines if NAMES[0] in line))[-players:]
    assert len(set(shown)) == players
    for name, short in zip(NAMES, shown, strict=False):
        assert short == name or (short.endswith(".") and name.startswith(short[:-1]))
