"""``benchmarks/vs_openspiel_logs.py``: the figures of the matches against OpenSpiel's
ISMCTS, pooled over several logs and split by bid, checked on small logs worked by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from vs_openspiel_logs import by_bid, gap, needed_edge, print_figures, read_log, summary


def _deal(deal: int, ours: list[float], theirs: list[float]) -> dict[str, Any]:
    """A logged deal: the expert's four seats (bids 0, 1, 2, 2; taken 0, 2, 2, 1) and
    ISMCTS's (bids 1, 1, 3, 0; taken 1, 1, 2, 0), with these returns."""
    return {
        "deal": deal,
        "ours": ours,
        "theirs": theirs,
        "our_bids": [0, 1, 2, 2],
        "our_taken": [0, 2, 2, 1],
        "their_bids": [1, 1, 3, 0],
        "their_taken": [1, 1, 2, 0],
    }


def _log(path: Path, deals: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(deal) + "\n" for deal in deals), encoding="utf-8")
    return path


def test_a_deals_gap_is_the_expert_mean_return_less_ismcts() -> None:
    assert gap(_deal(1, [10, -1, 12, -1], [11, 11, -1, 10])) == pytest.approx(5 - 7.75)


def test_logs_pool_into_one_sample_and_each_keeps_its_own_figure(tmp_path: Path) -> None:
    first = _log(tmp_path / "a.jsonl", [_deal(1, [4] * 4, [2] * 4), _deal(2, [2] * 4, [2] * 4)])
    second = _log(tmp_path / "b.jsonl", [_deal(3, [0] * 4, [3] * 4)])
    figures = summary([first, second])
    assert figures["deals"] == 3
    assert figures["runs"][str(first)]["difference_per_deal"][0] == pytest.approx(1.0)
    assert figures["runs"][str(second)]["difference_per_deal"][0] == pytest.approx(-3.0)
    assert (
        figures["runs"][str(first)]["first_deal"],
        figures["runs"][str(first)]["last_deal"],
    ) == (1, 2)
    mean, low, high = figures["difference_per_deal"]  # gaps 2, 0, -3
    half = 1.96 * math.sqrt(((2 + 1 / 3) ** 2 + (1 / 3) ** 2 + (8 / 3) ** 2) / 2) / math.sqrt(3)
    assert (mean, low, high) == pytest.approx((-1 / 3, -1 / 3 - half, -1 / 3 + half))


def test_the_edge_a_match_needs_grows_with_the_spread_and_shrinks_with_the_deals() -> None:
    gaps = [2.0, -2.0] * 50  # standard deviation about 2.01
    spread = math.sqrt(400 / 99)
    assert needed_edge(gaps, deals=200) == pytest.approx(2.8 * spread / math.sqrt(200))
    assert needed_edge(gaps, deals=800) == pytest.approx(needed_edge(gaps, deals=200) / 2)


def test_bids_are_counted_with_how_often_each_was_taken_exactly() -> None:
    results = [_deal(1, [10, 2, 12, -1], [11, 11, -1, 10]), _deal(2, [10, 0, 12, 1], [9] * 4)]
    expert = by_bid(results, "our")
    assert list(expert) == [0, 1, 2]
    assert expert[0] == {"count": 2, "exact": 1.0, "mean_return": 10.0}
    assert expert[1] == {"count": 2, "exact": 0.0, "mean_return": 1.0}
    assert expert[2] == {"count": 4, "exact": 0.5, "mean_return": pytest.approx(6.0)}
    ismcts = by_bid(results, "their")
    assert ismcts[3] == {"count": 2, "exact": 0.0, "mean_return": 4.0}


def test_a_log_without_deals_beside_others_is_listed_empty_and_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = _log(
        tmp_path / "played.jsonl", [_deal(12400, [4] * 4, [2] * 4), _deal(12599, [2] * 4, [2] * 4)]
    )
    figures = summary([played, tmp_path / "not-started.jsonl"])
    empty = figures["runs"][str(tmp_path / "not-started.jsonl")]
    assert empty == {"deals": 0, "first_deal": None, "last_deal": None, "difference_per_deal": None}
    assert figures["deals"] == 2
    print_figures(figures)
    printed = capsys.readouterr().out
    assert "12400-12599" in printed and "not-started.jsonl" in printed


def test_a_missing_log_holds_no_deals_and_no_deals_at_all_is_refused(tmp_path: Path) -> None:
    assert read_log(tmp_path / "none.jsonl") == []
    with pytest.raises(SystemExit, match="no deals"):
        summary([tmp_path / "none.jsonl"])
