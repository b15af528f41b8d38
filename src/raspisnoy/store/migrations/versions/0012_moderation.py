"""Moderation (docs/moderation.md): who moderates, players' reports, moderators' actions.

Revision ID: 0012
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0010"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "moderators",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("granted_at", _WHEN, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reported_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("place", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("chat_seq", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("resolved_by", sa.String(32), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("resolved_at", _WHEN, nullable=True),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_status_created", "reports", ["status", "created_at"])
    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("moderator_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("until", _WHEN, nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("report_id", sa.String(32), sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("seen_at", _WHEN, nullable=True),
    )
    op.create_index(
        "ix_moderation_actions_user_created", "moderation_actions", ["user_id", "created_at"]
    )


def downgrade() -> None:
    op.drop_table("moderation_actions")
    op.drop_table("reports")
    op.drop_table("moderators")
