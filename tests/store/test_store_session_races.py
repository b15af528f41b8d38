"""A session stored at the moment that a ban, or a change of password, ends the person's
sessions, on another worker: it comes wholly before the ban, which then ends it, and a
log-in checked against the password replaced meanwhile stores none. Each of these writes
holds the person's row first (``Store.create_session``, ``Moderation.act``,
``Players.set_password``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people

from raspisnoy.store import Moderation, NewAction, Players, StaleWriteError, Store
from raspisnoy.store.models import Account, SessionToken
from raspisnoy.store.repository import lock_users

TOMORROW = datetime.now(UTC) + timedelta(days=1)


def session_row(token_hash: str, user_id: str) -> SessionToken:
    """A session stored until tomorrow, as the database holds it."""
    now = datetime.now(UTC)
    return SessionToken(token_hash=token_hash, user_id=user_id, created_at=now, expires_at=TOMORROW)


@pytest.fixture
def postgresql_only(store: Store) -> Store:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    return store


def test_a_ban_waits_for_a_session_being_stored_and_ends_it(postgresql_only: Store) -> None:
    """Vera's log-in is storing her session (her row held, the session written, not yet
    committed) when a moderator bans her: the ban waits for it, then ends it too."""
    store = postgresql_only
    moderator, vera = people(store, "Moderator", "Vera")

    def logging_in(session: Session) -> None:
        lock_users(session, [vera.id])
        session.add(session_row("vera", vera.id))

    ban = NewAction(moderator.id, vera.id, "ban", None, "spam", None, None)
    answer_behind(store, logging_in, lambda: Moderation(store).act(ban))
    assert store.user_of_session("vera") is None
    assert Moderation(store).standing(vera.id).banned


def test_a_log_in_checked_against_the_password_replaced_meanwhile_stores_no_session(
    postgresql_only: Store,
) -> None:
    """Vera's log-in checked her old password while her new one was being stored: its
    session waits for the change, then is refused (the change ended every other session
    and would not end one stored after it)."""
    store = postgresql_only
    players = Players(store)
    vera = players.register("vera", "old-hash")

    def changing(session: Session) -> None:
        lock_users(session, [vera.id])
        change = update(Account).where(Account.user_id == vera.id).values(password_hash="new")
        session.execute(change)

    def logging_in() -> str:
        try:
            store.create_session(vera.id, "vera", TOMORROW, password_hash="old-hash")
        except StaleWriteError:
            return "refused"
        return "stored"

    assert answer_behind(store, changing, logging_in) == "refused"
    assert store.user_of_session("vera") is None
    store.create_session(vera.id, "vera", TOMORROW, password_hash="new")
    assert store.user_of_session("vera") == store.get_user(vera.id)


def test_a_deleted_accounts_session_answers_nobody(store: Store) -> None:
    """A session row left to a deleted account (one stored by code that did not hold its
    row) is nobody's: requests with it are anonymous."""
    (vera,) = people(store, "Vera")
    Players(store).delete_account(vera.id)
    with Session(store.engine) as session, session.begin():
        session.add(session_row("late", vera.id))
    assert store.user_of_session("late") is None
