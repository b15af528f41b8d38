"""What a deleted account leaves (``Players.delete_account``, docs/accounts.md): its
follows and blocks, its places in clubs, its entries in tournaments not yet finished, the
tables not started yet, its wait in the pool and its score sheets, each ended in the
deletion's own transaction, so that an account is gone from every list at once or, on
failure, from none. And what a person leaves of a club's play when their place in it
ends (``leave_club_play``)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Select, case, delete, or_, select, update
from sqlalchemy.orm import Session

from raspisnoy.store.club_keys import club_name_key, new_invite_code
from raspisnoy.store.models import (
    Block,
    Club,
    ClubMember,
    ClubTable,
    Follow,
    GameTable,
    PoolEntry,
    ScoreSheet,
    Seat,
    Tournament,
    TournamentEntry,
)
from raspisnoy.store.repository import drop_sheets, hand_over_host, hold_rows

__all__ = [
    "delete_sheets",
    "forget_ties",
    "leave_club_play",
    "leave_clubs",
    "leave_open_tables",
    "leave_pool",
    "leave_tournaments",
]


def forget_ties(session: Session, user_id: str) -> None:
    """End every follow and block to or from ``user_id``, in ``session``'s transaction: a
    deleted account is nobody's friend, follows nobody and is kept apart from nobody."""
    for model, one, other in (
        (Follow, Follow.follower_id, Follow.followed_id),
        (Block, Block.blocker_id, Block.blocked_id),
    ):
        session.execute(delete(model).where(or_(one == user_id, other == user_id)))


def leave_clubs(session: Session, user_id: str) -> None:
    """End ``user_id``'s places in every club, in ``session``'s transaction (the account
    is being deleted): a member's or an asker's place becomes ``left`` (a ban stays, so
    that it outlives the account), and a club they owned passes to its longest-standing
    admin, else to its longest-standing member. A club left with nobody in it is closed:
    made private with a new invite code, so that it answers everyone, old links included,
    as a club that does not exist (it keeps its owner of record, its name and history),
    and, private, it claims its name no more (``club_name_key``)."""
    places = session.scalars(
        select(ClubMember).where(
            ClubMember.user_id == user_id, ClubMember.state.in_(("member", "requested"))
        )
    ).all()  # (read whole: each owned club is queried and changed as the loop goes)
    for place in places:
        if place.role == "owner":
            _pass_ownership(session, place.club_id, user_id)
        place.role, place.state, place.since = "member", "left", datetime.now(UTC)


def _pass_ownership(session: Session, club_id: str, owner_id: str) -> None:
    """Make the club's longest-standing admin its owner, else its longest-standing
    member; close it if ``owner_id`` was its only member."""
    heir = session.scalars(
        select(ClubMember)
        .where(
            ClubMember.club_id == club_id,
            ClubMember.state == "member",
            ClubMember.user_id != owner_id,
        )
        .order_by(case((ClubMember.role == "admin", 0), else_=1), ClubMember.since)
        .limit(1)
    ).first()
    club = session.get_one(Club, club_id)
    if heir is None:
        club.private, club.invite_code = True, new_invite_code()
        club.name_key = club_name_key(club_id, club.name, private=True)
    else:
        heir.role, club.owner_id = "owner", heir.user_id


def leave_club_play(session: Session, club_id: str, user_id: str) -> None:
    """Take ``user_id`` out of the club's tables not started yet and out of its
    tournaments not yet finished, in ``session``'s transaction: their place in the club
    ended (they left, were removed or banned). A club's tables and tournaments are its
    members' only, and a seat or an entry kept would go on showing them the table, who
    sits down at it and its game (``/api/me/tables``, ``/api/me/games``). A game they
    play already stays theirs, a stand-in playing for them (docs/clubs.md). The live
    actors of those tables reload them when told that the place ended
    (``Hub.close_club_sockets``)."""
    in_club = select(Tournament.id).where(Tournament.club_id == club_id)
    leave_tournaments(session, user_id, in_club)
    tables = select(ClubTable.table_id).where(ClubTable.club_id == club_id)
    leave_open_tables(session, user_id, tables)


def leave_tournaments(session: Session, user_id: str, among: Select[str] | None = None) -> None:
    """Take ``user_id`` out of the tournaments not yet finished (``among``: of these
    only, a query of their ids), in ``session``'s transaction (the account is being
    deleted, or its place in the tournaments' club ended): an entry of one still
    registering goes, as if unregistered; one of a running or paused event is
    withdrawn, so it is not seated in later rounds, and its results so far stay, as a
    director's withdrawal."""
    scope = [] if among is None else [Tournament.id.in_(among)]
    events = select(Tournament.id).where(Tournament.state == "registering", *scope)
    session.execute(
        delete(TournamentEntry).where(
            TournamentEntry.user_id == user_id, TournamentEntry.tournament_id.in_(events)
        )
    )
    going = select(Tournament.id).where(Tournament.state.in_(("running", "paused")), *scope)
    session.execute(
        update(TournamentEntry)
        .where(
            TournamentEntry.user_id == user_id,
            TournamentEntry.state == "registered",
            TournamentEntry.tournament_id.in_(going),
        )
        .values(state="withdrawn")
    )


def leave_pool(session: Session, user_id: str) -> bool:
    """Take the person out of the pool in ``session``'s transaction if they wait there;
    whether they did. An entry the pool has seated stays until its game is over (``join``
    replaces it then), so leaving cannot make way for a second table."""
    condition = PoolEntry.user_id == user_id, PoolEntry.table_id.is_(None)
    return bool(getattr(session.execute(delete(PoolEntry).where(*condition)), "rowcount", 0))


def delete_sheets(session: Session, user_id: str) -> None:
    """Delete ``user_id``'s score sheets, those uploaded from a device included, in
    ``session``'s transaction (the account is being deleted): a sheet holds the names of
    the people its owner played with on paper, and its share and edit links lead nowhere
    after (``drop_sheets``)."""
    drop_sheets(session, select(ScoreSheet.id).where(ScoreSheet.owner_id == user_id))


def leave_open_tables(session: Session, user_id: str, among: Select[str] | None = None) -> set[str]:
    """Take ``user_id`` out of the tables not started yet (``among``: of these only, a
    query of their ids), in ``session``'s transaction (the account is being deleted, or
    its place in the tables' club ended): its seats there are freed, and at a table it
    hosts the host's part passes on (``hand_over_host``). The tables changed, for their
    live actors to reload."""
    waiting = [GameTable.status == "open"]
    if among is not None:
        waiting.append(GameTable.id.in_(among))
    # The tables' rows first, then their seats: the order a start takes them in
    # (``Store.start_table``), so the two never wait on each other in a circle.
    theirs = select(Seat.table_id).where(Seat.user_id == user_id)
    hosted = GameTable.host_id == user_id
    hold_rows(
        session,
        GameTable.id,
        GameTable.owner_token,
        *waiting,
        or_(GameTable.id.in_(theirs), hosted),
    )
    seats = Seat.user_id == user_id, Seat.table_id.in_(select(GameTable.id).where(*waiting))
    changed = set(session.scalars(select(Seat.table_id).where(*seats)))
    session.execute(update(Seat).where(*seats).values(user_id=None))
    for table in session.scalars(select(GameTable).where(hosted, *waiting)).all():
        hand_over_host(session, table)
        changed.add(table.id)
    return changed
