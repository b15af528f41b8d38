"""The cluster suite: the real PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379),
and nginx (Debian's package) for the tests that go through it; each test that needs one
that is missing is skipped, saying which."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy.exc import OperationalError

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "deploy"), str(ROOT / "benchmarks")]

from localcluster import DEFAULT_DATABASE, DEFAULT_REDIS, find_nginx, postgres_schema  # noqa: E402


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL schema for the test, dropped afterwards."""
    try:
        with postgres_schema(DEFAULT_DATABASE) as url:
            yield url
    except OperationalError as error:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is unreachable: {error.orig}")


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        Redis.from_url(DEFAULT_REDIS, socket_timeout=2).ping()
    except (RedisError, OSError) as error:
        pytest.skip(f"Redis at 127.0.0.1:6379 is unreachable: {error}")
    return DEFAULT_REDIS


@pytest.fixture(scope="session")
def nginx() -> str:
    binary = find_nginx()
    if binary is None:
        pytest.skip("nginx is not installed (Debian package nginx; .ci/run installs it)")
    return binary
