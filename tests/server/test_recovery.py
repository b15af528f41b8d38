"""Nothing is lost: the real server (``raspisnoy serve`` in a subprocess) is killed with
SIGKILL in the middle of a round and restarted; the game goes on exactly where it was."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from fresh_databases import BACKENDS, new_database
from server_helpers import Api, Player, play_in_threads, serve
from server_process import free_port

from raspisnoy.core.record import loads_record, replay
from raspisnoy.server.auth import KEY_FILE


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
        with serve(port, "--database-url", url) as process:
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
            process.kill()
        with serve(port, "--database-url", url):
            again = [anna.socket(table["id"]), boris.socket(table["id"])]
            for player, (version, game) in zip(again, before, strict=True):
                state = player.recv()
                assert state["type"] == "state"
                assert (state["version"], state["game"]) == (version, game)
            # An action resent after the restart, under the id it was applied with, is
            # recognised and not applied again.
            acted = [
                (m["version"], m["action"]["action"])
                for m in players[0].messages
                if m["type"] == "event"
                and (m["action"]["seat"], m["action"]["by"]) == (0, "player")
            ]
            version, action = acted[-1]
            resent = f"v{version - 1}"  # play_until's id: the version the action was made at
            again[0].send({"type": "act", "id": resent, "action": action})
            ack = again[0].recv_until(lambda m: m["type"] in ("ack", "error"))
            assert ack == {"type": "ack", "id": resent, "version": version, "duplicate": True}
            play_in_threads(again)
            record = anna.http.get(f"/api/games/{table['id']}/record")
            finished = replay(loads_record(record.text))
            assert finished.is_over
            assert list(finished.totals) == again[0].game["totals"]  # type: ignore[index]
            for player in again:
                player.close()


def test_serve_keeps_sqlite_and_its_key_in_the_data_dir(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(port, "--data-dir", str(tmp_path / "data"), key_file=True):
        anna = Api(base, "Anna")
        assert anna.user["nickname"] == "Anna"
    assert (tmp_path / "data" / "raspisnoy.sqlite3").exists()
    key = tmp_path / "data" / KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    with serve(port, "--data-dir", str(tmp_path / "data"), key_file=True):
        assert anna.http.get("/api/session").json()["user"] == anna.user  # the same key


@pytest.mark.parametrize("how", ["option", "environment"])
def test_serve_reports_a_bad_database_in_one_line(how: str) -> None:
    option = ["--database-url", "nosuch://x"] if how == "option" else []
    environment = {**os.environ, "RASPISNOY_DATABASE_URL": "nosuch://x"}
    done = subprocess.run(
        [sys.executable, "-m", "raspisnoy", "serve", *option],
        capture_output=True,
        text=True,
        check=False,
        env=environment if how == "environment" else None,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: cannot use database nosuch://x: ")
    assert done.stderr.count("\n") == 1
