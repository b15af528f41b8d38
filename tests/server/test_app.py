"""How the server is put together: every REST route documents what it answers, the API
reference works offline, the settings come from the environment and are documented, and
the table actor does not depend on the hub."""

from __future__ import annotations

import ast
import gc
import re
from pathlib import Path
from types import ModuleType

import httpx
import pytest
from server_helpers import Api, Message, Server

import raspisnoy.server.services.chat
import raspisnoy.server.services.rematch
import raspisnoy.server.services.tables.actor
from raspisnoy.server.command import tune_gc
from raspisnoy.server.config import ENV_PREFIX, ServerSettings
from raspisnoy.server.errors import HTTP_STATUS, SOCKET_ERRORS, Refusal

ROOT = Path(__file__).resolve().parents[2]


def test_every_api_route_names_the_schema_of_its_answer(server: Server) -> None:
    spec = httpx.get(f"{server.base}/api/openapi.json").json()
    operations = [
        (path, method, operation)
        for path, methods in spec["paths"].items()
        if path.startswith("/api/")
        for method, operation in methods.items()
    ]
    assert len(operations) >= 20
    for path, method, operation in operations:
        success = next(code for code in operation["responses"] if code.startswith("2"))
        content = operation["responses"][success]["content"]
        schemas = [media["schema"] for media in content.values()]
        named = [s for s in schemas if "$ref" in s or s.get("type") == "string"]
        assert named, f"{method.upper()} {path} does not say what it answers: {content}"
        for schema in schemas:
            assert schema != {}, f"{method.upper()} {path}: an empty schema"


def test_the_api_reference_loads_nothing_from_elsewhere(server: Server) -> None:
    page = httpx.get(f"{server.base}/api/docs")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    assert not re.search(r"(https?:)?//[\w.-]+\.\w+", page.text), page.text
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert len(assets) >= 3
    for asset in assets:
        answer = httpx.get(f"{server.base}{asset}")
        assert answer.status_code == 200 and len(answer.content) > 100, asset
    spec_url = re.search(r"url: '([^']+)'", page.text)
    assert spec_url is not None
    assert httpx.get(f"{server.base}{spec_url.group(1)}").json()["openapi"].startswith("3.")


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RASPISNOY_MESSAGES_PER_SECOND", "55")
    monkeypatch.setenv("RASPISNOY_DATABASE_URL", "sqlite:///elsewhere.sqlite3")
    settings = ServerSettings()
    assert settings.messages_per_second == 55
    assert settings.database() == "sqlite:///elsewhere.sqlite3"
    assert ServerSettings(messages_per_second=7).messages_per_second == 7  # given wins
    monkeypatch.setenv("RASPISNOY_MESSAGE_BURST", "0")
    with pytest.raises(ValueError, match="message_burst"):
        ServerSettings()


def test_the_collectors_thresholds_are_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RASPISNOY_GC_THRESHOLDS", "[7000, 20, 300]")
    settings = ServerSettings()
    assert settings.gc_thresholds == (7000, 20, 300)
    before = gc.get_threshold()
    try:
        tune_gc(settings.gc_thresholds)
        assert gc.get_threshold() == (7000, 20, 300)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    monkeypatch.setenv("RASPISNOY_GC_THRESHOLDS", "[50, 10, 500]")  # a pass every 50 objects
    with pytest.raises(ValueError, match="gc_thresholds"):
        ServerSettings()


def test_every_setting_is_documented() -> None:
    text = (ROOT / "docs" / "server-settings.md").read_text(encoding="utf-8")
    documented = set(re.findall(rf"^\| `({ENV_PREFIX}[A-Z_]+)` \|", text, re.MULTILINE))
    expected = {f"{ENV_PREFIX}{name.upper()}" for name in ServerSettings.model_fields}
    assert documented == expected


def test_every_refusal_has_an_http_status_or_a_socket_error() -> None:
    assert set(HTTP_STATUS) | SOCKET_ERRORS == set(Refusal)
    assert Refusal.NOT_SEATED in SOCKET_ERRORS and Refusal.NOT_SEATED in HTTP_STATUS


def _server_imports(module: ModuleType) -> set[str]:
    """The ``raspisnoy.server`` modules ``module`` imports (type-checking imports too)."""
    assert module.__file__ is not None
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    imported |= {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    return {name for name in imported if name.startswith("raspisnoy.server")}


def test_the_table_actor_does_not_import_the_hub() -> None:
    """The actor and the parts of it in their own modules (the chat, the rematch) know
    the hub only as the actor's port; the actor hands a game's end to the results. The
    chat and the rematch know the actor only as the narrow interface each declares."""
    parts = {
        "raspisnoy.server.connection",
        "raspisnoy.server.errors",
        "raspisnoy.server.protocol",
        "raspisnoy.server.wire",
    }
    inside = {
        "raspisnoy.server.services.chat",
        "raspisnoy.server.services.rematch",
        "raspisnoy.server.services.results",
    }
    assert _server_imports(raspisnoy.server.services.tables.actor) <= parts | inside
    for module in (raspisnoy.server.services.chat, raspisnoy.server.services.rematch):
        assert _server_imports(module) <= parts | {"raspisnoy.server.limits"}


@pytest.mark.parametrize("content_type", ["text/plain", "multipart/form-data", "application/json"])
def test_a_body_that_is_not_utf8_is_refused_with_4xx(server: Server, content_type: str) -> None:
    """Found by the fuzz audit: FastAPI's own handler answered 500 decoding it."""
    for path in ("/api/session", "/api/tables", "/api/sheets"):
        answer = httpx.post(
            server.base + path, content=b"\xff\xfe{", headers={"content-type": content_type}
        )
        assert 400 <= answer.status_code < 500, (path, answer.status_code, answer.text)
        assert answer.json()["detail"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"players": "4"}),
        ("/api/tables", {"public": "yes"}),
        ("/api/tables", {"turn_seconds": "30"}),
        ("/api/tables", {"bot_delay_ms": 800.0}),
        ("/api/session", {"nickname": 42}),
    ],
)
def test_values_of_the_wrong_json_type_are_refused(
    server: Server, path: str, body: Message
) -> None:
    """Found by the fuzz audit: the values were converted (``"4"`` made four seats)."""
    guest = Api(server.base, "Strict")
    answer = guest.post(path, **body)
    assert answer.status_code == 422, answer.text
    assert next(iter(body)) in answer.text


def test_a_seat_given_as_text_is_refused(server: Server) -> None:
    guest = Api(server.base, "Sitter")
    table = guest.create_table(bots="random")
    answer = guest.post(f"/api/tables/{table['id']}/sit", seat="1")
    assert answer.status_code == 422, answer.text
