"""The Prometheus ``/metrics`` endpoint (docs/operations.md, "Metrics").

What can be read from the server's own objects is read when Prometheus scrapes: the
tables by status and the review jobs from the database, the store's connection pool.
What happens in between is counted as it happens, in one place each: every ``act`` of a
table socket and the time from receiving it to its answer (``observe_action``, where the
socket route hands it to the table's actor), the WebSockets open and closed and the HTTP
answers that refuse or fail (``AnswerCounter``, pure ASGI middleware).

Label values come from fixed sets only (a status, a socket kind, an HTTP status): no
table id, no user and no card is ever a label. Each worker process has its own registry
and answers for itself; Prometheus scrapes every worker's port.
"""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
import time
from collections.abc import Awaitable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import cast

from fastapi import APIRouter, FastAPI, HTTPException, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import QueuePool
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from raspisnoy.bots import TABLE_BOTS
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.deps import services_of
from raspisnoy.store import ReviewStatus, Store
from raspisnoy.store.models import GameTable
from raspisnoy.store.reviews import GameReview

__all__ = ["AnswerCounter", "ServerMetrics", "install_metrics", "observe_action", "router"]

#: The table statuses counted (a finished table never changes again: not a gauge's job).
TABLE_STATUSES = ("open", "playing")
#: The review job statuses counted: the queue's length and what runs now.
REVIEW_STATUSES = (ReviewStatus.QUEUED, ReviewStatus.RUNNING)
#: Seconds from an ``act`` received to its ``ack`` (or its error): a store commit is
#: milliseconds; seconds mean a stalled database or an overloaded worker.
ACTION_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)

router = APIRouter(include_in_schema=False)


