"""Puzzles on the server (docs/review.md, "Puzzles on the server"): ``puzzles`` (the
``raspisnoy-puzzle/1`` JSON, theme, source, rating), ``puzzle_attempts`` (one answer
per person and puzzle), ``puzzle_ratings`` (each account's), ``daily_puzzles``, and for
mining finished games ``puzzle_opt_outs`` and ``mined_games``.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("theme", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzles_theme_mu", "puzzles", ["theme", "mu"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("puzzles.id"), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("answer", sa.String(16), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzle_attempts_user_id", "puzzle_attempts", ["user_id"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
    )
    op.create_table(
        "daily_puzzles",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("puzzles.id"), nullable=False),
    )

    op.create_table(
        "puzzle_opt_outs",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mined_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("worker", sa.String(128), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("found", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mined_games")
    op.drop_table("puzzle_opt_outs")
    op.drop_table("daily_puzzles")
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzle_attempts_user_id", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzles_theme_mu", "puzzles")
    op.drop_table("puzzles")
