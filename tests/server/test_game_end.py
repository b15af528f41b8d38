"""A game's end is stored exactly once and is never lost (issue 27, defect 1): the real
server (``raspisnoy serve`` in a subprocess, on PostgreSQL) is killed while the end of a
rated bot game waits on a lock of ``game_results``; restarted, it finds the game over
but its table still playing, and finishes it: result, rating, review and the owner's
game slot as if nothing had happened. Without a crash, an end whose storing fails is
tried again until it is stored; and however often an end is stored, it counts once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fresh_databases import BACKENDS, new_database
from injected_failures import first_statement_fails
from server_helpers import FAST, Api, Message, Server, serve
from server_process import free_port
from sqlalchemy import create_engine, text
from test_accounts import register
from test_ratings import engine_game, store_game

from raspisnoy.ratings.backfill import end_stored_game
from raspisnoy.server.config import ServerSettings
from raspisnoy.store import Players, Store

#: Seconds the bots may take to play a whole game, and the restarted server to end it.
GAME_SECONDS, END_SECONDS = 240.0, 60.0
#: Whether a transaction of another connection waits for a lock on ``game_results`` (of
#: this connection's schema: other tests use the same database at the same time).
WAITING_ON_RESULTS = text(
    "SELECT count(*) FROM pg_locks WHERE relation = 'game_results'::regclass AND NOT granted"
)


def wait_for(what: str, seconds: float, done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.2)


def rated_bot_game(client: Api) -> Message:
    """A rated table of ``client`` with three random bots and a random stand-in, started
    with nobody connected: the stand-in plays the host's seat, the game plays itself."""
    table = client.create_table(
        bots=["random"] * 4, stand_in="random", bot_delay_ms=0, turn_seconds=0, rated=True
    )
    started = client.post(f"/api/tables/{table['id']}/start")
    assert started.status_code == 200, started.text
    return table


def test_a_game_whose_end_was_cut_off_by_a_crash_is_finished_on_restart(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with new_database("postgresql", tmp_path) as url:
        locker = create_engine(url).connect()
        try:
            with serve(port, "--database-url", url) as process:
                client = Api(base)
                account = client.post("/api/account", username="Crashed", password="long secret 1")
                assert account.status_code == 200, account.text
                client.http.headers["authorization"] = f"Bearer {account.json()['token']}"
                user_id = account.json()["user"]["id"]
                locker.execute(text("LOCK TABLE game_results IN EXCLUSIVE MODE"))
                table = rated_bot_game(client)
                wait_for(
                    "the end of the game to wait on the lock",
                    GAME_SECONDS,
                    lambda: bool(locker.execute(WAITING_ON_RESULTS).scalar()),
                )
                process.kill()
            locker.rollback()
            with serve(port, "--database-url", url):
                wait_for(
                    "the restarted server to end the game",
                    END_SECONDS,
                    lambda: (
                        client.http.get(f"/api/tables/{table['id']}").json()["status"] == "over"
                    ),
                )
                profile = client.http.get(f"/api/players/{user_id}").json()
                assert [r["games"] for r in profile["ratings"]] == [1, 1]
                assert [g["id"] for g in profile["recent"]] == [table["id"]]
                review = client.post(f"/api/games/{table['id']}/reviews/0")
                assert review.status_code == 202, review.text
        finally:
            locker.close()
        store = Store.open(url, migrate=False)
        assert store.count_seated_tables(user_id, "playing") == 0
        store.close()


def test_an_end_that_failed_to_be_stored_is_stored_by_a_retry(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(FAST)
    with first_statement_fails(server.store.engine, "INSERT INTO GAME_RESULTS") as failed:
        client = register(server, "Retried")
        table = rated_bot_game(client)
        wait_for(
            "a retry to end the game",
            GAME_SECONDS,
            lambda: client.http.get(f"/api/tables/{table['id']}").json()["status"] == "over",
        )
    assert len(failed) == 1
    profile = client.http.get(f"/api/players/{client.user['id']}").json()
    assert [r["games"] for r in profile["ratings"]] == [1, 1]
    assert [g["id"] for g in profile["recent"]] == [table["id"]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_end_stored_again_or_at_once_twice_counts_once(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        person = store.create_user("Twice")
        again = store_game(store, person.id, engine_game(3), rated=True)
        assert end_stored_game(store, again) is True
        assert end_stored_game(store, again) is False
        at_once = store_game(store, person.id, engine_game(4), rated=True)
        stored: list[bool] = []
        ends = [
            threading.Thread(target=lambda: stored.append(end_stored_game(store, at_once)))
            for _ in range(2)
        ]
        for end in ends:
            end.start()
        for end in ends:
            end.join()
        assert sorted(stored) == [False, True]
        profile = Players(store).profile(person.id)
        assert profile.figures.games == 2 and [r.games for r in profile.ratings] == [2, 2]
        assert [r.display for r in profile.ratings] == [profile.ratings[0].display] * 2
        store.close()
