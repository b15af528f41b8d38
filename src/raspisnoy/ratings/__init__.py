"""Ratings and statistics of finished games (docs/accounts.md).

``skill`` rates a game with OpenSkill's Plackett–Luce model (bots at fixed ratings per
level) and turns a rating into the conservative number players see; ``summary`` reads
a finished ``Game`` into the figures a profile adds up (places, exact bids, blind,
misère and golden rounds). Both are pure: the store calls them inside the transaction
that records a game's end.
"""

from raspisnoy.ratings.skill import (
    BOT_RATINGS,
    DEFAULT_RATING,
    PROVISIONAL_GAMES,
    Rating,
    displayed,
    is_rated_rules,
    rate_game,
)
from raspisnoy.ratings.summary import SeatSummary, replay_game, summarize

__all__ = [
    "BOT_RATINGS",
    "DEFAULT_RATING",
    "PROVISIONAL_GAMES",
    "Rating",
    "SeatSummary",
    "displayed",
    "is_rated_rules",
    "rate_game",
    "replay_game",
    "summarize",
]
