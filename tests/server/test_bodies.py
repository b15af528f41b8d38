"""Request bodies over ``max_body_bytes`` are refused with 413 before the app reads them
(issue 27, defect 5), whether their size is declared or they come in chunks; smaller ones
reach the routes as they were sent."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
from server_helpers import FAST, Server

from raspisnoy.server.config import ServerSettings

Start = Callable[[ServerSettings], Server]
LIMIT = 2048


def chunks(total: int, size: int = 512) -> Iterator[bytes]:
    """``total`` bytes of a JSON string body, ``size`` at a time, with no length declared."""
    yield b'{"nickname": "'
    for _ in range(total // size):
        yield b"x" * size
    yield b'"}'


def test_bodies_over_the_limit_are_refused(start_server: Start) -> None:
    server = start_server(FAST.model_copy(update={"max_body_bytes": LIMIT}))
    url = f"{server.base}/api/session"
    declared = httpx.post(url, content=b"x" * (100 * LIMIT))
    assert declared.status_code == 413
    assert declared.json() == {"detail": f"the request body is over {LIMIT} bytes"}
    streamed = httpx.post(url, content=chunks(50 * LIMIT))  # chunked: no Content-Length
    assert streamed.status_code == 413


def test_bodies_under_the_limit_reach_the_routes(start_server: Start) -> None:
    server = start_server(FAST.model_copy(update={"max_body_bytes": LIMIT}))
    url = f"{server.base}/api/session"
    small = httpx.post(url, content=chunks(256, 64))
    assert small.status_code == 422  # a nickname of 256 x: the route's own refusal
    assert "nickname" in small.text
    fine = httpx.post(url, json={"nickname": "Chunky"})
    assert fine.status_code == 200 and fine.json()["user"]["nickname"] == "Chunky"
