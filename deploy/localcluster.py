"""A local raspisnoy cluster for trying and testing: N workers (``raspisnoy serve
--workers N``) on one PostgreSQL and one Redis, behind nginx run as an ordinary process
with its own prefix, logs and temporary files in a temporary folder.

    scripts/cluster [--workers 2] [--port 8000] [--database-url URL] [--redis-url URL]

PostgreSQL and Redis must be running already (by default 127.0.0.1:5432, database
``test``, and 127.0.0.1:6379). The tests and the benchmarks start clusters with
``LocalCluster``; ``render_nginx`` fills in the template ``deploy/nginx.conf``.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from server_process import free_port

__all__ = [
    "NGINX_TEMPLATE",
    "LocalCluster",
    "find_nginx",
    "free_port",
    "postgres_schema",
    "render_nginx",
]

NGINX_TEMPLATE = Path(__file__).with_name("nginx.conf")
DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def free_ports(count: int, avoid: Collection[int] = ()) -> int:
    """The first of ``count`` consecutive free loopback ports, none of them in ``avoid``
    (ports chosen already but not yet listened on: the system may offer them again)."""
    for _ in range(100):
        first = free_port()
        if first + count > 65535 or any(first <= port < first + count for port in avoid):
            continue
        try:
            for port in range(first, first + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise RuntimeError(f"no {count} consecutive free ports")


@contextmanager
def postgres_schema(url: str = DEFAULT_DATABASE) -> Iterator[str]:
    """``url`` with a fresh schema of its own as the search path, dropped afterwards, so
    that runs share no tables (``sqlalchemy.exc.OperationalError`` if unreachable)."""
    from sqlalchemy import create_engine, text

    schema = f"raspisnoy_cluster_{secrets.token_hex(4)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        separator = "&" if "?" in url else "?"
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with suppress(Exception), admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


def exit_on_sigterm() -> None:
    """Turn SIGTERM into ``SystemExit`` in this (main) thread, so that a program killed
    politely leaves its ``with LocalCluster`` blocks and stops the cluster it started."""

    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)


def find_nginx() -> str | None:
    """The nginx binary (Debian puts it in /usr/sbin), or ``None``."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def render_nginx(prefix: Path, listen: str, servers: list[str]) -> str:
    """``deploy/nginx.conf`` for workers at ``servers`` (``host:port``), listening at
    ``listen``, with its files under ``prefix``."""
    lines = "\n        ".join(f"server {server} max_fails=0;" for server in servers)
    text = NGINX_TEMPLATE.read_text(encoding="utf-8")
    return (
        text.replace("@PREFIX@", str(prefix))
        .replace("@LISTEN@", listen)
        .replace("@SERVERS@", lines)
    )


def _wait_healthy(
    url: str, process: subprocess.Popen[bytes], what: str, seconds: float, log: Path | None = None
) -> None:
    """Wait until ``url`` answers; else raise, ending the message with the last lines of
    ``log`` (what ``process`` wrote, when it writes there)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(url, timeout=2).raise_for_status()
            return
        except httpx.HTTPError:
            if process.poll() is not None:
                problem = f"{what} ended with status {process.returncode}"
            elif time.monotonic() > deadline:
                problem = f"{what} did not answer {url} in {seconds:.0f} s"
            else:
                time.sleep(0.2)
                continue
            raise RuntimeError(problem + _tail(log)) from None


def _tail(log: Path | None, lines: int = 20) -> str:
    """The last ``lines`` lines of ``log``, to end an error message with."""
    if log is None or not log.exists():
        return ""
    last = log.read_text(errors="replace").splitlines()[-lines:]
    return "; its last lines:\n" + "\n".join(last)


class LocalCluster:
    """``workers`` server workers and nginx in front; stopped on leaving the ``with``."""

    def __init__(
        self,
        workers: int = 2,
        *,
        port: int | None = None,
        database_url: str = DEFAULT_DATABASE,
        redis_url: str = DEFAULT_REDIS,
        environment: Mapping[str, str] | None = None,
        folder: Path | None = None,
        quiet: bool = False,
    ) -> None:
        self.workers = workers
        self.port = port or free_port()
        self.first_worker_port = free_ports(workers, avoid=(self.port,))  # (nginx's)
        self.database_url = database_url
        self.redis_url = redis_url
        self._environment = dict(environment or {})
        self._given_folder = folder
        self._temporary: tempfile.TemporaryDirectory[str] | None = None
        self._quiet = quiet
        self.supervisor: subprocess.Popen[bytes] | None = None
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def worker_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{self.first_worker_port + i}" for i in range(self.workers)]

    def __enter__(self) -> LocalCluster:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        nginx = find_nginx()
        if nginx is None:
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
        if self._given_folder is None:
            self._temporary = tempfile.TemporaryDirectory(prefix="raspisnoy-cluster-")
            folder = Path(self._temporary.name)
        else:
            folder = self._given_folder
        prefix = folder / "nginx"
        prefix.mkdir(parents=True, exist_ok=True)
        servers = [url.removeprefix("http://") for url in self.worker_urls]
        config = prefix / "nginx.conf"
        config.write_text(render_nginx(prefix, f"127.0.0.1:{self.port}", servers))
        environment = {
            **os.environ,
            "RASPISNOY_DATABASE_URL": self.database_url,
            "RASPISNOY_REDIS_URL": self.redis_url,
            "RASPISNOY_DATA_DIR": str(folder / "data"),
            **self._environment,
        }
        # Quiet, the workers write to a file that a failure to start quotes.
        log = folder / "workers.log" if self._quiet else None
        output = log.open("wb") if log is not None else None
        command = [sys.executable, "-m", "raspisnoy", "serve", "--workers", str(self.workers)]
        command += ["--port", str(self.first_worker_port)]
        self.supervisor = subprocess.Popen(
            command, env=environment, stdout=output, stderr=output, start_new_session=True
        )
        if output is not None:
            output.close()  # (the supervisor holds its own copy)
        self.nginx = subprocess.Popen(
            [nginx, "-p", str(prefix), "-c", str(config), "-e", str(prefix / "error.log")],
            start_new_session=True,
        )
        try:
            for url in self.worker_urls:
                _wait_healthy(f"{url}/healthz", self.supervisor, "the server workers", 120, log)
            _wait_healthy(f"{self.url}/healthz", self.nginx, "nginx", 20)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for process in (self.nginx, self.supervisor):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in (self.nginx, self.supervisor):
            if process is not None:
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        self.nginx = self.supervisor = None
        if self._temporary is not None:
            self._temporary.cleanup()
            self._temporary = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8000, help="nginx's port (default 8000)")
    parser.add_argument(
        "--database-url", default=os.environ.get("RASPISNOY_DATABASE_URL", DEFAULT_DATABASE)
    )
    parser.add_argument("--redis-url", default=os.environ.get("RASPISNOY_REDIS_URL", DEFAULT_REDIS))
    args = parser.parse_args()
    cluster = LocalCluster(
        args.workers, port=args.port, database_url=args.database_url, redis_url=args.redis_url
    )
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        with cluster:
            print(f"raspisnoy cluster: {cluster.url} (nginx) -> {', '.join(cluster.worker_urls)}")
            print("Ctrl-C stops it.")
            signal.sigwait({signal.SIGINT, signal.SIGTERM})
    except RuntimeError as error:
        sys.stderr.write(f"error: {error}\n")
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
