"""The SQL of a game's end: the table marked over, one ``GameResult`` per seat and, for a
rated table, the new ratings of its people (and who abandoned a rated pool game), all in
one transaction, so a result never exists without its rating change nor the other way
round, and exactly once. A rated game of a tournament round still being played waits
instead (``PendingRating``): the round's end moves its ratings (``settle_waiting``), in
the transaction that ends the round, so no rating tells one table of the round how the
same cards went at another.

The figures and the rating arithmetic come from outside (``raspisnoy.ratings``, which
reads them from the finished game): the store knows nothing of games or ratings. What
makes the end exactly-once is here: the table row is locked first, and a table that has
results already gets none again (the results' primary key, table and seat, refuses a
second set even from a transaction that raced past the check).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import ColumnElement, delete, exists, insert, literal, select, update
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.hidden import in_round_being_played
from raspisnoy.store.models import (
    GameResult,
    GameTable,
    PendingRating,
    PlayerRating,
    PoolAbandon,
    RatingChange,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from raspisnoy.store.players import ALL_SCOPE, add_figures, hold_ratings, move_rating_counts
from raspisnoy.store.repository import Store, check_fences, transaction

__all__ = [
    "GameEnd",
    "GameEnds",
    "Rate",
    "RatedSeat",
    "StoredRating",
    "TableRating",
    "rate_people",
    "settle_waiting",
]


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A person's rating as stored: mean, uncertainty and the number players see."""

    mu: float
    sigma: float
    display: int


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat as the game's end finds it stored: its person (``None``: a bot) and bot level."""

    user_id: str | None
    bot: str


#: The arithmetic of a rated game in one scope: each seat's rank points (the higher, the
#: better), the seats and the people's ratings before (by user id) → their ratings after.
#: Pure; given by ``raspisnoy.ratings``.
Rate = Callable[
    [Sequence[int], Sequence[RatedSeat], Mapping[str, StoredRating]], Mapping[str, StoredRating]
]


@dataclass(frozen=True, slots=True)
class TableRating:
    """How a rated table's game moves its people's ratings: the arithmetic, and the
    rating a newcomer starts from."""

    rate: Rate
    newcomer: StoredRating


@dataclass(frozen=True, slots=True)
class GameEnd:
    """What a finished game stores with its end: each seat's ``GameResult`` figures by
    column name (the round counts, ``points`` and ``place``), its preset, and for a
    rated game how to rate it and each seat's rank points; at a rated pool table, the
    people who abandoned it (user ids: their cooldown before the next)."""

    figures: tuple[Mapping[str, int], ...]
    preset: str
    rating: TableRating | None = None
    ranks: tuple[int, ...] = ()
    abandoned: tuple[str, ...] = ()


