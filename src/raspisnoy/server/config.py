"""The server's settings: where it listens, where the data lives and the limits that protect
it, read from ``RASPISNOY_*`` environment variables (pydantic-settings).

Every field is documented in docs/server-settings.md; a test checks that the table there
names every field. ``raspisnoy serve``'s options override the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["ENV_PREFIX", "ServerSettings"]

#: Every setting ``NAME`` is read from the environment variable ``RASPISNOY_NAME``.
ENV_PREFIX = "RASPISNOY_"


class ServerSettings(BaseSettings):
    """What ``raspisnoy serve`` configures; tests shrink the limits to run fast."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, frozen=True, extra="ignore")

    #: The address and port to listen on.
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8000
    #: Folder for the SQLite database (and, when no key is given, the key file).
    data_dir: Path = Path("data")
    #: SQLAlchemy URL of the database; ``None``: SQLite in ``data_dir``.
    database_url: str | None = None
    #: Origins (``https://example.com``) besides the server's own whose pages may open a
    #: table WebSocket or send cookie-authenticated writes; a JSON list in the environment.
    allowed_origins: tuple[str, ...] = ()
    #: The secret session tokens are hashed with (at least 32 characters); ``None``: the
    #: key file ``secret.key`` in ``data_dir``, made on first start. Never in the database.
    secret_key: SecretStr | None = None
    #: How long a session lasts from the moment it is made (30 days).
    session_seconds: Annotated[int, Field(ge=1)] = 30 * 24 * 3600

    #: Largest client message in bytes; a larger one closes the connection (1009).
    max_message_bytes: Annotated[int, Field(ge=64)] = 4096
    #: Sustained client messages per second, and the burst allowed above it; a client
    #: beyond them is closed as flooding (1008).
    messages_per_second: Annotated[float, Field(gt=0)] = 20.0
    message_burst: Annotated[int, Field(ge=1)] = 40
    #: Messages queued for one slow client before it is dropped (1013).
    outbox_limit: Annotated[int, Field(ge=16)] = 2048
    #: Bounds of a table's settings (a turn timer of 0 means none).
    min_turn_seconds: Annotated[int, Field(ge=1)] = 5
    max_turn_seconds: Annotated[int, Field(ge=1)] = 600
    max_bot_delay_ms: Annotated[int, Field(ge=0)] = 10_000

    def database(self) -> str:
        """The database URL: ``database_url``, else the SQLite file in ``data_dir``."""
        if self.database_url is not None:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'raspisnoy.sqlite3').resolve()}"
