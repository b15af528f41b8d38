"""``raspisnoy backup`` and ``raspisnoy restore``: a backup taken mid-game from a running
server, restored into a new data directory, plays on to the end there; what restore
refuses (a running server's database, a file that is no raspisnoy database, one of an
unknown migration); PostgreSQL's commands."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from server_helpers import Api, Player, play_until, serve
from server_process import free_port

from raspisnoy.core.record import loads_record, replay
from raspisnoy.store.backup import (
    backup_sqlite,
    known_migrations,
    migration_of,
    postgres_commands,
)

#: A short game: four rounds, bots in three seats that play at once.
RULES = {"preset": "raspisnoy.com", "custom_plan": ["3", "4", "3:blind", "2"]}


def raspisnoy(*arguments: str | Path) -> subprocess.CompletedProcess[str]:
    """``raspisnoy ARGUMENTS...`` as an operator runs it."""
    command = [sys.executable, "-m", "raspisnoy", *map(str, arguments)]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


def mid_game(player: Player) -> bool:
    """Some rounds in, and the person to act (the bots have played up to them)."""
    return bool(player.version >= 15 and player.my_turn())


def test_a_backup_taken_mid_game_plays_on_after_a_restore(tmp_path: Path) -> None:
    live, restored, backup = tmp_path / "live", tmp_path / "restored", tmp_path / "game.bak"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(port, "--data-dir", str(live)):
        anna = Api(base, "Anna")
        # A turn timer: a person not connected when the server starts is not away at once
        # (her stand-in would play her turns before she reconnects).
        table = anna.create_table(rules=RULES, bots="random", bot_delay_ms=0, turn_seconds=60)
        player = anna.socket(table["id"])
        player.recv()
        assert anna.post(f"/api/tables/{table['id']}/start").status_code == 200
        play_until(player, mid_game)
        at_backup = (player.version, player.game)
        done = raspisnoy("backup", backup, "--data-dir", live)  # while the server runs
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"backed up to {backup} (migration {known_migrations()[-1]})\n"
        assert done.stderr == ""
        play_until(player, lambda p: p.version > at_backup[0] + 3)  # the live game goes on
        player.close()
    done = raspisnoy("restore", backup, "--data-dir", restored)
    assert done.returncode == 0, done.stderr
    with serve(port, "--data-dir", str(restored)):
        again = anna.socket(table["id"])  # the session is in the backup too
        state = again.recv()
        assert state["type"] == "state"
        assert (state["version"], state["game"]) == at_backup
        play_until(again, lambda p: bool(p.game and p.game["phase"] == "over"))
        record = anna.http.get(f"/api/games/{table['id']}/record")
        assert record.status_code == 200
        finished = replay(loads_record(record.text))
        assert finished.is_over
        assert list(finished.totals) == again.game["totals"]  # type: ignore[index]
        again.close()


def test_a_restore_over_a_killed_server_drops_its_unsaved_log(tmp_path: Path) -> None:
    """A server killed with SIGKILL leaves SQLite's write-ahead log behind; the restored
    database must be the backup's, not the backup with that log replayed over it."""
    data, backup = tmp_path / "data", tmp_path / "before.bak"
    port = free_port()
    with serve(port, "--data-dir", str(data)) as server:
        Api(server.url, "Before")
        assert raspisnoy("backup", backup, "--data-dir", data).returncode == 0
        after = Api(server.url, "After")
        server.kill()
    assert (data / "raspisnoy.sqlite3-wal").exists()
    done = raspisnoy("restore", backup, "--data-dir", data)
    assert done.returncode == 0, done.stderr
    with serve(port, "--data-dir", str(data)) as server:
        assert after.http.get("/api/session").status_code == 401  # made after the backup


def test_restore_refuses_the_database_of_a_running_server(tmp_path: Path) -> None:
    data, backup = tmp_path / "data", tmp_path / "copy.bak"
    port = free_port()
    with serve(port, "--data-dir", str(data)) as server:
        anna = Api(server.url, "Anna")
        assert raspisnoy("backup", backup, "--data-dir", data).returncode == 0
        Api(server.url, "Boris")  # after the backup
        done = raspisnoy("restore", backup, "--data-dir", data)
        assert done.returncode == 1
        assert done.stdout == ""
        assert done.stderr.startswith("error: ")
        assert "in use, most likely by a running server: stop the server" in done.stderr
        assert len(done.stderr.splitlines()) == 1
        assert anna.http.get("/api/session").status_code == 200  # still serving its data
    assert _users(data / "raspisnoy.sqlite3") == {"Anna", "Boris"}  # nothing replaced


