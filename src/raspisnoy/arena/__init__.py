"""Bot-versus-bot matches in the duplicate format, with statistics (see ``match``)."""

from raspisnoy.arena.match import (
    BotStats,
    GameResult,
    MatchConfig,
    MatchResult,
    play_game,
    run_match,
    summarize,
)

__all__ = [
    "BotStats",
    "GameResult",
    "MatchConfig",
    "MatchResult",
    "play_game",
    "run_match",
    "summarize",
]
