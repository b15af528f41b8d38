"""Friends (docs/friends.md): who follows whom, and who blocked whom.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for name, first, second in (
        ("follows", "follower_id", "followed_id"),
        ("blocks", "blocker_id", "blocked_id"),
    ):
        op.create_table(
            name,
            sa.Column(first, sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
            sa.Column(second, sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index(f"ix_{name}_{second}", name, [second])


def downgrade() -> None:
    op.drop_table("blocks")
    op.drop_table("follows")
