"""Accounts (user name and argon2 hash), rated tables, one result row per seat of a
finished game, ratings per scope and their history, with the indexes the profile and
leaderboard queries use (benchmarks/accounts_queries.py).

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def _counts(*names: str) -> list[sa.Column[int]]:
    return [sa.Column(name, sa.Integer(), nullable=False) for name in names]


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("sessions", sa.Column("user_agent", sa.String(200), nullable=True))
    op.create_table(
        "accounts",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("username_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
    )
    op.create_table(
        "game_results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished_at", _TIME, nullable=False),
        *_counts("points", "place", "bid_rounds", "exact", "zero_bids", "zero_exact"),
        *_counts("blind_rounds", "blind_exact", "blind_points", "misere_rounds"),
        *_counts("misere_points", "golden_rounds", "golden_points"),
    )
    op.create_index("ix_game_results_user_finished", "game_results", ["user_id", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("scope", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("display", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_played_at", _TIME, nullable=False),
    )
    op.create_index("ix_ratings_scope_display", "ratings", ["scope", "display", "user_id"])
    op.create_index("ix_ratings_scope_played", "ratings", ["scope", "last_played_at"])
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("scope", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("display", sa.Integer(), nullable=False),
        sa.Column("at", _TIME, nullable=False),
    )
    op.create_index("ix_rating_changes_user_scope_at", "rating_changes", ["user_id", "scope", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_user_scope_at", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_scope_played", "ratings")
    op.drop_index("ix_ratings_scope_display", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_game_results_user_finished", "game_results")
    op.drop_table("game_results")
    op.drop_table("accounts")
    op.drop_column("sessions", "user_agent")
    op.drop_column("tables", "rated")
