"""Score sheets uploaded from a device once (docs/offline.md, "The scorekeeper
offline"): the device's id and version of each uploaded sheet, the sheet it was stored as
and the server's sheet it continues, keyed by the player, that id and that version.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offline_sheet_uploads",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("device_id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column(
            "sheet_id",
            sa.String(32),
            sa.ForeignKey("score_sheets.id"),
            nullable=False,
            unique=True,
        ),
        sa.Column("continues_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("offline_sheet_uploads")
