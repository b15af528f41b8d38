"""Casino Russian poker: a wallet of play money per player (balance, free refills, the
next hand's secret seed) and the player's hands (seed, commitment, decisions, record).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "casino_wallets",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("refills", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("next_seed", sa.String(64), nullable=False),
        sa.Column("updated_at", _TIME, nullable=False),
    )
    op.create_table(
        "casino_hands",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("antes", sa.JSON(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("net", sa.Integer(), nullable=True),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("finished_at", _TIME, nullable=True),
        sa.UniqueConstraint("user_id", "number"),
    )
    op.create_index("ix_casino_hands_user_id", "casino_hands", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_casino_hands_user_id", "casino_hands")
    op.drop_table("casino_hands")
    op.drop_table("casino_wallets")
