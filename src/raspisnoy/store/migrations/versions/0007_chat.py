"""Table chat: the messages written at a table, kept with its game (and shown in its
replay), and whether the host lets spectators read and write them.

Revision ID: 0007
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables",
        sa.Column("spectator_chat", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "chat_messages",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(200), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("trick", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_messages")
    op.drop_column("tables", "spectator_chat")
