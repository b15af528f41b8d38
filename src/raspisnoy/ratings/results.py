"""A finished game's end as the store keeps it (``store.GameEnd``): each seat's figures
and, for a rated table, the arithmetic that moves its people's ratings. Pure: the store
runs the arithmetic inside the transaction that marks the game over, on the ratings it
locked there (``store.GameEnds``), so this module holds no SQL and the store no rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

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
from raspisnoy.store import (
    ROUND_COUNTS,
    EventRow,
    GameEnd,
    RatedSeat,
    StoredRating,
    TableRating,
    TableRow,
)

__all__ = [
    "ABANDON_RUN",
    "NEWCOMER",
    "TABLE_RATING",
    "abandoned_by_person",
    "game_end",
    "played_by_person",
    "rank_points",
    "rate_seats",
]

#: A newcomer's rating as the store keeps it.
NEWCOMER = StoredRating(DEFAULT_RATING.mu, DEFAULT_RATING.sigma, displayed(DEFAULT_RATING))
#: Actions in a row of a person's seat, up to the game's end, that the stand-in or the
#: turn timer made (never the person) from which they abandoned the game at a rated pool
#: table (docs/pool.md, "Fair play"): about a round gone for good. Fewer (a short loss of
#: the connection, a person back within the grace) is never punished.
ABANDON_RUN = 4
#: The ``GameResult`` figures of a seat, by column name.
_FIGURES = (*ROUND_COUNTS, "points", "place")


def game_end(
    table: TableRow, game: Game, events: Iterable[EventRow], *, abandon_last: bool = False
) -> GameEnd:
    """The end of ``table``'s finished ``game``, whose stored actions are ``events``:
    every seat's summary and, if the table is rated and plays a preset's own rules, how
    to rate it (``ValueError`` if the game is not over). With ``abandon_last`` (a pool
    table) a person who abandoned the game (``abandoned_by_person``) is rated last too,
    and named in the end's ``abandoned``: stored with it, once (docs/pool.md, "Fair play")."""
    summaries = summarize(game)
    figures = tuple({name: getattr(summary, name) for name in _FIGURES} for summary in summaries)
    preset = str(table.rules.get("preset"))
    stored, seats = tuple(events), len(summaries)
    gone = abandoned_by_person(stored, seats) if abandon_last else (False,) * seats
    abandoned = tuple(s.user_id for s in table.seats if s.user_id is not None and gone[s.seat])
    if not (table.rated and is_rated_rules(table.rules)):
        return GameEnd(figures, preset, abandoned=abandoned)
    totals = tuple(summary.points for summary in summaries)
    played = played_by_person(stored, len(totals))
    played = tuple(own and not left for own, left in zip(played, gone, strict=True))
    people = {seat.seat for seat in table.seats if seat.user_id is not None}
    bots = tuple(seat not in people for seat in range(seats))
    return GameEnd(figures, preset, TABLE_RATING, rank_points(totals, played, bots), abandoned)


def played_by_person(events: Iterable[EventRow], seats: int) -> tuple[bool, ...]:
    """Whether each seat's person made at least half of the seat's actions: an action the
    person sent carries their client id, one of a bot, the stand-in or the turn timer
    none. A seat below that was played mostly by the stand-in (docs/accounts.md)."""
    made, own = [0] * seats, [0] * seats
    for event in events:
        made[event.seat] += 1
        own[event.seat] += event.client_id is not None
    return tuple(2 * mine >= total for mine, total in zip(own, made, strict=True))


def abandoned_by_person(events: Iterable[EventRow], seats: int) -> tuple[bool, ...]:
    """Whether each seat's last ``ABANDON_RUN`` actions or more, up to the game's end, were
    made without its person (the stand-in or the turn timer): they left, or their time
    ran out for the rest of the game. A bot's seat is always so; callers look at people's."""
    run = [0] * seats
    for event in events:
        run[event.seat] = 0 if event.client_id is not None else run[event.seat] + 1
    return tuple(count >= ABANDON_RUN for count in run)


def rank_points(
    totals: Sequence[int], played: Sequence[bool], bots: Sequence[bool]
) -> tuple[int, ...]:
    """The points each seat is rated by: its final total, but a person's seat that they
    did not mostly play themselves (``played``; a bot's seat, ``bots``, always counts as
    played) ranks last, whatever the stand-in made of it: leaving a game to a bot never
    wins rating."""
    last = min(totals) - 1
    return tuple(
        total if bot or own else last for total, own, bot in zip(totals, played, bots, strict=True)
    )


def rate_seats(
    ranks: Sequence[int], seats: Sequence[RatedSeat], before: Mapping[str, StoredRating]
) -> dict[str, StoredRating]:
    """Every person's rating after a game whose seats rank by ``ranks``
    (``rank_points``): people from their rating ``before`` (by user id), bots at their
    level's fixed rating, which the game rates against but never changes."""
    ratings = [
        BOT_RATINGS.get(seat.bot, DEFAULT_RATING)
        if seat.user_id is None
        else Rating(before[seat.user_id].mu, before[seat.user_id].sigma)
        for seat in seats
    ]
    after = rate_game(ratings, list(ranks), [seat.user_id is None for seat in seats])
    return {
        seat.user_id: StoredRating(rating.mu, rating.sigma, displayed(rating))
        for seat, rating in zip(seats, after, strict=True)
        if seat.user_id is not None
    }


#: How a rated table's game moves its people's ratings (``store.TableRating``).
TABLE_RATING = TableRating(rate_seats, NEWCOMER)
