"""The database tables (SQLAlchemy 2 declarative models).

A game is stored as its rules, seed and first dealer (on its ``GameTable`` row) plus the
append-only log of player actions (``GameEvent``): the engine deals itself from the seed,
so replaying the actions rebuilds any state, hidden hands included. Identity is a
``User`` of some ``kind``: a guest, a registered account (its credentials in
``Account``, pointing at ``users.id``, so a guest who registers keeps the same row and
every seat, game and sheet with it) or a deleted account (the row stays, anonymous, so
finished games stay whole). A finished game leaves one ``GameResult`` per seat; rated
games move each person's ``PlayerRating`` and add a ``RatingChange`` (docs/accounts.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: The longest a name folded for comparison (``str.casefold``) may be: folding makes at
#: most three characters of one (``ß`` two, ``ﬃ`` three), so a key of a name of up to 64
#: characters fits whatever its letters.
FOLDED_LENGTH = 3 * 64

__all__ = [
    "Account",
    "Base",
    "Block",
    "ChatMessage",
    "Club",
    "ClubMember",
    "ClubTable",
    "Follow",
    "GameEvent",
    "GameResult",
    "GameTable",
    "ModerationAction",
    "Moderator",
    "OfflineSheetUpload",
    "OfflineUpload",
    "PlayerFigures",
    "PlayerRating",
    "PoolAbandon",
    "PoolEntry",
    "PoolPairing",
    "PoolTable",
    "RatingChange",
    "RatingCount",
    "Report",
    "ScoreSheet",
    "Seat",
    "SessionToken",
    "Tournament",
    "TournamentEntry",
    "TournamentRound",
    "TournamentTable",
    "User",
    "UserKind",
]


#: Who a user is (``User.kind``): a guest (a nickname and a session), an account (a user
#: name and a password: ``registered``) or an account deleted (docs/accounts.md).
UserKind = Literal["guest", "registered", "deleted"]


class Base(DeclarativeBase):
    """The declarative base of every raspisnoy table."""


class User(Base):
    """A person who plays: a guest today, a registered account later (same row)."""

    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    nickname: Mapped[str] = mapped_column(String(64))
    #: ``guest``, ``registered`` or ``deleted`` (``UserKind``).
    kind: Mapped[UserKind] = mapped_column(String(16), default="guest")
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
    #: Chosen at creation: the game's end moves the players' ratings.
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The fencing token of the worker that owns the table now (``Store.claim_table``);
    #: a write under another token is refused.
    owner_token: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: Chosen at creation: spectators may read and write the table's chat.
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Seat(Base):
    """Who sits in one seat of a table: a person (``user_id``) or a bot (``bot``)."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    #: The bot level for this seat when nobody takes it (and the bot that plays it once
    #: the game has started without a person there).
    bot: Mapped[str] = mapped_column(String(32))
    #: A stand-in plays the seat for its person, away since their turn timer lapsed or
    #: they left the game, until they come back: kept here (it changes rarely) so that a
    #: worker that loads the table mid-game lets the stand-in play at once, as the last
    #: owner did, instead of giving them a whole turn again.
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class GameEvent(Base):
    """One player action of a game, in order (``seq`` from 1): a bid, a card or a choice."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("table_id", "seat", "client_id"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: The action in record notation (docs/record.md): ``2``, ``KD``, ``X:take``,
    #: ``control:blind:1``.
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
    #: The browser (its ``User-Agent``, cut short) the session was made in, so the list
    #: of sessions on the profile says which device each one is.
    user_agent: Mapped[str | None] = mapped_column(String(200), nullable=True)


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


class Account(Base):
    """The credentials of a registered user: a unique user name and an argon2 hash."""

    __tablename__ = "accounts"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    #: As the person wrote it; ``username_key`` (case-folded) is what must be unique.
    username: Mapped[str] = mapped_column(String(64))
    username_key: Mapped[str] = mapped_column(String(FOLDED_LENGTH), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class _RoundFigures:
    """The per-kind figures of one seat's game (``store.RoundCounts``): bids and exact
    bids, of 0 too, and the blind, misère and golden rounds; columns of ``GameResult``,
    and summed in ``PlayerFigures``."""

    bid_rounds: Mapped[int] = mapped_column(Integer)
    exact: Mapped[int] = mapped_column(Integer)
    zero_bids: Mapped[int] = mapped_column(Integer)
    zero_exact: Mapped[int] = mapped_column(Integer)
    blind_rounds: Mapped[int] = mapped_column(Integer)
    blind_exact: Mapped[int] = mapped_column(Integer)
    blind_points: Mapped[int] = mapped_column(Integer)
    misere_rounds: Mapped[int] = mapped_column(Integer)
    misere_points: Mapped[int] = mapped_column(Integer)
    golden_rounds: Mapped[int] = mapped_column(Integer)
    golden_points: Mapped[int] = mapped_column(Integer)


class GameResult(_RoundFigures, Base):
    """One seat of a finished game (``raspisnoy.ratings.SeatSummary``): who sat there
    (a person, or a bot level), the total, the place and the per-kind figures."""

    __tablename__ = "game_results"
    __table_args__ = (Index("ix_game_results_user_finished", "user_id", "finished_at"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    #: The bot level of a seat no person held at the end.
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    preset: Mapped[str] = mapped_column(String(64))
    rated: Mapped[bool] = mapped_column(Boolean)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    points: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)


class PlayerRating(Base):
    """A person's current rating in one scope: ``all`` (every rated game) or a preset."""

    __tablename__ = "ratings"
    __table_args__ = (
        # The leaderboard's order (highest rating first, ties by id) as one ascending key,
        # so that a page after a line is one range of it (keyset pagination) and the count
        # above a line reads the index alone; its other columns come with it (0009).
        Index(
            "ix_ratings_scope_order",
            "scope",
            text("(-display)"),
            "user_id",
            postgresql_include=["display", "games", "last_played_at"],
        ),
        Index("ix_ratings_scope_played", "scope", "last_played_at"),
        # A profile's ratings: the primary key leads with the scope (0010).
        Index("ix_ratings_user", "user_id"),
    )

    scope: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: ``raspisnoy.ratings.displayed(mu, sigma)``, stored so that it can be indexed.
    display: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    last_played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingCount(Base):
    """How many people hold one displayed rating in one scope, kept in the transaction
    that moves a rating (``raspisnoy.store.players.move_rating_counts``): a leaderboard's
    total and positions are sums of a few thousand of these instead of a count over
    every rated person (docs/accounts.md, "Leaderboards")."""

    __tablename__ = "rating_counts"

    scope: Mapped[str] = mapped_column(String(64), primary_key=True)
    display: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)


