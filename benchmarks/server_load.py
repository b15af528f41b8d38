"""Server load: N tables of 4 people, every seat a WebSocket client on loopback, playing
at bot speed (each client answers its turn at once with a random legal action).

Starts the real server (the app ``raspisnoy serve`` runs, under Uvicorn with the same
options, one worker) in a subprocess on a fresh SQLite database (or ``--database-url``),
with flood and abuse limits opened up for clients that act as fast as bots, all from
one address. Clients offer
per-message compression as browsers do. Then, through the public API only: a guest
session per client, a table per 4 clients (turn timer off), every client connected, each
game started. Each client acts ``--think-ms`` after its turn comes (0: at once, the
heaviest load; a table's default bot delay is 800 ms). For ``--seconds`` it measures:

- actions/s: actions applied by the server (every one stored before it is sent);
- connected clients (and how many are still connected at the end);
- latency from an action's send to each seat's receipt of its event (the state every
  seat sees), p50 and p99 over all (action, seat) pairs; clients and server share the
  machine's clock;
- latency from an action's send to its ``ack`` (act→ack), p50 and p99 over the actions;
- the server process's CPU time per action over the measured window (with ``--cluster``:
  the workers' and nginx's), and the load generator's own.

The clients run in this process (asyncio on uvloop), so on a small machine they compete
with the server for the CPU: the figures are a floor for the server alone. They stand for
4,000 browsers, each with its own collector, so the process keeps its collector out of the
window (``tune_clients_gc``; ``--untuned-clients``: as before session 14, when its pauses
were timed as the server's) and reports its own loop lag and collections (``clients_*``).

    .venv/bin/python benchmarks/server_load.py [--tables 200] [--seconds 30] [--think-ms 800]
        [--database-url URL] [--json out.json]

``--baseline OTHER/src`` measures the server of another tree (``git worktree add`` of the
code before a change) side by side with this one, by the same method in the same run:
``--runs`` rounds (default 3), each a run of the other tree then one of this tree, each on
a fresh database, and the medians of the runs' figures (issue 32: the median of three
runs' p99):

    .venv/bin/python benchmarks/server_load.py --tables 1000 --seconds 40 --think-ms 800 \
        --baseline ../main/src --runs 3

With ``--cluster`` the same load runs twice through nginx on PostgreSQL and Redis (a local
cluster, ``deploy/localcluster.py``): with one worker and with two, each on a fresh
schema, and the table gives the ratio of two workers to one. CPU per action is then the
workers' and nginx's together. The full form of issue 16:

    .venv/bin/python benchmarks/server_load.py --cluster --tables 1000 --seconds 40 --think-ms 800

The clients are as heavy as a fair part of the server (about a third of its CPU per
action), so on a small machine the figures are the server's *and* the load generator's.
``--server-cpus`` and ``--client-cpus`` (CPU numbers as ``taskset`` takes them) keep the
two apart, as a second machine for the load generator would: the cluster (workers,
nginx) starts on the first set, and the clients then run on the second. PostgreSQL and
Redis are not started here; pin them with ``taskset -pc`` if they must stay off the
clients' CPUs. The full run with the load generator isolated, on a machine with four
CPUs or more (two for the server, as issue 16 has, two for the clients), at low priority
beside other work:

    nice -n 19 .venv/bin/python benchmarks/server_load.py --cluster --tables 1000 \
        --seconds 40 --think-ms 800 --server-cpus 0,1 --client-cpus 2,3

On one machine with a single pool of CPUs a network namespace for the clients isolates
nothing that matters here (loopback costs the same in either); the CPUs are the point.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from pydantic import SecretStr
from redis import Redis
from rich.console import Console
from rich.table import Table
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from figures import print_figures
from guests import SEATS, seated_table
from internals import Internals, summarise, summary
from profiles import Profiler

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from server_process import free_port

from raspisnoy.server.connection import CloseCode

#: The one-process server's ASGI servers (``--asgi-server``): Uvicorn with websockets'
#: sans-I/O framing (what ``raspisnoy serve`` runs), Uvicorn with websockets' legacy
#: asyncio implementation (deprecated since websockets 14) or with wsproto's framing,
#: Granian, and Hypercorn (wsproto's framing): each a lever of issue 32 weighed with figures.
ASGI_SERVERS = ("uvicorn", "uvicorn-websockets-legacy", "uvicorn-wsproto", "granian", "hypercorn")
#: Uvicorn's ``ws`` option for each of its variants in ``ASGI_SERVERS``.
_UVICORN_WS = {"uvicorn-websockets-legacy": "websockets", "uvicorn-wsproto": "wsproto"}


def cpu_seconds(pids: list[int], *, kernel_only: bool = False) -> float:
    """CPU time (user + system, or system alone) the processes have used so far, from
    Linux's /proc."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[12]) + (0 if kernel_only else int(fields[11]))
    return total / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux)."""
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def cpu_list(text: str) -> set[int]:
    """CPU numbers as ``taskset -c`` takes them: ``0,1`` or ``0-3``."""
    cpus: set[int] = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


def pin(cpus: set[int] | None) -> None:
    """Run this process (and what it starts from now on) on ``cpus`` only (``None``: all)."""
    if cpus is not None:
        os.sched_setaffinity(0, cpus)


def set_gc_thresholds(
    tune_gc: Callable[..., None], settings: Any, thresholds: tuple[int, int, int] | None
) -> None:
    """The served tree's ``tune_gc`` with ``thresholds`` (a lever weighed) or its setting
    ``gc_thresholds``. A tree from before that setting (``--baseline``) tunes as it did,
    and ``thresholds``, if given, are set after."""
    if "thresholds" in inspect.signature(tune_gc).parameters:
        tune_gc(thresholds or settings.gc_thresholds)
        return
    tune_gc()
    if thresholds is not None:
        gc.set_threshold(*thresholds)


def gc_thresholds(text: str) -> tuple[int, int, int]:
    """``--gc-threshold``: three whole numbers, ``young,middle,old``."""
    young, middle, old = (int(part) for part in text.split(","))
    return young, middle, old


def run_server(
    port: int,
    database_url: str,
    internals: Path | None = None,
    gc_threshold: tuple[int, int, int] | None = None,
    asgi_server: str = "uvicorn",
) -> None:
    """The server process: the ``serve`` app with limits for bot-speed clients; with
    ``internals``, its loop lag, GC pauses and commits are saved there when it stops;
    with ``gc_threshold``, the collector's thresholds are set after the server's own.
    ``asgi_server`` picks another server (``ASGI_SERVERS``: a lever weighed, not what
    ``raspisnoy serve`` runs) instead of Uvicorn with websockets' framing."""
    import uvicorn

    from raspisnoy.server.app import create_app
    from raspisnoy.server.command import UVICORN_OPTIONS, tune_gc
    from raspisnoy.server.config import ServerSettings
    from raspisnoy.store import Store

    # One address opens every guest, table and socket here: the abuse limits are lifted.
    settings = ServerSettings(
        messages_per_second=1000,
        message_burst=1000,
        secret_key=SecretStr(secrets.token_urlsafe(32)),
        sessions_per_address="1000000/minute",
        requests_per_address="1000000/minute",
        max_sockets_per_user=1_000_000,
    )
    store = Store.open(database_url)
    watch = Internals()
    if internals is not None:
        watch.install(store)
    app = create_app(store, settings)
    set_gc_thresholds(tune_gc, settings, gc_threshold)
    options = dict(UVICORN_OPTIONS)
    if asgi_server in _UVICORN_WS:
        options["ws"] = _UVICORN_WS[asgi_server]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **options)
    server = uvicorn.Server(config)

    async def serve() -> None:
        probe = asyncio.create_task(watch.probe_loop()) if internals is not None else None
        if asgi_server == "granian":
            await granian_serve(app, port)
        elif asgi_server == "hypercorn":
            await hypercorn_serve(app, port)
        else:
            await server.serve()
        if probe is not None:
            probe.cancel()

    # Uvicorn stops on SIGTERM and then raises it again: let that end the process here.
    signal.signal(signal.SIGTERM, lambda _signal, _frame: sys.exit(0))
    try:  # what ``uvicorn.run`` does (its event loop: uvloop when installed), plus the probe
        with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
            runner.run(serve())
    finally:
        if internals is not None:
            watch.save(internals)


