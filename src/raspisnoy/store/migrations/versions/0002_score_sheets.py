"""Score sheets of games played with real cards (the ``/score`` page).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "score_sheets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("share_id", sa.String(32), nullable=False),
        sa.Column("edit_token", sa.String(64), nullable=False),
        sa.Column("owner_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("share_id"),
    )
    op.create_index("ix_score_sheets_owner_id", "score_sheets", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_score_sheets_owner_id", "score_sheets")
    op.drop_table("score_sheets")
