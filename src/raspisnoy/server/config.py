"""The server's settings: where the data lives and the limits that protect it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ServerSettings"]


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What ``raspisnoy serve`` configures; tests shrink the limits to run fast."""

    #: Largest client message in bytes; a larger one closes the connection (1009).
    max_message_bytes: int = 4096
    #: Sustained client messages per second, and the burst allowed above it; a client
    #: beyond them is closed as flooding (1008).
    messages_per_second: float = 20.0
    message_burst: int = 40
    #: Messages queued for one slow client before it is dropped (1013).
    outbox_limit: int = 2048
    #: Bounds of a table's settings (a turn timer of 0 means none).
    min_turn_seconds: int = 5
    max_turn_seconds: int = 600
    max_bot_delay_ms: int = 10_000
