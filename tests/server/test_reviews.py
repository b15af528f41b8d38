"""Reviews on the server and hints at tables (docs/review.md, "On the server"): a finished
game's review runs in the worker processes with its progress in the database and is kept;
a game in progress is never reviewed; the queue's bounds; a review running when its server
died is run again after a restart; claims are taken once; and a hint is the expert's
answer to the caller's own view only, refused at rated tables and to spectators."""

from __future__ import annotations

import multiprocessing
import os
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from leak_check import cards_in, hidden_from, states_of
from racing import at_the_same_moment
from server_helpers import FAST, Api, Player, Server, game_over, play_until

from raspisnoy.core import loads_record, replay
from raspisnoy.review import REVIEW_FORMAT
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.reviews import _start_process, hint_answer
from raspisnoy.store import Reviews, Store

#: A short game: two rounds, the second blind, so a review has bids and cards to judge.
RULES = {"preset": "raspisnoy.com", "custom_plan": ["3", "2:blind"]}
#: Reviews and hints with the least budget the search accepts; the review process at
#: the usual priority, since the shared test machine is rarely idle enough for nice 19
#: (or for the idle scheduling class).
TINY = FAST.model_copy(
    update={
        "review_iterations": 64,
        "hint_iterations": 64,
        "review_stale_seconds": 30.0,
        "review_nice": 0,
        "review_idle": False,
    }
)
#: A server that only queues reviews (no worker process), for the queue's own rules.
QUEUE_ONLY = TINY.model_copy(update={"review_workers": 0, "reviews_per_user": 2})


@pytest.fixture(scope="module")
def reviewer(start_server: Callable[[ServerSettings], Server]) -> Server:
    return start_server(TINY)


def finished_game(server: Server, client: Api) -> str:
    """A whole short game of the client (seat 0) against two instant bots; its id."""
    table = client.create_table(
        rules=RULES, players=3, bots="random", bot_delay_ms=0, turn_seconds=0
    )
    client.post(f"/api/tables/{table['id']}/start")
    player = client.socket(table["id"])
    play_until(player, game_over)
    player.close()
    return str(table["id"])


def wait_for(
    get: Callable[[], dict[str, Any]], done: Callable[[dict[str, Any]], bool], seconds: float
) -> list[dict[str, Any]]:
    """Every answer of ``get`` until ``done`` says yes (the last one included)."""
    seen = []
    deadline = time.monotonic() + seconds
    while True:
        seen.append(get())
        if done(seen[-1]):
            return seen
        assert time.monotonic() < deadline, f"not done in {seconds} s: {seen[-1]}"
        time.sleep(0.1)


