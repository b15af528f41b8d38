"""Bot-versus-bot matches in the duplicate format, with statistics (see ``match``)."""

from raspisnoy.arena.match import (
    BotStats,
    GameResult,
    KindStats,
    MatchConfig,
    MatchResult,
    difference,
    play_game,
    run_match,
    summarize,
)

__all__ = [
    "BotStats",
    "GameResult",
    "KindStats",
    "MatchConfig",
    "MatchResult",
    "difference",
    "play_game",
    "run_match",
    "summarize",
]