async def granian_serve(app: Any, port: int) -> None:
    """Serve ``app`` with Granian in the running loop until SIGTERM stops it."""
    from granian.constants import Interfaces
    from granian.log import LogLevels
    from granian.server.embed import Server

    server = Server(app, port=port, interface=Interfaces.ASGI, log_level=LogLevels.warning)
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, server.stop)
    await server.serve()


async def hypercorn_serve(app: Any, port: int) -> None:
    """Serve ``app`` with Hypercorn (wsproto's framing) in the running loop until SIGTERM
    stops it, with the settings Uvicorn gets from ``UVICORN_OPTIONS``."""
    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    from raspisnoy.server.command import UVICORN_OPTIONS

    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.loglevel = "WARNING"
    config.accesslog = None
    config.websocket_max_message_size = UVICORN_OPTIONS["ws_max_size"]
    config.websocket_ping_interval = UVICORN_OPTIONS["ws_ping_interval"]
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await serve(app, config, shutdown_trigger=stop.wait)


@contextmanager
def served(
    database_url: str,
    environment: dict[str, str] | None = None,
    start_seconds: float = 60,
    internals: Path | None = None,
    gc_threshold: tuple[int, int, int] | None = None,
    asgi_server: str = "uvicorn",
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The ``--serve`` server in a subprocess on ``database_url`` (with ``environment``
    instead of this process's): its base URL and process once ``/healthz`` answers,
    stopped on leaving the ``with`` (having saved its ``internals`` there, if given)."""
    port = free_port()
    command = [sys.executable, __file__, "--serve", str(port), "--database-url", database_url]
    if internals is not None:
        command += ["--internals", str(internals)]
    if gc_threshold is not None:
        command += ["--gc-threshold", ",".join(map(str, gc_threshold))]
    command += ["--asgi-server", asgi_server]
    server = subprocess.Popen(command, env=environment)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + start_seconds
        while True:
            try:
                httpx.get(f"{base}/healthz").raise_for_status()
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        yield base, server
    finally:
        server.terminate()
        server.wait(30)


#: CPU seconds used so far, by part of the server ("server", "postgres", ...).
CpuMeter = Callable[[], dict[str, float]]


def process_meter(pid: int) -> CpuMeter:
    """The CPU of one server process, and the part of it spent in the kernel (system
    calls: every socket read and write)."""
    return lambda: {
        "server": cpu_seconds([pid]),
        "server_kernel": cpu_seconds([pid], kernel_only=True),
    }


def cluster_meter(pids: list[int], database_url: str, redis_url: str) -> CpuMeter:
    """The CPU of a cluster's parts: its workers and nginx (``pids``), the PostgreSQL
    backends serving ``database_url`` (found by its ``application_name``; this machine's
    PostgreSQL runs here), and the Redis server (all of its clients: others are idle)."""
    application = parse_qs(urlsplit(database_url).query)["application_name"][0]
    engine = create_engine(database_url.split("?", 1)[0])
    redis = Redis.from_url(redis_url)

    def meter() -> dict[str, float]:
        with engine.connect() as connection:
            backends = connection.execute(
                text("SELECT pid FROM pg_stat_activity WHERE application_name = :name"),
                {"name": application},
            )
            postgres = cpu_seconds([row.pid for row in backends])
        used = redis.info("cpu")
        return {
            "server": cpu_seconds(pids),
            "postgres": postgres,
            "redis": float(used["used_cpu_sys"]) + float(used["used_cpu_user"]),
        }

    return meter


def load_served(
    args: argparse.Namespace,
    base: str,
    server: subprocess.Popen[bytes],
    profiler: Profiler | None = None,
) -> dict[str, Any]:
    """``load`` of a ``served`` server with the command line's tables, window and pace;
    with ``profiler``, py-spy samples the server during the window."""
    think = args.think_ms / 1000
    meter = process_meter(server.pid)
    on_window = None
    if profiler is not None:
        on_window = partial(profiler.start, [server.pid], label="one-process")
    tables, seconds, warmup = args.tables, args.seconds, args.warmup
    tuned = not args.untuned_clients
    return run_load(load(base, tables, seconds, warmup, think, meter, on_window, tuned), tuned)


@dataclass
class TableRun:
    """One table's clients and the send time of each action, by the version it makes."""

    id: str
    host_token: str
    #: Each seat's socket address (its token in it), to open it again.
    urls: list[str] = field(default_factory=list)
    sent: dict[int, float] = field(default_factory=dict)


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    #: From an action's send to its ``ack``, one per action of a person.
    acks: list[float] = field(default_factory=list)
    actions: int = 0
    connected: int = 0
    #: The sockets closed before the end of the run, by close code and reason (the
    #: side that closed first, as the client library reports it).
    closed_early: Counter[str] = field(default_factory=Counter)
    #: Sockets opened again after a 1012 (their table moved to another worker), before
    #: the measured window and in it.
    reconnects: int = 0
    reconnects_in_window: int = 0
    finished: int = 0
    measuring: bool = False
    stop: bool = False


async def play(
    sockets: list[ClientConnection], seat: int, table: TableRun, totals: Totals, think: float
) -> None:
    """One client, ``sockets[seat]``: act on its turn after ``think`` seconds; time every
    event's arrival. A socket closed with 1012 (the table moved to another worker, as
    tables do while they are set up on a cluster) is opened again, as the web client
    does; any other close before the end is tallied by its code and reason."""
    while True:
        ws = sockets[seat]
        with suppress(ConnectionClosed):
            await _play(ws, seat, table, totals, think)
        if totals.stop or ws.state.name == "OPEN":  # (a game over: the socket stays open)
            return
        if ws.close_code != CloseCode.RESTART:
            totals.closed_early[f"{ws.close_code} {ws.close_reason}".strip()] += 1
            return
        totals.reconnects += 1
        totals.reconnects_in_window += totals.measuring
        try:
            sockets[seat] = await connect(table.urls[seat], max_queue=None)
        except (OSError, WebSocketException) as error:
            totals.closed_early[f"reconnecting: {error}"] += 1
            return


async def _play(
    ws: ClientConnection, seat: int, table: TableRun, totals: Totals, think: float
) -> None:
    """``play``'s loop, until the game is over or the socket closed."""
    rng = random.Random(f"{table.id}/{seat}")
    turns: set[asyncio.Task[None]] = set()  # the pending actions (kept from the collector)
    async for raw in ws:
        message = json.loads(raw)
        now = time.perf_counter()
        if message["type"] == "ack" and totals.measuring:
            sent = table.sent.get(message["version"])
            if sent is not None:
                totals.acks.append(now - sent)
        if message["type"] not in ("state", "event"):
            continue
        version, game = message["version"], message["game"]
        if message["type"] == "event" and totals.measuring:
            sent = table.sent.get(version)
            if sent is not None:
                totals.latencies.append(now - sent)
            if seat == message["action"]["seat"]:
                totals.actions += 1
        if game is None:
            continue
        if game["phase"] == "over":
            totals.finished += seat == 0
            return
        if game["to_act"] == seat and game["legal"] and not totals.stop:
            act = {"type": "act", "id": f"v{version}", "action": rng.choice(game["legal"])}
            turn = asyncio.create_task(send_later(ws, table, version + 1, act, totals, think))
            turns.add(turn)
            turn.add_done_callback(turns.discard)


async def send_later(
    ws: ClientConnection,
    table: TableRun,
    version: int,
    act: dict[str, str],
    totals: Totals,
    think: float,
) -> None:
    """Send ``act`` (it makes ``version``) after ``think`` seconds. A task of its own, so
    that the client reads on meanwhile: the ack of its last action, which comes after the
    event that made it its turn again, is timed when it arrives, not after the thinking."""
    if think:
        await asyncio.sleep(think)
    if totals.stop:
        return
    table.sent[version] = time.perf_counter()
    with suppress(ConnectionClosed):
        await ws.send(json.dumps(act))


async def open_table(
    http: httpx.AsyncClient, ws_base: str
) -> tuple[TableRun, list[ClientConnection]]:
    """Four guests, one table with all four seated, every seat connected."""
    table_id, tokens = await seated_table(http, {"bots": "random", "turn_seconds": 0})
    urls = [f"{ws_base}/ws/tables/{table_id}?token={token}" for token in tokens]
    table = TableRun(table_id, tokens[0], urls)
    sockets = [await connect(url, max_queue=None) for url in urls]
    return table, sockets


def tune_clients_gc() -> None:
    """Keep the load generator's own collections out of the latencies it measures.

    Its 4,000 clients stand for 4,000 browsers, each with its own collector; here they
    share one process, whose collections under the defaults (700 / 10 / 10) walked all
    their sockets, tasks and buffers: middle passes of about 150 ms of CPU, full ones of
    about 0.6 s, and every message in flight meanwhile was timed late by that much
    (docs/cluster.md, session 14). What is made before the window is frozen out of
    collection, and the collector is off until the window ends (the window makes little
    cyclic garbage: ``untune_clients_gc`` collects it)."""
    gc.collect()
    gc.freeze()
    gc.disable()


def untune_clients_gc() -> None:
    """The collector as Python starts it again, for the next run in this process."""
    gc.enable()
    gc.unfreeze()
    gc.collect()


def run_load(load_run: Coroutine[Any, Any, dict[str, Any]], tuned: bool) -> dict[str, Any]:
    """Run a ``load`` coroutine: tuned, on uvloop (as the server runs); else on asyncio's
    own loop, as the load generator did before session 14."""
    if not tuned:
        return asyncio.run(load_run)
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(load_run)


async def load(
    base: str,
    tables: int,
    seconds: float,
    warmup: float,
    think: float,
    meter: CpuMeter,
    on_window: Callable[[float], None] | None = None,
    tuned_clients: bool = True,
) -> dict[str, Any]:
    """Open the tables, play, and measure for ``seconds`` after ``warmup``; ``on_window``
    is called with the window's length as it opens (to start a profiler). With
    ``tuned_clients`` the load generator's own collector is tuned once the tables play
    (``tune_clients_gc``)."""
    ws_base = base.replace("http://", "ws://")
    totals = Totals()
    # The load generator's own loop lag and collections: its delays are in the latencies.
    watch = Internals()
    watch.watch_gc()
    probe = asyncio.create_task(watch.probe_loop())
    # A connection per request: on a loaded machine a kept-alive one could be reused just
    # as the server's keep-alive timeout (Uvicorn's 5 s) closes it, failing the request.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        semaphore = asyncio.Semaphore(20)

        async def one() -> tuple[TableRun, list[ClientConnection]]:
            async with semaphore:
                return await open_table(http, ws_base)

        opened = await asyncio.gather(*(one() for _ in range(tables)))
        players = [
            asyncio.create_task(play(sockets, seat, table, totals, think))
            for table, sockets in opened
            for seat in range(len(sockets))
        ]
        totals.connected = sum(len(sockets) for _, sockets in opened)
        for table, _ in opened:
            auth = {"authorization": f"Bearer {table.host_token}"}
            (await http.post(f"/api/tables/{table.id}/start", headers=auth)).raise_for_status()
        if tuned_clients:
            tune_clients_gc()
        await asyncio.sleep(warmup)
        totals.measuring = True
        if on_window is not None:
            on_window(seconds)
        start, before, own = time.perf_counter(), meter(), cpu_seconds([os.getpid()])
        await asyncio.sleep(seconds)
        totals.measuring = False
        elapsed, after = time.perf_counter() - start, meter()
        own = cpu_seconds([os.getpid()]) - own
        totals.stop = True
        open_sockets = sum(1 for _, sockets in opened for ws in sockets if ws.state.name == "OPEN")
        for _, sockets in opened:
            for ws in sockets:
                await ws.close()
        await asyncio.gather(*players, return_exceptions=True)
    probe.cancel()
    watch.unwatch_gc()
    if tuned_clients:
        untune_clients_gc()
    own_internals = summarise(watch.samples, start, start + elapsed)
    latencies, acks = sorted(totals.latencies), sorted(totals.acks)
    actions = max(1, totals.actions)

    def percentile(q: float, values: list[float] = latencies) -> float:
        return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")

    return {
        "tables": tables,
        "clients": totals.connected,
        "connected_at_end": open_sockets,
        "reconnects": totals.reconnects,
        "reconnects_in_window": totals.reconnects_in_window,
        "closed_early": "; ".join(f"{why}: {n}" for why, n in totals.closed_early.items())
        or "none",
        "seconds": elapsed,
        "actions": totals.actions,
        "actions_per_s": totals.actions / elapsed,
        "deliveries": len(latencies),
        "latency_ms_p50": percentile(0.50),
        "latency_ms_p99": percentile(0.99),
        "latency_ms_mean": statistics.fmean(latencies) * 1000 if latencies else float("nan"),
        "ack_ms_p50": percentile(0.50, acks),
        "ack_ms_p99": percentile(0.99, acks),
        **{
            f"{part}_cpu_ms_per_action": (after[part] - before[part])
            * 1000
            / max(1, totals.actions)
            for part in after
        },
        # The clients' own share of the machine (this process), for comparison.
        "clients_cpu_ms_per_action": own * 1000 / actions,
        "games_finished": totals.finished,
        **{
            f"clients_{figure}": value
            for figure, value in own_internals.items()
            if figure.startswith(("loop_lag", "gc"))
        },
        # The measuring window on ``time.perf_counter()`` (``internals.summary``).
        "window": [start, start + elapsed],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="each client's delay before acting (a bot delay)",
    )
    parser.add_argument(
        "--database-url", default=None, help="default: SQLite in a temporary folder"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--internals", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--gc-threshold",
        type=gc_thresholds,
        default=None,
        help="the server's garbage collector thresholds instead of its setting gc_thresholds "
        "(e.g. 5000,10,500; with --cluster, the workers')",
    )
    parser.add_argument(
        "--asgi-server",
        choices=ASGI_SERVERS,
        default="uvicorn",
        help="the one-process server's ASGI server: Uvicorn with websockets' sans-I/O framing "
        "(what raspisnoy serve runs), with websockets' legacy one or with wsproto's, Granian or "
        "Hypercorn (levers weighed; the bench extra installs them)",
    )
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="through nginx on PostgreSQL and Redis, with 1 and with 2 workers",
    )
    parser.add_argument(
        "--server-cpus",
        type=cpu_list,
        default=None,
        help="with --cluster: CPUs for the workers and nginx (e.g. 0,1)",
    )
    parser.add_argument(
        "--client-cpus",
        type=cpu_list,
        default=None,
        help="with --cluster: CPUs for the load generator (e.g. 2,3)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[1, 2],
        help="with --cluster: the worker counts to run, one after the other (default 1 2)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="sample the server (with --cluster: the workers and the clients) with py-spy "
        "during the window, into this folder, and show where their CPU goes",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="the src folder of another tree: its server measured side by side with this one",
    )
    parser.add_argument(
        "--runs", type=int, default=3, help="with --baseline: rounds of one run each (default 3)"
    )
    parser.add_argument(
        "--untuned-clients",
        action="store_true",
        help="the load generator as before session 14: asyncio's own loop and the "
        "collector's defaults (its pauses then add to the latencies it measures)",
    )
    parser.add_argument(
        "--worker-log",
        action="store_true",
        help="with --cluster: let the workers write their log here (default: silent)",
    )
    args = parser.parse_args()
    if args.serve is not None:  # the server subprocess
        run_server(
            args.serve, args.database_url, args.internals, args.gc_threshold, args.asgi_server
        )
        return
    if args.profile is not None and not Profiler.available():
        raise SystemExit("--profile needs py-spy (pip install py-spy; the bench extra has it)")
    if args.cluster:
        compare_workers(args)
        return
    title = f"Server load: {args.tables} tables × {SEATS} WebSocket clients, one worker"
    if args.baseline is not None:
        compare_trees(args, title)
        return
    result = one_process(args)
    areas = result.pop("cpu_areas", None)
    print_figures(title, result, args.json, digits=3)
    if areas is not None:
        print_areas("the server's", {1: areas})


def one_process(args: argparse.Namespace, source: Path | None = None) -> dict[str, Any]:
    """One run of the one-process server (of the tree whose ``src`` is ``source``; this
    tree's if ``None``) on a fresh database."""
    environment = None
    if source is not None:
        path = os.pathsep.join([str(source.resolve()), os.environ.get("PYTHONPATH", "")])
        environment = {**os.environ, "PYTHONPATH": path}
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        if args.database_url is not None and source is not None:
            raise SystemExit("--baseline runs on fresh SQLite databases only")
        internals = Path(folder) / "internals.json"
        served_with = served(
            url,
            environment,
            internals=internals,
            gc_threshold=args.gc_threshold,
            asgi_server=args.asgi_server,
        )
        profiler = Profiler(args.profile) if args.profile is not None else None
        with served_with as (base, server):
            result = load_served(args, base, server, profiler)
        if profiler is not None:
            result["cpu_areas"] = profiler.finish()
        # The server's own view of the window: loop lag, GC pauses, commits (ms).
        window = result.pop("window")
        result.update({f"server_{k}": v for k, v in summary(internals, *window).items()})
    result["database"] = "sqlite" if args.database_url is None else url.split("://")[0]
    result["asgi_server"] = args.asgi_server
    result["load_average_1min"] = os.getloadavg()[0]
    return result


def compare_trees(args: argparse.Namespace, title: str) -> None:
    """``--runs`` rounds of a run of the ``--baseline`` tree then one of this tree; each
    run's figures, then the median of each figure over the runs, side by side."""
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "this tree": []}
    for number in range(args.runs):
        for name, source in (("baseline", args.baseline), ("this tree", None)):
            result = one_process(args, source)
            runs[name].append(result)
            print_figures(f"{title}: {name}, run {number + 1}", result, None, digits=3)
    medians = {
        name: {
            figure: statistics.median(run[figure] for run in results)
            for figure, value in results[0].items()
            if isinstance(value, int | float)
        }
        for name, results in runs.items()
    }
    table = Table(title=f"{title}: medians of {args.runs} runs each")
    table.add_column("figure")
    for name in medians:
        table.add_column(name, justify="right")
    for figure in medians["baseline"]:
        table.add_row(figure.replace("_", " "), *(f"{m[figure]:.2f}" for m in medians.values()))
    Console().print(table)
    if args.json is not None:
        command = " ".join(["benchmarks/server_load.py", *sys.argv[1:]])
        figures = {"command": command, "runs": runs, "medians": medians}
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


