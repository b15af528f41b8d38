"""The matchmaking pool's routes (``/api/pool``, docs/pool.md) on a real server, on SQLite
and PostgreSQL: people who accept the same table land at one started table, each once;
leaving, the grace of a silent page, the counts; bad input refused with its code and
nothing changed; a table a dead worker opened is started by the next pass; and the
answers reveal no private table, nobody else and no card."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from leak_check import cards_in
from server_helpers import FAST, Api, Message, Server, at_most, play_in_threads, until
from sqlalchemy.orm import Session

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.pool import COOLDOWNS, checked_choices
from raspisnoy.server.wire.requests import PoolIn
from raspisnoy.store import GameEnds, NewPoolTable, PoolStore
from raspisnoy.store.models import PoolAbandon

#: A pass every 0.2 s and a grace of 2 s, so the tests need not wait long.
POOL = FAST.model_copy(
    update={
        "pool_pass_seconds": 0.2,
        "pool_grace_seconds": 2.0,
        "pool_changes_per_user": at_most(8),
    }
)
CLASSIC_FOUR = {"presets": ["classic"], "players": [4], "speed": "fast", "bot_wait": None}


@pytest.fixture(scope="module")
def pool_server(start_server: Callable[[ServerSettings], Server]) -> Server:
    return start_server(POOL)


def status_of(api: Api) -> Message:
    answer = api.http.get("/api/pool")
    assert answer.status_code == 200, answer.text
    status: Message = answer.json()
    return status


def matched(api: Api) -> Message:
    """The caller's status once matched (asking meanwhile, as a waiting page does)."""
    return until(lambda: status_of(api), lambda s: s["status"] == "matched")


def join(api: Api, **choices: object) -> Message:
    answer = api.http.post("/api/pool", json=choices)
    assert answer.status_code == 200, answer.text
    status: Message = answer.json()
    return status


def test_four_people_land_at_one_started_table(pool_server: Server) -> None:
    people = [Api(pool_server.base, f"Pooled {n}") for n in range(4)]
    for api in people:
        waiting = join(api, **CLASSIC_FOUR)
        assert waiting["status"] in ("waiting", "matched")
    tables = {matched(api)["table"] for api in people}
    assert len(tables) == 1
    (table_id,) = tables
    table: Message = until(
        lambda: people[0].http.get(f"/api/tables/{table_id}").json(),
        lambda t: t["status"] == "playing",
    )
    assert sorted(seat["user_id"] for seat in table["seats"]) == sorted(
        api.user["id"] for api in people
    )
    assert (table["rules"]["preset"], table["turn_seconds"], table["rated"]) == (
        "classic",
        15,
        False,
    )
    # Seated once: joining again while the game is on is refused, nothing changes.
    again = people[1].http.post("/api/pool", json=CLASSIC_FOUR)
    assert (again.status_code, again.json()["code"]) == (409, Refusal.POOL_AT_TABLE)
    assert status_of(people[1])["table"] == table_id


def test_waiting_leaving_and_the_counts(pool_server: Server) -> None:
    a, b = Api(pool_server.base, "Waiter A"), Api(pool_server.base, "Waiter B")
    first = join(a, presets=["georgian"], players=[5], speed="slow", bot_wait=None)
    assert first["status"] == "waiting"
    assert first["choices"] == {
        "presets": ["georgian"],
        "players": [5],
        "speed": "slow",
        "rated": False,
        "bot_wait": None,
    }
    join(b, presets=["georgian", "classic"], players=[5], speed="slow", bot_wait=None)
    counts = until(lambda: status_of(a)["counts"], lambda c: c.get("georgian") == {"slow": 2})
    assert counts["classic"]["slow"] >= 1
    left = b.http.delete("/api/pool")
    assert left.status_code == 200 and left.json()["status"] == "none"
    assert status_of(b)["status"] == "none"
    until(lambda: status_of(a)["counts"], lambda c: c.get("georgian") == {"slow": 1})
    assert status_of(a)["status"] == "waiting"
    assert a.http.delete("/api/pool").json()["status"] == "none"
    # Leaving when not in the pool changes nothing either.
    assert a.http.delete("/api/pool").json()["status"] == "none"


def test_a_silent_page_leaves_after_the_grace(pool_server: Server) -> None:
    quiet = Api(pool_server.base, "Quiet")
    join(quiet, presets=["oh-hell"], players=[3], speed="normal", bot_wait=None)
    pool = PoolStore(pool_server.store)
    until(pool.waiting, lambda waiting: all(e.user_id != quiet.user["id"] for e in waiting))
    assert status_of(quiet)["status"] == "none"


