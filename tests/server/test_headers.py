"""Security headers on every HTTP answer (issue 27, item 12): the Content-Security-Policy
(script only from the site itself, except Swagger UI's start on the API reference), no
framing, no content sniffing. The browser tests check that the client satisfies it."""

from __future__ import annotations

import httpx
import pytest
from server_helpers import Server

from raspisnoy.server.headers import CONTENT_SECURITY_POLICY, DOCS_SECURITY_POLICY


@pytest.mark.parametrize("path", ["/", "/score", "/js/main.js", "/api/session", "/healthz"])
def test_every_answer_has_the_headers(server: Server, path: str) -> None:
    answer = httpx.get(f"{server.base}{path}")
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_the_policy_allows_no_script_but_the_sites_own() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["script-src"].split()[0] == "'self'"
    assert "'unsafe-inline'" not in directives["script-src"]
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


def test_the_api_reference_may_start_swagger_ui(server: Server) -> None:
    answer = httpx.get(f"{server.base}/api/docs")
    assert answer.status_code == 200 and "<script>" in answer.text.replace(" ", "")
    assert answer.headers["content-security-policy"] == DOCS_SECURITY_POLICY