class GameEnds:
    """The ends of games over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def finish(self, table_id: str, end: GameEnd | None = None, fence: int | None = None) -> bool:
        """Mark the game over and, in the same transaction, store ``end`` (each seat's
        result and, for a rated table, the new ratings) unless the table has results
        already: calling it again, after a failure or a restart, is safe and stores
        nothing twice. Whether this call stored the results. ``fence``: the writer's
        ownership token (``Store.set_seat``); refused under a stale one (``FencedError``)."""
        with transaction(self._sessions) as session:
            check_fences(session, {table_id: fence})
            return _record_end(session, table_id, end, datetime.now(UTC))

    def over_without_results(self) -> list[str]:
        """The finished games that have no results (they ended before results were
        recorded), in the order they ended."""
        missing = (
            select(GameTable.id)
            .where(GameTable.status == "over", ~exists().where(GameResult.table_id == GameTable.id))
            .order_by(GameTable.finished_at, GameTable.id)
        )
        with transaction(self._sessions) as session:
            return list(session.scalars(missing))


def _record_end(session: Session, table_id: str, end: GameEnd | None, now: datetime) -> bool:
    """Mark the table's game over (if it is not yet) and store ``end`` unless the table
    has results already. The table row is locked first, so two ends of one game (a retry
    racing a restart's) run one after the other and the second finds the first's
    results; a game that was over already keeps its end's date."""
    locked = select(GameTable).where(GameTable.id == table_id).with_for_update()
    table = session.scalars(locked).one()
    finished_at = now if table.status != "over" else table.finished_at or now
    if table.status != "over":
        session.execute(
            update(GameTable)
            .where(GameTable.id == table_id)
            .values(status="over", finished_at=finished_at)
        )
    if end is None or session.scalar(select(exists().where(GameResult.table_id == table_id))):
        return False
    seats = _seats(session, table_id)
    rated = end.rating is not None
    results = [
        _result_row(table_id, seat, figures, end.preset, rated, finished_at)
        for seat, figures in zip(seats, end.figures, strict=True)
    ]
    session.execute(insert(GameResult).execution_options(render_nulls=True), results)
    add_figures(session, results)
    session.add_all(
        PoolAbandon(user_id=user_id, table_id=table_id, at=now.timestamp())
        for user_id in end.abandoned
    )
    if end.rating is None:
        return True
    if _waits_for_round(session, table_id):
        ranks = list(end.ranks)
        waiting = PendingRating(
            table_id=table_id, preset=end.preset, ranks=ranks, finished_at=finished_at
        )
        session.add(waiting)
    else:
        _rate_table(session, table_id, seats, end.preset, end.ranks, end.rating, finished_at)
    return True


def _seats(session: Session, table_id: str) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)))


def _waits_for_round(session: Session, table_id: str) -> bool:
    """Whether the table is one of a tournament round still being played, whose
    ratings wait for its end. The round's and the event's rows are held (shared) first,
    so the round's end (``TournamentStore.end_round``) and the event's
    (``TournamentStore.set_state``), which write them, come wholly before this
    transaction, and it rates at once, or wholly after it, and find the row it adds."""
    rows = (
        select(TournamentRound.number, Tournament.id)
        .join(TournamentTable, _round_of_table())
        .join(Tournament, Tournament.id == TournamentTable.tournament_id)
        .where(TournamentTable.table_id == table_id)
        .with_for_update(read=True)
    )
    if session.execute(rows).first() is None:
        return False
    return bool(session.scalar(select(in_round_being_played(literal(table_id)))))


def _round_of_table() -> ColumnElement[bool]:
    return (TournamentRound.tournament_id == TournamentTable.tournament_id) & (
        TournamentRound.number == TournamentTable.round_number
    )


def settle_waiting(session: Session, tournament_id: str, rating: TableRating, now: datetime) -> int:
    """Move the ratings that the tournament's games waited with (``PendingRating``), in
    the order the games ended, in the caller's transaction: the one that ends their
    round or the event. The rows are deleted first, so two such transactions at once
    (the round's last game recorded as the director ends the event) rate each game
    once: the second finds them gone. How many games it rated."""
    tables = select(TournamentTable.table_id).where(TournamentTable.tournament_id == tournament_id)
    taken = session.execute(
        delete(PendingRating)
        .where(PendingRating.table_id.in_(tables))
        .returning(
            PendingRating.table_id,
            PendingRating.preset,
            PendingRating.ranks,
            PendingRating.finished_at,
        )
    ).all()
    for table_id, preset, ranks, _ in sorted(taken, key=lambda row: (row[3], row[0])):
        seats = _seats(session, table_id)
        _rate_table(session, table_id, seats, preset, tuple(ranks), rating, now)
    return len(taken)


def _rate_table(
    session: Session,
    table_id: str,
    seats: Sequence[Seat],
    preset: str,
    ranks: Sequence[int],
    rating: TableRating,
    now: datetime,
) -> None:
    """Rate the table's game, whose seats rank by ``ranks``, overall and in its preset."""
    rated_seats = [RatedSeat(seat.user_id, seat.bot) for seat in seats]
    rate = partial(rating.rate, ranks)
    _rate(session, table_id, (ALL_SCOPE, preset), rated_seats, rate, rating.newcomer, now)


