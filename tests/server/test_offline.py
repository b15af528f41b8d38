"""Offline play (docs/offline.md): the game on the device (``LocalTable``) speaks the
table socket's messages, hides what seat 0 may not know, survives a save and a reload,
refuses damaged saves; its bundle runs on the standard library alone (as in Pyodide);
``/offline/*`` serves the files, or says offline play is not installed."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from leak_check import EVERY_KIND, check
from server_helpers import FAST, Api, Server

from raspisnoy.core import PRESETS, InvalidInputError, loads_record, parse_action, replay
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.offline import OFFLINE_BOTS, STRONGEST, YOU, LocalTable
from raspisnoy.server.services.offline import PYODIDE_FILES, OfflineFiles, default_pyodide_dir
from raspisnoy.server.wire import view_json
from raspisnoy.store import EventRow

Message = dict[str, Any]


def play_out(table: LocalTable, stop_after: int | None = None) -> list[Message]:
    """Plays ``table`` (seat 0 takes its first legal action) until it is over or
    ``stop_after`` actions are played; every message it sent, in order."""
    sent: list[Message] = [table.state()]
    while not table.game.is_over and (stop_after is None or table.version < stop_after):
        if table.bot_due():
            sent += table.bot_turn()
        else:
            legal = sent[-1]["game"]["legal"] if sent[-1]["type"] != "ack" else None
            action = (legal or table.state()["game"]["legal"])[0]
            sent += table.act(f"c{table.version}", action)
    return sent


def test_every_message_hides_what_seat_0_may_not_know() -> None:
    """A whole game of every round kind: each message passes the server's leak check."""
    table = LocalTable.new({"rules": EVERY_KIND, "players": 4, "bots": "random"}, "Аня")
    sent = play_out(table)
    states = [LocalTable(table.id, table.settings, "Аня", table.seed).game]
    replayed = states[0].clone()
    for seat, text in table.actions:
        replayed.apply(parse_action(text), seat)
        states.append(replayed.clone())
    events = [
        EventRow(table.id, number, seat, text, None)
        for number, (seat, text) in enumerate(table.actions, start=1)
    ]
    versions = [m["version"] for m in sent if m["type"] == "event"]
    assert versions == list(range(1, len(table.actions) + 1))
    for message in sent:
        if message["type"] in ("state", "event"):
            check(message, YOU, states, events)
    assert sent[-1]["type"] == "ack" or sent[-1]["game"]["phase"] == "over"
    assert table.table()["status"] == "over" and table.table()["rated"] is False


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.text(min_size=1, max_size=8),
    stop=st.integers(min_value=0, max_value=300),
)
def test_a_saved_game_comes_back_as_it_was(preset: str, seed: str, stop: int) -> None:
    """Saved at any moment and loaded (the page closed and opened again): the same state,
    the same report, and the game goes on to its end."""
    rules = {"preset": preset}
    players = min(PRESETS[preset].get("max_players", 4), 4)
    table = LocalTable("local-x", {"rules": rules, "players": players}, "Аня", seed)
    play_out(table, stop_after=stop)
    saved = json.loads(json.dumps(table.save()))
    again = LocalTable.load(saved)
    assert again.state() == table.state()
    assert again.report() == table.report()
    play_out(again)
    assert again.game.is_over
    assert replay(loads_record(json.dumps(again.record()))).totals == again.game.totals


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    bots=st.sampled_from(["random", "beginner", "heuristic"]),
    seed=st.text(min_size=1, max_size=8),
    stop=st.integers(min_value=0, max_value=300),
)
def test_bot_moves_not_yet_saved_come_back_the_same(
    preset: str, bots: str, seed: str, stop: int
) -> None:
    """The worker keeps a bot's move after showing it (docs/offline.md, "Saving and
    resuming"): a page closed before that save resumes from an earlier save, and the bots
    play again exactly the moves that were shown, so nothing the player saw changes."""
    settings = {"rules": {"preset": preset}, "players": 3, "bots": bots}
    whole = LocalTable("local-x", settings, "Аня", seed)
    play_out(whole)
    kept = {**whole.save(), "actions": whole.save()["actions"][:stop]}  # an earlier save
    again = LocalTable.load(json.loads(json.dumps(kept)))
    play_out(again)
    assert again.actions == whole.actions