def print_comparison(tables: int, results: dict[int, dict[str, Any]]) -> None:
    """A table of each worker count's figures and, with two counts or more, the ratio of
    the last count's figures to the first's."""
    counts = list(results)
    title = f"Server load through nginx on PostgreSQL: {tables} tables × {SEATS} clients"
    table = Table(title=f"{title}, {' and '.join(map(str, counts))} worker(s)")
    table.add_column("figure", justify="left")
    for count in counts:
        table.add_column(f"{count} worker{'s' if count > 1 else ''}", justify="right")
    if len(counts) > 1:
        table.add_column(f"{counts[-1]} / {counts[0]}", justify="right")
    for key, first in results[counts[0]].items():
        if isinstance(first, dict):  # the profile: a table of its own
            continue
        values = [results[count][key] for count in counts]
        cells = [f"{v:.1f}" if isinstance(v, float) else str(v) for v in values]
        if len(counts) > 1:
            last = values[-1]
            numeric = isinstance(first, int | float) and first
            cells.append(f"{last / first:.2f}" if numeric else "")
        table.add_row(key, *cells)
    Console().print(table)
    profiled = [count for count in counts if "cpu_areas" in results[count]]
    for key, whose in (("cpu_areas", "the workers'"), ("clients_cpu_areas", "the clients'")):
        if profiled:
            print_areas(whose, {count: results[count][key] for count in profiled})


