"""The database tables (SQLAlchemy 2 declarative models).

A game is stored as its rules, seed and first dealer (on its ``GameTable`` row) plus the
append-only log of player actions (``GameEvent``): the engine deals itself from the seed,
so replaying the actions rebuilds any state, hidden hands included. Identity is a
``User`` of some ``kind``; guests are the only kind today, and registered accounts will
add their credentials in a table of their own that points at ``users.id``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "GameEvent", "GameTable", "ScoreSheet", "Seat", "SessionToken", "User"]


class Base(DeclarativeBase):
    """The declarative base of every raspisnoy table."""


class User(Base):
    """A person who plays: a guest today, a registered account later (same row)."""

    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    nickname: Mapped[str] = mapped_column(String(64))
    #: ``guest`` now; ``registered`` once accounts exist.
    kind: Mapped[str] = mapped_column(String(16), default="guest")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTable(Base):
    """A table in the lobby and the one game played at it."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: ``open`` (seating), ``playing`` or ``over``.
    status: Mapped[str] = mapped_column(String(16), index=True)
    public: Mapped[bool] = mapped_column(Boolean)
    #: The fully resolved rules (``Rules.to_json()``).
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[int] = mapped_column(Integer)
    bot_delay_ms: Mapped[int] = mapped_column(Integer)
    #: The bot level that plays a person's seat while they are away.
    stand_in: Mapped[str] = mapped_column(String(32))
    seed: Mapped[str] = mapped_column(String(64))
    #: Seat names at the start (the game's ``names``), set when the game starts.
    names: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    first_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The fencing token of the worker that owns the table now (``Store.claim_table``);
    #: a write under another token is refused.
    owner_token: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Seat(Base):
    """Who sits in one seat of a table: a person (``user_id``) or a bot (``bot``)."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    #: The bot level for this seat when nobody takes it (and the bot that plays it once
    #: the game has started without a person there).
    bot: Mapped[str] = mapped_column(String(32))


class GameEvent(Base):
    """One player action of a game, in order (``seq`` from 1): a bid, a card or a choice."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("table_id", "seat", "client_id"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: The action in record notation (RECORD.md): ``2``, ``KD``, ``X:take``, ``control:blind:1``.
    action: Mapped[str] = mapped_column(String(32))
    #: The id the client gave the action (``None`` for bots and stand-ins), so that a resent
    #: action is recognised even after a restart.
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionToken(Base):
    """A session: who it belongs to and until when, under a keyed hash of its token.

    The token itself is never stored, and the hash is keyed with a secret kept outside
    the database (``raspisnoy.server.auth``), so a copy of the database can neither use
    the sessions in it nor make new ones."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ScoreSheet(Base):
    """A score sheet of a game played with real cards («расписная», docs/sheet-format.md),
    kept by its owner on the ``/score`` page. The sheet itself is its ``raspisnoy-sheet/1``
    JSON, checked by ``raspisnoy.scorekeeper`` before it is stored."""

    __tablename__ = "score_sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The read-only link's id: random and unrelated to ``id``, so it grants nothing else.
    share_id: Mapped[str] = mapped_column(String(32), unique=True)
    #: Lets a client without the owner's session change the sheet (a second phone).
    edit_token: Mapped[str] = mapped_column(String(64))
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    #: The sheet as ``sheet_to_json`` writes it (rules fully resolved).
    sheet: Mapped[dict[str, object]] = mapped_column(JSON)
    #: Counts changes from 1; a write names the version it read, so two writers that
    #: race cannot lose each other's entries.
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