def test_the_progress_reaches_every_page(tmp_path: Path) -> None:
    data, backup = tmp_path / "data", tmp_path / "copy.bak"
    _make_database(data)
    steps: list[tuple[int, int]] = []
    assert backup_sqlite(data / "raspisnoy.sqlite3", backup, lambda *step: steps.append(step))
    assert steps and steps[-1][0] == steps[-1][1] > 0
    assert not list(tmp_path.glob(".*.partial"))  # renamed into place
    with sqlite3.connect(backup) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
    assert _users(backup) == {"Anna"}


def test_backup_refuses_to_overwrite_a_file(tmp_path: Path) -> None:
    data, backup = tmp_path / "data", tmp_path / "there.bak"
    _make_database(data)
    backup.write_text("keep me")
    done = raspisnoy("backup", backup, "--data-dir", data)
    assert done.returncode == 1
    assert done.stderr == f"error: {backup} exists already: choose a new file for the backup\n"
    assert backup.read_text() == "keep me"


@pytest.mark.parametrize("kind", ["text", "other sqlite", "unknown migration", "missing"])
def test_restore_refuses_what_is_no_known_raspisnoy_database(tmp_path: Path, kind: str) -> None:
    data, backup = tmp_path / "data", tmp_path / "file.bak"
    _make_database(data)
    if kind == "text":
        backup.write_text("not a database\n" * 100)
    elif kind == "other sqlite":
        with sqlite3.connect(backup) as other:
            other.execute("CREATE TABLE notes (text TEXT)")
    elif kind == "unknown migration":
        shutil.copy(data / "raspisnoy.sqlite3", backup)
        with sqlite3.connect(backup) as newer:
            newer.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    done = raspisnoy("restore", backup, "--data-dir", data)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1
    expected = {
        "text": "is not a raspisnoy database",
        "other sqlite": "is not a raspisnoy database",
        "unknown migration": "at migration 9999_from_the_future, which this version",
        "missing": "no such file",
    }[kind]
    assert expected in done.stderr
    assert _users(data / "raspisnoy.sqlite3") == {"Anna"}  # untouched


def test_postgresql_gets_the_commands_to_run(tmp_path: Path) -> None:
    url = "postgresql+psycopg://raspisnoy:secret@db.example:5432/raspisnoy"
    done = raspisnoy("backup", tmp_path / "x.dump", "--database-url", url)
    assert done.returncode == 0
    assert done.stdout == (
        f"pg_dump --format=custom --file={tmp_path / 'x.dump'} "
        "postgresql://raspisnoy@db.example:5432/raspisnoy\n"
    )
    done = raspisnoy("restore", tmp_path / "x.dump", "--database-url", url)
    assert done.returncode == 0
    assert done.stdout.startswith("pg_restore --clean --if-exists --no-owner")
    assert "secret" not in done.stdout  # the password goes in PGPASSWORD or ~/.pgpass
    quoted = postgres_commands("postgresql+psycopg://u@h/d?options=-csearch_path%3Ds", "a b")
    assert (
        quoted.backup
        == "pg_dump --format=custom --file='a b' 'postgresql://u@h/d?options=-csearch_path%3Ds'"
    )


def _make_database(data: Path) -> None:
    """A raspisnoy database in ``data`` with one user, Anna."""
    from raspisnoy.store import Store

    data.mkdir(parents=True, exist_ok=True)
    store = Store.open(f"sqlite:///{data / 'raspisnoy.sqlite3'}")
    store.create_user("Anna")
    store.close()
    assert migration_of(data / "raspisnoy.sqlite3") == known_migrations()[-1]


def _users(database: Path) -> set[str]:
    with sqlite3.connect(database) as db:
        return {row[0] for row in db.execute("SELECT nickname FROM users")}
