"""``raspisnoy serve --workers N`` refuses to start without PostgreSQL and Redis, with one
``error:`` line and status 1, before anything listens."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from raspisnoy.cli import app
from raspisnoy.server.config import ServerSettings


def _serve(*options: str, **given: str) -> tuple[int, str]:
    """The exit status and standard error of ``raspisnoy serve`` (in this process), with
    only the ``given`` settings in the environment."""
    environment: dict[str, str | None] = {
        name: None for name in os.environ if name.startswith("RASPISNOY_")
    }
    environment.update(given)
    result = CliRunner().invoke(app, ["serve", "--port", "0", *options], env=environment)
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("options", "environment", "says"),
    [
        (["--workers", "2"], {}, "--workers 2 needs PostgreSQL and Redis"),
        (
            ["--workers", "3", "--database-url", "postgresql+psycopg://u@127.0.0.1:1/db"],
            {},
            "--workers 3 needs PostgreSQL and Redis",
        ),
        (["--redis-url", "redis://127.0.0.1:6379/0"], {}, "which need PostgreSQL"),
        (
            ["--workers", "2", "--database-url", "postgresql+psycopg://u@127.0.0.1:1/db"],
            {"RASPISNOY_REDIS_URL": "redis://127.0.0.1:1/0"},
            "cannot reach Redis at redis://127.0.0.1:1/0",
        ),
        (
            ["--workers", "2", "--database-url", "postgresql+psycopg://u@127.0.0.1:1/db"],
            {
                "RASPISNOY_REDIS_URL": "redis://127.0.0.1:1/0",
                "RASPISNOY_RATE_LIMIT_STORAGE": "memory://",
            },
            "RATE_LIMIT_STORAGE=memory:// counts each worker's rate limits apart",
        ),
    ],
)
def test_several_workers_need_postgresql_and_redis(
    options: list[str], environment: dict[str, str], says: str
) -> None:
    status, stderr = _serve(*options, **environment)
    assert status == 1
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert says in lines[0]


@pytest.mark.parametrize(
    ("given", "counted_at"),
    [
        ({}, "memory://"),
        ({"redis_url": "redis://r:6379/0"}, "redis://r:6379/0"),
        (
            {"redis_url": "redis://r:6379/0", "rate_limit_storage": "redis://r:6379/1"},
            "redis://r:6379/1",
        ),
        ({"rate_limit_storage": "redis://r:6379/1"}, "redis://r:6379/1"),
    ],
)
def test_rate_limits_are_counted_where_the_workers_share_them(
    given: dict[str, str], counted_at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unset, the rate limits are counted in the workers' Redis when there is one, so
    that an operator who sets only ``RASPISNOY_REDIS_URL`` does not get a limit a worker."""
    for name in [name for name in os.environ if name.startswith("RASPISNOY_")]:
        monkeypatch.delenv(name)
    assert ServerSettings.model_validate(given).rate_limits_at() == counted_at
