"""Tournaments on a real server, on SQLite and PostgreSQL (docs/tournaments.md): created
with their options, bad input refused with its code and nothing changed, registration
(once, not when full, not after the start), the director's acts, and events that run
to their final standings by themselves: Swiss rounds by the standings, every table of a
round dealt the same hands, records that replay, people who do not show withdrawn."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import FAST, Api, Server
from sqlalchemy import update
from test_clubs import ONE_ROUND, account, new_club, refusal

from raspisnoy.core import parse_record, replay
from raspisnoy.server.config import ServerSettings
from raspisnoy.store.models import Tournament

Message = dict[str, Any]
#: A runner pass every 0.2 s and one-second turn timers, so events run in seconds.
TOURNAMENTS = FAST.model_copy(update={"tournament_pass_seconds": 0.2, "min_turn_seconds": 1})
#: Long enough for a round of bot games on a loaded machine.
PATIENCE = 120.0


@pytest.fixture(scope="module")
def tournament_server(start_server: Callable[[ServerSettings], Server]) -> Server:
    return start_server(TOURNAMENTS)


def options(**changes: Any) -> Message:
    """A short event: one-deal games of random bots, starting in a moment."""
    return {
        "name": "Кубок пятницы",
        "starts_at": time.time() + 3600,
        "rules": ONE_ROUND,
        "table_size": 4,
        "rounds": 2,
        "turn_seconds": 1,
        "bot_delay_ms": 0,
        **changes,
    }


def create(api: Api, **changes: Any) -> Message:
    answer = api.post("/api/tournaments", **options(**changes))
    assert answer.status_code == 201, answer.text
    made: Message = answer.json()
    return made


def seen(api: Api, tournament_id: str) -> Message:
    answer = api.http.get(f"/api/tournaments/{tournament_id}")
    assert answer.status_code == 200, answer.text
    page: Message = answer.json()
    return page


def add_bots(director: Api, tournament_id: str, count: int) -> None:
    for number in range(count):
        answer = director.post(
            f"/api/tournaments/{tournament_id}/bots", level="random", name=f"Бот {number + 1}"
        )
        assert answer.status_code == 200, answer.text


def start_now(server: Server, tournament_id: str) -> None:
    """Move the start to now (as if its time had come), straight in the database."""
    with server.store.engine.begin() as connection:
        connection.execute(
            update(Tournament)
            .where(Tournament.id == tournament_id)
            .values(starts_at=time.time() - 1)
        )


def until_state(api: Api, tournament_id: str, state: str) -> Message:
    return until_page(api, tournament_id, lambda page: page["state"] == state, state)


def until_page(api: Api, tournament_id: str, done: Callable[[Message], bool], what: str) -> Message:
    """The tournament's page as ``api`` sees it, once ``done`` says yes of it."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        page = seen(api, tournament_id)
        if done(page):
            return page
        time.sleep(0.2)
    raise AssertionError(f"the tournament's page did not get to {what}: {page}")


def test_bad_input_is_refused_and_changes_nothing(tournament_server: Server) -> None:
    director = Api(tournament_server.base, "Директор")
    before = director.http.get("/api/tournaments").json()["tournaments"]
    past = refusal(
        director.post("/api/tournaments", **options(starts_at=time.time() - 60)),
        422,
        "tournament_start_past",
    )
    assert past["params"] == {}
    rounds = refusal(
        director.post("/api/tournaments", **options(rounds=0)), 422, "tournament_rounds"
    )
    assert rounds["params"] == {"min": 1, "max": 30}
    for size in (2, 6):
        size_refused = refusal(
            director.post("/api/tournaments", **options(table_size=size)),
            422,
            "tournament_table_size",
        )
        assert size_refused["params"] == {"size": size}
    refusal(director.post("/api/tournaments", **options(turn_seconds=0)), 422, "invalid")
    refusal(director.post("/api/tournaments", **options(rules={"preset": "no"})), 422, "bad_rules")
    refusal(director.post("/api/tournaments", **options(scoring="elo")), 422, "bad_field")
    assert director.http.get("/api/tournaments").json()["tournaments"] == before


