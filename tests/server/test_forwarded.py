"""Forwarded headers (issue 27, defect 12): ``X-Forwarded-For`` is believed only from the
proxies in ``RASPISNOY_FORWARDED_ALLOW_IPS``; from any other caller, loopback included, a
forged header does not change the address the per-address limits count."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from server_helpers import FAST, Server, at_most

from raspisnoy.server.config import ServerSettings

Start = Callable[[ServerSettings], Server]


def _rules_from(server: Server, forwarded_for: str) -> int:
    """The status of one anonymous ``GET /api/rules`` claiming to be ``forwarded_for``."""
    answer = httpx.get(f"{server.base}/api/rules", headers={"X-Forwarded-For": forwarded_for})
    return answer.status_code


def test_a_forged_address_from_an_untrusted_client_counts_as_the_client(
    start_server: Start,
) -> None:
    server = start_server(FAST.model_copy(update={"requests_per_address": at_most(3)}))
    assert [_rules_from(server, f"203.0.113.{n}") for n in range(4)] == [200, 200, 200, 429]


def test_the_address_a_configured_proxy_forwards_is_counted(start_server: Start) -> None:
    update = {"requests_per_address": at_most(3), "forwarded_allow_ips": ("127.0.0.1",)}
    server = start_server(FAST.model_copy(update=update))
    assert [_rules_from(server, f"203.0.113.{n}") for n in range(4)] == [200] * 4
    assert [_rules_from(server, "198.51.100.7") for _ in range(4)] == [200, 200, 200, 429]


def test_no_proxy_is_trusted_by_default() -> None:
    assert ServerSettings().forwarded_allow_ips == ()
