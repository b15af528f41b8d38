"""Puzzles keep no people's names (docs/review.md, "Puzzles"): a puzzle mined from a
finished game before this revision kept its players' names in its view (``names``) and in
its id (a digest of the view and the move, so a guessed name could be confirmed by it).
Each stored puzzle's seats get the neutral names (``Player 1``…, what ``view_to_json``
writes now) and, where that changed them, the puzzle the id of its position (the digest
``Puzzle.id`` gives it now), its answers and days following it. A puzzle whose position
is stored already (the same position reached in another game, or by self-play) becomes
that one: its answers move there, but a person's answer to that one stays theirs (one
answer per person and puzzle), and its counts of rated answers are counted again. Rows
read in batches of ``BATCH``, in the order of their ids; a row whose data has no view
or no names (or is not a puzzle's) is left as it is.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

#: Puzzles read and written at a time.
BATCH = 500

_PUZZLES = sa.table(
    "puzzles",
    sa.column("id", sa.String),
    sa.column("theme", sa.String),
    sa.column("data", sa.JSON),
    sa.column("source", sa.String),
    sa.column("mu", sa.Float),
    sa.column("sigma", sa.Float),
    sa.column("attempts", sa.Integer),
    sa.column("solved", sa.Integer),
    sa.column("added_at", sa.DateTime(timezone=True)),
)
_ATTEMPTS = sa.table(
    "puzzle_attempts",
    sa.column("puzzle_id", sa.String),
    sa.column("user_id", sa.String),
    sa.column("solved", sa.Boolean),
    sa.column("mu_before", sa.Float),
)
_DAILY = sa.table("daily_puzzles", sa.column("day", sa.String), sa.column("puzzle_id", sa.String))


def _seat_names(players: int) -> list[str]:
    """The neutral names of ``players`` seats (``raspisnoy.core.player_names``)."""
    return [f"Player {seat + 1}" for seat in range(players)]


def _nameless(data: Any) -> dict[str, Any] | None:
    """``data`` with its seats' names neutral, or ``None`` when nothing is to change (they
    are already, or it holds no names to change)."""
    if not isinstance(data, dict) or not isinstance(data.get("view"), dict):
        return None
    names = data["view"].get("names")
    if not isinstance(names, list) or names == _seat_names(len(names)):
        return None
    view = {**data["view"], "names": _seat_names(len(names))}
    return {**data, "view": view}


def _position_id(data: dict[str, Any]) -> str:
    """A puzzle's id: the digest of its view and its move (``Puzzle.id``)."""
    text = json.dumps([data["view"], data.get("best")], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def upgrade() -> None:
    connection = op.get_bind()
    after = ""
    while True:
        rows = connection.execute(
            sa.select(_PUZZLES).where(_PUZZLES.c.id > after).order_by(_PUZZLES.c.id).limit(BATCH)
        ).all()
        if not rows:
            return
        after = rows[-1].id
        for row in rows:
            data = _nameless(row.data)
            if data is not None:
                _rewrite(connection, row, data)


def _rewrite(connection: sa.Connection, row: sa.Row[Any], data: dict[str, Any]) -> None:
    """Give the puzzle ``row`` the nameless ``data`` and the id of its position."""
    new_id = _position_id(data)
    if new_id == row.id:  # its id is its nameless position's already
        connection.execute(_PUZZLES.update().where(_PUZZLES.c.id == row.id).values(data=data))
        return
    data["id"] = new_id
    taken = connection.execute(sa.select(_PUZZLES.c.id).where(_PUZZLES.c.id == new_id)).first()
    if taken is None:
        values = {**row._mapping, "id": new_id, "data": data}
        connection.execute(_PUZZLES.insert().values(**values))
    answered = sa.select(_ATTEMPTS.c.user_id).where(_ATTEMPTS.c.puzzle_id == new_id)
    connection.execute(  # a person who answered both keeps their answer to the one kept
        _ATTEMPTS.delete().where(_ATTEMPTS.c.puzzle_id == row.id, _ATTEMPTS.c.user_id.in_(answered))
    )
    connection.execute(
        _ATTEMPTS.update().where(_ATTEMPTS.c.puzzle_id == row.id).values(puzzle_id=new_id)
    )
    connection.execute(_DAILY.update().where(_DAILY.c.puzzle_id == row.id).values(puzzle_id=new_id))
    connection.execute(_PUZZLES.delete().where(_PUZZLES.c.id == row.id))
    if taken is not None:
        _recount(connection, new_id)


def _recount(connection: sa.Connection, puzzle_id: str) -> None:
    """The puzzle's counts of rated answers (an account's: ``mu_before`` set) and of those
    solved, from its answers."""
    rated = sa.and_(_ATTEMPTS.c.puzzle_id == puzzle_id, _ATTEMPTS.c.mu_before.is_not(None))
    attempts = connection.scalar(sa.select(sa.func.count()).select_from(_ATTEMPTS).where(rated))
    solved = connection.scalar(
        sa.select(sa.func.count()).select_from(_ATTEMPTS).where(rated, _ATTEMPTS.c.solved)
    )
    connection.execute(
        _PUZZLES.update()
        .where(_PUZZLES.c.id == puzzle_id)
        .values(attempts=int(attempts or 0), solved=int(solved or 0))
    )


def downgrade() -> None:
    """Nothing to undo: the names are gone, and the neutral ones read as any others."""
