"""Tournaments (docs/tournaments.md): ``tournaments``, their ``tournament_entries``
(people and bots entered as players), ``tournament_rounds`` (one row per round, so a
round is never paired twice) and ``tournament_tables`` (each round's tables, with their
results once recorded).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=True),
        sa.Column("director_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("scoring", sa.String(16), nullable=False),
        sa.Column("fill", sa.String(16), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bot_delay_ms", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournaments_club_id", "tournaments", ["club_id"])
    op.create_index("ix_tournaments_state", "tournaments", ["state"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("entry_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("registered_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id"),
    )
    op.create_index("ix_tournament_entries_user_id", "tournament_entries", ["user_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.UniqueConstraint("tournament_id", "round_number", "position"),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_entries_user_id", "tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_state", "tournaments")
    op.drop_index("ix_tournaments_club_id", "tournaments")
    op.drop_table("tournaments")