class PlayerFigures(_RoundFigures, Base):
    """A person's results summed per preset and place, kept in the transaction that
    stores a game's results (``raspisnoy.store.players.add_figures``): a profile reads
    these dozen rows, not every result of the person (docs/accounts.md, "Profiles")."""

    __tablename__ = "player_figures"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(64), primary_key=True)
    place: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: Games finished at this place; the other columns are ``GameResult``'s, summed.
    games: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)


class RatingChange(Base):
    """A person's rating in one scope after one rated game: the profile's chart."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_user_scope_at", "user_id", "scope", "at"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    scope: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PendingRating(Base):
    """A rated game of a tournament round still being played, whose ratings wait for
    the round's end: its seats' rank points (its final totals, a seat its person left to
    the stand-in last). Every table of such a round holds the same cards, so a rating
    that moved at once would tell the others how the hands went (docs/tournaments.md,
    "Ratings"); the round's end moves them and deletes the row
    (``raspisnoy.store.results.settle_waiting``)."""

    __tablename__ = "pending_ratings"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(64))
    ranks: Mapped[list[int]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMessage(Base):
    """One message of a table's chat (``seq`` from 1): a text or a quick phrase's id, who
    wrote it, and where in the game (round, finished tricks) so its replay shows it there."""

    __tablename__ = "chat_messages"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    #: The writer's name when they wrote (as the game names them, or their nickname).
    name: Mapped[str] = mapped_column(String(64))
    #: The writer's seat; ``None`` for a spectator.
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Exactly one of ``text`` (as written, never interpreted) and ``phrase`` (an id of
    #: ``raspisnoy.server.protocol.PHRASES``, shown in each reader's language) is set.
    text: Mapped[str | None] = mapped_column(String(200), nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: The round being played (0 before the start) and the tricks finished in it.
    round: Mapped[int] = mapped_column(Integer)
    trick: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Follow(Base):
    """One person following another (``docs/friends.md``): the follower sees the followed
    in their friends list, with where they play when it is a public table."""

    __tablename__ = "follows"

    follower_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    #: Indexed: "who follows me" is asked by every invitation.
    followed_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Block(Base):
    """One person blocking another: no chat between them, no follow or invitation, never
    paired by the pool (``docs/friends.md``)."""

    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    #: Indexed: the pairs among some people are looked up from both sides.
    blocked_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PoolEntry(Base):
    """A person in the matchmaking pool (docs/pool.md): what they accept (``choices``:
    presets, players, speed, rated, bot wait), their rating when they joined, when they
    joined and when their page last asked (epoch seconds: a page gone quiet leaves after a
    grace). ``table_id`` is the table the pool opened for them (``None``: still waiting);
    one entry per person, so nobody waits twice."""

    __tablename__ = "pool_entries"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    choices: Mapped[dict[str, object]] = mapped_column(JSON)
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True, index=True)


class PoolPairing(Base):
    """The pool's pairing lease (one row, ``name`` ``pairing``): which worker pairs now
    and until when (epoch seconds), and the counts of people waiting it saw last, which
    every worker's lobby shows."""

    __tablename__ = "pool_pairing"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[float] = mapped_column(Float)
    counts: Mapped[dict[str, object]] = mapped_column(JSON)


