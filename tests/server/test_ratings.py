"""Ratings, profiles and leaderboards: a rated game's end moves the person's rating as
OpenSkill's own ``rate`` does (bots at their fixed level ratings), the profile's
statistics match the game rebuilt with the engine, and neither a profile nor a
leaderboard shows anything of a game still being played."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from fresh_databases import BACKENDS, new_database
from openskill.models import PlackettLuce
from server_helpers import Api, Server, game_over, play_until
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_accounts import register

from raspisnoy.core import Deal, Game, RoundKind, resolve_rules
from raspisnoy.ratings import (
    BOT_RATINGS,
    DEFAULT_RATING,
    PROVISIONAL_GAMES,
    RATED_STAND_IN,
    Rating,
    displayed,
    rate_game,
)
from raspisnoy.ratings.backfill import end_stored_game
from raspisnoy.store import EventRow, Players, Store, StoreError, recount
from raspisnoy.store.models import PlayerFigures, RatingCount

BOTS = ["random", "beginner", "random"]


def play_rated_game(server: Server, client: Api, choose_seed: int) -> str:
    """A whole rated game of the client against bots, played through the WebSocket."""
    table = client.create_table(bots=["random", *BOTS], bot_delay_ms=0, turn_seconds=0, rated=True)
    assert table["rated"] is True
    client.post(f"/api/tables/{table['id']}/start")
    chooser = random.Random(choose_seed)
    player = client.socket(table["id"])
    play_until(player, game_over, choose=lambda game: chooser.choice(game["legal"]), timeout=180)
    player.close()
    return str(table["id"])


def openskill_after_one_game(totals: list[float]) -> Rating:
    """Seat 0's rating after its first game against ``BOTS``, by OpenSkill itself."""
    model = PlackettLuce()
    teams = [[model.rating(mu=DEFAULT_RATING.mu, sigma=DEFAULT_RATING.sigma)]] + [
        [model.rating(mu=BOT_RATINGS[bot].mu, sigma=BOT_RATINGS[bot].sigma)] for bot in BOTS
    ]
    after = model.rate(teams, scores=totals)[0][0]
    return Rating(after.mu, after.sigma)


def test_a_rated_game_moves_the_rating_as_openskill_does(server: Server) -> None:
    client = register(server, "Rated One")
    table_id = play_rated_game(server, client, 1)
    totals = httpx.get(f"{server.base}/api/games/{table_id}/score").json()["totals"]
    expected = openskill_after_one_game(totals)
    profile = httpx.get(f"{server.base}/api/players/{client.user['id']}").json()
    overall = profile["ratings"][0]
    assert overall["scope"] == "all" and overall["games"] == 1 and overall["provisional"]
    assert abs(overall["mu"] - expected.mu) < 1e-3 and abs(overall["sigma"] - expected.sigma) < 1e-3
    assert overall["rating"] == displayed(expected)
    assert [r["scope"] for r in profile["ratings"]] == ["all", "raspisnoy.com"]
    assert [p["rating"] for p in profile["history"]] == [overall["rating"]]
    recent = profile["recent"][0]
    assert recent["id"] == table_id and recent["points"] == totals[0]
    assert recent["place"] == 1 + sum(t > totals[0] for t in totals)
    assert recent["replay"] == f"/?replay={table_id}"
    board = client.http.get("/api/leaderboard").json()
    assert (
        board["me"]["user_id"] == client.user["id"] and board["me"]["rating"] == overall["rating"]
    )
    assert all(line["nickname"] != "random" for line in board["lines"])
    mine = [line for line in board["lines"] if line["user_id"] == client.user["id"]]
    assert mine == [board["me"]] or board["me"]["position"] > board["size"]
    recent_board = httpx.get(
        f"{server.base}/api/leaderboard", params={"period": "30d", "preset": "raspisnoy.com"}
    ).json()
    assert client.user["id"] in {line["user_id"] for line in recent_board["lines"]}


def test_a_player_who_leaves_early_keeps_the_points_but_is_rated_last(server: Server) -> None:
    client = register(server, "Leaves Early")
    table = client.create_table(bots=["random", *BOTS], bot_delay_ms=0, turn_seconds=0, rated=True)
    client.post(f"/api/tables/{table['id']}/start")
    player = client.socket(table["id"])
    play_until(player, lambda p: p.version >= 10)
    assert client.post(f"/api/tables/{table['id']}/leave").status_code == 200
    player.recv_until(lambda m: m.get("game", {}).get("phase") == "over", timeout=180)
    totals = httpx.get(f"{server.base}/api/games/{table['id']}/score").json()["totals"]
    profile = httpx.get(f"{server.base}/api/players/{client.user['id']}").json()
    assert profile["recent"][0]["points"] == totals[0]  # the seat's points, stand-in's too
    expected = openskill_after_one_game([min(totals) - 1, *totals[1:]])  # but ranked last
    assert abs(profile["ratings"][0]["mu"] - expected.mu) < 1e-3


