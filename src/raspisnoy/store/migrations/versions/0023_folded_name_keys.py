"""Folded names fit their keys: ``accounts.username_key`` and ``clubs.name_key`` hold 192
characters, not 64, since folding (``str.casefold``) can make three characters of one,
and a club named with 64 of them (``ß`` folds to ``ss``) could not be stored on
PostgreSQL.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

#: The tables and their keys of folded names.
_KEYS = (("accounts", "username_key"), ("clubs", "name_key"))


def _resize(length: int, before: int) -> None:
    for table, column in _KEYS:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(
                column,
                type_=sa.String(length),
                existing_type=sa.String(before),
                existing_nullable=False,
            )


def upgrade() -> None:
    _resize(192, 64)


def downgrade() -> None:
    """Back to 64 characters; this fails (and changes nothing) if a longer key is stored."""
    _resize(64, 192)
