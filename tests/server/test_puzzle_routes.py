"""Puzzles on the server (docs/review.md, "Puzzles on the server"): the next puzzle is the
nearest rated one the caller never answered, of the themes asked for; an answer is judged
once (solved or not, the best move, the reason) and rates an account as OpenSkill says,
never a guest; the daily puzzle is the same for everyone; bad input is refused with its
code and changes nothing; a server loads its puzzle set into an empty database."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from puzzle_positions import puzzles_with_states, store_test_puzzles
from server_helpers import FAST, Api, Server
from test_accounts import register

from raspisnoy.core import InvalidInputError
from raspisnoy.puzzles import Puzzle, is_solution
from raspisnoy.puzzles.rating import NEW_RATING, PuzzleRating, rate_attempt, shown
from raspisnoy.puzzles.sets import PUZZLE_SET_FORMAT, read_puzzle_set
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.puzzles import NEW_PAIR, load_set
from raspisnoy.server.wire import action_text
from raspisnoy.store import PuzzleStore

Message = dict[str, Any]


@pytest.fixture(scope="module")
def puzzle_server(start_server: Callable[[ServerSettings], Server]) -> Server:
    """A server whose store holds the test puzzles."""
    server = start_server(FAST)
    store_test_puzzles(server.store)
    return server


def puzzle_by_id(puzzle_id: str) -> Puzzle:
    return next(puzzle for puzzle, _ in puzzles_with_states() if puzzle.id == puzzle_id)


def wrong_move(puzzle: Puzzle) -> str:
    """A legal move of ``puzzle`` that does not solve it."""
    return next(
        action_text(action)
        for action in puzzle.view.legal_actions
        if not is_solution(puzzle, action)
    )


def refusal(answer: httpx.Response, status: int, code: str) -> Message:
    assert answer.status_code == status, answer.text
    body: Message = answer.json()
    assert body["code"] == code, body
    return body


def next_puzzle(api: Api, **params: Any) -> Message:
    answer = api.http.get("/api/puzzles/next", params=params)
    assert answer.status_code == 200, answer.text
    body: Message = answer.json()
    return body


def test_a_guest_solves_one_and_misses_one_unrated(puzzle_server: Server) -> None:
    guest = Api(puzzle_server.base, "Solver")
    first = next_puzzle(guest)
    assert first["verdict"] is None and first["game"]["legal"]
    puzzle = puzzle_by_id(first["id"])
    assert first["game"]["seat"] == puzzle.view.seat and first["theme"] == str(puzzle.theme)
    best = action_text(puzzle.best)
    solved = guest.post(f"/api/puzzles/{first['id']}/answer", move=best).json()
    assert solved["solved"] is True and solved["best"] == best
    assert solved["reason"] == puzzle.reason.to_json() and solved["rating"] is None
    second = next_puzzle(guest)
    assert second["id"] != first["id"]
    missed = guest.post(
        f"/api/puzzles/{second['id']}/answer", move=wrong_move(puzzle_by_id(second["id"]))
    ).json()
    assert missed["solved"] is False and missed["rating"] is None
    rating = guest.http.get("/api/puzzles/rating").json()
    assert rating["rated"] is False and rating["attempts"] == 0
    shown_again = guest.http.get(f"/api/puzzles/{first['id']}").json()
    assert shown_again["verdict"] == solved


def test_an_account_is_rated_as_the_library_says(puzzle_server: Server) -> None:
    account = register(puzzle_server, "puzzler")
    offered = next_puzzle(account)
    puzzle = puzzle_by_id(offered["id"])
    stored = PuzzleStore(puzzle_server.store, NEW_PAIR).get(offered["id"])
    assert stored is not None
    verdict = account.post(
        f"/api/puzzles/{offered['id']}/answer", move=action_text(puzzle.best)
    ).json()
    expected, _ = rate_attempt(
        NEW_RATING, PuzzleRating(stored.rating.mu, stored.rating.sigma), solved=True
    )
    assert verdict["rating"] == {
        "before": shown(NEW_RATING),
        "after": shown(expected),
        "change": shown(expected) - shown(NEW_RATING),
    }
    assert verdict["rating"]["change"] > 0
    rating = account.http.get("/api/puzzles/rating").json()
    assert rating["rated"] is True and (rating["attempts"], rating["solved"]) == (1, 1)
    assert rating["rating"] == shown(expected)
    assert rating["mu"] == pytest.approx(expected.mu, abs=1e-3)


def test_a_miss_lowers_an_account_s_rating(puzzle_server: Server) -> None:
    account = register(puzzle_server, "misser")
    offered = next_puzzle(account)
    verdict = account.post(
        f"/api/puzzles/{offered['id']}/answer", move=wrong_move(puzzle_by_id(offered["id"]))
    ).json()
    assert verdict["solved"] is False and verdict["rating"]["change"] < 0


def test_themes_filter_the_next_puzzle(puzzle_server: Server) -> None:
    guest = Api(puzzle_server.base, "Themer")
    themes = {str(puzzle.theme) for puzzle, _ in puzzles_with_states()}
    for theme in sorted(themes):
        assert next_puzzle(guest, theme=theme)["theme"] == theme
    both = next_puzzle(guest, theme=["misere", "golden"])
    assert both["theme"] in ("misere", "golden")
    refusal(guest.http.get("/api/puzzles/next", params={"theme": "chess"}), 422, "bad_field")


def test_none_left_once_every_puzzle_of_a_theme_is_answered(puzzle_server: Server) -> None:
    guest = Api(puzzle_server.base, "Finisher")
    golden = [p for p, _ in puzzles_with_states() if str(p.theme) == "golden"]
    for _ in golden:
        offered = next_puzzle(guest, theme="golden")
        answer = guest.post(
            f"/api/puzzles/{offered['id']}/answer", move=offered["game"]["legal"][0]
        )
        assert answer.status_code == 200, answer.text
    refusal(guest.http.get("/api/puzzles/next", params={"theme": "golden"}), 404, "no_puzzles_left")


def test_the_daily_puzzle_is_the_same_for_everyone(puzzle_server: Server) -> None:
    anna, boris = Api(puzzle_server.base, "Anna"), Api(puzzle_server.base)
    daily = anna.http.get("/api/puzzles/daily").json()
    assert daily["day"] is not None and daily["verdict"] is None
    other = boris.http.get("/api/puzzles/daily").json()
    assert other["id"] == daily["id"] and other["day"] == daily["day"]


def test_bad_answers_are_refused_and_change_nothing(puzzle_server: Server) -> None:
    guest = Api(puzzle_server.base, "Clumsy")
    offered = next_puzzle(guest)
    path = f"/api/puzzles/{offered['id']}/answer"
    refusal(guest.post("/api/puzzles/nope/answer", move="0"), 404, "not_found")
    refusal(guest.http.get("/api/puzzles/nope"), 404, "not_found")
    illegal = next(card for card in ("AS", "7C", "9") if card not in offered["game"]["legal"])
    assert refusal(guest.post(path, move=illegal), 422, "puzzle_move")["params"] == {
        "move": illegal
    }
    refusal(guest.post(path, move="not a move"), 422, "puzzle_move")
    refusal(guest.post(path, move=7), 422, "bad_field")
    refusal(guest.post(path), 422, "bad_field")
    refusal(Api(puzzle_server.base).post(path, move=offered["game"]["legal"][0]), 401, "no_session")
    assert guest.http.get(f"/api/puzzles/{offered['id']}").json()["verdict"] is None
    first = guest.post(path, move=offered["game"]["legal"][0])
    assert first.status_code == 200, first.text
    refusal(guest.post(path, move=offered["game"]["legal"][-1]), 409, "puzzle_answered")
    assert guest.http.get(f"/api/puzzles/{offered['id']}").json()["verdict"] == first.json()


def puzzle_set_file(folder: Path, puzzles: list[dict[str, Any]]) -> Path:
    path = folder / "puzzles.json"
    data = {"format": PUZZLE_SET_FORMAT, "seed": "test", "puzzles": puzzles}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_server_loads_its_puzzle_set_into_an_empty_database(
    start_server: Callable[[ServerSettings], Server], tmp_path: Path
) -> None:
    data = [puzzle.to_json() for puzzle, _ in puzzles_with_states()]
    server = start_server(FAST.model_copy(update={"puzzle_file": puzzle_set_file(tmp_path, data)}))
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.base}/api/puzzles/daily").status_code != 200:
        assert time.monotonic() < deadline, "the puzzle set was not loaded in 60 s"
        time.sleep(0.1)
    store = PuzzleStore(server.store, NEW_PAIR)
    deadline = time.monotonic() + 60
    while store.count() < len(data):  # the daily puzzle may come before the whole set
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert store.count() == len(data)


def test_a_server_loads_its_puzzle_set_once_the_file_appears(
    start_server: Callable[[ServerSettings], Server], tmp_path: Path
) -> None:
    """``scripts/serve`` builds the set beside the server at its first start: a server
    started before the file is there answers at once, with no puzzles, and loads the set
    when the file appears."""
    path = tmp_path / "built-later.json"
    server = start_server(FAST.model_copy(update={"puzzle_file": path}))
    refusal(httpx.get(f"{server.base}/api/puzzles/daily"), 404, "no_puzzles_yet")
    refusal(Api(server.base, "Early").http.get("/api/puzzles/next"), 404, "no_puzzles_yet")
    data = [puzzle.to_json() for puzzle, _ in puzzles_with_states()]
    built = puzzle_set_file(tmp_path, data)
    built.replace(path)  # as scripts/serve does: whole, or not at all
    store = PuzzleStore(server.store, NEW_PAIR)
    deadline = time.monotonic() + 60
    while store.count() < len(data):
        assert time.monotonic() < deadline, "the set was not loaded 60 s after it appeared"
        time.sleep(0.2)
    assert httpx.get(f"{server.base}/api/puzzles/daily").status_code == 200


def test_puzzles_mined_from_games_do_not_keep_the_set_out(
    start_server: Callable[[ServerSettings], Server], tmp_path: Path
) -> None:
    """Puzzles mined from the server's games may come before the set file (built beside
    the server): they do not count as a set already loaded; the set's own puzzles do."""
    store = PuzzleStore(start_server(FAST).store, NEW_PAIR)
    mined, *in_set = [puzzle.to_json() for puzzle, _ in puzzles_with_states(3)]
    assert store.add([mined], "game") == 1
    path = puzzle_set_file(tmp_path, in_set)
    assert load_set(store, path) == len(in_set)
    assert store.count("self-play") == len(in_set) and store.count() == len(in_set) + 1
    assert load_set(store, path) is None


def test_a_set_is_loaded_only_into_a_database_without_puzzles(
    puzzle_server: Server, tmp_path: Path
) -> None:
    store = PuzzleStore(puzzle_server.store, NEW_PAIR)
    before = store.count()
    more = [puzzle.to_json() for puzzle, _ in puzzles_with_states(2)]
    assert load_set(store, puzzle_set_file(tmp_path, more)) is None
    assert load_set(store, tmp_path / "missing.json") is None
    assert store.count() == before


def test_a_file_that_is_not_a_puzzle_set_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "raspisnoy-review/1", "puzzles": []}), "utf-8")
    with pytest.raises(InvalidInputError, match="not a set of puzzles"):
        read_puzzle_set(path)
