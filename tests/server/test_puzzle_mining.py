"""Puzzles mined from finished games (docs/review.md, "Puzzles from finished games"): the
review processes mine a finished game once, only the seats of people, never the seat of a
person who opted out (a setting they keep), never a private table's game, and every
puzzle is from its seat's view."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import FAST, Api, Player, Server, game_over, play_until
from sqlalchemy import select
from sqlalchemy.orm import Session

from raspisnoy.core import player_names
from raspisnoy.puzzles import Puzzle
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.puzzles import NEW_PAIR
from raspisnoy.store import PuzzleStore
from raspisnoy.store.puzzles import MinedGame, StoredPuzzle

#: Three rounds for three players, with hands large enough that a game played by the
#: last legal move (the highest bid, the last card) gives some puzzles to every seat.
RULES = {"preset": "raspisnoy.com", "custom_plan": ["5", "7", "6", "7"]}
#: Games played at most until Boris's seat gives a puzzle (most games give one or more).
ATTEMPTS = 4
#: Mining on, in a review process at the usual priority (the shared test machine is
#: rarely idle enough for nice 19).
MINING = FAST.model_copy(update={"puzzle_mining": True, "review_nice": 0, "review_idle": False})


@pytest.fixture(scope="module")
def miner(start_server: Callable[[ServerSettings], Server]) -> Server:
    return start_server(MINING)


def two_people_game(server: Server, anna: Api, boris: Api, public: bool = True) -> str:
    """A whole game of Anna (seat 0), Boris (seat 1) and a bot at a table ``public`` or
    not; its id."""
    table = anna.create_table(
        rules=RULES, players=3, bots="random", bot_delay_ms=0, turn_seconds=0, public=public
    )
    assert boris.post(f"/api/tables/{table['id']}/sit", seat=1).status_code == 200
    assert anna.post(f"/api/tables/{table['id']}/start").status_code == 200
    players = [anna.socket(table["id"]), boris.socket(table["id"])]
    threads = [threading.Thread(target=play_last, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(game_over(player) for player in players)
    return str(table["id"])


def play_last(player: Player) -> None:
    """Plays the last legal move at every turn (overbidding: positions with a clear best
    move follow) until the game is over."""
    play_until(player, game_over, choose=lambda game: str(game["legal"][-1]))


def mined(server: Server, table_id: str, seconds: float = 240) -> tuple[int, list[Puzzle]]:
    """Once ``table_id``'s game is mined (waiting for it): how many puzzles it gave, and
    every puzzle mined from games so far."""
    deadline = time.monotonic() + seconds
    with Session(server.store.engine) as session:
        while True:
            row = session.get(MinedGame, table_id)
            if row is not None and row.finished_at is not None:
                found = row.found
                break
            assert time.monotonic() < deadline, f"game {table_id} not mined in {seconds} s"
            session.expire_all()
            time.sleep(0.2)
        stored = session.scalars(select(StoredPuzzle).where(StoredPuzzle.source == "game"))
        return found, [Puzzle.from_json(puzzle.data) for puzzle in stored]


def settings_of(api: Api) -> dict[str, Any]:
    answer = api.http.get("/api/puzzles/settings")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_no_puzzle_comes_from_an_opted_out_seat(miner: Server) -> None:
    anna, boris = Api(miner.base, "Anna"), Api(miner.base, "Boris")
    assert settings_of(anna) == {"from_my_games": True}
    answer = anna.http.put("/api/puzzles/settings", json={"from_my_games": False})
    assert answer.status_code == 200 and answer.json() == {"from_my_games": False}
    assert settings_of(anna) == {"from_my_games": False}  # kept
    found = 0
    for _ in range(ATTEMPTS):
        found, puzzles = mined(miner, two_people_game(miner, anna, boris))
        if found:
            break
    assert found > 0, "Boris's decisions gave no puzzle: nothing was checked"
    assert {puzzle.view.seat for puzzle in puzzles} == {1}  # Boris's; never Anna's nor the bot's
    assert all(puzzle.view.names == player_names(3) for puzzle in puzzles)  # seats, no names
    assert PuzzleStore(miner.store, NEW_PAIR).count() == len(puzzles)


def test_a_game_of_people_who_all_opted_out_gives_none(miner: Server) -> None:
    vera, gleb = Api(miner.base, "Vera"), Api(miner.base, "Gleb")
    for person in (vera, gleb):
        person.http.put("/api/puzzles/settings", json={"from_my_games": False})
    before = PuzzleStore(miner.store, NEW_PAIR).count()
    game = two_people_game(miner, vera, gleb)
    assert mined(miner, game)[0] == 0
    assert PuzzleStore(miner.store, NEW_PAIR).count() == before


def test_a_private_tables_game_is_never_mined(miner: Server) -> None:
    """Its puzzles would show anyone a seat's hand. Games are claimed in the order they
    ended, so once the public game that ended after it is mined, it would have been
    claimed before: it was not."""
    dana, egor = Api(miner.base, "Dana"), Api(miner.base, "Egor")
    private = two_people_game(miner, dana, egor, public=False)
    mined(miner, two_people_game(miner, dana, egor))
    with Session(miner.store.engine) as session:
        assert session.get(MinedGame, private) is None


def test_settings_need_a_session_and_a_boolean(miner: Server) -> None:
    assert Api(miner.base).http.get("/api/puzzles/settings").status_code == 401
    anna = Api(miner.base, "Anna")
    answer = anna.http.put("/api/puzzles/settings", json={"from_my_games": "no"})
    assert answer.status_code == 422 and answer.json()["code"] == "bad_field"
    assert settings_of(anna) == {"from_my_games": True}
