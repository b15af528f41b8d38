"""A puzzle needs seats, not people's names (docs/review.md, "Puzzles from finished
games"; docs/accounts.md, "Deleting the account"): a puzzle mined from a finished public
game of registered players keeps its seats' neutral names (``Player 1``…), in the
database and in every answer that serves it (the puzzle by id, the next one, the daily
one, with a verdict or without), before and after one of the players deletes their
account; the page words the seats in the reader's language."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
from server_helpers import Api, Server
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_accounts import PASSWORD, register
from test_puzzle_mining import ATTEMPTS, MINING, mined, two_people_game

from raspisnoy.core import player_names
from raspisnoy.puzzles import Puzzle
from raspisnoy.server.wire import action_text
from raspisnoy.store.puzzles import StoredPuzzle

#: The players' nicknames: nothing of a puzzle may hold either of them.
LEAVING, STAYING = "Nastya Leaves", "Pavel Stays"


@pytest.fixture(scope="module")
def miner(start_server: Callable[..., Server]) -> Server:
    return start_server(MINING)


def stored_puzzles(server: Server) -> list[StoredPuzzle]:
    with Session(server.store.engine) as session:
        return list(session.scalars(select(StoredPuzzle).order_by(StoredPuzzle.id)))


def served(api: Api, path: str) -> httpx.Response:
    answer = api.http.get(path)
    assert answer.status_code == 200, (path, answer.text)
    return answer


def assert_nameless(server: Server, readers: list[Api]) -> int:
    """No stored puzzle and no puzzle answer to any of ``readers`` holds a nickname; every
    puzzle served names its seats neutrally and is the puzzle of its position (its id a
    digest of the nameless view). How many puzzles were checked."""
    rows = stored_puzzles(server)
    for row in rows:
        text = json.dumps(row.data)
        assert LEAVING not in text and STAYING not in text, row.id
        assert row.data["view"]["names"] == list(player_names(3))
        assert Puzzle.from_json(row.data).id == row.id
    paths = [f"/api/puzzles/{row.id}" for row in rows] + ["/api/puzzles/daily"]
    for reader in readers:
        for path in [*paths, *next_one(reader)]:
            answer = served(reader, path)
            assert LEAVING not in answer.text and STAYING not in answer.text, path
            assert answer.json()["names"] == list(player_names(3)), path
    return len(rows)


def next_one(reader: Api) -> list[str]:
    """``/api/puzzles/next`` if there is a puzzle the reader has not answered: one who
    answered the only puzzle mined is told, with no puzzle, that none is left."""
    answer = reader.http.get("/api/puzzles/next")
    if answer.status_code == 404 and answer.json()["code"] == "no_puzzles_left":
        return []
    return ["/api/puzzles/next"]


def test_no_puzzle_names_its_players_before_or_after_one_deletes_the_account(
    miner: Server,
) -> None:
    leaving, staying = register(miner, LEAVING), register(miner, STAYING)
    found = 0
    for _ in range(ATTEMPTS):
        found, _puzzles = mined(miner, two_people_game(miner, leaving, staying))
        if found:
            break
    assert found > 0, "the games gave no puzzle: nothing was checked"
    first = stored_puzzles(miner)[0]
    move = Puzzle.from_json(first.data).view.legal_actions[0]
    answer = staying.post(f"/api/puzzles/{first.id}/answer", move=action_text(move))
    assert answer.status_code == 200, answer.text  # so one answer carries a verdict too
    guest = Api(miner.base, "Guest")
    assert assert_nameless(miner, [staying, leaving, guest]) == found

    deleted = leaving.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert assert_nameless(miner, [staying, guest, Api(miner.base)]) == found
