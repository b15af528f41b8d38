"""``/metrics``: what it says after a game, who may read it (others get the 404 of a path
that does not exist), and that it tells nothing about any player, card or table."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import httpx
import pytest
from fastapi.testclient import TestClient
from fresh_databases import BACKENDS, new_store
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import FAST, Api, Server, game_over, play_until
from starlette.websockets import WebSocketDisconnect

from raspisnoy.bots import TABLE_BOTS, Bot, make_bot
from raspisnoy.core import Action, View
from raspisnoy.server.app import create_app
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.tables import actor
from raspisnoy.store import Store

#: Every label the endpoint may use and the values it may take: fixed sets only, so that
#: no table id, user name or card can ever be one (``le``: the histogram's buckets).
ALLOWED_LABELS: dict[str, Callable[[str], bool]] = {
    "status": lambda value: (
        value in {"open", "playing", "queued", "running"}
        or (value.isdigit() and 400 <= int(value) < 600)
    ),
    "kind": lambda value: value in {"table", "lobby"},
    "code": lambda value: (
        value in {"1000", "1001", "1008", "1009", "1012", "1013"}
        or value in {"4401", "4403", "4404", "4409", "4429"}
    ),
    "level": lambda value: value in TABLE_BOTS,
    "le": lambda value: value == "+Inf" or float(value) > 0,
}
#: Seconds a scrape may take on a busy machine (the expert's search compiles beside the
#: server when it starts, holding the interpreter for seconds at a time).
SLOW = 60
#: The metrics token of the tests.
TOKEN = "metrics-token-0123456789"
SHORT_RULES = {"preset": "raspisnoy.com", "custom_plan": ["1", "2", "2:no-trump"]}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store.open(f"sqlite:///{tmp_path / 'raspisnoy.sqlite3'}")
    yield store
    store.close()


@pytest.fixture(params=BACKENDS)
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh store on SQLite, then on PostgreSQL."""
    with new_store(request.param, tmp_path) as opened:
        yield opened


def _client(store: Store, address: str, **settings: object) -> TestClient:
    """A client of the app (no server, no lifespan) seen as coming from ``address``."""
    checked = ServerSettings(**{**FAST.model_dump(), **settings})  # validated, unlike model_copy
    return TestClient(create_app(store, checked), client=(address, 4000))


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _metrics_once(
    base: str, key: tuple[str, tuple[tuple[str, str], ...]], value: float
) -> tuple[httpx.Response, dict[tuple[str, tuple[tuple[str, str], ...]], float]]:
    """The metrics once the sample ``key`` has reached ``value`` (the last action is
    counted when its handler resumes, which may come after the client saw the game end),
    or after 20 s."""
    deadline = time.monotonic() + 20
    while True:
        answer = httpx.get(f"{base}/metrics", timeout=SLOW)
        samples = _samples(answer.text)
        if samples.get(key) == value or time.monotonic() > deadline:
            return answer, samples
        time.sleep(0.05)


def test_loopback_reads_the_metrics(any_store: Store) -> None:
    client = _client(any_store, "127.0.0.1")
    token = client.post("/api/session", json={"nickname": "Host"}).json()["token"]
    opened = client.post("/api/tables", json={}, headers={"authorization": f"Bearer {token}"})
    assert opened.status_code == 201, opened.text
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    samples = _samples(answer.text)
    assert samples[("raspisnoy_tables", (("status", "open"),))] == 1
    assert samples[("raspisnoy_tables", (("status", "playing"),))] == 0
    assert samples[("raspisnoy_review_jobs", (("status", "queued"),))] == 0
    assert samples[("raspisnoy_store_up", ())] == 1
    assert ("raspisnoy_store_pool_checked_out", ()) in samples


@pytest.mark.parametrize(
    ("address", "settings", "headers"),
    [
        ("203.0.113.5", {}, {}),
        ("203.0.113.5", {"metrics_token": TOKEN}, {"authorization": "Bearer wrong"}),
        ("203.0.113.5", {"metrics_token": TOKEN}, {"authorization": f"Bearer {TOKEN[:-1]}"}),
        ("203.0.113.5", {"metrics_token": TOKEN}, {}),
        ("127.0.0.1", {"metrics_addresses": ("10.0.0.0/8",)}, {}),
        # A session token is no metrics token.
        ("203.0.113.5", {}, {"authorization": f"Bearer {TOKEN}"}),
    ],
)
def test_anyone_else_gets_the_404_of_a_missing_path(
    store: Store, address: str, settings: dict[str, object], headers: dict[str, str]
) -> None:
    client = _client(store, address, **settings)
    refused = client.get("/metrics", headers=headers)
    missing = client.get("/no-such-page-anywhere", headers=headers)
    assert refused.status_code == missing.status_code == 404
    assert refused.content == missing.content
    assert refused.headers["content-type"] == missing.headers["content-type"]
    assert "raspisnoy_" not in refused.text


@pytest.mark.parametrize(
    ("address", "settings", "headers"),
    [
        ("203.0.113.5", {"metrics_token": TOKEN}, {"authorization": f"Bearer {TOKEN}"}),
        ("10.1.2.3", {"metrics_addresses": ("10.0.0.0/8",)}, {}),
        ("::1", {}, {}),
    ],
)
def test_the_token_or_an_allowed_network_reads_them(
    store: Store, address: str, settings: dict[str, object], headers: dict[str, str]
) -> None:
    answer = _client(store, address, **settings).get("/metrics", headers=headers)
    assert answer.status_code == 200
    assert "raspisnoy_tables" in answer.text