class PoolTable(Base):
    """A table the pool opened (its fair-play rules apply to it: docs/pool.md)."""

    __tablename__ = "pool_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)


class TableRematch(Base):
    """The rematch a finished table started (docs/PROTOCOL.md, "Rematch"): one per table,
    so a second settling of its rematch (another worker holding the table after a
    hand-over, or the same after a restart, which remember no answer) finds this one
    instead of opening another. ``rematch_id`` is the new table's id, indexed for the
    pass that starts the rematches left open (``Together.unstarted_rematches``, 0027)."""

    __tablename__ = "table_rematches"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    rematch_id: Mapped[str] = mapped_column(String(32), index=True)


class PoolAbandon(Base):
    """A rated pool game a person abandoned (docs/pool.md, "Fair play"), when it ended
    (epoch seconds): the cooldown before their next rated pool game grows with these."""

    __tablename__ = "pool_abandons"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class Moderator(Base):
    """A person who may moderate (docs/moderation.md): given and taken by the command
    line (``raspisnoy moderators``), never by the server."""

    __tablename__ = "moderators"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Report(Base):
    """A player's report of another: where (a table, one of its chat messages, or the
    profile), why (a reason code of a fixed list, and an optional note) and whether a
    moderator has dealt with it."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_status_created", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    reported_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    #: ``table``, ``chat`` or ``profile``.
    place: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True)
    #: The reported chat message (``ChatMessage.seq`` at ``table_id``).
    chat_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: ``open`` or ``resolved``.
    status: Mapped[str] = mapped_column(String(16))
    resolved_by: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ModerationAction(Base):
    """One moderator's action on an account (``warn``, ``mute``, ``unmute``, ``ban``,
    ``unban``), kept for ever: the log moderators read, the notice the person is shown,
    and what says whether they are muted or banned now (their latest such action)."""

    __tablename__ = "moderation_actions"
    __table_args__ = (Index("ix_moderation_actions_user_created", "user_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    moderator_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str] = mapped_column(String(16))
    #: When a mute or ban ends (``None``: a ban for good, or a kind without an end).
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    reason: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    report_id: Mapped[str | None] = mapped_column(ForeignKey("reports.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: When the person was shown the notice of it (``None``: not yet).
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Club(Base):
    """A group that persists (docs/clubs.md): its name (unique whatever the case among
    the clubs that are not private), what it is about, its language and house rules,
    whether it is hidden from the directory, and the invite code of its join link."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    #: Unique (``store.clubs.club_name_key``): ``name`` folded (``str.casefold``) for a
    #: club that is not private, so two such clubs never differ by case only; a key of
    #: its own for a private one, whose name claims nothing.
    name_key: Mapped[str] = mapped_column(String(FOLDED_LENGTH), unique=True)
    description: Mapped[str] = mapped_column(String(500))
    language: Mapped[str] = mapped_column(String(8))
    #: The house rules, fully resolved (``Rules.to_json()``): a preset plus options.
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    private: Mapped[bool] = mapped_column(Boolean)
    invite_code: Mapped[str] = mapped_column(String(32), unique=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubMember(Base):
    """A person's place in a club: ``role`` (``owner``, ``admin``, ``member``) and
    ``state`` (``member``, ``requested``: asked to join, ``banned``, ``left``). A row
    stays when its person leaves, is removed or banned, so their games stay in the
    history and a ban outlives them."""

    __tablename__ = "club_members"

    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Until when the club's admins muted the member in its tables' chat (``None``: never).
    muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ClubTable(Base):
    """A table opened in a club: open to the club's members only."""

    __tablename__ = "club_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), index=True)


class Tournament(Base):
    """A tournament (docs/tournaments.md): public (``club_id`` ``None``) or in a club, run
    by its ``director`` (its creator); when it starts (epoch seconds), its rules, table
    size, rounds, turn timer, scoring (``swiss`` or ``duplicate``), what fills a short
    count (``bots`` or ``byes``), its seed (each round's deals come from it) and its
    ``state``: ``registering``, ``running``, ``paused`` or ``finished``. ``current_round``
    is the last round paired (0 before the first)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    club_id: Mapped[str | None] = mapped_column(ForeignKey("clubs.id"), nullable=True, index=True)
    director_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    starts_at: Mapped[float] = mapped_column(Float)
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    table_size: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[int] = mapped_column(Integer)
    scoring: Mapped[str] = mapped_column(String(16))
    fill: Mapped[str] = mapped_column(String(16))
    max_players: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    bot_delay_ms: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16), index=True)
    current_round: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TournamentEntry(Base):
    """An entrant of a tournament: a person (``user_id``) or a bot entered as a player
    (``bot``: its level, ``name``: its name in the standings). ``state``: ``registered``
    or ``withdrawn`` (by the director, or after not showing); a person enters once."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    entry_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16))
    registered_at: Mapped[float] = mapped_column(Float)


class TournamentRound(Base):
    """A round of a tournament, paired once: its key (tournament, number) is unique, so a
    second pairing of a round, by any worker, fails. Its deals' seed, who had a bye, when
    it started and when its last game was recorded (epoch seconds)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(128))
    byes: Mapped[list[str]] = mapped_column(JSON)
    started_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TournamentTable(Base):
    """A table of a tournament's round: its place from the top (``position``), the entry
    at each seat (``None``: a bot filling the count) and, once its game is over and
    recorded, its ``result`` (each finished deal's cards and points, and the seats whose
    person did not show)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "round_number", "position"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    round_number: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    entries: Mapped[list[str | None]] = mapped_column(JSON)
    result: Mapped[dict[str, object] | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class OfflineUpload(Base):
    """An offline game brought to its player's history (docs/offline.md, "Back online"):
    the device's id of the game and the table it was stored as. Its key is the game's
    identity, so the same game uploaded twice, or from two devices, at once or later, is
    stored once: a second upload's insert fails and it answers the first one's table."""

    __tablename__ = "offline_uploads"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    #: The device's id of the game (``LocalTable.id``, ``local-…``).
    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OfflineSheetUpload(Base):
    """A score sheet kept on a device and uploaded (docs/offline.md, "The scorekeeper
    offline"): the device's id of the sheet and its version there, and the sheet it was
    stored as. Its key is that upload's identity, so the same sheet uploaded twice (its
    answer lost, or a copy of it on another device), at once or later, is stored once; a
    sheet changed on the device after an upload is another version, stored as another
    sheet, so no change made offline is lost."""

    __tablename__ = "offline_sheet_uploads"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    #: The device's id of the sheet (``device-…``, sheet_local.js).
    device_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: The sheet's version on the device when it was uploaded.
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    sheet_id: Mapped[str] = mapped_column(ForeignKey("score_sheets.id"), unique=True)
    #: The server's sheet this one continues (a server sheet continued offline), kept only
    #: when its uploader could change it; no foreign key, so the original may go.
    continues_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
