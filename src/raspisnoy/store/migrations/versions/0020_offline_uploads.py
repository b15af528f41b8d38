"""Offline games uploaded once (docs/offline.md, "Back online"): the device's id of each
uploaded game and the table it was stored as, keyed by the player and that id.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offline_uploads",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False, unique=True
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("offline_uploads")