def test_refusals_are_counted_by_status(store: Store) -> None:
    client = _client(store, "127.0.0.1")
    for _ in range(3):
        assert client.get("/api/tables/no-such-table").status_code == 404
    assert client.post("/api/session", json={"nickname": ""}).status_code == 422
    samples = _samples(client.get("/metrics").text)
    assert samples[("raspisnoy_http_errors_total", (("status", "404"),))] == 3
    assert samples[("raspisnoy_http_errors_total", (("status", "422"),))] == 1


def test_sockets_closed_by_the_server_are_counted_by_code(store: Store) -> None:
    client = _client(store, "127.0.0.1")
    for _ in range(2):
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect("/ws/tables/no-such-table") as socket,
        ):
            socket.receive_json()
        assert closed.value.code == 4404
    samples = _samples(client.get("/metrics").text)
    assert samples[("raspisnoy_socket_closes_total", (("code", "4404"),))] == 2
    assert samples[("raspisnoy_sockets", (("kind", "table"),))] == 0


def test_after_a_game_and_nothing_private(store: Store) -> None:
    server = Server(store, FAST)
    try:
        anna = Api(server.base, "Anna Secretname")
        table = anna.create_table(
            rules=SHORT_RULES, bots="random", bot_delay_ms=0, turn_seconds=0, public=False
        )
        player = anna.socket(table["id"])
        player.recv()
        assert anna.post(f"/api/tables/{table['id']}/start").status_code == 200
        watching = _samples(httpx.get(f"{server.base}/metrics", timeout=SLOW).text)
        assert watching[("raspisnoy_sockets", (("kind", "table"),))] == 1
        assert watching[("raspisnoy_tables", (("status", "playing"),))] == 1
        play_until(player, game_over)
        acts = sum(  # the game's actions of the person (the last ack may not be read yet)
            1 for m in player.messages if m["type"] == "event" and m["action"]["by"] == "player"
        )
        player.close()
        answer, samples = _metrics_once(server.base, ("raspisnoy_actions_total", ()), acts)
    finally:
        server.stop()
    assert acts > 0
    assert samples[("raspisnoy_actions_total", ())] == acts
    assert samples[("raspisnoy_action_seconds_count", ())] == acts
    assert samples[("raspisnoy_action_seconds_sum", ())] > 0
    assert samples[("raspisnoy_tables", (("status", "playing"),))] == 0
    assert samples[("raspisnoy_bot_failures_total", (("level", "random"),))] == 0
    # Nothing about this game: no table id, no name, and no label (so no card) outside its
    # fixed set of values.
    for secret in (table["id"], "Secretname", anna.user["id"]):
        assert secret not in answer.text
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            for label, value in sample.labels.items():
                assert ALLOWED_LABELS[label](value), (sample.name, label, value)


class _BrokenBot:
    """A bot whose every move fails, as a bot with a defect would."""

    def __init__(self, level: str) -> None:
        self.level = level

    def act(self, view: View) -> Action:
        raise RuntimeError(f"a {self.level} bot with a defect")


def test_failed_bot_moves_are_counted_by_level_and_the_game_goes_on(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that fails plays its first legal action instead (the game is not stopped),
    and each such move is counted for the operators under the bot's level."""

    def broken(name: str, seed: int | str = 0, time_ms: float | None = None) -> Bot:
        return cast(Bot, _BrokenBot(make_bot(name, seed, time_ms).name))

    monkeypatch.setattr(actor, "make_bot", broken)
    server = Server(store, FAST)
    try:
        anna = Api(server.base, "Anna")
        table = anna.create_table(
            rules=SHORT_RULES, bots="heuristic", bot_delay_ms=0, turn_seconds=0
        )
        player = anna.socket(table["id"])
        player.recv()
        assert anna.post(f"/api/tables/{table['id']}/start").status_code == 200
        play_until(player, game_over)
        bot_moves = sum(
            1 for m in player.messages if m["type"] == "event" and m["action"]["by"] == "bot"
        )
        player.close()
        key = ("raspisnoy_bot_failures_total", (("level", "heuristic"),))
        _, samples = _metrics_once(server.base, key, bot_moves)
    finally:
        server.stop()
    assert bot_moves > 0
    assert samples[key] == bot_moves
    assert samples[("raspisnoy_bot_failures_total", (("level", "expert"),))] == 0


def test_the_settings_read_lists_of_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RASPISNOY_METRICS_ADDRESSES", '["10.0.0.0/8", "192.168.1.7"]')
    monkeypatch.setenv("RASPISNOY_METRICS_TOKEN", "t" * 20)
    settings = ServerSettings()
    assert settings.metrics_addresses == ("10.0.0.0/8", "192.168.1.7")
    assert settings.metrics_token is not None
    assert settings.metrics_token.get_secret_value() == "t" * 20
    monkeypatch.setenv("RASPISNOY_METRICS_TOKEN", "")  # an empty token would let "Bearer " in
    with pytest.raises(ValueError, match="metrics_token"):
        ServerSettings()
