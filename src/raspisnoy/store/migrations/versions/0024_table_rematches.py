"""The rematch each finished table started, once (``table_rematches``): a rematch settled
again by another worker, or after a restart, finds it instead of opening a second table.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_rematches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("rematch_id", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_rematches")