class ServerMetrics:
    """One server process's metrics, in a registry of its own (one per app, so a test
    can build many)."""

    def __init__(self, store: Store, bot_failures: Mapping[str, int]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter(
            "raspisnoy_actions",
            "Actions (act messages) players sent over table sockets, answered or refused.",
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "raspisnoy_action_seconds",
            "Seconds from receiving an act to sending its ack or error.",
            buckets=ACTION_BUCKETS,
            registry=self.registry,
        )
        self.sockets = Gauge(
            "raspisnoy_sockets",
            "WebSockets open now, by kind (table; lobby: any other).",
            ["kind"],
            registry=self.registry,
        )
        self.closes = Counter(
            "raspisnoy_socket_closes",
            "WebSockets the server closed, by close code (4429: too many, 1008: flooding…).",
            ["code"],
            registry=self.registry,
        )
        self.errors = Counter(
            "raspisnoy_http_errors",
            "HTTP answers with a status of 400 or more, by status (refusals and failures).",
            ["status"],
            registry=self.registry,
        )
        self.registry.register(_StoreCollector(store))
        self.registry.register(_BotFailures(bot_failures))

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format (reads the database: call it off the
        event loop)."""
        return generate_latest(self.registry)


class _BotFailures(Collector):
    """The bots that failed to choose a move in this process (the hub's count), by level:
    each failure is a move the table played for the bot (its first legal one), which a
    player sees as a bot's blunder. Every table level is reported, 0 included."""

    def __init__(self, failures: Mapping[str, int]) -> None:
        self._failures = failures

    def collect(self) -> Iterable[Metric]:
        family = CounterMetricFamily(
            "raspisnoy_bot_failures",
            "Bot moves that failed and were played as the first legal action, by level.",
            labels=["level"],
        )
        for level in TABLE_BOTS:
            family.add_metric([level], self._failures.get(level, 0))
        yield family


class _StoreCollector(Collector):
    """What is read from the database and the store's pool at each scrape: the same
    figures from every worker (tables and reviews are the whole server's)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def collect(self) -> Iterable[Metric]:
        up = GaugeMetricFamily("raspisnoy_store_up", "1 if the database answered this scrape.")
        try:
            tables, reviews = self._counts()
        except SQLAlchemyError:
            up.add_metric([], 0)
            yield up
        else:
            up.add_metric([], 1)
            yield up
            yield tables
            yield reviews
        yield from self._pool()

    def _counts(self) -> tuple[GaugeMetricFamily, GaugeMetricFamily]:
        """Tables by status and review jobs by status (both indexed columns)."""
        table_query = (
            select(GameTable.status, func.count())
            .where(GameTable.status.in_(TABLE_STATUSES))
            .group_by(GameTable.status)
        )
        review_query = (
            select(GameReview.status, func.count())
            .where(GameReview.status.in_(REVIEW_STATUSES))
            .group_by(GameReview.status)
        )
        with self._store.engine.connect() as connection:
            table_counts: dict[str, int] = dict(connection.execute(table_query).all())
            review_counts: dict[str, int] = dict(connection.execute(review_query).all())
        tables = GaugeMetricFamily(
            "raspisnoy_tables", "Tables by status (open: waiting for players).", labels=["status"]
        )
        for status in TABLE_STATUSES:
            tables.add_metric([status], table_counts.get(status, 0))
        reviews = GaugeMetricFamily(
            "raspisnoy_review_jobs", "Review jobs queued and running.", labels=["status"]
        )
        for review_status in REVIEW_STATUSES:
            reviews.add_metric([review_status.value], review_counts.get(review_status.value, 0))
        return tables, reviews

    def _pool(self) -> Iterator[GaugeMetricFamily]:
        """The connection pool of the store's engine (the requests' and the finishes')."""
        pool = self._store.engine.pool
        if not isinstance(pool, QueuePool):
            return
        for name, text, value in (
            ("size", "Connections the pool keeps.", pool.size()),
            ("checked_out", "Connections in use now.", pool.checkedout()),
            ("overflow", "Connections open beyond the pool's size.", max(0, pool.overflow())),
        ):
            yield GaugeMetricFamily(f"raspisnoy_store_pool_{name}", text, value=value)


def metrics_of(connection: HTTPConnection) -> ServerMetrics | None:
    """The metrics of the app serving ``connection`` (``None`` if it keeps none)."""
    return cast(ServerMetrics | None, getattr(connection.app.state, "metrics", None))


@contextmanager
def observe_action(connection: HTTPConnection, is_action: bool) -> Iterator[None]:
    """Around handing a client message to its table's actor: an action (``act``) is
    counted and timed until the actor has answered it (the ack is then in the client's
    outbox); other messages are not."""
    metrics = metrics_of(connection)
    if metrics is None or not is_action:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        metrics.actions.inc()
        metrics.action_seconds.observe(time.perf_counter() - started)


class AnswerCounter:
    """Pure ASGI middleware: counts the WebSockets open by kind, those the server closes
    by code, and the HTTP answers of status 400 or more (an exception that escapes the app
    becomes Starlette's 500). Every code is the server's own: a fixed set."""

    def __init__(self, app: ASGIApp, metrics: ServerMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        elif scope["type"] == "http":
            await self._request(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"]
        kind = "table" if path.startswith("/ws/tables/") else "lobby"
        gauge = self.metrics.sockets.labels(kind)

        def counting_send(message: Message) -> Awaitable[None]:
            # A plain function, as every frame passes here (``logs.RequestIdMiddleware``).
            if message["type"] == "websocket.close":
                self.metrics.closes.labels(str(message.get("code", 1000))).inc()
            return send(message)

        gauge.inc()
        try:
            await self.app(scope, receive, counting_send)
        finally:
            gauge.dec()

    async def _request(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def counting_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if message["status"] >= 400:
                    self.metrics.errors.labels(str(message["status"])).inc()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        except Exception:
            if not started:
                self.metrics.errors.labels("500").inc()
            raise


def _allowed(request: Request, settings: ServerSettings) -> bool:
    """Whether the caller may read the metrics: the right bearer token, or an address in
    ``settings.metrics_addresses``."""
    token = settings.metrics_token
    header = request.headers.get("authorization", "")
    if (
        token is not None
        and header.lower().startswith("bearer ")
        and secrets.compare_digest(header[7:].strip().encode(), token.get_secret_value().encode())
    ):
        return True
    if request.client is None:
        return False
    try:
        address = ipaddress.ip_address(request.client.host)
    except ValueError:
        return False
    return any(
        address in ipaddress.ip_network(allowed, strict=False)
        for allowed in settings.metrics_addresses
    )


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The server's metrics in Prometheus' text format, to allowed callers only; anyone
    else gets the 404 of a path that does not exist."""
    server_metrics = metrics_of(request)
    if server_metrics is None or not _allowed(request, services_of(request).settings):
        raise HTTPException(status_code=404, detail="Not Found")
    body = await asyncio.to_thread(server_metrics.exposition)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def install_metrics(app: FastAPI, store: Store, bot_failures: Mapping[str, int]) -> None:
    """Give ``app`` its metrics: the registry, the counting middleware and ``/metrics``
    (call it before the browser client is mounted at ``/``); ``bot_failures`` is the
    hub's count of failed bot moves by level."""
    app.state.metrics = server_metrics = ServerMetrics(store, bot_failures)
    app.add_middleware(AnswerCounter, metrics=server_metrics)
    app.include_router(router)
