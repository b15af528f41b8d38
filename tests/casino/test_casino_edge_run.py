"""The house-edge benchmark's table run (``benchmarks/casino_edge.py``): an interrupted
run, run again, continues from its saved shards and gives the figures of a run never
interrupted; shards of another run are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import casino_edge

#: Three blocks of ten hands.
HANDS, BLOCK = 30, 10
SAME = ("hands", "house_edge_per_ante", "ci95_per_ante", "house_edge_per_chip", "choices")


class Interrupted(Exception):
    """The run stopped after its first block (as by Ctrl-C or a killed process)."""


def test_an_interrupted_run_continues_from_its_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = casino_edge.play_table(HANDS, "t", 1, tmp_path / "whole", BLOCK)
    assert whole["hands"] == HANDS and whole["resumed_hands"] == 0
    played = casino_edge.table_block
    calls: list[str] = []
    stops = ["t/1"]  # the block at which the first run stops, once

    def interrupted(job: tuple[str, int, str | None]) -> casino_edge.Sums:
        calls.append(job[0])
        if job[0] in stops:
            stops.clear()
            raise Interrupted
        return played(job)

    monkeypatch.setattr(casino_edge, "table_block", interrupted)
    shards = tmp_path / "shards"
    with pytest.raises(Interrupted):
        casino_edge.play_table(HANDS, "t", 1, shards, BLOCK)
    assert [path.name for path in shards.glob("*.json")] == ["t-0.json"]
    calls.clear()
    resumed = casino_edge.play_table(HANDS, "t", 1, shards, BLOCK)
    assert calls == ["t/1", "t/2"]  # the saved block is read, not played again
    assert resumed["resumed_hands"] == BLOCK
    # The blocks are summed in the same order, so the figures are the same to the bit.
    assert {k: resumed[k] for k in SAME} == {k: whole[k] for k in SAME}
    # A finished run, run again, plays nothing.
    calls.clear()
    assert casino_edge.play_table(HANDS, "t", 1, shards, BLOCK)["resumed_hands"] == HANDS
    assert calls == []


def test_a_shard_of_another_table_or_size_is_refused(tmp_path: Path) -> None:
    casino_edge.play_table(BLOCK, "t", 1, tmp_path, BLOCK)
    with pytest.raises(SystemExit, match="another run"):
        casino_edge.play_table(BLOCK, "t", 1, tmp_path, BLOCK // 2)
    shard = tmp_path / "t-0.json"
    data = json.loads(shard.read_text())
    shard.write_text(json.dumps({**data, "table": "0" * 64}))
    with pytest.raises(SystemExit, match="another run"):
        casino_edge.play_table(BLOCK, "t", 1, tmp_path, BLOCK)


def test_another_table_on_the_same_decks(tmp_path: Path) -> None:
    """``--table`` plays another strategy file; ``versus`` pairs the two runs' blocks: a
    table that always folds loses exactly one ante a hand, so the shipped table's edge
    minus its edge is the shipped table's edge minus one, with no spread."""
    shipped_table = casino_edge.strategy_of(None)
    folding = {
        **shipped_table.to_json(),
        "kinds": {kind: [count, "fold"] for kind, (count, _r) in shipped_table.rankings.items()},
    }
    table = tmp_path / "fold.json"
    table.write_text(json.dumps(folding))
    shipped = casino_edge.play_table(HANDS, "t", 1, tmp_path / "shipped", BLOCK)
    folds = casino_edge.play_table(HANDS, "t", 1, tmp_path / "fold", BLOCK, str(table))
    assert folds["house_edge_per_ante"] == 1.0 and folds["choices"] == {"fold": 1.0}
    paired = casino_edge.versus(tmp_path / "shipped", tmp_path / "fold", "t")
    assert paired["blocks"] == HANDS // BLOCK
    assert paired["difference"] == pytest.approx(shipped["house_edge_per_ante"] - 1.0)
    assert paired["ci95"][0] <= paired["difference"] <= paired["ci95"][1]
    # Nothing in common: refused.
    with pytest.raises(SystemExit, match="fewer than two blocks"):
        casino_edge.versus(tmp_path / "shipped", tmp_path / "none", "t")