def test_an_unrated_game_records_results_but_moves_no_rating(server: Server) -> None:
    client = register(server, "Unrated One")
    table = client.create_table(bots="random", bot_delay_ms=0, turn_seconds=0)
    client.post(f"/api/tables/{table['id']}/start")
    play_until(client.socket(table["id"]), game_over, timeout=180)
    profile = httpx.get(f"{server.base}/api/players/{client.user['id']}").json()
    assert profile["stats"]["games"] == 1 and profile["ratings"] == []
    changed = {"preset": "raspisnoy.com", "dealer_constraint": False}
    refused = client.post("/api/tables", rules=changed, rated=True)
    assert refused.status_code == 422
    assert "only a preset's own rules are rated" in refused.json()["detail"]
    assert client.post("/api/tables", rules=changed).json()["rated"] is False


def test_a_rated_table_refuses_a_stand_in_stronger_than_the_policy(server: Server) -> None:
    client = register(server, "Strong Stand-in")
    refused = client.post("/api/tables", bots="random", stand_in="expert", rated=True)
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        f"stand_in: a rated table's stand-in is at most {RATED_STAND_IN}, not expert"
    )
    assert client.post("/api/tables", stand_in="expert").status_code == 201  # unrated
    assert client.create_table(stand_in=RATED_STAND_IN, rated=True)["rated"] is True
    assert client.create_table(rated=True)["stand_in"] == RATED_STAND_IN  # the default


def test_a_seat_the_stand_in_played_is_rated_last_though_it_won(server: Server) -> None:
    """The audit's farm (issue 27, defect 3): a rated table of random bots whose host
    never connects, the stand-in playing the host's seat, used to raise the rating."""
    client = register(server, "Never There")
    table = client.create_table(
        bots="random", stand_in=RATED_STAND_IN, bot_delay_ms=0, turn_seconds=0, rated=True
    )
    assert client.post(f"/api/tables/{table['id']}/start").status_code == 200
    profile_url = f"{server.base}/api/players/{client.user['id']}"
    deadline = time.monotonic() + 240
    while not (profile := httpx.get(profile_url).json())["ratings"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    totals = httpx.get(f"{server.base}/api/games/{table['id']}/score").json()["totals"]
    assert totals[0] > min(totals)  # the stand-in did not lose the game for the host
    last = rate_game(
        [DEFAULT_RATING, *[BOT_RATINGS["random"]] * 3],
        [min(totals) - 1, *totals[1:]],
        [False, True, True, True],
    )[0]
    overall = profile["ratings"][0]
    assert abs(overall["mu"] - last.mu) < 1e-3 and abs(overall["sigma"] - last.sigma) < 1e-3
    assert overall["mu"] < DEFAULT_RATING.mu  # last, below the newcomer it started as


def test_nothing_of_a_game_in_progress_shows_on_profile_or_leaderboard(server: Server) -> None:
    client = register(server, "Mid Game")
    before = httpx.get(f"{server.base}/api/players/{client.user['id']}").json()
    table = client.create_table(bots="random", bot_delay_ms=0, turn_seconds=0, rated=True)
    client.post(f"/api/tables/{table['id']}/start")
    player = client.socket(table["id"])
    play_until(player, lambda p: p.version >= 40)
    during = httpx.get(f"{server.base}/api/players/{client.user['id']}")
    assert during.json() == before
    assert table["id"] not in during.text
    board = httpx.get(f"{server.base}/api/leaderboard", params={"size": 100})
    assert table["id"] not in board.text
    assert client.user["id"] not in {line["user_id"] for line in board.json()["lines"]}


def engine_game(seed: int) -> Game:
    game = Game(resolve_rules("raspisnoy.com"), ("P1", "P2", "P3", "P4"), seed=f"s{seed}")
    chooser = random.Random(seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()), game.to_act)
    return game


def store_game(
    store: Store, host_id: str, game: Game, others: Sequence[str] = (), rated: bool = False
) -> str:
    """A table of ``host_id``, ``others`` in the next seats and bots in the rest, with
    ``game``'s actions stored, not yet finished."""
    row = store.create_table(
        host_id=host_id,
        public=True,
        rules=game.rules.to_json(),
        bots=["random"] * 4,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed=str(game.seed),
        rated=rated,
    )
    for seat, person in enumerate(others, start=1):
        store.set_seat(row.id, seat, person)
    store.start_table(row.id, game.names, game.rounds()[0].dealer)
    stored = []
    for number, event in enumerate(e for e in game.events if not isinstance(e.action, Deal)):
        assert event.seat is not None  # every action but a deal is a seat's
        stored.append(EventRow(row.id, number + 1, event.seat, str(event.action), None))
    store.append_events(stored)
    return row.id


