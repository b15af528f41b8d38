"""The commands' JSON is UTF-8 whatever the terminal's encoding (RECORD.md: "The record
(JSON, UTF-8)"; CASINO.md §3): a Russian name reaches a cp1251 or latin-1 console as
UTF-8 bytes, not as that console's bytes or a crash."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: RECORD.md's example game, its players renamed in Cyrillic.
RECORD = {
    "format": "raspisnoy-record/1",
    "rules": "raspisnoy.com",
    "players": ["Аня", "Борис", "Вера"],
    "rounds": [
        {
            "dealer": 0,
            "hands": [["QD"], ["KD"], ["AH"]],
            "trump_card": "7C",
            "bids": [1, 1, 0],
            "tricks": [["KD", "AH", "QD"]],
        },
        {
            "dealer": 1,
            "hands": [["KD", "9C"], ["QD", "6S"], ["X", "AH"]],
            "trump_card": "7C",
            "bids": [0, 1, 2],
            "tricks": [["X:highest:D", "KD", "QD"], ["AH", "9C", "6S"]],
        },
    ],
}


@pytest.mark.parametrize("encoding", ["latin-1", "cp1251", "utf-8"])
def test_replay_json_is_utf8_on_any_console(tmp_path: Path, encoding: str) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps(RECORD, ensure_ascii=False), encoding="utf-8")
    environment = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run(
        [sys.executable, "-m", "raspisnoy", "replay", str(record), "--json"],
        capture_output=True,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert json.loads(done.stdout.decode("utf-8"))["players"] == RECORD["players"]
