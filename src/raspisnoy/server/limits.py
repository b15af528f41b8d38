"""Limits on abuse: how often one address or one user may call the server, and how many
sockets one user or table may hold. Rates are counted by the ``limits`` library over a
moving window, in memory by default (``RASPISNOY_RATE_LIMIT_STORAGE`` may name a Redis
that several workers share); the socket counts are this process's.

Every limit is a setting (docs/server-settings.md), set far above what a person playing
fast needs: they stop scripts, not players. A request over a limit is refused with
``Refusal.TOO_MANY`` (HTTP 429 with ``Retry-After``); a socket over one is closed with
``CloseCode.TOO_MANY`` (4429).
"""

from __future__ import annotations

import math
import time
from collections import Counter

from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError

__all__ = ["Limits", "SocketCounts"]


class Limits:
    """The rate limits of one app, each a list of ``limits`` items (``"30/minute;300/day"``)."""

    def __init__(self, settings: ServerSettings) -> None:
        self._limiter = MovingWindowRateLimiter(storage_from_string(settings.rate_limit_storage))
        self.requests_per_address = parse_many(settings.requests_per_address)
        self.requests_per_user = parse_many(settings.requests_per_user)
        self.sessions_per_address = parse_many(settings.sessions_per_address)
        self.tables_per_user = parse_many(settings.tables_per_user)
        self.logins_per_address = parse_many(settings.logins_per_address)
        self.logins_per_account = parse_many(settings.logins_per_account)
        self.chat_per_user = parse_many(settings.chat_messages_per_user)
        self.hints_per_user = parse_many(settings.hints_per_user)

    def hit(self, items: list[RateLimitItem], what: str, key: str) -> None:
        """Count one ``what`` (a name for the message) of ``key``; a refusal naming the
        limit and when to try again if that is one too many."""
        for item in items:
            if not self._limiter.hit(item, what, key):
                reset = self._limiter.get_window_stats(item, what, key).reset_time
                raise RequestError(
                    Refusal.TOO_MANY,
                    f"too many {what}: at most {item.amount} per {_window(item)}; try again later",
                    retry_after=max(1, math.ceil(reset - time.time())),
                )


def _window(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


class SocketCounts:
    """How many table sockets each key (a user, or an address) holds now."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._counts: Counter[str] = Counter()

    def acquire(self, key: str) -> bool:
        """Count one more socket of ``key``; ``False`` (and nothing counted) at the limit."""
        if self._counts[key] >= self.limit:
            return False
        self._counts[key] += 1
        return True

    def release(self, key: str) -> None:
        self._counts[key] -= 1
        if self._counts[key] <= 0:
            del self._counts[key]
