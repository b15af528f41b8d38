"""A game's end as data: one ``GameResult`` per seat and, for a rated table, the new
ratings of its people, written inside the transaction that marks the game over, so a
result never exists without its rating change nor the other way round.

``record_results`` is a finish hook of the store (``Store.finish_hooks``; the server
registers it in ``create_app``): the store knows nothing of games or ratings, and this
module brings the two together. The figures come from the game rebuilt from its stored
actions, the same source every replay uses.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from sqlalchemy import exists, insert, select, update
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
from raspisnoy.store import (
    ALL_SCOPE,
    ROUND_COUNTS,
    add_figures,
    hold_ratings,
    move_rating_counts,
)
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
    them and does nothing), add them to the players' kept sums and, if the table is
    rated, move its people's ratings and the kept counts per rating. Whether it stored
    them."""
    recorded = exists().where(GameResult.table_id == table_id)
    found = session.execute(select(GameTable, recorded).where(GameTable.id == table_id)).first()
    if found is None or found[1]:
        return False
    table = found[0]
    if table.names is None:
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
    results = [
        _result_row(table_id, seat, summary, preset, rated, now)
        for seat, summary in zip(seats, summaries, strict=True)
    ]
    session.execute(insert(GameResult).execution_options(render_nulls=True), results)
    add_figures(session, results)
    if rated:
        _rate(session, table_id, (ALL_SCOPE, preset), seats, summaries, now)
    return True


def _result_row(
    table_id: str, seat: Seat, summary: SeatSummary, preset: str, rated: bool, now: datetime
) -> dict[str, Any]:
    """The ``GameResult`` columns of one seat."""
    figures = {name: getattr(summary, name) for name in (*ROUND_COUNTS, "points", "place")}
    return {
        "table_id": table_id,
        "seat": seat.seat,
        "user_id": seat.user_id,
        "bot": None if seat.user_id is not None else seat.bot,
        "preset": preset,
        "rated": rated,
        "finished_at": now,
        **figures,
    }


def _rate(
    session: Session,
    table_id: str,
    scopes: tuple[str, str],
    seats: list[Seat],
    summaries: list[SeatSummary],
    now: datetime,
) -> None:
    """Rate the game in each scope: people from their stored rating, bots at their
    level's; the kept counts per rating follow each person's move. The rows are written
    by primary key in one batch each (no ORM unit of work: it was a third of the
    update's Python time)."""
    rows, held = _rating_rows(session, scopes, {s.user_id for s in seats if s.user_id}, now)
    moves: Counter[tuple[str, int]] = Counter()
    for key in held:  # each known row leaves its rating for the one the game gives it
        moves[key] -= 1
    ratings, changes = [], []
    for scope in scopes:
        before = [
            BOT_RATINGS.get(s.bot, DEFAULT_RATING)
            if s.user_id is None
            else rows[scope, s.user_id][0]
            for s in seats
        ]
        fixed = [s.user_id is None for s in seats]
        after = rate_game(before, [summary.points for summary in summaries], fixed)
        for seat, rating in zip(seats, after, strict=True):
            if seat.user_id is None:
                continue
            display = displayed(rating)
            moved = {"mu": rating.mu, "sigma": rating.sigma, "display": display}
            person = {"scope": scope, "user_id": seat.user_id}
            games = rows[scope, seat.user_id][1] + 1
            ratings.append({**person, **moved, "games": games, "last_played_at": now})
            changes.append({**person, **moved, "table_id": table_id, "at": now})
            moves[scope, display] += 1
    session.execute(update(PlayerRating), ratings)
    session.execute(insert(RatingChange), changes)
    move_rating_counts(session, moves)


def _rating_rows(
    session: Session, scopes: tuple[str, str], people: set[str], now: datetime
) -> tuple[dict[tuple[str, str], tuple[Rating, int]], list[tuple[str, int]]]:
    """The people's ratings and rated games in ``scopes`` by scope and person, their rows
    locked for this transaction (``hold_ratings``: in one order for every game, made
    for newcomers); and the ``(scope, displayed rating)`` each row held before, for the
    kept counts (none for a newcomer's, made here with 0 games)."""
    newcomer = {
        "mu": DEFAULT_RATING.mu,
        "sigma": DEFAULT_RATING.sigma,
        "display": displayed(DEFAULT_RATING),
        "games": 0,
        "last_played_at": now,
    }
    keys = [{"scope": scope, "user_id": user_id} for scope in scopes for user_id in people]
    found = hold_ratings(session, [{**key, **newcomer} for key in keys])
    rows = {(row.scope, row.user_id): (Rating(row.mu, row.sigma), row.games) for row in found}
    held = [(row.scope, row.display) for row in found if row.games > 0]
    return rows, held