def review_of(server: Server, game: str, seat: int) -> dict[str, Any]:
    answer = httpx.get(f"{server.base}/api/games/{game}/reviews/{seat}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_finished_game_is_reviewed_in_the_background_and_kept(reviewer: Server) -> None:
    anna = Api(reviewer.base, "Anna")
    game = finished_game(reviewer, anna)
    asked = anna.post(f"/api/games/{game}/reviews/0")
    assert asked.status_code == 202, asked.text
    assert asked.json()["status"] in ("queued", "running", "done")
    seen = wait_for(lambda: review_of(reviewer, game, 0), lambda r: r["status"] == "done", 180)
    done = seen[-1]
    assert done["done"] == done["total"] > 0 and done["error"] is None
    # progress never goes back, and is always out of the whole count once known
    counts = [(r["done"], r["total"]) for r in seen if r["status"] == "running" and r["total"]]
    assert counts == sorted(counts) and all(d <= t for d, t in counts)
    review = done["review"]
    assert review["format"] == REVIEW_FORMAT and review["seats"] == [0]
    assert review["budget"]["iterations"] == 64
    assert {m["seat"] for m in review["moments"]} == {0}
    assert {m["kind"] for m in review["moments"]} >= {"blind"}
    # asked again (by anyone), it is answered at once from the database, unchanged
    boris = Api(reviewer.base, "Boris")
    again = boris.post(f"/api/games/{game}/reviews/0")
    assert again.status_code == 202 and again.json() == done
    # any seat of a finished game may be asked for: its record is public already
    other = boris.post(f"/api/games/{game}/reviews/2")
    assert other.status_code == 202
    wait_for(lambda: review_of(reviewer, game, 2), lambda r: r["status"] == "done", 180)


def test_a_game_in_progress_is_never_reviewed(reviewer: Server) -> None:
    anna = Api(reviewer.base, "Anna")
    table = anna.create_table(rules=RULES, players=3, bots="random", turn_seconds=0)
    path = f"/api/games/{table['id']}/reviews/0"
    assert anna.post(path).status_code == 409  # not started
    anna.post(f"/api/tables/{table['id']}/start")
    for answer in (anna.post(path), anna.http.get(path), httpx.get(reviewer.base + path)):
        assert answer.status_code == 409, answer.text
        assert "hidden cards" in answer.json()["detail"]
    assert anna.post("/api/games/nosuchgame/reviews/0").status_code == 404
    game = finished_game(reviewer, anna)
    assert anna.post(f"/api/games/{game}/reviews/3").status_code == 422
    assert anna.http.get(f"/api/games/{game}/reviews/1").status_code == 404  # not asked
    assert httpx.post(f"{reviewer.base}/api/games/{game}/reviews/1").status_code == 401


def test_the_queue_is_bounded_per_user_and_reports_positions(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(QUEUE_ONLY)
    anna, boris = Api(server.base, "Anna"), Api(server.base, "Boris")
    game = finished_game(server, anna)
    first = anna.post(f"/api/games/{game}/reviews/0").json()
    assert (first["status"], first["position"]) == ("queued", 0)
    assert anna.post(f"/api/games/{game}/reviews/1").json()["position"] == 1
    refused = anna.post(f"/api/games/{game}/reviews/2")
    assert refused.status_code == 429 and "at most 2" in refused.json()["detail"]
    assert refused.json()["code"] == "reviews_pending"
    assert refused.json()["params"] == {"count": 2, "limit": 2, "seconds": 30}
    assert int(refused.headers["retry-after"]) > 0
    # the same review asked again costs nothing and is no new job
    assert anna.post(f"/api/games/{game}/reviews/0").status_code == 202
    assert boris.post(f"/api/games/{game}/reviews/2").json()["position"] == 2


def test_one_address_is_bounded_and_the_refusals_carry_their_counts(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """Issue 27, defect 6: guests made from one address (every test client is 127.0.0.1)
    cannot take more than their address's share of the queue; the refusal says how many
    wait and the bound, and the queue and the guest's own jobs are left as they were."""
    server = start_server(QUEUE_ONLY.model_copy(update={"reviews_per_address": 3}))
    guests = [Api(server.base, f"Guest {n}") for n in range(4)]
    game = finished_game(server, guests[0])
    for seat, guest in enumerate(guests[:3]):
        assert guest.post(f"/api/games/{game}/reviews/{seat}").status_code == 202
    other = finished_game(server, guests[3])
    refused = guests[3].post(f"/api/games/{other}/reviews/0")
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "reviews_from_address"
    assert refused.json()["params"] == {"count": 3, "limit": 3, "seconds": 60}
    assert guests[3].http.get(f"/api/games/{other}/reviews/0").status_code == 404
    assert Reviews(server.store).active_count() == 3
    mine = guests[0].post(f"/api/games/{other}/reviews/1")  # the address's bound first
    assert mine.json()["code"] == "reviews_from_address"


def test_requests_at_the_same_moment_stay_within_the_users_bound(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """Six reviews asked for at once by one person allowed one: one is queued, the others
    refused, as if they had come one after another (the count and the new job are one
    transaction that holds the person's row)."""
    server = start_server(QUEUE_ONLY.model_copy(update={"reviews_per_user": 1}))
    anna = Api(server.base, "Anna")
    games = [finished_game(server, anna) for _ in range(2)]
    paths: queue.SimpleQueue[str] = queue.SimpleQueue()
    for game in games:
        for seat in range(3):
            paths.put(f"/api/games/{game}/reviews/{seat}")
    answers = at_the_same_moment(6, lambda: anna.post(paths.get()).status_code)
    assert sorted(answers) == [202] + [429] * 5
    assert Reviews(server.store).active_count() == 1


def test_a_review_running_when_its_server_died_runs_again_after_a_restart(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    first = start_server(QUEUE_ONLY)
    anna = Api(first.base, "Anna")
    game = finished_game(first, anna)
    anna.post(f"/api/games/{game}/reviews/1")
    reviews = Reviews(first.store)
    claim = reviews.claim_next("a worker that died:1")  # and never reports again
    assert claim is not None and reviews.progress(claim, 1, 9)
    first.stop()
    restarted = Server(first.store, TINY)
    try:
        done = wait_for(
            lambda: review_of(restarted, game, 1), lambda r: r["status"] == "done", 180
        )[-1]
        assert done["review"]["seats"] == [1]
        # the dead worker's claim is void: its late writes change nothing
        assert not reviews.progress(claim, 2, 9)
        assert not reviews.finish(claim, {"format": "stale"})
        assert review_of(restarted, game, 1)["review"] == done["review"]
    finally:
        restarted.stop()


def test_a_job_is_claimed_once_and_a_stale_one_goes_back_to_the_queue(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    server = start_server(QUEUE_ONLY)  # no review process of its own claims anything
    anna = Api(server.base, "Anna")
    game = finished_game(server, anna)
    assert anna.post(f"/api/games/{game}/reviews/1").status_code == 202
    reviews = Reviews(server.store)
    # Three workers of a cluster race for the one queued job: one claim.
    claims = [reviews.claim_next(f"worker {n}") for n in range(3)]
    (claim,) = [c for c in claims if c is not None]
    assert (claim.table_id, claim.seat, claim.iterations) == (game, 1, 64)
    assert review_of(server, game, 1)["status"] == "running"
    assert reviews.requeue_stale(3600) == 0  # a fresh heartbeat is not stale
    time.sleep(0.05)
    assert reviews.requeue_stale(0.01) == 1  # its worker went quiet: queued again
    assert review_of(server, game, 1)["status"] == "queued"
    assert not reviews.progress(claim, 1, 5)  # and the old claim lost it
    again = reviews.claim_next("worker 3")
    assert again is not None and again.attempt == claim.attempt + 1


# ----------------------------------------------------------------- hints


@pytest.fixture
def at_my_turn(reviewer: Server) -> Iterator[tuple[Api, Player, str]]:
    """Anna at an unrated table of instant bots, on her turn."""
    anna = Api(reviewer.base, "Anna")
    table = anna.create_table(rules=RULES, players=3, bots="random", bot_delay_ms=0, turn_seconds=0)
    player = anna.socket(table["id"])
    anna.post(f"/api/tables/{table['id']}/start")
    player.recv_until(lambda _: player.my_turn())
    yield anna, player, str(table["id"])
    player.close()


def test_a_hint_suggests_a_legal_move_and_marks_the_history(
    reviewer: Server, at_my_turn: tuple[Api, Player, str]
) -> None:
    anna, player, table = at_my_turn
    answer = anna.post(f"/api/tables/{table}/hint")
    assert answer.status_code == 200, answer.text
    given = answer.json()
    assert player.game is not None
    assert given["seat"] == player.seat and given["suggested"] in player.game["legal"]
    visits = [choice["visits"] for choice in given["choices"]]
    assert visits == sorted(visits, reverse=True) and 1 <= len(visits) <= 5
    assert given["suggested"] == given["choices"][0]["action"]
    (entry,) = [g for g in anna.http.get("/api/me/games").json()["games"] if g["id"] == table]
    assert entry["hints"] == [player.seat]
    # the record keeps its public format exactly: no marker inside it
    record = anna.http.get(f"/api/games/{table}/record").json()
    assert set(record) == {"format", "rules", "players", "rounds"}


def test_hints_are_refused_out_of_turn_to_spectators_and_at_rated_tables(
    reviewer: Server, at_my_turn: tuple[Api, Player, str]
) -> None:
    anna, _player, table = at_my_turn
    spectator = Api(reviewer.base, "Vera")
    refused = spectator.post(f"/api/tables/{table}/hint")
    assert refused.status_code == 409 and "no seat" in refused.json()["detail"]
    assert httpx.post(f"{reviewer.base}/api/tables/{table}/hint").status_code == 401
    rated = anna.create_table(players=3, bots="random", turn_seconds=0, rated=True)
    anna.post(f"/api/tables/{rated['id']}/start")
    answer = anna.post(f"/api/tables/{rated['id']}/hint")
    assert answer.status_code == 403 and "rated" in answer.json()["detail"]
    seated = [g for g in anna.http.get("/api/me/games").json()["games"] if g["id"] == rated["id"]]
    assert seated[0]["hints"] == []
    waiting = anna.create_table(players=3, bots="random", turn_seconds=0)
    assert anna.post(f"/api/tables/{waiting['id']}/hint").status_code == 409


def test_a_hint_and_its_reason_name_no_card_hidden_from_the_asker(reviewer: Server) -> None:
    """Leak test: at every turn of a game in progress (a blind round included) the
    caller's hint, its choices and its reason name no card the caller cannot know, by
    the full state rebuilt from the store; the hint's move is then played."""
    anna = Api(reviewer.base, "Anna")
    table = anna.create_table(rules=RULES, players=3, bots="random", bot_delay_ms=0, turn_seconds=0)
    player = anna.socket(table["id"])
    anna.post(f"/api/tables/{table['id']}/start")
    hints = 0

    def hinted(game: dict[str, Any]) -> str:
        nonlocal hints
        answer = anna.post(f"/api/tables/{table['id']}/hint")
        assert answer.status_code == 200, answer.text
        row = reviewer.store.get_table(table["id"])
        state = states_of(row, reviewer.store.events_of(table["id"]))[-1]
        named = cards_in(answer.json())
        assert not named & hidden_from(state, player.seat), answer.json()
        hints += 1
        return str(answer.json()["suggested"])

    play_until(player, game_over, hinted)
    player.close()
    assert hints >= 4


def _deal(others: tuple[list[str], list[str]]) -> str:
    """A one-round record where seat 0 holds the same cards and sees the same trump card
    whatever ``others`` (the hands of seats 1 and 2) are."""
    hands = [["AS", "KS", "QS"], *others]
    return (
        '{"format": "raspisnoy-record/1", "rules": {"preset": "raspisnoy.com", '
        '"custom_plan": ["3"]}, "players": ["Anna", "Boris", "Vera"], "rounds": '
        f'[{{"dealer": 2, "hands": {hands}, "trump_card": "9H"}}]}}'
    ).replace("'", '"')


def test_a_hint_is_a_function_of_the_callers_view_only() -> None:
    """Two deals the same to seat 0 but with other hidden cards: the same hint."""
    one = replay(loads_record(_deal((["6D", "7D", "8D"], ["6H", "7H", "8H"]))))
    other = replay(loads_record(_deal((["9C", "TC", "JC"], ["6D", "7H", "8C"]))))
    assert one.to_act == other.to_act == 0
    assert one.view(0) == other.view(0)
    assert one.view(1) != other.view(1)
    assert hint_answer(one.view(0), 200) == hint_answer(other.view(0), 200)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="no idle scheduling class here")
def test_review_processes_start_niced_in_the_idle_scheduling_class(tmp_path: Path) -> None:
    """By default a review process takes CPU time only when nothing else wants it."""
    url = f"sqlite:///{tmp_path / 'reviews.sqlite3'}"
    Store.open(url).close()  # migrated, as the server's database is
    settings = ServerSettings()
    context = multiprocessing.get_context("spawn")
    arguments = (url, settings.review_nice, settings.review_idle)
    with context.Pool(1, _start_process, arguments) as pool:
        assert pool.apply(os.nice, (0,)) == 19
        assert pool.apply(os.sched_getscheduler, (0,)) == os.SCHED_IDLE
