"""Request ids and JSON logs: an id for every request (the proxy's if it is valid, else a
new one), returned in ``X-Request-ID`` and written in every JSON log line of the request."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import FAST, TEST_SECRET, Api
from server_process import ServerProcess

from raspisnoy.server.app import create_app
from raspisnoy.server.logs import (
    REQUEST,
    JsonFormatter,
    RequestContext,
    log_config,
    request_id_of,
)
from raspisnoy.store import Store

#: What a made request id looks like.
MADE = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    store = Store.open(f"sqlite:///{tmp_path / 'raspisnoy.sqlite3'}")
    return TestClient(create_app(store, FAST))


def test_an_id_is_made_when_the_proxy_sends_none(client: TestClient) -> None:
    first, second = client.get("/healthz"), client.get("/healthz")
    assert MADE.fullmatch(first.headers["x-request-id"])
    assert first.headers["x-request-id"] != second.headers["x-request-id"]


@pytest.mark.parametrize(
    "given", ["4f1c0b7e9a2d4c6e8f0a1b2c3d4e5f60", "req-2026.12.01:abc_DEF-9", "a" * 128]
)
def test_a_valid_id_is_echoed(client: TestClient, given: str) -> None:
    assert client.get("/healthz", headers={"X-Request-ID": given}).headers["x-request-id"] == given
    refused = client.get("/api/tables/nothing-here", headers={"X-Request-ID": given})
    assert refused.status_code == 404
    assert refused.headers["x-request-id"] == given


@pytest.mark.parametrize(
    "given", ["short", "a" * 129, "two words here", "<script>alert(1)</script>", "id;rm -rf", ""]
)
def test_an_invalid_id_is_replaced(client: TestClient, given: str) -> None:
    answer = client.get("/healthz", headers={"X-Request-ID": given})
    assert MADE.fullmatch(answer.headers["x-request-id"])
    assert request_id_of(given) != given


@given(st.text(max_size=200) | st.from_regex(r"[A-Za-z0-9._:-]{8,128}", fullmatch=True))
def test_a_request_id_is_always_safe_and_kept_only_when_valid(text: str) -> None:
    request_id = request_id_of(text)
    assert re.fullmatch(r"[A-Za-z0-9._:-]{8,128}", request_id)  # safe in a header and a line
    valid = re.fullmatch(r"[A-Za-z0-9._:-]{8,128}", text) is not None
    assert (request_id == text) == valid
    assert valid or MADE.fullmatch(request_id)


def test_a_socket_is_accepted_with_its_id(client: TestClient) -> None:
    headers = {"X-Request-ID": "socket-request-0001"}
    with client.websocket_connect("/ws/lobby", headers=headers) as socket:
        assert socket.receive_json()["type"]
        # Starlette's test client keeps the accept's headers.
        headers_sent: list[tuple[bytes, bytes]] = list(socket.extra_headers or ())
        assert (b"x-request-id", b"socket-request-0001") in headers_sent


def _line(message: str) -> dict[str, object]:
    """``message`` as the JSON log line of a warning of ``raspisnoy.server.hub`` now."""
    record = logging.LogRecord("raspisnoy.server.hub", logging.WARNING, "", 0, message, (), None)
    line: dict[str, object] = json.loads(JsonFormatter().format(record))
    return line


def test_a_json_line_has_the_request_and_the_table() -> None:
    async def a_request() -> dict[str, object]:
        REQUEST.set(RequestContext("abcdefgh12345678", "T4bLe_id", asyncio.current_task()))
        return _line("a b")

    line = asyncio.run(a_request())
    assert str(line.pop("time")).endswith("+00:00")
    assert line == {
        "level": "WARNING",
        "logger": "raspisnoy.server.hub",
        "message": "a b",
        "request_id": "abcdefgh12345678",
        "table_id": "T4bLe_id",
    }
    assert "request_id" not in _line("outside any request")


def test_only_the_request_names_it() -> None:
    """A task started while a request is served (a table's actor) outlives it and serves
    others, and a thread may be any task's: their lines name no request and no table."""

    async def a_request() -> list[dict[str, object]]:
        REQUEST.set(RequestContext("abcdefgh12345678", "T4bLe_id", asyncio.current_task()))
        return [
            _line("in the request"),
            await asyncio.create_task(_spawned_line()),
            await asyncio.to_thread(_line, "in a thread"),
        ]

    in_request, *elsewhere = asyncio.run(a_request())
    assert in_request["request_id"] == "abcdefgh12345678"
    for line in elsewhere:
        assert "request_id" not in line and "table_id" not in line, line


async def _spawned_line() -> dict[str, object]:
    return _line("in a task")


def test_the_format_setting_chooses_the_formatters() -> None:
    json_config = log_config("json")
    assert set(json_config["formatters"]) == {"default", "access"}
    for formatter in json_config["formatters"].values():
        assert formatter["()"].endswith("logs.JsonFormatter")
    text_config = log_config("text")
    assert "uvicorn" in text_config["formatters"]["default"]["()"]
    assert text_config["loggers"]["raspisnoy"]["level"] == "INFO"
    # Not a terminal (pytest captures standard error): JSON.
    assert log_config(None)["formatters"] == json_config["formatters"]


def test_the_server_writes_one_json_object_a_line_with_the_request_id() -> None:
    server = ServerProcess(
        env={"RASPISNOY_SECRET_KEY": TEST_SECRET, "RASPISNOY_LOG_FORMAT": "json"},
        startup_seconds=120,
    )
    with server:
        anna = Api(server.url, "Anna")
        table = anna.create_table(bots="random")
        given = "proxy-id-0123456789abcdef"
        path = f"/api/tables/{table['id']}"
        answer = anna.http.get(path, headers={"X-Request-ID": given})
        assert answer.status_code == 200
        assert answer.headers["x-request-id"] == given
        lines = _lines_until(server.log, given)
    assert lines, "the server wrote no log line"
    for line in lines:
        assert set(line) >= {"time", "level", "logger", "message"}, line
    ours = [line for line in lines if line.get("request_id") == given]
    assert len(ours) == 1
    assert ours[0]["logger"] == "uvicorn.access"
    assert path in str(ours[0]["message"])
    assert ours[0]["table_id"] == table["id"]


def _lines_until(log: Path, request_id: str) -> list[dict[str, object]]:
    """The server log's lines as JSON, once one names ``request_id`` (or after 20 s);
    a line that is no JSON object fails the test."""
    deadline = time.monotonic() + 20
    while True:
        lines = [json.loads(text) for text in log.read_text().splitlines() if text.strip()]
        if any(line.get("request_id") == request_id for line in lines):
            return lines
        if time.monotonic() > deadline:
            return lines
        time.sleep(0.1)