def test_too_many_rounds_for_swiss_are_accepted_with_a_warning(tournament_server: Server) -> None:
    director = Api(tournament_server.base, "Директор")
    made = create(director, rounds=5, max_players=8)
    assert made["warnings"] == [{"code": "rounds_repeat", "params": {"rounds": 5, "most": 2}}]
    assert create(director, rounds=2, max_players=8)["warnings"] == []


def test_registration_once_never_full_never_started(tournament_server: Server) -> None:
    director, anna, boris, vera = (
        Api(tournament_server.base, name) for name in ("Директор", "Анна", "Борис", "Вера")
    )
    made = create(director, max_players=2)
    assert (made["state"], made["is_director"], made["registered"]) == ("registering", True, 0)
    path = f"/api/tournaments/{made['id']}"
    entered = anna.post(f"{path}/register").json()
    assert entered["entry_id"] is not None and entered["registered"] == 1
    refusal(anna.post(f"{path}/register"), 409, "tournament_registered")
    assert boris.post(f"{path}/register").status_code == 200
    full = refusal(vera.post(f"{path}/register"), 409, "tournament_full")
    assert full["params"] == {"places": 2}
    assert vera.post(f"{path}/unregister").json()["registered"] == 2  # had no entry
    assert boris.post(f"{path}/unregister").json()["entry_id"] is None
    assert vera.post(f"{path}/register").status_code == 200
    refusal(anna.post(f"{path}/pause"), 403, "tournament_director_only")
    refusal(anna.post(f"{path}/bots", name="Бот"), 403, "tournament_director_only")
    refusal(director.post(f"{path}/pause"), 409, "tournament_state")
    refusal(director.post(f"{path}/withdraw/nobody"), 404, "not_found")
    names = [e["name"] for e in seen(anna, made["id"])["entrants"]]
    assert names == ["Анна", "Вера"]
    assert director.post(f"{path}/end").json()["state"] == "finished"
    refusal(boris.post(f"{path}/register"), 409, "tournament_started")
    refusal(anna.post(f"{path}/unregister"), 409, "tournament_started")
    refusal(director.post(f"{path}/resume"), 409, "tournament_state")


def test_entrants_level_in_the_standings_are_listed_by_name(tournament_server: Server) -> None:
    """Before any game every entrant ties: the standings list them by name without regard
    to case, as their note says («…затем имя»), not in the order of their entry ids."""
    director = Api(tournament_server.base, "Директор")
    made = create(director, max_players=8)
    names = ["Бот номер 2", "бот номер 5", "Бот номер 3", "Бот номер 1", "бот номер 4"]
    for name in names:
        answer = director.post(f"/api/tournaments/{made['id']}/bots", level="random", name=name)
        assert answer.status_code == 200, answer.text
    standing = [line["name"] for line in seen(director, made["id"])["standings"]]
    assert standing == sorted(names, key=str.casefold)


def test_a_director_acts_in_their_own_club_only(tournament_server: Server) -> None:
    owner, other_owner, member = (account(tournament_server, n) for n in ("own", "oth", "mem"))
    club, other = new_club(owner), new_club(other_owner, private=True)
    assert member.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    refusal(
        owner.post("/api/tournaments", **options(club_id=other["id"])), 404, "not_found"
    )  # a private club is nothing to outsiders
    refusal(member.post("/api/tournaments", **options(club_id=club["id"])), 403, "club_admins_only")
    refusal(
        other_owner.post("/api/tournaments", **options(club_id=club["id"])),
        403,
        "club_admins_only",
    )
    made = create(owner, club_id=club["id"])
    assert made["club_id"] == club["id"]
    listed = member.http.get(f"/api/clubs/{club['id']}/tournaments").json()["tournaments"]
    assert [t["id"] for t in listed] == [made["id"]]
    refusal(other_owner.post(f"/api/tournaments/{made['id']}/pause"), 404, "not_found")


