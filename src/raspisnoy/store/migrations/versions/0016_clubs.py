"""Clubs (docs/clubs.md): ``clubs``, their ``club_members`` (role and state, kept when a
member leaves or is banned) and the ``club_tables`` opened in them.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("description", sa.String(500), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=False, unique=True),
        sa.Column("owner_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_members_user_id", "club_members", ["user_id"])
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
    )
    op.create_index("ix_club_tables_club_id", "club_tables", ["club_id"])


def downgrade() -> None:
    op.drop_index("ix_club_tables_club_id", "club_tables")
    op.drop_table("club_tables")
    op.drop_index("ix_club_members_user_id", "club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
