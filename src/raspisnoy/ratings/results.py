"""A game's end as data: one ``GameResult`` per seat and, for a rated table, the new
ratings of its people, written inside the transaction that marks the game over, so a
result never exists without its rating change nor the other way round.

``record_results`` is a finish hook of the store (``Store.finish_hooks``; the server
registers it in ``create_app``): the store knows nothing of games or ratings, and this
module brings the two together. The figures come from the game rebuilt from its stored
actions, the same source every replay uses.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from raspisnoy.ratings.skill import (
    BOT_RATINGS,
    DEFAULT_RATING,
    Rating,
    displayed,
    is_rated_rules,
    rate_game,
)
from raspisnoy.ratings.summary import SeatSummary, replay_game, summarize
from raspisnoy.store import ALL_SCOPE, ROUND_COUNTS
from raspisnoy.store.models import (
    GameEvent,
    GameResult,
    GameTable,
    PlayerRating,
    RatingChange,
    Seat,
)

__all__ = ["record_results"]


def record_results(session: Session, table_id: str, now: datetime) -> bool:
    """Store the results of the finished game at ``table_id`` (once: a second call finds
    them and does nothing) and, if the table is rated, its people's new ratings. Whether
    it stored them."""
    table = session.get(GameTable, table_id)
    if table is None or table.names is None:
        return False
    if session.scalar(select(GameResult.seat).where(GameResult.table_id == table_id).limit(1)):
        return False
    events = session.execute(
        select(GameEvent.seat, GameEvent.action)
        .where(GameEvent.table_id == table_id)
        .order_by(GameEvent.seq)
    )
    actions = ((seat, action) for seat, action in events)
    game = replay_game(table.rules, table.names, table.seed, table.first_dealer, actions)
    if not game.is_over:
        return False
    seats = list(session.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)))
    preset = str(table.rules.get("preset"))
    rated = table.rated and is_rated_rules(table.rules)
    summaries = summarize(game)
    for seat, summary in zip(seats, summaries, strict=True):
        session.add(_result_row(table_id, seat, summary, preset, rated, now))
    if rated:
        for scope in (ALL_SCOPE, preset):
            _rate(session, table_id, scope, seats, summaries, now)
    return True


def _result_row(
    table_id: str, seat: Seat, summary: SeatSummary, preset: str, rated: bool, now: datetime
) -> GameResult:
    figures = {name: getattr(summary, name) for name in (*ROUND_COUNTS, "points", "place")}
    return GameResult(
        table_id=table_id,
        seat=seat.seat,
        user_id=seat.user_id,
        bot=None if seat.user_id is not None else seat.bot,
        preset=preset,
        rated=rated,
        finished_at=now,
        **figures,
    )


def _rate(
    session: Session,
    table_id: str,
    scope: str,
    seats: list[Seat],
    summaries: list[SeatSummary],
    now: datetime,
) -> None:
    """Rate the game in ``scope``: people from their stored rating, bots at their level's."""
    rows = _rating_rows(session, scope, {s.user_id for s in seats if s.user_id}, now)
    before = [
        BOT_RATINGS.get(s.bot, DEFAULT_RATING)
        if s.user_id is None
        else Rating(rows[s.user_id].mu, rows[s.user_id].sigma)
        for s in seats
    ]
    fixed = [s.user_id is None for s in seats]
    after = rate_game(before, [summary.points for summary in summaries], fixed)
    for seat, rating in zip(seats, after, strict=True):
        if seat.user_id is None:
            continue
        row = rows[seat.user_id]
        row.mu, row.sigma, row.display = rating.mu, rating.sigma, displayed(rating)
        row.games += 1
        row.last_played_at = now
        session.add(
            RatingChange(
                table_id=table_id,
                user_id=seat.user_id,
                scope=scope,
                mu=rating.mu,
                sigma=rating.sigma,
                display=row.display,
                at=now,
            )
        )


def _rating_rows(
    session: Session, scope: str, people: set[str], now: datetime
) -> dict[str, PlayerRating]:
    """The people's rating rows in ``scope``, locked for this transaction (one query);
    a newcomer's (the default rating) for whoever has none yet."""
    query = (
        select(PlayerRating)
        .where(PlayerRating.scope == scope, PlayerRating.user_id.in_(people))
        .with_for_update()
    )
    rows = {row.user_id: row for row in session.scalars(query)}
    for user_id in people - rows.keys():
        rows[user_id] = _new_rating_row(session, scope, user_id, now)
    return rows


def _new_rating_row(session: Session, scope: str, user_id: str, now: datetime) -> PlayerRating:
    """A newcomer's rating row, or the row another game of theirs has just added."""
    fresh = PlayerRating(
        scope=scope,
        user_id=user_id,
        mu=DEFAULT_RATING.mu,
        sigma=DEFAULT_RATING.sigma,
        display=displayed(DEFAULT_RATING),
        games=0,
        last_played_at=now,
    )
    try:
        with session.begin_nested():
            session.add(fresh)
    except IntegrityError:
        query = (
            select(PlayerRating)
            .where(PlayerRating.scope == scope, PlayerRating.user_id == user_id)
            .with_for_update()
        )
        return session.scalars(query).one()
    return fresh
