"""Ratings that wait for a tournament round's end (docs/tournaments.md, "Ratings"):
``pending_ratings``, one row per rated game of a round still being played, with its
seats' rank points, deleted when the round's end moves the ratings.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pending_ratings",
        sa.Column("table_id", sa.String(length=32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("preset", sa.String(length=64), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pending_ratings")
