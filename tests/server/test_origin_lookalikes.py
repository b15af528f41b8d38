"""The Origin check compares whole origins: look-alikes of the server's own origin and of
an allowed one (a longer host, a longer port, user info before another host) are refused
like any other site, where a check by prefix would let them through (issue 28)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from server_helpers import FAST, Api, Server
from test_protocol import close_of

from raspisnoy.server.auth import SESSION_COOKIE
from raspisnoy.server.config import ServerSettings

FRIEND = "https://friend.example"


@pytest.fixture(scope="module")
def guarded(start_server: Callable[[ServerSettings], Server]) -> Server:
    return start_server(FAST.model_copy(update={"allowed_origins": (FRIEND,)}))


def lookalikes(origin: str) -> list[str]:
    """Origins that start like ``origin`` but are another site's."""
    return [f"{origin}.evil.example", f"{origin}0", f"{origin}@evil.example"]


def test_lookalike_origins_may_not_open_a_socket(guarded: Server) -> None:
    host = Api(guarded.base, "Host")
    table = host.create_table(bots="random")
    for origin in lookalikes(guarded.base) + lookalikes(FRIEND):
        code, _reason = close_of(host.socket(table["id"], origin=origin))
        assert code == 4403, origin


def test_lookalike_origins_may_not_write_with_the_cookie(guarded: Server) -> None:
    guest = Api(guarded.base, "Cookie")
    assert guest.token is not None
    for origin in lookalikes(guarded.base) + lookalikes(FRIEND):
        refused = httpx.post(
            f"{guarded.base}/api/tables",
            json={},
            cookies={SESSION_COOKIE: guest.token},
            headers={"origin": origin},
        )
        assert refused.status_code == 403, (origin, refused.text)
