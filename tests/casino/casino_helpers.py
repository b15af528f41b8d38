"""Helpers shared by the casino tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from raspisnoy.casino import Card, parse_cards

#: The example box file of docs/casino.md.
BOX_EXAMPLE: dict[str, Any] = {
    "format": "russian-poker-box/1",
    "ante": 10,
    "cards": ["AS", "AH", "KD", "8C", "9S"],
    "exchange": {"change": ["8C", "9S"], "draw": ["2H", "2D"]},
    "decision": "bet",
    "dealer": ["QS", "JD", "7C", "5H", "3S"],
    "buy_dealer": {"draw": "QH"},
}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@dataclass(frozen=True)
class Result:
    """What one run of the command line did."""

    status: int
    stdout: str
    stderr: str


def assert_error(result: Result, *fragments: str) -> None:
    """The CLI contract: one ``error: …`` line on stderr, nothing on stdout, non-zero exit."""
    assert result.status != 0
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
