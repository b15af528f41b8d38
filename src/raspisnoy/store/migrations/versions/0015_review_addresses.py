"""The address each review was asked from (``game_reviews.requested_from``), so the queue
can bound each address and serve addresses in turn (docs/review.md, "On the server";
issue 27, defect 6), and its index for counting one address's waiting jobs.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_reviews") as batch:
        batch.add_column(sa.Column("requested_from", sa.String(64), nullable=True))
    op.create_index("ix_game_reviews_address_status", "game_reviews", ["requested_from", "status"])


def downgrade() -> None:
    op.drop_index("ix_game_reviews_address_status", "game_reviews")
    with op.batch_alter_table("game_reviews") as batch:
        batch.drop_column("requested_from")
