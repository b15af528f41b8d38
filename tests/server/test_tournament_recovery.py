"""A tournament survives its server: the real server (``raspisnoy serve`` in a
subprocess), on SQLite and PostgreSQL, is killed with SIGKILL while a round's games are
being played and again just after the next round is paired, and restarted each time. No
result is lost, no round is paired twice, a round's clock (its start) is not reset, and
the event runs to its final standings with every game's record whole."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fresh_databases import BACKENDS, new_database
from server_helpers import TEST_SECRET, Api
from server_process import ServerProcess
from sqlalchemy import create_engine, func, select, update
from test_clubs import ONE_ROUND

from raspisnoy.core import parse_record, replay
from raspisnoy.store.models import Tournament, TournamentRound, TournamentTable

Message = dict[str, Any]
PATIENCE = 180.0
ENVIRONMENT = {
    "RASPISNOY_SECRET_KEY": TEST_SECRET,
    "RASPISNOY_TOURNAMENT_PASS_SECONDS": "0.3",
    "RASPISNOY_REQUESTS_PER_ADDRESS": "100000/minute",
    "RASPISNOY_REQUESTS_PER_USER": "100000/minute",
}
#: Games of three deals whose bots wait a little: a round lasts a few seconds, long
#: enough to be killed in the middle of.
RULES = {**ONE_ROUND, "custom_plan": ["2", "3", "2"]}


def until(read: Callable[[], Message], done: Callable[[Message], bool]) -> Message:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            found = read()
        except httpx.HTTPError:  # the server is starting again
            time.sleep(0.5)
            continue
        if done(found):
            return found
        time.sleep(0.3)
    raise AssertionError("the tournament did not get there in time")


@pytest.mark.parametrize("backend", BACKENDS)
def test_sigkill_mid_round_and_between_rounds_loses_nothing(backend: str, tmp_path: Path) -> None:
    with new_database(backend, tmp_path) as url:
        server = ServerProcess("--database-url", url, env=ENVIRONMENT)
        server.start()
        try:
            director = Api(server.url, "Директор")
            made = director.post(
                "/api/tournaments",
                name="Кубок",
                starts_at=time.time() + 3600,
                rules=RULES,
                table_size=4,
                rounds=3,
                turn_seconds=30,
                bot_delay_ms=150,
            ).json()
            path = f"/api/tournaments/{made['id']}"
            for number in range(8):
                assert director.post(
                    f"{path}/bots", level="random", name=f"Бот {number}"
                ).is_success
            engine = create_engine(url)
            with engine.begin() as connection:
                connection.execute(
                    update(Tournament)
                    .where(Tournament.id == made["id"])
                    .values(starts_at=time.time() - 1)
                )

            def page() -> Message:
                answer = director.http.get(path)
                answer.raise_for_status()
                found: Message = answer.json()
                return found

            def playing(number: int) -> Callable[[Message], bool]:
                def done(found: Message) -> bool:
                    rounds = found["round_list"]
                    return len(rounds) >= number and any(
                        t["status"] == "playing" for t in rounds[number - 1]["tables"]
                    )

                return done

            first = until(page, playing(1))
            started = first["round_list"][0]["started_at"]
            server.kill()  # in the middle of round 1's games
            server.start()
            until(page, lambda found: len(found["round_list"]) >= 2)
            server.kill()  # round 2 just paired: its games may not even have started
            server.start()
            final = until(page, lambda found: found["state"] == "finished")
            assert final["round_list"][0]["started_at"] == started  # the clock goes on
            with engine.connect() as connection:
                rounds = connection.execute(
                    select(func.count()).where(TournamentRound.tournament_id == made["id"])
                ).scalar_one()
                tables = connection.execute(
                    select(TournamentTable.round_number, func.count())
                    .where(TournamentTable.tournament_id == made["id"])
                    .group_by(TournamentTable.round_number)
                ).all()
            engine.dispose()
            assert rounds == 3 and sorted(tables) == [(1, 2), (2, 2), (3, 2)]
            lines = final["standings"]
            assert all(line["games"] == 3 for line in lines)
            assert sum(line["points"] for line in lines) == 6 * 2 * 3  # no result lost
            for round_ in final["round_list"]:
                records = [
                    director.http.get(f"/api/games/{t['table_id']}/record").json()
                    for t in round_["tables"]
                ]
                games = [replay(parse_record(record)) for record in records]
                assert all(game.is_over for game in games)
                assert records[0]["rounds"][0]["hands"] == records[1]["rounds"][0]["hands"]
        finally:
            server.stop(20)