def _result_row(
    table_id: str,
    seat: Seat,
    figures: Mapping[str, int],
    preset: str,
    rated: bool,
    now: datetime,
) -> dict[str, Any]:
    """The ``GameResult`` columns of one seat."""
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
    seats: list[RatedSeat],
    rate: Callable[[Sequence[RatedSeat], Mapping[str, StoredRating]], Mapping[str, StoredRating]],
    newcomer: StoredRating,
    now: datetime,
) -> None:
    """Rate the game in each scope: the people's stored ratings (locked) go through
    ``rate``; the kept counts per rating follow each person's move. The rows are written
    by primary key in one batch each (no ORM unit of work: it was a third of the
    update's Python time)."""
    people = {seat.user_id for seat in seats if seat.user_id is not None}
    rows, held = _rating_rows(session, scopes, people, newcomer, now)
    moves: Counter[tuple[str, int]] = Counter()
    for key in held:  # each known row leaves its rating for the one the game gives it
        moves[key] -= 1
    ratings, changes = [], []
    for scope in scopes:
        after = rate(seats, {user_id: rows[scope, user_id][0] for user_id in people})
        for user_id in sorted(people):
            rating = after[user_id]
            moved = {"mu": rating.mu, "sigma": rating.sigma, "display": rating.display}
            person = {"scope": scope, "user_id": user_id}
            games = rows[scope, user_id][1] + 1
            ratings.append({**person, **moved, "games": games, "last_played_at": now})
            changes.append({**person, **moved, "table_id": table_id, "at": now})
            moves[scope, rating.display] += 1
    if ratings:
        session.execute(update(PlayerRating), ratings)
        session.execute(insert(RatingChange), changes)
    move_rating_counts(session, moves)


def rate_people(
    session: Session,
    scope: str,
    people: Collection[str],
    newcomer: StoredRating,
    now: datetime,
    rate: Callable[[Mapping[str, StoredRating]], Mapping[str, StoredRating]],
) -> None:
    """Move ``people``'s ratings in ``scope`` by ``rate`` (their stored ratings, locked
    for the caller's transaction, to their new ones), one rated game more each, the kept
    counts following: a rating moved by something other than one table's game (a
    tournament round's duplicate results), so no ``RatingChange`` row."""
    rows, held = _rating_rows(session, (scope,), set(people), newcomer, now)
    after = rate({user_id: rows[scope, user_id][0] for user_id in people})
    moves: Counter[tuple[str, int]] = Counter()
    for key in held:  # each known row leaves its rating for the one the round gives it
        moves[key] -= 1
    ratings = []
    for user_id in sorted(people):
        rating = after[user_id]
        games = rows[scope, user_id][1] + 1
        moved = {"mu": rating.mu, "sigma": rating.sigma, "display": rating.display}
        ratings.append(
            {"scope": scope, "user_id": user_id, **moved, "games": games, "last_played_at": now}
        )
        moves[scope, rating.display] += 1
    if ratings:
        session.execute(update(PlayerRating), ratings)
    move_rating_counts(session, moves)


def _rating_rows(
    session: Session,
    scopes: tuple[str, ...],
    people: set[str],
    newcomer: StoredRating,
    now: datetime,
) -> tuple[dict[tuple[str, str], tuple[StoredRating, int]], list[tuple[str, int]]]:
    """The people's ratings and rated games in ``scopes`` by scope and person, their rows
    locked for this transaction (``hold_ratings``: in one order for every game, made
    for newcomers); and the ``(scope, displayed rating)`` each row held before, for the
    kept counts (none for a newcomer's, made here with 0 games)."""
    start = {
        "mu": newcomer.mu,
        "sigma": newcomer.sigma,
        "display": newcomer.display,
        "games": 0,
        "last_played_at": now,
    }
    keys = [{"scope": scope, "user_id": user_id} for scope in scopes for user_id in people]
    found = hold_ratings(session, [{**key, **start} for key in keys])
    rows = {
        (row.scope, row.user_id): (StoredRating(row.mu, row.sigma, row.display), row.games)
        for row in found
    }
    held = [(row.scope, row.display) for row in found if row.games > 0]
    return rows, held
