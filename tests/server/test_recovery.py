"""Nothing is lost: the real server (``raspisnoy serve`` in a subprocess) is killed with
SIGKILL in the middle of a round and restarted; the game goes on exactly where it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from server_helpers import BACKENDS, Api, Player, free_port, new_database, play_in_threads

from raspisnoy.core.record import loads_record, replay


@contextmanager
def serve(url: str, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``raspisnoy serve`` on ``port``, once ``/healthz`` answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "raspisnoy", "serve", "--port", str(port), "--database-url", url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz").json() == {"status": "ok"}:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {process.stderr.read()!r}")  # type: ignore[union-attr]
            time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(20)


def mid_round_human_turn(player: Player) -> bool:
    """Deep enough into the game, a trick under way, and a person (seat 0 or 2) to act."""
    game = player.game
    return bool(
        game
        and player.version >= 12
        and game["phase"] == "play"
        and game["trick"]["cards"]
        and game["to_act"] in (0, 2)
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_sigkill_mid_round_and_the_game_goes_on(backend: str, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with new_database(backend, tmp_path) as url:
        with serve(url, port) as process:
            anna, boris = Api(base, "Anna"), Api(base, "Boris")
            rules = {"preset": "raspisnoy.com", "custom_plan": ["3", "4", "3:blind", "2"]}
            table = anna.create_table(rules=rules, bots="random", bot_delay_ms=0, turn_seconds=60)
            boris.post(f"/api/tables/{table['id']}/sit", seat=2)
            players = [anna.socket(table["id"]), boris.socket(table["id"])]
            for player in players:
                player.recv()
            anna.post(f"/api/tables/{table['id']}/start")
            play_in_threads(players, mid_round_human_turn)
            before = [(p.version, p.game) for p in players]
            assert before[0][0] == before[1][0]
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)
        with serve(url, port):
            again = [anna.socket(table["id"]), boris.socket(table["id"])]
            for player, (version, game) in zip(again, before, strict=True):
                state = player.recv()
                assert state["type"] == "state"
                assert (state["version"], state["game"]) == (version, game)
            play_in_threads(again)
            record = anna.http.get(f"/api/games/{table['id']}/record")
            finished = replay(loads_record(record.text))
            assert finished.is_over
            assert list(finished.totals) == again[0].game["totals"]  # type: ignore[index]
            for player in again:
                player.close()