def test_a_refused_action_changes_nothing() -> None:
    table = LocalTable.new({"rules": "classic", "players": 3, "bots": "heuristic"}, "Аня")
    play_out(table, stop_after=0)
    while table.bot_due():
        table.bot_turn()
    before = table.state()
    (error,) = table.act("c1", "not-a-card")
    assert error == {**error, "type": "error", "code": "illegal_action", "id": "c1"}
    assert table.state() == before
    table.bot_turn()  # not a bot's turn: nothing happens
    assert table.state() == before


def test_the_expert_becomes_the_strongest_bot_that_runs_here() -> None:
    table = LocalTable.new({"rules": "classic", "players": 3, "bots": "expert"}, "Аня")
    assert [seat["bot"] for seat in table.table()["seats"]] == [STRONGEST] * 3
    assert table.state()["game"] == view_json(table.game.view(YOU))


@pytest.mark.parametrize(
    "damage",
    [
        lambda save: {**save, "format": 99},
        lambda save: {**save, "actions": "KD"},
        lambda save: {**save, "actions": [[0]]},
        lambda save: {**save, "actions": [["0", "KD"]]},
        lambda save: {**save, "actions": [*save["actions"], [1, "AS"], [1, "AS"]]},
        lambda save: {**save, "seed": 5},
        lambda save: {**save, "settings": {"rules": "no-such-preset"}},
        lambda save: {**save, "settings": {**save["settings"], "players": 99}},
        lambda save: {**save, "settings": {**save["settings"], "bot_delay_ms": -1}},
        lambda save: [save],
    ],
)
def test_a_damaged_save_is_refused_in_words(damage: Callable[[Message], Any]) -> None:
    """A corrupt entry of the device's store: a clear error, never a half-built game."""
    table = LocalTable.new({"rules": "classic", "players": 3}, "Аня")
    play_out(table, stop_after=5)
    with pytest.raises(InvalidInputError):
        LocalTable.load(damage(table.save()))


_PURE_GAME = """
import sys
sys.path[:0] = [sys.argv[1]]
from raspisnoy.server.offline import LocalTable
table = LocalTable("local-x", {"rules": "classic", "players": 4, "bots": "heuristic"}, "A", "s")
while not table.game.is_over:
    if table.bot_due():
        table.bot_turn()
    else:
        table.act("c", table.state()["game"]["legal"][0])
heavy = sorted({"numba", "numpy", "orjson", "pydantic", "sqlalchemy"} & set(sys.modules))
print(table.game.totals, heavy)
"""


def test_the_bundle_plays_a_game_on_the_standard_library_alone(tmp_path: Path) -> None:
    """What the browser gets (``/offline/raspisnoy.zip``), unpacked and run by a Python
    with no site-packages, as Pyodide runs it: a whole game with the heuristic bots."""
    with zipfile.ZipFile(io.BytesIO(OfflineFiles(None).bundle)) as archive:
        archive.extractall(tmp_path)
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _PURE_GAME, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    totals, heavy = run.stdout.strip().rsplit(" ", 1)
    assert heavy == "[]"
    expected = LocalTable("local-x", {"rules": "classic", "players": 4}, "A", "s")
    play_out(expected)
    assert totals == str(expected.game.totals)


def test_the_bundle_is_the_same_bytes_for_the_same_sources() -> None:
    assert OfflineFiles(None).bundle == OfflineFiles(None).bundle


