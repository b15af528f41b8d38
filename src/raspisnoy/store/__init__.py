"""Persistence: SQLAlchemy 2 models, the repository the server uses, Alembic migrations.

SQLite (a file in the data directory) by default, any SQLAlchemy URL otherwise
(PostgreSQL through psycopg). ``Store.open(url)`` connects and applies the migrations
shipped in ``raspisnoy.store.migrations``; the repository methods return plain frozen
values, never ORM objects, so nothing outside this package holds a database session.
"""

from raspisnoy.store.casino import CasinoStore, HandRow, WalletRow
from raspisnoy.store.clubs import (
    ClubNameTakenError,
    ClubResultRow,
    ClubRow,
    ClubStore,
    ClubTableRow,
    MemberRow,
)
from raspisnoy.store.players import (
    ALL_SCOPE,
    ANONYMOUS,
    ROUND_COUNTS,
    BoardKey,
    BoardLine,
    BoardPage,
    Figures,
    Players,
    Profile,
    RatingLine,
    RecentGame,
    RoundCounts,
    SessionLine,
    UsernameTakenError,
    add_figures,
    clean_name,
    hold_ratings,
    move_rating_counts,
    recount,
    username_key,
)
from raspisnoy.store.repository import (
    EventRow,
    FencedError,
    NotFoundError,
    SeatRow,
    SheetRow,
    StaleWriteError,
    Store,
    StoreError,
    TableRow,
    UserRow,
)
from raspisnoy.store.results import GameEnd, GameEnds, RatedSeat, StoredRating
from raspisnoy.store.reviews import Claim, ReviewRow, Reviews, ReviewStatus
from raspisnoy.store.together import ChatRow, Together

__all__ = [
    "ALL_SCOPE",
    "ANONYMOUS",
    "ROUND_COUNTS",
    "BoardKey",
    "BoardLine",
    "BoardPage",
    "CasinoStore",
    "ChatRow",
    "Claim",
    "ClubNameTakenError",
    "ClubResultRow",
    "ClubRow",
    "ClubStore",
    "ClubTableRow",
    "EventRow",
    "FencedError",
    "Figures",
    "GameEnd",
    "GameEnds",
    "HandRow",
    "MemberRow",
    "NotFoundError",
    "Players",
    "Profile",
    "RatedSeat",
    "RatingLine",
    "RecentGame",
    "ReviewRow",
    "ReviewStatus",
    "Reviews",
    "RoundCounts",
    "SeatRow",
    "SessionLine",
    "SheetRow",
    "StaleWriteError",
    "Store",
    "StoreError",
    "StoredRating",
    "TableRow",
    "Together",
    "UserRow",
    "UsernameTakenError",
    "WalletRow",
    "add_figures",
    "clean_name",
    "hold_ratings",
    "move_rating_counts",
    "recount",
    "username_key",
]
