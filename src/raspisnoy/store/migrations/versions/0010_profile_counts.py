"""Kept sums for profiles and leaderboards (docs/accounts.md): ``player_figures``, each
person's results summed per preset and place, and ``rating_counts``, how many people
hold each displayed rating per scope, both filled here from the rows already stored
and kept from now on by the transactions that store results and move ratings; and
``ratings (user_id)``, for a profile's ratings (the primary key leads with the scope).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: The summed columns of ``game_results``, as of this revision.
_SUMMED = (
    "points",
    "bid_rounds",
    "exact",
    "zero_bids",
    "zero_exact",
    "blind_rounds",
    "blind_exact",
    "blind_points",
    "misere_rounds",
    "misere_points",
    "golden_rounds",
    "golden_points",
)


def upgrade() -> None:
    op.create_table(
        "rating_counts",
        sa.Column("scope", sa.String(64), primary_key=True),
        sa.Column("display", sa.Integer(), primary_key=True),
        sa.Column("players", sa.Integer(), nullable=False),
    )
    op.create_table(
        "player_figures",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("preset", sa.String(64), primary_key=True),
        sa.Column("place", sa.Integer(), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in _SUMMED),
    )
    op.create_index("ix_ratings_user", "ratings", ["user_id"])
    op.execute(
        "INSERT INTO rating_counts (scope, display, players)"
        " SELECT scope, display, count(*) FROM ratings GROUP BY scope, display"
    )
    columns = ", ".join(_SUMMED)
    sums = ", ".join(f"sum({name})" for name in _SUMMED)
    op.execute(
        f"INSERT INTO player_figures (user_id, preset, place, games, {columns})"
        f" SELECT user_id, preset, place, count(*), {sums} FROM game_results"
        " WHERE user_id IS NOT NULL GROUP BY user_id, preset, place"
    )


def downgrade() -> None:
    op.drop_index("ix_ratings_user", "ratings")
    op.drop_table("player_figures")
    op.drop_table("rating_counts")
