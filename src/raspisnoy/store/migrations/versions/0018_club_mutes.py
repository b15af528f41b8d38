"""Club mutes (docs/clubs.md): ``club_members.muted_until``, until when the club's admins
muted the member in the chat of the club's tables (``NULL``: not muted).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("club_members") as batch:
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("club_members") as batch:
        batch.drop_column("muted_until")