def print_areas(whose: str, areas: dict[int, dict[str, float]]) -> None:
    """Where ``whose`` CPU went (py-spy's samples by area), per worker count: the areas of
    1% or more in any run."""
    table = Table(title=f"Where {whose} CPU goes (share of py-spy samples, by area)")
    table.add_column("area", justify="left")
    for count in areas:
        table.add_column(f"{count} worker{'s' if count > 1 else ''}", justify="right")
    names = {name for shares in areas.values() for name, share in shares.items() if share >= 0.01}
    first = next(iter(areas.values()))
    for name in sorted(names, key=lambda n: -first.get(n, 0.0)):
        table.add_row(name, *(f"{100 * shares.get(name, 0.0):.1f}%" for shares in areas.values()))
    Console().print(table)


def start_profilers(
    profilers: tuple[Profiler, Profiler], workers_pids: list[int], seconds: float, label: str
) -> None:
    """Sample the workers with the first profiler and this process with the second."""
    profilers[0].start(workers_pids, seconds, label)
    profilers[1].start([os.getpid()], seconds, f"{label}-clients")


def one_cluster(
    args: argparse.Namespace, workers: int, environment: dict[str, str]
) -> dict[str, Any]:
    """The load through nginx on a local cluster of ``workers`` on a fresh schema."""
    from localcluster import DEFAULT_DATABASE, LocalCluster, postgres_schema

    with postgres_schema(args.database_url or DEFAULT_DATABASE) as schema_url:
        # Named, so that the meter finds this run's PostgreSQL backends.
        url = f"{schema_url}&application_name=raspisnoy-load-{secrets.token_hex(4)}"
        cluster = LocalCluster(
            workers, database_url=url, environment=environment, quiet=not args.worker_log
        )
        pin(args.server_cpus)  # the cluster's processes inherit it
        with cluster:
            pin(args.client_cpus)
            assert cluster.supervisor is not None and cluster.nginx is not None
            # One worker is the supervisor process itself; more are its children.
            workers_pids = children_of(cluster.supervisor.pid) or [cluster.supervisor.pid]
            meter = cluster_meter([*workers_pids, cluster.nginx.pid], url, cluster.redis_url)
            profilers = None
            on_window = None
            if args.profile is not None:  # the workers, and the load generator (this process)
                profilers = Profiler(args.profile), Profiler(args.profile)
                on_window = partial(
                    start_profilers, profilers, workers_pids, label=f"{workers}-workers"
                )
            think = args.think_ms / 1000
            tuned = not args.untuned_clients
            result = run_load(
                load(
                    *(cluster.url, args.tables, args.seconds, args.warmup, think, meter),
                    *(on_window, tuned),
                ),
                tuned,
            )
            del result["window"]  # no internals here: the workers run as ``raspisnoy serve``
            if profilers is not None:
                result["cpu_areas"] = profilers[0].finish()
                result["clients_cpu_areas"] = profilers[1].finish()
    return result


def compare_workers(args: argparse.Namespace) -> None:
    """The load through nginx with each count of workers in turn (one, then two, unless
    ``--workers`` says otherwise); a table of them and their ratio."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
    from localcluster import exit_on_sigterm

    from chaos import LOAD_ENVIRONMENT

    exit_on_sigterm()

    environment = {**LOAD_ENVIRONMENT, "RASPISNOY_SECRET_KEY": secrets.token_urlsafe(32)}
    if args.gc_threshold is not None:
        environment["RASPISNOY_GC_THRESHOLDS"] = json.dumps(args.gc_threshold)
    results = {workers: one_cluster(args, workers, environment) for workers in args.workers}
    print_comparison(args.tables, results)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
