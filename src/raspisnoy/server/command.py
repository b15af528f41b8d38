"""``raspisnoy serve``: the game server under Uvicorn (registered in ``raspisnoy.cli``).

The database is ``--database-url`` (or ``RASPISNOY_DATABASE_URL``), else SQLite in the
data directory; every other setting comes from the environment (``ServerSettings``).
Migrations run before the server listens, so a bad URL or an
unreachable database ends in one ``error:`` line, like every other command.

``--workers N`` runs N server processes on ports ``--port`` to ``--port + N - 1`` (a load
balancer in front routes each table to one of them, docs/cluster.md) and restarts any
that dies; several workers need PostgreSQL and Redis.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from raspisnoy.cli_support import DataDir, cli_help, fail

if TYPE_CHECKING:
    from raspisnoy.server.config import ServerSettings

__all__ = ["UVICORN_OPTIONS", "proxy_options", "serve", "tune_gc"]

#: Seconds before a worker that died is started again.
_RESTART_SECONDS = 1.0

#: Seconds a stopping worker waits for its clients' handlers before cancelling them: it
#: always exits, and what was acknowledged is already in the database.
_GRACEFUL_SECONDS = 10
#: Seconds the supervisor waits for a worker told to stop before killing it.
_STOP_SECONDS = 2 * _GRACEFUL_SECONDS

#: How Uvicorn runs the app: frames over 64 KiB are refused before the server's own, lower
#: limit per message; no per-message compression, since messages are small and zlib
#: would cost more CPU per message than building it; a keep-alive ping every 60 s instead
#: of Uvicorn's 20 (the browser client pings every 15 s itself, and at 4,000 sockets the
#: server's pings and their pongs were 400 writes and reads a second; a dead client is
#: still noticed within 80 s); a bounded graceful shutdown; no forwarded headers believed
#: (``proxy_options`` names the proxies that are).
UVICORN_OPTIONS: dict[str, Any] = {
    "ws_max_size": 64 * 1024,
    "ws_per_message_deflate": False,
    "ws_ping_interval": 60.0,
    "timeout_graceful_shutdown": _GRACEFUL_SECONDS,
    "proxy_headers": False,
}


def proxy_options(settings: ServerSettings) -> dict[str, Any]:
    """Uvicorn's options for forwarded headers: believed only from the proxies in
    ``forwarded_allow_ips`` (Uvicorn's own default, every loopback client, would let a
    local client forge its address past the per-address limits)."""
    proxies = list(settings.forwarded_allow_ips)
    return {"proxy_headers": bool(proxies), "forwarded_allow_ips": proxies}


def tune_gc(thresholds: tuple[int, int, int]) -> None:
    """Keep the garbage collector's pauses out of the game's latency.

    Every table holds thousands of small objects (its event log), and a full collection
    walks all of them: with a few hundred tables that pause reached hundreds of
    milliseconds. The objects made at start (modules, the app) are frozen out of
    collection, and collections run as ``thresholds`` (the setting ``gc_thresholds``)
    say; the game's objects form few cycles."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def serve(
    host: Annotated[str | None, typer.Option(help=cli_help("serve.host"))] = None,
    port: Annotated[int | None, typer.Option(help=cli_help("serve.port"), min=0, max=65535)] = None,
    data_dir: DataDir = None,
    database_url: Annotated[
        str | None,
        typer.Option(help=cli_help("serve.database-url"), envvar="RASPISNOY_DATABASE_URL"),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(help=cli_help("serve.redis-url"), envvar="RASPISNOY_REDIS_URL"),
    ] = None,
    workers: Annotated[int, typer.Option(help=cli_help("serve.workers"), min=1)] = 1,
) -> None:
    """``raspisnoy serve``; its help is the ``cli`` catalog's ``cli.serve``: every limit is
    a setting read from a RASPISNOY_* environment variable (docs/server-settings.md), and
    these options override the environment."""
    import uvicorn
    from pydantic import ValidationError

    from raspisnoy.server.app import create_app
    from raspisnoy.server.auth import SecretKeyError, load_secret
    from raspisnoy.server.config import ServerSettings
    from raspisnoy.store import Store, StoreError

    given = {
        "host": host,
        "port": port,
        "data_dir": data_dir,
        "database_url": database_url,
        "redis_url": redis_url,
    }
    overrides: dict[str, Any] = {name: value for name, value in given.items() if value is not None}
    try:
        settings = ServerSettings(**overrides)
    except ValidationError as error:
        fail(f"settings: {_first_problem(error)}")
    _check_cluster(settings, workers)
    if settings.database_url is None:
        try:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"cannot create the data directory {settings.data_dir}: {error.strerror}")
    try:
        store = Store.open(settings.database())
    except StoreError as error:
        fail(str(error))
    if workers > 1:
        try:  # made here once, so that the workers share one key file
            key = settings.secret_key
            load_secret(None if key is None else key.get_secret_value(), settings.data_dir)
        except SecretKeyError as error:
            fail(str(error))
        store.close()
        raise typer.Exit(_supervise(settings, workers))
    try:
        app = create_app(store, settings)
    except SecretKeyError as error:
        fail(str(error))
    tune_gc(settings.gc_thresholds)
    from raspisnoy.server.logs import log_config

    logs = log_config(settings.log_format)  # JSON or text (docs/operations.md)
    options = {**UVICORN_OPTIONS, **proxy_options(settings)}
    uvicorn.run(app, host=settings.host, port=settings.port, log_config=logs, **options)