@pytest.mark.parametrize(
    ("choices", "status", "code", "params"),
    [
        ({"presets": ["chess"], "players": [4]}, 422, Refusal.POOL_PRESET, {"preset": "chess"}),
        ({"presets": ["classic"], "players": [6]}, 422, Refusal.BAD_FIELD, None),
        (
            {"presets": ["classic"], "players": [4], "rated": True},
            403,
            Refusal.POOL_RATED_GUEST,
            {},
        ),
        ({"presets": ["classic"], "players": [4], "speed": "warp"}, 422, Refusal.BAD_FIELD, None),
        ({"presets": ["classic"], "players": [4], "bot_wait": 45}, 422, Refusal.BAD_FIELD, None),
        ({"presets": [], "players": [4]}, 422, Refusal.BAD_FIELD, None),
        ({"presets": ["classic"], "players": ["4"]}, 422, Refusal.BAD_FIELD, None),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    pool_server: Server,
    choices: Message,
    status: int,
    code: Refusal,
    params: Message | None,
) -> None:
    guest = Api(pool_server.base, "Mistaken")
    answer = guest.http.post("/api/pool", json=choices)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    if params is not None:
        assert answer.json()["params"] == params
    assert status_of(guest)["status"] == "none"


def test_a_preset_none_of_whose_numbers_of_players_was_chosen_is_refused() -> None:
    """5 players on a preset played by 3 or 4 (no preset of the rules is so today, so the
    check is given such a catalogue)."""
    counts = {"classic": frozenset({3, 4, 5}), "trio": frozenset({3, 4})}
    body = PoolIn(presets=["classic", "trio"], players=[5])
    with pytest.raises(RequestError) as refused:
        checked_choices(body, counts)
    assert refused.value.code == Refusal.POOL_PLAYERS
    assert refused.value.params == {"preset": "trio", "players": 5}
    assert checked_choices(PoolIn(presets=["trio"], players=[4, 5]), counts)["players"] == [4, 5]


def test_a_second_entry_and_a_flood_are_refused(pool_server: Server) -> None:
    api = Api(pool_server.base, "Eager")
    join(api, presets=["ukrainian"], players=[3], speed="fast", bot_wait=None)
    second = api.http.post(
        "/api/pool", json={"presets": ["classic"], "players": [4], "speed": "slow"}
    )
    assert (second.status_code, second.json()["code"]) == (409, Refusal.POOL_ALREADY_IN)
    assert status_of(api)["choices"]["presets"] == ["ukrainian"]
    codes = []
    for _ in range(10):
        codes.append(api.http.delete("/api/pool").status_code)
        codes.append(api.http.post("/api/pool", json=CLASSIC_FOUR).status_code)
    assert 429 in codes
    refused = api.http.post("/api/pool", json=CLASSIC_FOUR)
    assert refused.json()["code"] == Refusal.TOO_MANY
    assert "seconds" in refused.json()["params"]


def test_a_person_at_the_cap_of_games_at_once_is_refused_the_pool(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """The pool's game would be one more than ``max_games_per_user``: refused as a new
    game elsewhere is (``games_held``), and the person does not wait."""
    server = start_server(POOL.model_copy(update={"max_games_per_user": 1}))
    busy = Api(server.base, "Busy player")
    table = busy.create_table(bots="random", bot_delay_ms=10_000)
    assert busy.post(f"/api/tables/{table['id']}/start").status_code == 200
    refused = busy.http.post("/api/pool", json=CLASSIC_FOUR)
    assert (refused.status_code, refused.json()["code"]) == (429, Refusal.GAMES_HELD)
    assert refused.json()["params"] == {"count": 1, "limit": 1, "seconds": 60}
    assert status_of(busy)["status"] == "none"


def test_a_person_who_reaches_the_cap_of_games_while_waiting_is_passed_over(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """One who joined the pool, then started games elsewhere up to ``max_games_per_user``,
    is not seated at one more: they wait on, told why (``games_held``), out of the counts,
    and the others are not paired with them; once a game of theirs ends, they are."""
    # A grace long enough that nobody is taken out for silence while the test waits
    # without asking, however loaded the machine (CI took all three out at 2 s).
    capped = {"max_games_per_user": 1, "pool_grace_seconds": 60.0}
    server = start_server(POOL.model_copy(update=capped))
    busy, *others = (Api(server.base, f"Capped {n}") for n in range(3))
    three = {**CLASSIC_FOUR, "players": [3]}
    assert join(busy, **three)["games_held"] is None
    table = busy.create_table(bots="random", bot_delay_ms=10_000)
    assert busy.post(f"/api/tables/{table['id']}/start").status_code == 200
    for api in others:
        join(api, **three)
    held = until(lambda: status_of(busy), lambda s: s["counts"].get("classic") == {"fast": 2})
    assert held["status"] == "waiting"
    assert held["games_held"] == {"count": 1, "limit": 1}
    time.sleep(5 * POOL.pool_pass_seconds)  # passes enough to have paired them, had they
    assert [status_of(api)["status"] for api in (busy, *others)] == ["waiting"] * 3
    assert status_of(others[0])["games_held"] is None
    GameEnds(server.store).finish(table["id"])
    tables = {matched(api)["table"] for api in (busy, *others)}
    assert len(tables) == 1 and table["id"] not in tables


def test_a_game_started_elsewhere_as_the_pass_opens_its_table_keeps_the_cap(
    start_server: Callable[[ServerSettings], Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass found everyone below ``max_games_per_user``; then, before it opens their
    table, one of them starts a game of their own (on another worker, say): the opening
    counts again under their lock and opens nothing, so nobody is past the cap; they
    wait on, and are seated once that game ends."""
    capped = {"max_games_per_user": 1, "pool_grace_seconds": 60.0}
    server = start_server(POOL.model_copy(update=capped))
    busy, *others = (Api(server.base, f"Racing {n}") for n in range(3))
    own = busy.create_table(bots="random", bot_delay_ms=10_000)
    pool = server.services.pool._pool
    opening = pool.open_table

    def started_first(*args: Any) -> str | None:
        """The pool's opening, after ``busy`` has started their own game (first time)."""
        if server.store.get_table(own["id"]).status == "open":
            assert busy.post(f"/api/tables/{own['id']}/start").status_code == 200
        return opening(*args)

    monkeypatch.setattr(pool, "open_table", started_first)
    three = {**CLASSIC_FOUR, "players": [3]}
    for api in (busy, *others):
        join(api, **three)
    held = until(lambda: status_of(busy), lambda s: s.get("games_held") is not None)
    assert held["status"] == "waiting" and held["games_held"] == {"count": 1, "limit": 1}
    assert server.store.count_games_held(busy.user["id"]) == 1
    assert [status_of(api)["status"] for api in others] == ["waiting"] * 2
    GameEnds(server.store).finish(own["id"])
    tables = {matched(api)["table"] for api in (busy, *others)}
    assert len(tables) == 1 and own["id"] not in tables


def test_the_rated_pool_is_for_accounts(pool_server: Server) -> None:
    member = Api(pool_server.base)
    answer = member.post("/api/account", username="PoolMember", password="correct horse battery")
    assert answer.status_code == 200, answer.text
    member.http.headers["authorization"] = f"Bearer {answer.json()['token']}"
    waiting = join(
        member, presets=["classic"], players=[3], speed="slow", rated=True, bot_wait=None
    )
    assert waiting["status"] == "waiting" and waiting["choices"]["rated"] is True
    member.http.delete("/api/pool")


def test_a_table_a_dead_worker_opened_is_started_by_the_next_pass(pool_server: Server) -> None:
    """A pass that opened a table and took its people out of the pool, then died before
    starting the game: the next pass starts it; nobody is lost or waits again."""
    a, b, c = (Api(pool_server.base, f"Orphan {n}") for n in range(3))
    pool = PoolStore(pool_server.store)
    # Choices nobody else in this module waits with: with someone left in the pool by an
    # earlier test (CLASSIC_FOUR), the server's own pass would seat them first.
    orphans = {**CLASSIC_FOUR, "speed": "normal", "rated": False}
    for api in (a, b, c):  # joined now: the server's pass takes out entries not seen lately
        pool.join(api.user["id"], orphans, 1000.0, time.time())
    table = NewPoolTable({"preset": "classic"}, ["random"] * 3, 30, 0, "random", "seed", False)
    table_id = pool.open_table([a.user["id"], b.user["id"], c.user["id"]], table)
    assert table_id is not None
    for api in (a, b, c):
        assert matched(api)["table"] == table_id
    until(lambda: pool_server.store.get_table(table_id).status, lambda s: s == "playing")


def test_two_people_one_of_whom_blocked_the_other_never_share_a_table(
    pool_server: Server,
) -> None:
    """The pass asks the friends' blocks (docs/friends.md): of four who accept one
    three-player table, the three seated never include both of a blocked pair."""
    anna, boris, *others = [Api(pool_server.base, f"Blocking {n}") for n in range(4)]
    assert anna.http.put(f"/api/blocks/{boris.user['id']}").status_code == 200
    choices = {"presets": ["oh-hell"], "players": [3], "speed": "slow", "bot_wait": None}
    for api in (anna, boris, *others):
        join(api, **choices)
    (table_id,) = {matched(api)["table"] for api in others}
    seated = {seat.user_id for seat in pool_server.store.get_table(table_id).seats}
    assert not {anna.user["id"], boris.user["id"]} <= seated
    left_out = boris if anna.user["id"] in seated else anna
    assert status_of(left_out)["status"] == "waiting"
    assert left_out.http.delete("/api/pool").json()["status"] == "none"


def test_the_pool_reveals_no_private_table_nobody_else_and_no_card(pool_server: Server) -> None:
    host = Api(pool_server.base, "Secretive")
    private = host.create_table(public=False, players=3)
    others = [Api(pool_server.base, f"Leak {n}") for n in range(3)]
    answers = [
        host.http.get("/api/pool").json(),
        Api(pool_server.base).http.get("/api/pool").json(),
    ]
    for api in others:
        answers.append(join(api, presets=["oh-hell"], players=[3], speed="normal", bot_wait=None))
    answers += [matched(api) for api in others]
    left = others[0].http.delete("/api/pool").json()  # seated: leaving changes nothing
    assert left["status"] == "matched"
    answers.append(left)
    for answer in answers:
        text = str(answer)
        assert private["id"] not in text and host.user["id"] not in text
        assert set(answer) <= {
            *("status", "choices", "waited_seconds", "table", "invite", "counts"),
            *("rated_cooldown", "games_held"),
        }
        assert answer.get("rated_cooldown") is None and answer.get("games_held") is None
        assert cards_in({k: v for k, v in answer.items() if k != "counts"}) == set()
    for api in others:  # the only table named is the caller's own, where they sit
        mine = matched(api)
        seats = pool_server.store.get_table(mine["table"]).seats
        assert api.user["id"] in {seat.user_id for seat in seats}
        for other in others:
            if other is not api:
                assert other.user["id"] not in str(mine) and other.user["nickname"] not in str(mine)


def registered(server: Server, username: str) -> Api:
    member = Api(server.base)
    answer = member.post("/api/account", username=username, password="correct horse battery")
    assert answer.status_code == 200, answer.text
    member.token, member.user = answer.json()["token"], answer.json()["user"]
    member.http.headers["authorization"] = f"Bearer {member.token}"
    return member


def test_the_rated_pool_cools_down_longer_after_each_abandoned_game(pool_server: Server) -> None:
    quitter = registered(pool_server, "Quitter")
    host = Api(pool_server.base, "Host of the abandoned")
    rated = {**CLASSIC_FOUR, "rated": True}
    for number, cooldown in enumerate(COOLDOWNS[:2], 1):
        table = host.create_table(players=3)
        abandon = PoolAbandon(user_id=quitter.user["id"], table_id=table["id"], at=time.time())
        with Session(pool_server.store.engine) as session, session.begin():
            session.add(abandon)
        refused = quitter.http.post("/api/pool", json=rated)
        assert (refused.status_code, refused.json()["code"]) == (403, Refusal.POOL_COOLDOWN)
        assert refused.json()["params"] == {"minutes": cooldown // 60, "abandons": number}
        status = status_of(quitter)
        assert status["status"] == "none"
        assert status["rated_cooldown"] == refused.json()["params"]  # shown before trying
    # The unrated pool is open at once.
    assert join(quitter, **CLASSIC_FOUR)["status"] == "waiting"
    quitter.http.delete("/api/pool")


def test_who_abandons_a_rated_pool_game_is_recorded_and_who_plays_it_is_not(
    pool_server: Server,
) -> None:
    """Two people play a rated pool game to its end; the third never comes, so the turn
    timer and then the stand-in play the seat: that abandonment is recorded once, and
    nobody who played is; the next rated entry of the absent one is refused."""
    people = [registered(pool_server, f"Rated{n}") for n in range(3)]
    pool = PoolStore(pool_server.store)
    ids = [api.user["id"] for api in people]
    for user_id in ids:
        pool.join(user_id, {**CLASSIC_FOUR, "rated": True}, 1000.0, time.time())
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}
    table = NewPoolTable(rules, ["random"] * 3, 5, 0, "random", "seed", True)
    table_id = pool.open_table(ids, table)
    assert table_id is not None
    players = [api.socket(table_id) for api in people[:2]]
    for player in players:
        player.recv()
    play_in_threads(players)
    assert until(lambda: pool.abandons_since(ids[2], 0.0), lambda found: len(found) == 1)
    assert pool.abandons_since(ids[0], 0.0) == pool.abandons_since(ids[1], 0.0) == []
    again = people[2].http.post("/api/pool", json={**CLASSIC_FOUR, "rated": True})
    assert again.json()["code"] == Refusal.POOL_COOLDOWN


# ------------------------------------------- changes between the pass's read and its seating


def before_the_first_opening(
    server: Server, monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], object]
) -> list[bool]:
    """Run ``meanwhile`` once, after a pass has read the pool and paired, just before it
    opens its first table (as another worker's request would); a list that holds
    ``True`` once it has run."""
    pool = server.services.pool._pool
    opening = pool.open_table
    ran: list[bool] = []

    def opened_after(*args: Any) -> str | None:
        if not ran:
            meanwhile()
            ran.append(True)
        return opening(*args)

    monkeypatch.setattr(pool, "open_table", opened_after)
    return ran


def racing_server(start_server: Callable[[ServerSettings], Server]) -> Server:
    """A server whose pool drops nobody for silence while a test waits without asking."""
    return start_server(POOL.model_copy(update={"pool_grace_seconds": 60.0}))


THREE = {**CLASSIC_FOUR, "players": [3]}


def test_one_who_joined_again_as_the_pass_seats_them_waits_with_the_new_choices(
    start_server: Callable[[ServerSettings], Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass paired Mover for a three-player table; before it seats them, Mover leaves
    and joins again for four players: nobody of that table is seated (the entry read is
    not the one stored), Mover waits with the new choices, and the next pass seats the
    others with the fourth person."""
    server = racing_server(start_server)
    mover, *others = (Api(server.base, f"Rejoining {n}") for n in range(4))

    def joined_again() -> None:
        assert mover.http.delete("/api/pool").status_code == 200
        join(mover, **CLASSIC_FOUR)

    ran = before_the_first_opening(server, monkeypatch, joined_again)
    for api in (mover, *others):
        join(api, **THREE)
    table_id = matched(others[0])["table"]
    assert ran and status_of(mover)["status"] == "waiting"
    assert status_of(mover)["choices"]["players"] == [4]
    assert {matched(api)["table"] for api in others} == {table_id}


def test_a_block_made_as_the_pass_seats_them_keeps_the_two_apart(
    start_server: Callable[[ServerSettings], Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass read no block among the three who accept one three-player table; before
    it seats them, one blocks another: nobody is seated. A fourth comes, and the table
    that opens holds one of the two only."""
    server = racing_server(start_server)
    anna, boris, other = (Api(server.base, f"Racing block {n}") for n in range(3))

    def blocked() -> None:
        assert anna.http.put(f"/api/blocks/{boris.user['id']}").status_code == 200

    ran = before_the_first_opening(server, monkeypatch, blocked)
    for api in (anna, boris, other):
        join(api, **THREE)
    until(lambda: ran, bool)
    time.sleep(5 * POOL.pool_pass_seconds)  # passes enough to have seated them, had they
    assert [status_of(api)["status"] for api in (anna, boris, other)] == ["waiting"] * 3
    fourth = Api(server.base, "Racing block 3")
    join(fourth, **THREE)
    table_id = matched(fourth)["table"]
    seated = {seat.user_id for seat in server.store.get_table(table_id).seats}
    assert other.user["id"] in seated
    assert not {anna.user["id"], boris.user["id"]} <= seated


def test_an_abandon_recorded_as_the_pass_seats_them_keeps_the_rated_table_closed(
    start_server: Callable[[ServerSettings], Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass paired three for a rated table; before it seats them, an abandoned rated
    pool game of one of them is recorded (their earlier game ended as they joined):
    nobody is seated. Later passes pass the one cooling down over (they wait on, told
    why), so the other two are seated with a fourth."""
    server = racing_server(start_server)
    quitter, *others = (registered(server, f"Cooling{n}") for n in range(4))
    host = Api(server.base, "Abandoned host")
    abandoned = host.create_table(players=3)["id"]

    def recorded() -> None:
        row = PoolAbandon(user_id=quitter.user["id"], table_id=abandoned, at=time.time())
        with Session(server.store.engine) as session, session.begin():
            session.add(row)

    ran = before_the_first_opening(server, monkeypatch, recorded)
    rated = {**THREE, "rated": True}
    for api in (quitter, *others[:2]):
        join(api, **rated)
    until(lambda: ran, bool)
    time.sleep(2 * POOL.pool_pass_seconds)
    assert [status_of(api)["status"] for api in (quitter, *others[:2])] == ["waiting"] * 3
    join(others[2], **rated)
    assert len({matched(api)["table"] for api in others}) == 1
    cooling = status_of(quitter)
    assert cooling["status"] == "waiting" and cooling["rated_cooldown"]["abandons"] == 1
