"""Away seats (docs/cluster.md): ``seats.away``, set while a stand-in plays the seat of a
person whose turn timer lapsed or who left the game, so that a worker that loads the
table after a hand-over or a crash lets the stand-in play on at once.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
