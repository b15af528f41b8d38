"""Only pages of the server's own origin (and of the origins the settings allow) may open a
table WebSocket or write with the session cookie: another site's page in the visitor's
browser would otherwise play their seat."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from server_helpers import FAST, Api, Server
from test_protocol import close_of

from raspisnoy.server.auth import SESSION_COOKIE
from raspisnoy.server.config import ServerSettings

ELSEWHERE = "https://cards.example.net"


@pytest.fixture(scope="module")
def guarded(start_server: Callable[[ServerSettings], Server]) -> Server:
    return start_server(FAST.model_copy(update={"allowed_origins": ("https://friend.example",)}))


def test_a_socket_from_another_origin_is_closed_with_4403(guarded: Server) -> None:
    host = Api(guarded.base, "Host")
    table = host.create_table(bots="random")
    stranger = host.socket(table["id"], origin=ELSEWHERE)
    code, reason = close_of(stranger)
    assert code == 4403 and ELSEWHERE in reason
    for origin in (guarded.base, "https://friend.example", None):
        player = host.socket(table["id"], origin=origin)
        state = player.recv()
        assert state["type"] == "state" and state["you"]["seat"] == 0, origin
        player.close()


def test_cookie_writes_need_an_allowed_origin(guarded: Server) -> None:
    guest = Api(guarded.base, "Cookie")
    assert guest.token is not None
    cookies = {SESSION_COOKIE: guest.token}
    url = f"{guarded.base}/api/tables"

    def create(**headers: str) -> httpx.Response:
        return httpx.post(url, json={}, cookies=cookies, headers=headers)

    refused = create(origin=ELSEWHERE)
    assert refused.status_code == 403 and ELSEWHERE in refused.json()["detail"]
    assert create(origin=guarded.base).status_code == 201
    assert create(origin="https://friend.example").status_code == 201
    assert create().status_code == 201  # no Origin: not a browser
    # A bearer token is never sent by a browser on its own: no origin needed.
    bearer = httpx.post(url, json={}, headers={"authorization": f"Bearer {guest.token}"})
    assert bearer.status_code == 201
    # Reading is harmless from anywhere.
    read = httpx.get(f"{guarded.base}/api/session", cookies=cookies, headers={"origin": ELSEWHERE})
    assert read.status_code == 200