def test_a_server_may_leave_the_engine_to_the_first_offline_game(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """``offline_prepare=False`` (``RASPISNOY_OFFLINE_PREPARE``): the status tells pages
    not to make the engine ready in the background; the files are served all the same."""
    server = start_server(
        FAST.model_copy(update={"pyodide_dir": default_pyodide_dir(), "offline_prepare": False})
    )
    status = httpx.get(f"{server.base}/offline/status").json()
    assert status["installed"] is True and status["prepare"] is False
    assert status["snapshot"] is None  # the service worker keeps none with the files


def test_the_offline_routes_serve_the_files_or_say_they_are_missing(
    start_server: Callable[[ServerSettings], Server], tmp_path: Path
) -> None:
    """Without Pyodide's files: not installed, 404s, and the bundle still there (it is
    the package's own). With them: every file, and nothing else by name."""
    bare = start_server(FAST.model_copy(update={"pyodide_dir": tmp_path}))
    status = httpx.get(f"{bare.base}/offline/status").json()
    assert status == {
        "installed": False,
        "pyodide": None,
        "bundle": None,
        "bots": list(OFFLINE_BOTS),
        "prepare": False,
        "snapshot": None,
        "files": [],
    }
    assert httpx.get(f"{bare.base}/offline/pyodide/pyodide.mjs").status_code == 404
    if not OfflineFiles(default_pyodide_dir()).installed:
        pytest.fail("Pyodide is not in .offline/: run scripts/bootstrap (it needs npm)")
    server = start_server(FAST.model_copy(update={"pyodide_dir": default_pyodide_dir()}))
    status = httpx.get(f"{server.base}/offline/status").json()
    assert status["installed"] is True and status["pyodide"]
    assert status["prepare"] is True  # pages make the engine ready by default
    # The one list the page and its service worker keep: the status first, every file
    # served, Pyodide's each.
    assert status["files"][0] == "/offline/status"
    assert set(status["files"]) >= {f"/offline/pyodide/{name}" for name in PYODIDE_FILES}
    for path in status["files"]:
        assert httpx.get(f"{server.base}{path}").status_code == 200, path
    for name in PYODIDE_FILES:
        answer = httpx.get(f"{server.base}/offline/pyodide/{name}")
        assert answer.status_code == 200
        assert answer.content == (default_pyodide_dir() / name).read_bytes()
    for name in ("package.json", "..%2Fpackage.json", "console.html"):
        assert httpx.get(f"{server.base}/offline/pyodide/{name}").status_code == 404
    bundle = httpx.get(f"{server.base}/offline/raspisnoy.zip")
    assert bundle.headers["content-type"] == "application/zip"
    assert bundle.content == OfflineFiles(None).bundle
    files = OfflineFiles(default_pyodide_dir())
    if files.snapshot_file() is None:
        pytest.fail("no engine snapshot in .offline/snapshots: run scripts/bootstrap (Node)")
    assert (
        status["snapshot"]
        == files.snapshot_path
        == (f"/offline/snapshot/{status['pyodide']}/{status['bundle']}")
    )
    snapshot = httpx.get(f"{server.base}{status['snapshot']}")
    assert snapshot.headers["content-encoding"] == "gzip"  # unpacked by the client
    assert len(snapshot.content) > 2 * int(snapshot.headers["content-length"])
    assert int(snapshot.headers["content-length"]) < 8_000_000  # the budget: 15 MB in all
    other = status["snapshot"].replace(status["bundle"], "0" * 16)
    assert httpx.get(f"{server.base}{other}").status_code == 404


def test_the_install_time_snapshot_is_that_of_these_very_files(tmp_path: Path) -> None:
    """Named by Pyodide's version and the bundle's hash: one made for other files (an
    older bundle) is not offered."""
    files = OfflineFiles(default_pyodide_dir(), snapshot_dir=tmp_path)
    if not files.installed:
        pytest.fail("Pyodide is not in .offline/: run scripts/bootstrap (it needs npm)")
    (tmp_path / f"{files.version}-{'0' * 16}.gz").write_bytes(b"older")
    assert files.snapshot_file() is None and files.status()["snapshot"] is None
    target = files.snapshot_target
    assert target is not None
    target.write_bytes(b"these")
    assert files.snapshot_file() == target and files.status()["snapshot"] == files.snapshot_path
    assert OfflineFiles(None, snapshot_dir=tmp_path).status()["snapshot"] is None


def test_the_offline_routes_say_the_same_to_everyone(server: Server) -> None:
    """Leak test: the files are static and public, the same for a guest with a table and
    for an anonymous caller, and they name no table, user or card of any game."""
    guest = httpx.Client(base_url=server.base)
    guest.post("/api/session", json={"nickname": "Аня"})
    table = guest.post("/api/tables", json={"bots": "random", "public": False}).json()
    anonymous = httpx.Client(base_url=server.base)
    for path in ("/offline/status", "/offline/raspisnoy.zip"):
        mine, theirs = guest.get(path), anonymous.get(path)
        assert mine.content == theirs.content
        assert table["id"].encode() not in mine.content
        assert b"set-cookie" not in {key.encode() for key in mine.headers}


def finished_save(**settings: Any) -> Message:
    table = LocalTable.new(
        {"rules": {"preset": "classic", "custom_plan": ["1", "2", "3"]}, "players": 3, **settings},
        "Аня на поезде",
    )
    play_out(table)
    save: Message = json.loads(json.dumps(table.save()))  # as the device keeps it (JSON)
    return save


def my_games(api: Api) -> list[Message]:
    games: list[Message] = api.http.get("/api/me/games").json()["games"]
    return games


def test_a_finished_offline_game_goes_to_the_history_unrated(server: Server) -> None:
    """Uploaded: a finished, private, unrated game of the player and the bots, whose
    report is the device's, under the player's own name; nobody else's history has it."""
    anna, vera = Api(server.base, "Anna"), Api(server.base, "Vera")
    save = finished_save(bots="heuristic")
    answer = anna.post("/api/offline/games", game=save)
    assert answer.status_code == 201, answer.text
    stored = answer.json()
    (game,) = [g for g in my_games(anna) if g["id"] == stored["id"]]
    assert game["status"] == "over"
    row = server.store.get_table(stored["id"])
    assert row.public is False and row.rated is False
    assert row.names is not None and row.names[0] == "Anna"
    assert [seat.user_id for seat in row.seats] == [anna.user["id"], None, None]
    report = anna.http.get(f"/api/games/{stored['id']}/score").json()
    assert report["totals"] == list(LocalTable.load(save).game.totals)
    assert report["complete"] is True
    assert all(g["id"] != stored["id"] for g in my_games(vera))


def test_the_same_offline_game_uploaded_twice_is_stored_once(server: Server) -> None:
    """Sent again (a lost answer, a second device with a copy): the same table, the
    history has the game once; nothing else changes."""
    anna = Api(server.base, "Anna")
    save = finished_save(bots="heuristic")
    first = anna.post("/api/offline/games", game=save)
    assert first.status_code == 201, first.text
    games = my_games(anna)
    again = anna.post("/api/offline/games", game={**save, "updated": 1, "uploaded": None})
    assert again.status_code == 201, again.text
    assert again.json() == first.json()
    assert my_games(anna) == games
    assert [g["id"] for g in games].count(first.json()["id"]) == 1


@pytest.mark.parametrize(
    ("tamper", "code", "status"),
    [
        (
            lambda save: {**save, "actions": [[1, "AS"], *save["actions"][1:]]},
            "offline_game_invalid",
            422,
        ),
        (lambda save: {**save, "actions": save["actions"][:-1]}, "offline_game_not_over", 409),
        (lambda save: {**save, "seed": save["seed"] + "x"}, "offline_game_invalid", 422),
        (lambda save: {**save, "format": 2}, "offline_game_invalid", 422),
        (lambda save: {**save, "id": "local-" + "0" * 64}, "offline_game_invalid", 422),
    ],
)
def test_a_tampered_offline_game_is_refused_and_nothing_stored(
    server: Server, tamper: Callable[[Message], Message], code: str, status: int
) -> None:
    anna = Api(server.base, "Anna")
    before = my_games(anna)
    answer = anna.post("/api/offline/games", game=tamper(finished_save()))
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code
    assert my_games(anna) == before


def test_only_a_player_with_a_session_uploads(server: Server) -> None:
    answer = httpx.post(f"{server.base}/api/offline/games", json={"game": finished_save()})
    assert answer.status_code == 401
