"""A private club's name claims nothing (docs/clubs.md): its ``clubs.name_key`` becomes a
key of its own that no name folds to (a line break and its id, ``club_name_key``), so
that another club may take the name and nobody learns from a refusal that the private
club exists.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

_CLUBS = sa.table(
    "clubs",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("private", sa.Boolean),
)


def upgrade() -> None:
    op.execute(
        _CLUBS.update()
        .where(_CLUBS.c.private == sa.true())
        .values(name_key=sa.literal("\n") + _CLUBS.c.id)
    )


def downgrade() -> None:
    """Private clubs claim their folded names again; this fails (and changes nothing) if
    another club has taken one of them meanwhile."""
    connection = op.get_bind()
    private = sa.select(_CLUBS.c.id, _CLUBS.c.name).where(_CLUBS.c.private == sa.true())
    for club_id, name in connection.execute(private).all():
        connection.execute(
            _CLUBS.update().where(_CLUBS.c.id == club_id).values(name_key=name.casefold())
        )