def _check_cluster(settings: ServerSettings, workers: int) -> None:
    """Several workers share one PostgreSQL and one Redis: refuse to start without them
    or with rate limits counted apart in each worker's memory, and check that Redis
    answers before anything listens."""
    from redis import Redis
    from redis.exceptions import RedisError

    postgres = (settings.database_url or "").startswith("postgresql")
    if workers > 1 and (not postgres or settings.redis_url is None):
        fail(
            f"--workers {workers} needs PostgreSQL and Redis shared by the workers: set "
            "RASPISNOY_DATABASE_URL=postgresql+psycopg://... and "
            "RASPISNOY_REDIS_URL=redis://... (docs/cluster.md)"
        )
    if settings.redis_url is None:
        return
    if not postgres:
        fail(
            "RASPISNOY_REDIS_URL is for several workers, which need PostgreSQL: "
            "set RASPISNOY_DATABASE_URL=postgresql+psycopg://... (docs/cluster.md)"
        )
    if settings.rate_limits_at().startswith("memory://"):
        fail(
            "RASPISNOY_RATE_LIMIT_STORAGE=memory:// counts each worker's rate limits "
            "apart, so several workers would allow several times each limit: leave it "
            "unset (the workers' Redis) or name a Redis (docs/server-settings.md)"
        )
    try:
        Redis.from_url(settings.redis_url, socket_timeout=5).ping()
    except (RedisError, ValueError, OSError) as error:
        fail(f"cannot reach Redis at {settings.redis_url}: {error}")


def _supervise(settings: ServerSettings, workers: int) -> int:
    """Run ``workers`` server processes on consecutive ports until told to stop (SIGINT,
    SIGTERM); one that dies is started again after a second. The exit status."""
    children: dict[int, subprocess.Popen[bytes]] = {}
    stopping = False
    environment = {
        **os.environ,
        "RASPISNOY_DATABASE_URL": settings.database(),
        "RASPISNOY_REDIS_URL": settings.redis_url or "",
    }

    def start(index: int) -> None:
        port = settings.port + index
        command = [
            sys.executable,
            "-m",
            "raspisnoy",
            "serve",
            "--host",
            settings.host,
            "--port",
            str(port),
            "--data-dir",
            str(settings.data_dir),
        ]
        # The rest comes from the environment (so no password shows in the process list).
        children[index] = subprocess.Popen(command, env=environment)
        sys.stderr.write(
            f"worker {index + 1}: pid {children[index].pid}, http://{settings.host}:{port}\n"
        )

    def stop(_signal: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for index in range(workers):
        start(index)
    while not stopping:
        time.sleep(0.2)
        for index, child in list(children.items()):
            if child.poll() is not None and not stopping:
                sys.stderr.write(f"worker {index + 1} ended ({child.returncode}); restarting\n")
                time.sleep(_RESTART_SECONDS)
                start(index)
    for child in children.values():
        child.terminate()
    for child in children.values():
        try:
            child.wait(_STOP_SECONDS)
        except subprocess.TimeoutExpired:  # never leave a worker behind
            child.kill()
            child.wait()
    return 0


def _first_problem(error: Any) -> str:
    """The first problem of a pydantic ``ValidationError``, naming the environment variable."""
    from raspisnoy.server.config import ENV_PREFIX

    problem = error.errors()[0]
    name = ".".join(str(part) for part in problem["loc"])
    return f"{ENV_PREFIX}{name.upper()}: {problem['msg']} (got {problem.get('input')!r})"
