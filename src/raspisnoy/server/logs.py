"""The server's logs: one JSON object a line (or Uvicorn's text lines), each with the id of
the request it belongs to and, for table work, the table's id (docs/operations.md, "Logs").

``RequestIdMiddleware`` gives every HTTP request and WebSocket an id: the proxy's
``X-Request-ID`` if it is a sensible one (nginx's ``$request_id``), else a new one. It
keeps the id in a context variable, which every log line written while the request is
served reads (``current_request``), and returns it in the answer's ``X-Request-ID``
header. ``log_config`` is
the logging configuration ``raspisnoy serve`` hands Uvicorn.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
import sys
import uuid
from collections.abc import Awaitable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "REQUEST",
    "REQUEST_ID_HEADER",
    "JsonFormatter",
    "RequestContext",
    "RequestIdMiddleware",
    "current_request",
    "log_config",
    "request_id_of",
]

#: The header a proxy sends the request's id in, and the answer returns it in.
REQUEST_ID_HEADER = "x-request-id"


@dataclass(frozen=True, slots=True)
class RequestContext:
    """The request being served: its id, the table its path names, and the task serving
    it (``None`` outside asyncio)."""

    request_id: str
    table_id: str | None
    task: asyncio.Task[Any] | None


#: The request being served, for the log lines written meanwhile (``None``: none).
REQUEST: ContextVar[RequestContext | None] = ContextVar("raspisnoy_request", default=None)


def current_request() -> RequestContext | None:
    """The request the running code serves: only in the task serving it. Tasks started
    meanwhile (a table's actor, loaded by one request, outlives it and serves others) and
    threads (``asyncio.to_thread``) copy the context too, but may not be the request's:
    ``None`` there, so that no log line names a request or a table it is not about."""
    request = REQUEST.get()
    if request is None:
        return None
    try:
        task = asyncio.current_task()
    except RuntimeError:  # a thread without an event loop
        return None
    return request if task is request.task else None


#: A request id taken as the proxy sent it: short, and only characters that cannot break
#: a log line or a header (nginx's ``$request_id`` is 32 hexadecimal digits).
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{8,128}")
#: The table a path is about: ``/ws/tables/ID`` and ``/api/tables/ID/...``.
_TABLE_PATH = re.compile(r"^/(?:ws|api)/tables/([A-Za-z0-9_-]{1,64})(?:/|$)")


def request_id_of(given: str | None) -> str:
    """``given`` if it is a valid request id, else a new random one (32 hex digits)."""
    if given is not None and _VALID_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Pure ASGI middleware (no ``BaseHTTPMiddleware``, which would buffer streamed
    answers): the request id of every HTTP request and WebSocket, in ``REQUEST_ID`` while
    it is served and in the ``X-Request-ID`` header of the answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                given = value.decode("latin-1")
        request_id = request_id_of(given)
        table = _TABLE_PATH.match(scope["path"])
        # Not reset afterwards: each request runs in its own task, which ends with it, and
        # the server's own line about a request that failed is written after this returns.
        REQUEST.set(
            RequestContext(
                request_id, None if table is None else table.group(1), asyncio.current_task()
            )
        )
        header = (b"x-request-id", request_id.encode("latin-1"))

        def send_with_id(message: Message) -> Awaitable[None]:
            # A plain function handing on ``send``'s awaitable: every frame of a socket
            # passes here, and an ``async def`` would make a coroutine more for each.
            if message["type"] in ("http.response.start", "websocket.accept"):
                message["headers"] = [*message.get("headers", ()), header]
            return send(message)

        await self.app(scope, receive, send_with_id)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, ``request_id`` and ``table_id`` when there are, and the traceback as
    ``exception``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = current_request()
        if request is not None:
            line["request_id"] = request.request_id
            if request.table_id is not None:
                line["table_id"] = request.table_id
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def log_config(log_format: Literal["json", "text"] | None) -> dict[str, Any]:
    """Uvicorn's logging configuration (``uvicorn.run(log_config=...)``) with the server's
    own loggers (``raspisnoy.*``) beside its own, at INFO; in ``json`` (or, for ``None``,
    when standard error is no terminal) every line is a ``JsonFormatter`` object."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"]["raspisnoy"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    if (log_format or ("text" if sys.stderr.isatty() else "json")) == "json":
        json_formatter = {"()": f"{__name__}.JsonFormatter"}
        config["formatters"] = {"default": json_formatter, "access": json_formatter}
    return config
