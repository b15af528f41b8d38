"""Leaderboard pages against a brute-force ordering: walked forwards through ``next``
and backwards through ``previous`` (keyset pagination), or by page number, every
leaderboard (overall and a preset, all time and the last 30 days) lists each rated
player once, in the order of rating then id, at their position, and the viewer's own
line sits where the full ordering puts it; on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fresh_databases import BACKENDS, new_database
from server_helpers import Server
from sqlalchemy import create_engine, event
from sqlalchemy.orm import Session

from raspisnoy.store import (
    ALL_SCOPE,
    BoardLine,
    BoardPage,
    Players,
    Store,
    move_rating_counts,
    recount,
)
from raspisnoy.store.models import PlayerRating, User

NOW = datetime(2026, 12, 1, tzinfo=UTC)
SCOPES = (ALL_SCOPE, "classic")


def fill(store: Store, people: int, seed: int) -> list[PlayerRating]:
    """``people`` rated players with few distinct ratings (so that ties are many), in
    both scopes, half of them not seen in the last 30 days, and the counts per rating
    that games would have kept."""
    rng = random.Random(seed)
    rows = []
    with Session(store.engine, expire_on_commit=False) as session, session.begin():
        for n in range(people):
            user_id = f"p{rng.randrange(10**6):06d}x{n:03d}"
            session.add(User(id=user_id, nickname=f"Player {n}", kind="registered", created_at=NOW))
            session.flush()
            for scope in SCOPES:
                row = PlayerRating(
                    scope=scope,
                    user_id=user_id,
                    mu=25.0,
                    sigma=8.0,
                    display=rng.choice((900, 1000, 1000, 1100, 1250)),
                    games=rng.randrange(1, 30),
                    last_played_at=NOW - timedelta(days=rng.choice((1, 10, 45, 200))),
                )
                session.add(row)
                rows.append(row)
        session.flush()
        recount(session)  # the kept counts per rating, as if games had made these ratings
    return rows


def expected(rows: list[PlayerRating], scope: str, since: datetime | None) -> list[str]:
    """The whole leaderboard by brute force: rating highest first, ties by id."""
    kept = [r for r in rows if r.scope == scope and (since is None or r.last_played_at >= since)]
    return [r.user_id for r in sorted(kept, key=lambda r: (-r.display, r.user_id))]


def positions(lines: list[BoardLine]) -> list[int]:
    return [line.position for line in lines]


def check_board(
    players: Players, rows: list[PlayerRating], scope: str, since: datetime | None
) -> None:
    """Every way of paging one leaderboard gives the brute-force order."""
    order = expected(rows, scope, since)

    def board(viewer: str | None = None, **how: Any) -> BoardPage:
        return players.leaderboard(scope, since=since, limit=10, viewer=viewer, **how)

    forwards: list[BoardLine] = []
    page = board()
    pages = [page]
    while True:
        assert page.total == len(order)
        forwards += page.lines
        if page.next is None:
            break
        page = board(after=page.next)
        pages.append(page)
    assert [line.user_id for line in forwards] == order
    assert positions(forwards) == list(range(1, len(order) + 1))
    assert pages[0].previous is None and len(pages) == -(-len(order) // 10)
    backwards: list[BoardLine] = []
    while page.previous is not None:
        page = board(before=page.previous)
        backwards = list(page.lines) + backwards
    assert backwards + list(pages[-1].lines) == forwards
    for number, walked in enumerate(pages):
        jumped = board(offset=10 * number)
        assert jumped.lines == walked.lines
        assert (jumped.previous, jumped.next) == (walked.previous, walked.next)
    assert board(offset=10 * len(pages)).lines == ()  # past the last line
    for place, user_id in enumerate(order, start=1):
        mine = board(viewer=user_id).mine
        assert mine is not None and (mine.user_id, mine.position) == (user_id, place)
    for user_id in {r.user_id for r in rows} - set(order):
        assert board(viewer=user_id).mine is None


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_way_of_paging_matches_the_brute_force_order(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        rows = fill(store, people=47, seed=7)
        players = Players(store)
        for scope in SCOPES:
            for since in (None, NOW - timedelta(days=30)):
                check_board(players, rows, scope, since)
        store.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_page_and_its_counts_are_of_one_state_while_ratings_move(
    backend: str, tmp_path: Path
) -> None:
    """A game that ends between a leaderboard's first read and its last changes none of
    it: the page, the total and the viewer's position are those of the state before."""
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        rows = fill(store, people=12, seed=3)
        order = expected(rows, ALL_SCOPE, None)
        other = create_engine(url)
        with Session(other) as session, session.begin():
            session.add(User(id="newcomer", nickname="New", kind="registered", created_at=NOW))
        written: list[bool] = []

        def a_game_ends(_connection: object, _cursor: object, statement: str, *_: object) -> None:
            if written or not statement.lstrip().startswith("SELECT"):
                return  # once, right after the first read (where the snapshot is taken)
            written.append(True)
            with Session(other) as session, session.begin():
                session.add(
                    PlayerRating(
                        scope=ALL_SCOPE,
                        user_id="newcomer",
                        mu=50.0,
                        sigma=1.0,
                        display=5000,
                        games=1,
                        last_played_at=NOW,
                    )
                )
                move_rating_counts(session, {(ALL_SCOPE, 5000): 1})

        event.listen(store.engine, "after_cursor_execute", a_game_ends)
        page = Players(store).leaderboard(ALL_SCOPE, since=None, limit=5, viewer=order[3])
        event.remove(store.engine, "after_cursor_execute", a_game_ends)
        assert written
        assert page.total == len(order)
        assert [line.user_id for line in page.lines] == order[:5]
        assert page.mine is not None and page.mine.position == 4
        later = Players(store).leaderboard(ALL_SCOPE, since=None, limit=5, viewer=order[3])
        assert later.total == len(order) + 1 and later.lines[0].user_id == "newcomer"
        assert later.mine is not None and later.mine.position == 5
        other.dispose()
        store.close()


def test_the_api_pages_by_cursor_and_refuses_a_bad_one(server: Server) -> None:
    board = httpx.get(f"{server.base}/api/leaderboard", params={"size": 5}).json()
    assert board["previous"] is None and board["page"] == 1
    if board["next"] is not None:  # another test of this server rated someone
        after = httpx.get(f"{server.base}/api/leaderboard", params={"after": board["next"]})
        assert after.status_code == 200
    for cursor in ("", "abc", "12", "x:id"):
        answer = httpx.get(f"{server.base}/api/leaderboard", params={"after": cursor})
        assert answer.status_code == 422
        assert "a line's cursor (RATING:ID)" in answer.json()["detail"]
    both = httpx.get(
        f"{server.base}/api/leaderboard", params={"after": "1000:a", "before": "1000:b"}
    )
    assert both.status_code == 422 and "not both" in both.json()["detail"]
