"""A deleted account writes nothing of its own any more: a new name, a tournament entry,
a place in a club, a session, a wait in the pool, a score sheet (made, or uploaded from a
device), an offline game. A request already past its session's check when the account was
deleted (on another worker, at the same moment) is refused too: each such write holds
the person's row first, as the deletion writes it first (``lock_live_person``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people
from test_store_tournaments import new_tournament

from raspisnoy.store import (
    ClubSettings,
    ClubStore,
    NotFoundError,
    Players,
    PoolStore,
    Store,
    TournamentStore,
    UserRow,
)
from raspisnoy.store.models import User
from raspisnoy.store.offline_games import OfflineGameIn, OfflineGamesRepository
from raspisnoy.store.offline_sheets import OfflineSheetIn, OfflineSheetsRepository

#: The writes of a person's own.
WRITES = ("join", "register", "rename", "session", "pool", "sheet", "upload", "offline game")
#: A sheet as a device uploads it.
SHEET = {"format": "raspisnoy-sheet/1", "rules": "classic", "players": ["A", "B", "C"],
         "first_dealer": 0, "rounds": []}  # fmt: skip


def _club(store: Store, owner: UserRow) -> str:
    settings = ClubSettings("Клуб", "", "ru", {"preset": "classic"}, private=False)
    return ClubStore(store).create(owner.id, settings).id


@pytest.mark.parametrize("write", WRITES)
def test_a_deleted_account_writes_nothing_of_its_own(store: Store, write: str) -> None:
    owner, vera = people(store, "Owner", "Vera")
    prepared = _prepared(store, write, vera, owner)
    Players(store).delete_account(vera.id)
    with pytest.raises(NotFoundError):
        prepared()
    assert store.get_user(vera.id).nickname == "Anonymous"


@pytest.mark.parametrize("write", WRITES)
def test_a_write_racing_the_deletion_waits_for_it_and_is_refused(store: Store, write: str) -> None:
    """Vera's request passed its session's check; her account's deletion on another
    worker has written her row, not yet committed: the write waits, then is refused."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    owner, vera = people(store, "Owner", "Vera")
    prepared = _prepared(store, write, vera, owner)

    def deleting(session: Session) -> None:
        gone = update(User).where(User.id == vera.id).values(kind="deleted", nickname="Anonymous")
        session.execute(gone)

    def attempt() -> str:
        try:
            prepared()
        except NotFoundError:
            return "refused"
        return "written"

    assert answer_behind(store, deleting, attempt) == "refused"


def _prepared(store: Store, write: str, person: UserRow, owner: UserRow) -> Callable[[], object]:
    """The write, with what it needs (a tournament, a club) made beforehand, so that only
    the write itself waits on the deletion."""
    if write == "register":
        tournament_id = new_tournament(store, owner.id)
        tournaments = TournamentStore(store)
        return lambda: tournaments.register(
            tournament_id, user_id=person.id, bot=None, name="", now=0.0
        )
    if write == "join":
        club_id, clubs = _club(store, owner), ClubStore(store)
        return lambda: clubs.set_member(club_id, person.id, role="member", state="member", was=None)
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    own: dict[str, Callable[[], object]] = {
        "rename": lambda: store.rename_user(person.id, "Воскресший"),
        "session": lambda: store.create_session(person.id, "token-hash", tomorrow),
        "pool": lambda: PoolStore(store).join(person.id, {}, 1500.0, 0.0),
        "sheet": lambda: store.create_sheet(person.id, SHEET),
        "upload": lambda: OfflineSheetsRepository(store).store(
            person.id, OfflineSheetIn("device-sheet", 1, SHEET)
        ),
        "offline game": lambda: OfflineGamesRepository(store).store(
            person.id,
            OfflineGameIn(
                "device-game",
                {"preset": "classic"},
                ("random",) * 3,
                0,
                "s",
                ("Vera", "Bot 2", "Bot 3"),
                0,
                (),
            ),
        ),
    }
    return own[write]


def test_a_ban_outlives_the_account(store: Store) -> None:
    owner, vera = people(store, "Owner", "Vera")
    club_id = _club(store, owner)
    ClubStore(store).set_member(club_id, vera.id, role="member", state="member", was=None)
    Players(store).delete_account(vera.id)
    ClubStore(store).set_member(
        club_id, vera.id, role="member", state="banned", was=("member", "left")
    )