def test_profile_statistics_match_games_built_with_the_engine(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'stats.sqlite3'}")
    players = Players(store)
    person = store.create_user("Counted")
    games = [engine_game(seed) for seed in range(3)]
    for game in games:
        end_stored_game(store, store_game(store, person.id, game))
    stats = players.profile(person.id).figures
    bids = [
        (r.bids[0], r.taken[0], r.kind, r.points[0])
        for g in games
        for r in g.rounds()
        if r.bids and r.points
    ]
    assert stats.games == 3
    assert stats.points == sum(g.totals[0] for g in games)
    assert stats.wins == sum(g.totals[0] == max(g.totals) for g in games)
    assert stats.bid_rounds == len(bids)
    assert stats.exact == sum(bid == taken for bid, taken, _, _ in bids)
    assert stats.zero_bids == sum(bid == 0 for bid, _, _, _ in bids)
    assert stats.zero_exact == sum(bid == taken == 0 for bid, taken, _, _ in bids)
    blind = [b for b in bids if b[2] is RoundKind.BLIND]
    assert (stats.blind_rounds, stats.blind_points) == (len(blind), sum(b[3] for b in blind))
    points = [(r.kind, r.points[0]) for g in games for r in g.rounds() if r.points]
    misere = [mine for kind, mine in points if kind is RoundKind.MISERE]
    golden = [mine for kind, mine in points if kind is RoundKind.GOLDEN]
    assert (stats.misere_rounds, stats.misere_points) == (len(misere), sum(misere))
    assert (stats.golden_rounds, stats.golden_points) == (len(golden), sum(golden))
    assert stats.games > 0 and PROVISIONAL_GAMES > 1
    store.close()


def kept_sums(store: Store) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every row of the kept sums per person, preset and place and of the kept counts
    per rating (those at zero left out: a recount makes none)."""
    with Session(store.engine) as session:
        figures = session.scalars(
            select(PlayerFigures).order_by(*PlayerFigures.__mapper__.primary_key)
        )
        counts = select(RatingCount.scope, RatingCount.display, RatingCount.players)
        counts = counts.where(RatingCount.players != 0).order_by(
            RatingCount.scope, RatingCount.display
        )
        columns = [column.name for column in PlayerFigures.__table__.columns]
        return (
            [tuple(getattr(row, name) for name in columns) for row in figures],
            [tuple(row) for row in session.execute(counts)],
        )


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_kept_sums_are_those_recounted_from_results_and_ratings(
    backend: str, tmp_path: Path
) -> None:
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        people = [store.create_user(f"Kept {n}").id for n in range(4)]
        for seed in range(5):  # rated and not, newcomers and known, shared tables
            others = people[1 + seed % 2 : 3 + seed % 2]
            game = engine_game(seed)
            end_stored_game(store, store_game(store, people[0], game, others, rated=seed != 2))
        Players(store).delete_account(people[1])  # their ratings leave the counts
        kept = kept_sums(store)
        assert kept[0] and kept[1]
        with Session(store.engine) as session, session.begin():
            recount(session)
        assert kept_sums(store) == kept
        store.close()


def test_games_that_share_people_end_at_once_without_deadlock(tmp_path: Path) -> None:
    """Four writers end 24 rated games of six newcomers at once: every game is
    recorded (no deadlock: every game locks its rating rows in one order, newcomers'
    included), each person's games and rated games are those they sat at, and the kept
    sums are the recounted ones. A race, so it can miss a fault: reading the rows and
    then making the missing ones deadlocked in 2 of 4 runs of a heavier one (40 games of
    nine people, 4 writers), never since (8 runs)."""
    with new_database("postgresql", tmp_path) as url:
        store = Store.open(url)
        people = [store.create_user(f"Racer {n}").id for n in range(6)]
        chooser = random.Random(4)
        tables, seated = [], []
        for seed in range(24):
            host, *others = chooser.sample(people, 4)
            tables.append(store_game(store, host, engine_game(seed), others, rated=True))
            seated.append({host, *others})
        failures: list[BaseException] = []

        def finish(mine: list[str]) -> None:
            for table_id in mine:
                try:
                    end_stored_game(store, table_id)
                except StoreError as error:  # a deadlock, say
                    failures.append(error)

        writers = [threading.Thread(target=finish, args=(tables[n::4],)) for n in range(4)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        assert failures == []
        kept = kept_sums(store)
        with Session(store.engine) as session, session.begin():
            recount(session)
        assert kept_sums(store) == kept
        for person in people:
            profile = Players(store).profile(person)
            played = sum(person in seats for seats in seated)
            assert profile.figures.games == played == profile.ratings[0].games
        store.close()
