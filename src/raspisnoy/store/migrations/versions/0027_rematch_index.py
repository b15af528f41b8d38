"""The rematch rows by the new table (``ix_table_rematches_rematch_id``), for the pass that
starts the rematches left open (``Together.unstarted_rematches``), which otherwise read
``table_rematches`` whole every pass.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_table_rematches_rematch_id", "table_rematches", ["rematch_id"])


def downgrade() -> None:
    op.drop_index("ix_table_rematches_rematch_id", "table_rematches")
