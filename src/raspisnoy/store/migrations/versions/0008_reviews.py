"""Reviews of finished games by game and seat (status, progress, result JSON), and the
hints each seat of a game used (docs/review.md, "On the server").

Revision ID: 0008
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("iterations", sa.Integer(), nullable=False),
        sa.Column("requested_by", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("requested_at", _TIME, nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("worker", sa.String(128), nullable=True),
        sa.Column("heartbeat_at", _TIME, nullable=True),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(400), nullable=True),
        sa.Column("finished_at", _TIME, nullable=True),
    )
    op.create_index("ix_game_reviews_status_requested", "game_reviews", ["status", "requested_at"])
    op.create_index("ix_game_reviews_requester_status", "game_reviews", ["requested_by", "status"])
    op.create_table(
        "hint_uses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("first_at", _TIME, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hint_uses")
    op.drop_index("ix_game_reviews_requester_status", "game_reviews")
    op.drop_index("ix_game_reviews_status_requested", "game_reviews")
    op.drop_table("game_reviews")
