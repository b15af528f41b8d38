"""The leaderboard's order as one index: (scope, −rating, id), with the rating, games
and last game carried along, so that a page after a given line is one range of it
(keyset pagination), a page at an offset and the counts of a total or of the lines
above a viewer read the index alone (docs/accounts.md, "Leaderboards"). It replaces
0005's (scope, rating, id), whose ascending ids ran against the order's.

Revision ID: 0009
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_ratings_scope_order",
        "ratings",
        ["scope", sa.text("(-display)"), "user_id"],
        postgresql_include=["display", "games", "last_played_at"],
    )
    op.drop_index("ix_ratings_scope_display", "ratings")


def downgrade() -> None:
    op.create_index("ix_ratings_scope_display", "ratings", ["scope", "display", "user_id"])
    op.drop_index("ix_ratings_scope_order", "ratings")
