"""``Services``: every helper of one app, made once (``Services.create``) and the only way
the routes reach them (``deps.ServicesDep`` and the aliases beside it).

It owns the store and its repositories (each made once here), the settings, the hub of
tables, the session tokens, the limits, the socket counts, the cache of finished games'
reports, the password pool, the review queue, the casino and the services the routes
call (accounts, sessions, sheets, reviews). ``start`` and ``stop`` run with the app's lifespan.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from redis.asyncio import Redis

from raspisnoy.bots.expert import warm_up
from raspisnoy.casino_advisor import warm_up as warm_up_casino
from raspisnoy.ratings.results import TABLE_RATING
from raspisnoy.server.auth import Sessions, load_secret
from raspisnoy.server.broadcast import RedisBroadcast
from raspisnoy.server.cluster import Ownership
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.limits import Limits, RedisSocketCounts, SocketCounts
from raspisnoy.server.services.accounts import Accounts
from raspisnoy.server.services.casino import Casino
from raspisnoy.server.services.clubs import Clubs
from raspisnoy.server.services.friends import Friends
from raspisnoy.server.services.kept_reports import KeptReports
from raspisnoy.server.services.moderation import ModerationDesk
from raspisnoy.server.services.offline import OfflineFiles, OfflineGames, default_pyodide_dir
from raspisnoy.server.services.passes import LeasedPass
from raspisnoy.server.services.passwords import Passwords
from raspisnoy.server.services.pool import PoolDesk
from raspisnoy.server.services.presence import Presence, RedisPresence
from raspisnoy.server.services.puzzles import NEW_PAIR, PuzzleDesk
from raspisnoy.server.services.reviews import ReviewDesk, ReviewQueue
from raspisnoy.server.services.sessions import SessionDesk
from raspisnoy.server.services.sheets import Sheets
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.tables.opening import TableDesk
from raspisnoy.server.services.tables.rematch_sweep import rematch_sweep
from raspisnoy.server.services.tables.sweep import empty_table_sweep
from raspisnoy.server.services.tournament_runner import TournamentRunner
from raspisnoy.server.services.tournaments import Tournaments
from raspisnoy.store import (
    ClubStore,
    EmptyTables,
    FriendsRepository,
    Moderation,
    Players,
    PoolStore,
    PuzzleStore,
    Reviews,
    Store,
    Together,
    TournamentStore,
)

__all__ = ["Services"]

#: A socket counted in Redis stops counting this many lease periods after its worker
#: last refreshed it: a dead worker's sockets free their users' places within 15 s.
_SOCKET_LEASES = 5


@dataclass(slots=True)
class Services:
    """What the routes work with; one set per app."""

    store: Store
    settings: ServerSettings
    hub: Hub
    sessions: Sessions
    sockets: SocketCounts
    review_queue: ReviewQueue
    limits: Limits = field(init=False)
    #: The answers about finished games (they never change) as the JSON sent, by table id
    #: and the answer's model.
    reports: KeptReports = field(init=False)
    players: Players = field(init=False)
    reviews: Reviews = field(init=False)
    together: Together = field(init=False)
    passwords: Passwords = field(init=False)
    accounts: Accounts = field(init=False)
    session_desk: SessionDesk = field(init=False)
    sheets: Sheets = field(init=False)
    review_desk: ReviewDesk = field(init=False)
    #: The matchmaking pool (docs/pool.md); who must never share a table comes from the
    #: blocks of the friends' repository (``PoolDesk``'s ``avoid``).
    pool: PoolDesk = field(init=False)
    moderation_store: Moderation = field(init=False)
    moderation: ModerationDesk = field(init=False)
    #: Who is online and where; the notices to a person's pages (docs/friends.md).
    presence: Presence = field(init=False)
    friends: Friends = field(init=False)
    offline: OfflineFiles = field(init=False)
    offline_games: OfflineGames = field(init=False)
    table_desk: TableDesk = field(init=False)
    #: Deletes the tables nobody will play at (docs/operations.md), on the worker holding
    #: its lease.
    empty_tables: LeasedPass = field(init=False)
    #: Starts the rematch tables their worker stored and died before starting
    #: (docs/PROTOCOL.md, "Rematch"), on the worker holding its lease.
    unstarted_rematches: LeasedPass = field(init=False)
    casino: Casino = field(init=False)
    club_store: ClubStore = field(init=False)
    clubs: Clubs = field(init=False)
    #: Puzzles («задачи», docs/review.md): served, answered and rated.
    puzzle_desk: PuzzleDesk = field(init=False)
    #: Tournaments (docs/tournaments.md): the requests, and the runner that plays the
    #: rounds on the worker holding its lease.
    tournaments: Tournaments = field(init=False)
    tournament_runner: TournamentRunner = field(init=False)

    def __post_init__(self) -> None:
        settings = self.settings
        self.limits = Limits(settings)
        self.reports = KeptReports(settings.report_cache_size)
        self.players = Players(self.store)
        self.reviews = self.review_queue.reviews
        self.together = Together(self.store)
        self.passwords = Passwords(settings.password_workers, settings.password_queue)
        self.accounts = Accounts(self.players, self.passwords, self.limits, self.hub, self.reports)
        self.moderation_store = Moderation(self.store)
        self.session_desk = SessionDesk(
            self.store, self.sessions, self.limits, self.hub, self.moderation_store
        )
        self.sheets = Sheets(self.store)
        self.review_desk = ReviewDesk(self.store, settings, self.review_queue, self.limits)
        broadcast = self.hub.broadcast
        self.presence = (
            RedisPresence(
                broadcast, broadcast.redis, broadcast.name, _SOCKET_LEASES * settings.lease_seconds
            )
            if isinstance(broadcast, RedisBroadcast)
            else Presence(broadcast)
        )
        follows = FriendsRepository(self.store)
        self.offline = OfflineFiles(
            settings.pyodide_dir or default_pyodide_dir(), prepare=settings.offline_prepare
        )
        self.offline_games = OfflineGames(self.store)
        self.table_desk = TableDesk(self.store, settings, self.limits, self.hub)
        self.empty_tables = empty_table_sweep(EmptyTables(self.store), settings)
        self.unstarted_rematches = rematch_sweep(self.together, self.hub, settings)
        self.pool = PoolDesk(
            PoolStore(self.store),
            self.hub,
            settings,
            self.limits,
            self.table_desk,
            avoid=follows.blocked_among,
        )
        self.casino = Casino(self.store)
        self.club_store = ClubStore(self.store)
        tournament_store = TournamentStore(self.store, TABLE_RATING)
        self.clubs = Clubs(
            self.club_store, self.table_desk, tournament_store, self.hub.close_club_sockets
        )
        self.friends = Friends(self.store, follows, self.presence, self.limits, self.clubs.admits)
        self.moderation = ModerationDesk(
            self.store, self.moderation_store, self.limits, self.hub, self.clubs.admits
        )
        self.puzzle_desk = PuzzleDesk(PuzzleStore(self.store, NEW_PAIR), settings)
        self.tournaments = Tournaments(tournament_store, self.club_store, settings)
        self.tournament_runner = TournamentRunner(tournament_store, self.store, self.hub, settings)

    @classmethod
    def create(cls, store: Store, settings: ServerSettings) -> Services:
        """The services of an app over ``store`` (already migrated): with
        ``settings.redis_url``, one of several workers (docs/cluster.md). Raises
        ``SecretKeyError`` if the server's secret cannot be had."""
        ownership, broadcast = None, None
        sockets = SocketCounts(settings.max_sockets_per_user)
        if settings.redis_url is not None:
            redis = Redis.from_url(settings.redis_url, decode_responses=True)
            ownership = Ownership(redis, settings.redis_url, settings.lease_seconds)
            broadcast = RedisBroadcast(redis, ownership.name)
            sockets = RedisSocketCounts(
                redis,
                ownership.name,
                settings.max_sockets_per_user,
                _SOCKET_LEASES * settings.lease_seconds,
            )
        given = None if settings.secret_key is None else settings.secret_key.get_secret_value()
        return cls(
            store,
            settings,
            Hub(store, settings, ownership, broadcast),
            Sessions(load_secret(given, settings.data_dir), settings.session_seconds),
            sockets,
            ReviewQueue(store, settings, alone=ownership is None),
        )

    async def start(self) -> None:
        """Start what runs beside the requests (the app's lifespan begins)."""
        # The expert's compiled search and the casino advisor's loops load (or compile)
        # once per process: do it now, off the event loop, rather than at the first bot's
        # turn or the first player's hint.
        threading.Thread(target=warm_up, name="expert-warm-up", daemon=True).start()
        threading.Thread(target=warm_up_casino, name="casino-warm-up", daemon=True).start()
        await self.hub.start()
        await self.sockets.start()
        await self.presence.start()
        await self.review_queue.start()
        await self.pool.start()
        await self.puzzle_desk.start()
        await self.tournament_runner.start()
        await self.empty_tables.start()
        await self.unstarted_rematches.start()

    async def stop(self) -> None:
        """Stop it all again, in the reverse order."""
        await self.unstarted_rematches.stop()
        await self.empty_tables.stop()
        await self.tournament_runner.stop()
        await self.puzzle_desk.stop()
        await self.pool.stop()
        await self.review_queue.stop()
        await self.presence.stop()
        await self.sockets.stop()
        await self.hub.stop()
        self.passwords.close()
