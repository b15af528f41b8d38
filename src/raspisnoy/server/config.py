"""The server's settings: where it listens, where the data lives and the limits that protect
it, read from ``RASPISNOY_*`` environment variables (pydantic-settings).

Every field is documented in docs/server-settings.md; a test checks that the table there
names every field. ``raspisnoy serve``'s options override the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from limits import parse_many
from pydantic import AfterValidator, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["ENV_PREFIX", "ServerSettings"]

#: Every setting ``NAME`` is read from the environment variable ``RASPISNOY_NAME``.
ENV_PREFIX = "RASPISNOY_"


def _rate(text: str) -> str:
    """``text`` if it is a rate in ``limits`` notation (``30/minute;300/day``)."""
    try:
        parse_many(text)
    except ValueError:
        raise ValueError(f"not a rate such as 30/minute or 30/minute;300/day: {text!r}") from None
    return text


#: A rate limit in ``limits`` notation.
Rate = Annotated[str, AfterValidator(_rate)]


class ServerSettings(BaseSettings):
    """What ``raspisnoy serve`` configures; tests shrink the limits to run fast."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, frozen=True, extra="ignore")

    #: The address and port to listen on.
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8000
    #: The reverse proxies (addresses or networks, a JSON list in the environment) whose
    #: ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed; from any other caller,
    #: loopback included, they are ignored, so that nobody passes the per-address limits
    #: with a forged header. Empty: the single process trusts none.
    forwarded_allow_ips: tuple[str, ...] = ()
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

    #: Redis (``redis://host:6379/0``) for several workers: table ownership leases and
    #: hand-over requests. ``None``: one process owns every table. Needs PostgreSQL.
    redis_url: str | None = None
    #: How long a worker's claim on a table lasts without renewal (renewed every third of
    #: it): after a worker dies its tables move to another within about this long.
    lease_seconds: Annotated[float, Field(gt=0.2, le=60)] = 3.0

    #: Where rate limits are counted: a ``limits`` storage URL (``memory://``: this
    #: process; ``redis://host:6379/1``: shared). ``None``: this process's memory alone,
    #: or, with ``redis_url`` set, that Redis, so that several workers count together
    #: (``rate_limits_at``).
    rate_limit_storage: str | None = None
    #: REST calls of one address and of one user (``limits`` notation, ``;`` between
    #: several); over them, 429 with ``Retry-After``.
    requests_per_address: Rate = "1200/minute"
    requests_per_user: Rate = "600/minute"
    #: New sessions (guests) one address may make.
    sessions_per_address: Rate = "30/minute;300/day"
    #: Log-in attempts (right or wrong) from one address, and for one user name: enough
    #: for a person who mistypes, far too few to guess a password.
    logins_per_address: Rate = "30/minute;300/day"
    logins_per_account: Rate = "10/minute;100/day"
    #: Checks of the current password (changing it, deleting the account) from one
    #: address and for one account.
    password_checks_per_address: Rate = "20/minute;300/day"
    password_checks_per_account: Rate = "10/minute;100/day"
    #: Threads that hash and check passwords (argon2id, 64 MiB each), apart from the pool
    #: the store uses, and the checks that may wait for them; one more answers 503 busy.
    password_workers: Annotated[int, Field(ge=1, le=64)] = 2
    password_queue: Annotated[int, Field(ge=0)] = 8
    #: New tables one user may open.
    tables_per_user: Rate = "30/minute"
    #: Table chat messages one user may write (over them, the ``rate_limited`` error).
    chat_messages_per_user: Rate = "5/10 seconds;30/minute"
    #: Reports one user may file (docs/moderation.md; over them, 429 ``too_many``).
    reports_per_user: Rate = "5/hour;20/day"
    #: Tables waiting for players where one user holds a seat, and games being played
    #: where one user holds a seat: one guest can neither fill the lobby nor keep the
    #: server busy with bot tables.
    max_open_tables_per_user: Annotated[int, Field(ge=1)] = 5
    #: Hours a table waits for players in the lobby's lists; after that it leaves them
    #: (its link still opens it, and its host can still start it), so that tables
    #: their hosts forgot do not stay there for good, nor count against
    #: ``max_open_tables_per_user``.
    lobby_open_table_hours: Annotated[int, Field(ge=1)] = 24
    max_games_per_user: Annotated[int, Field(ge=1)] = 4
    #: Table sockets open at once to one table, and table and lobby sockets of one user
    #: (or, without a session, one address); over them the socket is closed (4409: the
    #: table is full; 4429: too many of the user's own).
    max_sockets_per_table: Annotated[int, Field(ge=1)] = 64
    max_sockets_per_user: Annotated[int, Field(ge=1)] = 16
    #: Reports of finished games (``/score``, ``/record``) kept ready to answer.
    report_cache_size: Annotated[int, Field(ge=0)] = 1000
    #: The garbage collector's thresholds (``gc.set_threshold``: young, middle, old),
    #: set after start by ``command.tune_gc``: how often, and so how long, it pauses the
    #: tables. Small young and middle generations, collected often, make short pauses
    #: (each object is walked about as often whatever the sizes); a full pass waits for
    #: 20,000 middle ones, every hour or two under load, as before (docs/cluster.md,
    #: session 17).
    gc_thresholds: tuple[
        Annotated[int, Field(ge=100)], Annotated[int, Field(ge=1)], Annotated[int, Field(ge=1)]
    ] = (500, 2, 20_000)

    #: Largest request body in bytes (as nginx's ``client_max_body_size`` of 1 MiB); a
    #: larger one is refused with 413 before it is read.
    max_body_bytes: Annotated[int, Field(ge=1024)] = 1024 * 1024
    #: Largest client message in bytes; a larger one closes the connection (1009).
    max_message_bytes: Annotated[int, Field(ge=64)] = 4096
    #: Sustained client messages per second, and the burst allowed above it; a client
    #: beyond them is closed as flooding (1008).
    messages_per_second: Annotated[float, Field(gt=0)] = 200.0
    message_burst: Annotated[int, Field(ge=1)] = 400
    #: Messages queued for one slow client before it is dropped (1013).
    outbox_limit: Annotated[int, Field(ge=16)] = 2048
    #: Seconds the people at a finished table have to answer a proposed rematch; who has
    #: not answered by then declined (docs/PROTOCOL.md, "Rematch").
    rematch_seconds: Annotated[float, Field(gt=0, le=3600)] = 60.0
    #: Bounds of a table's settings (a turn timer of 0 means none).
    min_turn_seconds: Annotated[int, Field(ge=1)] = 5
    max_turn_seconds: Annotated[int, Field(ge=1)] = 600
    max_bot_delay_ms: Annotated[int, Field(ge=0)] = 10_000

    #: Reviews of finished games (docs/review.md): worker processes (niced, beside the
    #: tables' process; 0: this worker runs none, though it still queues them), search
    #: iterations per move, jobs queued or running at once in all and per user, and
    #: seconds without progress after which a running job is restarted; ``review_nice``
    #: is the processes' least niceness (19: they get the CPU only when the tables leave it),
    #: and ``review_idle`` puts them in Linux's idle scheduling class as well (SCHED_IDLE:
    #: they run only on CPU time that nothing else wants, not even a niced job).
    review_workers: Annotated[int, Field(ge=0, le=64)] = 1
    review_nice: Annotated[int, Field(ge=0, le=19)] = 19
    review_idle: bool = True
    review_iterations: Annotated[int, Field(ge=64)] = 6_000
    review_queue_limit: Annotated[int, Field(ge=1)] = 200
    reviews_per_user: Annotated[int, Field(ge=1)] = 3
    review_stale_seconds: Annotated[float, Field(gt=0)] = 120.0
    #: Reviews queued or running at once that were asked from one address (issue 27,
    #: defect 6: guests made by one address must not fill the whole queue).
    reviews_per_address: Annotated[int, Field(ge=1)] = 10
    #: Hints at unrated tables: search iterations per hint, and how often one user may ask.
    hint_iterations: Annotated[int, Field(ge=64)] = 4_000
    hints_per_user: Rate = "30/minute"
    #: Invitations to a table one user may send (docs/friends.md); over them, 429.
    invitations_per_user: Rate = "5/minute;50/day"
    #: The matchmaking pool (docs/pool.md): seconds between pairing passes, seconds a
    #: waiting person's page may stay silent (closed, connection lost) before they leave
    #: the pool, and how often one user may join or leave it.
    pool_pass_seconds: Annotated[float, Field(gt=0, le=60)] = 1.0
    pool_grace_seconds: Annotated[float, Field(gt=0, le=600)] = 15.0
    pool_changes_per_user: Rate = "20/minute"
    #: Seconds between the tournaments' runner passes (docs/tournaments.md): how soon a
    #: round starts after its start time or after its last game.
    tournament_pass_seconds: Annotated[float, Field(gt=0, le=60)] = 1.0
    #: Seconds between the passes that delete the tables nobody will play at: not
    #: started, nobody seated, opened over ``lobby_open_table_hours`` ago
    #: (docs/operations.md, "Tables nobody plays at").
    empty_table_sweep_seconds: Annotated[float, Field(gt=0, le=86_400)] = 600.0
    #: Seconds between the passes that start the rematch tables left open (their worker
    #: died between storing and starting one), opened over this long ago
    #: (docs/PROTOCOL.md, "Rematch").
    rematch_sweep_seconds: Annotated[float, Field(gt=0, le=600)] = 15.0

    #: Who may read ``/metrics`` (docs/operations.md): callers from these addresses or
    #: networks (a JSON list in the environment), or with ``Authorization: Bearer`` and
    #: this token (at least 16 characters); anyone else gets the 404 of a missing path.
    metrics_addresses: tuple[str, ...] = ("127.0.0.1", "::1")
    metrics_token: Annotated[SecretStr, Field(min_length=16)] | None = None
    #: How the server logs: ``json`` (one object a line, with the request id), ``text``,
    #: or ``None``: text when standard error is a terminal, JSON otherwise.
    log_format: Literal["json", "text"] | None = None
    #: Pyodide's files for offline play (docs/offline.md); ``None``: where
    #: ``scripts/bootstrap`` installs them, ``.offline/node_modules/pyodide`` of the checkout.
    pyodide_dir: Path | None = None
    #: Whether a visitor's page makes offline play's engine ready in the background on a
    #: first visit (a snapshot of Python's start, docs/offline.md), so that even a
    #: device's first offline game starts at once; ``False`` leaves it to the first
    #: offline game (a server for weak phones, say, or tests that do not play offline).
    offline_prepare: bool = True
    #: A set of puzzles (``raspisnoy puzzles generate``'s file, docs/review.md) loaded
    #: into the database at start when it holds none; ``None``: ``puzzles.json`` in
    #: ``data_dir`` (which ``scripts/serve`` builds once), if it is there.
    puzzle_file: Path | None = None
    #: Mine puzzles from finished games in the review processes when no review waits
    #: (docs/review.md, "Puzzles from finished games"); never from an opted-out seat.
    puzzle_mining: bool = False

    def rate_limits_at(self) -> str:
        """Where the rate limits are counted: ``rate_limit_storage``, else the workers'
        Redis if they share one (``redis_url``), else this process's memory."""
        if self.rate_limit_storage is not None:
            return self.rate_limit_storage
        return self.redis_url if self.redis_url is not None else "memory://"

    def database(self) -> str:
        """The database URL: ``database_url``, else the SQLite file in ``data_dir``."""
        if self.database_url is not None:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'raspisnoy.sqlite3').resolve()}"
