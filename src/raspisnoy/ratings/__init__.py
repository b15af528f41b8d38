"""Ratings and statistics of finished games (docs/accounts.md).

``skill`` rates a game with OpenSkill's Plackett–Luce model (bots at fixed ratings per
level) and turns a rating into the conservative number players see; ``summary`` reads
a finished ``Game`` into the figures a profile adds up (places, exact bids, blind,
misère and golden rounds); ``results`` turns a finished game into the end the store
keeps (``store.GameEnd``), whose rating arithmetic the store runs inside the transaction
that records the game's end; ``replay`` rebuilds a stored game from its events;
``bot_levels`` fits the bot levels' ratings from an arena match and reads the fit
shipped in ``data/`` (and what the lobby says of each level). All but the reading of
those files are pure: the SQL of a game's end is the store's (``store.GameEnds``).
"""

from raspisnoy.ratings.bot_levels import LevelStrength, level_strengths
from raspisnoy.ratings.replay import rebuild_game
from raspisnoy.ratings.results import game_end
from raspisnoy.ratings.skill import (
    BOT_RATINGS,
    DEFAULT_RATING,
    PROVISIONAL_GAMES,
    RATED_STAND_IN,
    Rating,
    displayed,
    is_rated_rules,
    may_stand_in_rated,
    rate_game,
)
from raspisnoy.ratings.summary import SeatSummary, summarize

__all__ = [
    "BOT_RATINGS",
    "DEFAULT_RATING",
    "PROVISIONAL_GAMES",
    "RATED_STAND_IN",
    "LevelStrength",
    "Rating",
    "SeatSummary",
    "displayed",
    "game_end",
    "is_rated_rules",
    "level_strengths",
    "may_stand_in_rated",
    "rate_game",
    "rebuild_game",
    "summarize",
]