def records_of(api: Api, round_: Message) -> list[Message]:
    answers = [api.http.get(f"/api/games/{t['table_id']}/record") for t in round_["tables"]]
    assert all(answer.status_code == 200 for answer in answers)
    return [answer.json() for answer in answers]


def test_a_tournament_of_bots_runs_to_its_final_standings(tournament_server: Server) -> None:
    director = Api(tournament_server.base, "Директор")
    made = create(director, scoring="duplicate")
    add_bots(director, made["id"], 8)
    start_now(tournament_server, made["id"])
    final = until_state(director, made["id"], "finished")
    assert final["current_round"] == 2 and final["table_id"] is None
    lines = final["standings"]
    assert [line["place"] for line in lines] == list(range(1, 9))
    assert all(line["games"] == 2 and line["byes"] == 0 for line in lines)
    # Every table of four hands out 6 points; two tables, two rounds.
    assert sum(line["points"] for line in lines) == 24
    # Each comparison shares one matchpoint: the field's average is 50 %.
    assert sum(line["duplicate"] for line in lines) == pytest.approx(50 * 8, abs=0.5)
    # The duplicate format orders by the duplicate score first.
    scores = [line["duplicate"] for line in lines]
    assert scores == sorted(scores, reverse=True)
    rounds = final["round_list"]
    assert [r["number"] for r in rounds] == [1, 2]
    for round_ in rounds:
        assert round_["finished_at"] is not None and len(round_["tables"]) == 2
        records = records_of(director, round_)
        hands = [[deal["hands"] for deal in record["rounds"]] for record in records]
        assert hands[0] == hands[1]  # the same cards at the same seats at every table
        for record in records:
            game = replay(parse_record(record))
            assert game.is_over
        points = [seat["points"] for table in round_["tables"] for seat in table["seats"]]
        assert None not in points
    # Round 1's hands are not round 2's: each round has its own seed.
    assert (
        records_of(director, rounds[0])[0]["rounds"] != records_of(director, rounds[1])[0]["rounds"]
    )
    assert "seed" not in str(final)


def test_people_who_do_not_show_are_played_by_stand_ins_then_withdrawn(
    tournament_server: Server,
) -> None:
    director, anna = Api(tournament_server.base, "Директор"), Api(tournament_server.base, "Анна")
    made = create(director, table_size=3, rounds=2)
    assert anna.post(f"/api/tournaments/{made['id']}/register").status_code == 200
    add_bots(director, made["id"], 2)
    start_now(tournament_server, made["id"])
    playing = until_state(anna, made["id"], "running")
    deadline = time.monotonic() + PATIENCE
    while playing["current_round"] < 1:
        assert time.monotonic() < deadline
        playing = seen(anna, made["id"])
    final = until_state(anna, made["id"], "finished")
    first, second = final["round_list"]
    (table,) = first["tables"]
    absent = [seat for seat in table["seats"] if seat["absent"]]
    assert [seat["entry_id"] for seat in absent] == [final["entry_id"]]
    mine = next(line for line in final["standings"] if line["entry_id"] == final["entry_id"])
    assert (mine["points"], mine["games"], mine["duplicate"], mine["withdrawn"]) == (
        0,
        0,
        None,
        True,
    )
    (later,) = second["tables"]  # two bots and a bot filling the count
    assert final["entry_id"] not in [seat["entry_id"] for seat in later["seats"]]
    assert sum(seat["entry_id"] is None for seat in later["seats"]) == 1


def test_too_few_entrants_finish_the_event_at_its_start(tournament_server: Server) -> None:
    director, anna = Api(tournament_server.base, "Директор"), Api(tournament_server.base, "Анна")
    made = create(director)
    add_bots(director, made["id"], 1)
    path = f"/api/tournaments/{made['id']}"
    refusal(anna.post(f"{path}/start"), 403, "tournament_director_only")
    assert director.post(f"{path}/start").status_code == 200  # the director starts it now
    final = until_state(director, made["id"], "finished")
    assert final["round_list"] == [] and final["current_round"] == 0
    refusal(director.post(f"{path}/start"), 409, "tournament_state")
