"""A finished game's end as the store keeps it (``store.GameEnd``): each seat's figures
and, for a rated table, the arithmetic that moves its people's ratings. Pure: the store
runs the arithmetic inside the transaction that marks the game over, on the ratings it
locked there (``store.GameEnds``), so this module holds no SQL and the store no rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from raspisnoy.core import Game
from raspisnoy.ratings.skill import (
    BOT_RATINGS,
    DEFAULT_RATING,
    Rating,
    displayed,
    is_rated_rules,
    rate_game,
)
from raspisnoy.ratings.summary import summarize
from raspisnoy.store import ROUND_COUNTS, GameEnd, RatedSeat, StoredRating, TableRow

__all__ = ["NEWCOMER", "game_end", "rate_seats"]

#: A newcomer's rating as the store keeps it.
NEWCOMER = StoredRating(DEFAULT_RATING.mu, DEFAULT_RATING.sigma, displayed(DEFAULT_RATING))
#: The ``GameResult`` figures of a seat, by column name.
_FIGURES = (*ROUND_COUNTS, "points", "place")


def game_end(table: TableRow, game: Game) -> GameEnd:
    """The end of ``table``'s finished ``game``: every seat's summary and, if the table is
    rated and plays a preset's own rules, how to rate it (``ValueError`` if the game is
    not over)."""
    summaries = summarize(game)
    figures = tuple({name: getattr(summary, name) for name in _FIGURES} for summary in summaries)
    preset = str(table.rules.get("preset"))
    if not (table.rated and is_rated_rules(table.rules)):
        return GameEnd(figures, preset)
    totals = tuple(summary.points for summary in summaries)
    return GameEnd(figures, preset, partial(rate_seats, totals), NEWCOMER)


def rate_seats(
    totals: Sequence[int], seats: Sequence[RatedSeat], before: Mapping[str, StoredRating]
) -> dict[str, StoredRating]:
    """Every person's rating after a game with these final ``totals``: people from their
    rating ``before`` (by user id), bots at their level's fixed rating, which the game
    rates against but never changes."""
    ratings = [
        BOT_RATINGS.get(seat.bot, DEFAULT_RATING)
        if seat.user_id is None
        else Rating(before[seat.user_id].mu, before[seat.user_id].sigma)
        for seat in seats
    ]
    after = rate_game(ratings, totals, [seat.user_id is None for seat in seats])
    return {
        seat.user_id: StoredRating(rating.mu, rating.sigma, displayed(rating))
        for seat, rating in zip(seats, after, strict=True)
        if seat.user_id is not None
    }
