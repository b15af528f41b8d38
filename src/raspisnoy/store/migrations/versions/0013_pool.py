"""The matchmaking pool: the people waiting (or just paired), the pairing lease with the
counts the lobby shows, the tables the pool opened and the rated pool games people
abandoned (docs/pool.md).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pool_entries",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=True),
    )
    op.create_index("ix_pool_entries_table_id", "pool_entries", ["table_id"])
    op.create_table(
        "pool_pairing",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
    )
    op.create_table(
        "pool_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    )
    op.create_table(
        "pool_abandons",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pool_abandons")
    op.drop_table("pool_tables")
    op.drop_table("pool_pairing")
    op.drop_index("ix_pool_entries_table_id", "pool_entries")
    op.drop_table("pool_entries")
