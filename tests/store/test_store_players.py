"""``Players``: accounts under one normalization of user names, passwords (as hashes),
the sessions of a user, deletion, and a profile's recent games as others see them: only
those anyone may know of (docs/accounts.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from store_helpers import in_club, people, table_of
from test_store_clubs import new_club

from raspisnoy.store import (
    ANONYMOUS,
    ROUND_COUNTS,
    ChatRow,
    ClubStore,
    GameEnd,
    GameEnds,
    NotFoundError,
    Players,
    PoolStore,
    Store,
    Together,
    UsernameTakenError,
    UserRow,
    clean_name,
    username_key,
)
from raspisnoy.store.offline_sheets import OfflineSheetIn, OfflineSheetsRepository

LATER = datetime.now(UTC) + timedelta(days=1)
SHEET = {"format": "raspisnoy-sheet/1", "players": ["Мама", "Папа", "Лена"], "rounds": []}
CHOICES = {"presets": ["classic"], "players": [4], "speed": "normal", "rated": False}


def finished_game(store: Store, host: UserRow, *, public: bool = True) -> str:
    """A new table of ``host`` (seat 0) and three bots whose unrated game is over, each
    seat's result stored (the host first); its id."""
    table = table_of(store, host, public=public)
    store.start_table(table.id, [host.nickname, "Bot 2", "Bot 3", "Bot 4"], 0)
    nothing = dict.fromkeys(ROUND_COUNTS, 0)
    figures = tuple(nothing | {"points": 0, "place": seat + 1} for seat in range(4))
    GameEnds(store).finish(table.id, GameEnd(figures, "classic"))
    return table.id


def test_one_normalization_for_every_spelling() -> None:
    assert clean_name("  Big \t  Fish\n") == "Big Fish"
    assert username_key("BIG  fish ") == username_key("big fish") == "big fish"
    assert username_key("Stra\u00dfe") == username_key("STRASSE")  # case folded, not lowered
    assert username_key("e\u0301") == username_key("\u00e9")  # NFC


def test_registration_and_look_up_under_any_spelling(store: Store) -> None:
    players = Players(store)
    (guest,) = people(store, "Guest")
    registered = players.register("Big Fish", "hash-1", guest.id)
    assert registered.id == guest.id and registered.kind == "registered"
    for spelling in ("big fish", " BIG\tFISH ", "Big  Fish"):
        found = players.credentials(spelling)
        assert found is not None and found[0].id == guest.id and found[1] == "hash-1"
    with pytest.raises(UsernameTakenError):
        players.register("  big FISH", "hash-2")
    assert players.credentials("Big Fis") is None
    assert players.username_of(guest.id) == "Big Fish"


def test_a_guest_has_no_password(store: Store) -> None:
    (guest,) = people(store, "Plain guest")
    assert Players(store).password_hash(guest.id) is None


def test_a_new_password_ends_every_other_session(store: Store) -> None:
    players = Players(store)
    user = players.register("Changer", "old")
    for digest in ("a" * 64, "b" * 64, "c" * 64):
        store.create_session(user.id, digest, LATER, "browser")
    assert players.set_password(user.id, "new", keep_session="a" * 64) == 2
    assert players.password_hash(user.id) == "new"
    assert store.user_of_session("a" * 64) is not None
    assert store.user_of_session("b" * 64) is None


def test_sessions_are_listed_and_ended_one_at_a_time(store: Store) -> None:
    players = Players(store)
    user, other = players.register("Lister", "h"), players.register("Other one", "h")
    store.create_session(user.id, "a" * 64, LATER, "phone")
    store.create_session(user.id, "b" * 64, LATER, "laptop")
    lines = players.sessions_of(user.id, current="a" * 64)
    assert len(lines) == 2 and [line.current for line in lines].count(True) == 1
    elsewhere = next(line for line in lines if not line.current)
    assert players.end_session_of(other.id, elsewhere.id) is None  # not theirs
    assert players.end_session_of(user.id, elsewhere.id) == "b" * 64
    assert players.end_session_of(user.id, elsewhere.id) is None


def test_a_deleted_account_keeps_its_games_under_an_anonymous_name(store: Store) -> None:
    players = Players(store)
    user = players.register("Leaver", "h")
    store.create_session(user.id, "a" * 64, LATER)
    renamed, ended = players.delete_account(user.id)
    assert (renamed, ended) == ([], 1)
    assert players.credentials("Leaver") is None and players.password_hash(user.id) is None
    gone = store.get_user(user.id)
    assert (gone.nickname, gone.kind) == (ANONYMOUS, "deleted")
    players.register("Leaver", "h2")  # the name is free again


def test_a_deleted_account_takes_its_score_sheets_and_its_wait_in_the_pool(
    store: Store,
) -> None:
    """Its sheets (the names of the people it played with on paper) go, those uploaded
    from a device too, so their share and edit links lead nowhere; its place in the pool
    goes, so no table is opened for it. Another person's sheet and wait stay."""
    players, pool, uploads = Players(store), PoolStore(store), OfflineSheetsRepository(store)
    leaver, friend = players.register("Leaver", "h"), players.register("Friend", "h")
    own, kept = store.create_sheet(leaver.id, SHEET), store.create_sheet(friend.id, SHEET)
    uploaded, _ = uploads.store(leaver.id, OfflineSheetIn("device-1", 1, SHEET))
    continued, _ = uploads.store(friend.id, OfflineSheetIn("device-2", 1, SHEET, own.id))
    for person in (leaver, friend):
        pool.join(person.id, CHOICES, 1000.0, 1.0)
    players.delete_account(leaver.id)
    for find, key in (
        (store.get_sheet, own.id),
        (store.get_shared_sheet, own.share_id),
        (store.get_sheet, uploaded),
    ):
        with pytest.raises(NotFoundError):
            find(key)
    assert uploads.sheet_of(leaver.id, "device-1", 1) is None
    assert store.sheets_of_user(leaver.id) == []
    assert store.get_sheet(kept.id).owner_nickname == "Friend"
    assert store.get_sheet(continued).continues is None  # its original is gone, it stays
    assert [entry.user_id for entry in pool.waiting()] == [friend.id]


def test_a_deleted_account_leaves_the_tables_not_started(store: Store) -> None:
    """Its seats there are freed; a table it hosts passes to the person in the lowest
    seat or, with nobody, leaves the lobby; each is named for its actor to reload. A
    started game keeps it in its seat, renamed."""
    players = Players(store)
    leaver, friend = players.register("Leaver", "h"), players.register("Friend", "h")
    shared = table_of(store, leaver)
    store.set_seat(shared.id, 2, friend.id)
    alone, guest = table_of(store, leaver), table_of(store, friend)
    store.set_seat(guest.id, 1, leaver.id)
    started = table_of(store, leaver)
    store.start_table(started.id, ["Leaver", "Bot 2", "Bot 3", "Bot 4"], 0)
    renamed, _ = players.delete_account(leaver.id)
    assert sorted(renamed) == sorted([shared.id, alone.id, guest.id, started.id])
    seated = {t: [s.user_id for s in store.get_table(t).seats] for t in renamed}
    assert seated[shared.id] == [None, None, friend.id, None]
    assert seated[guest.id] == [friend.id, None, None, None]
    assert seated[started.id][0] == leaver.id  # the game keeps its seat, renamed
    assert (store.get_table(shared.id).host_id, store.get_table(shared.id).public) == (
        friend.id,
        True,
    )
    assert (store.get_table(alone.id).host_id, store.get_table(alone.id).public) == (
        leaver.id,
        False,
    )
    assert {t.id for t in store.list_tables(status="open")} == {guest.id, shared.id}


def test_a_deleted_accounts_name_leaves_its_games_and_their_chat(store: Store) -> None:
    """In the names of every started game and on every chat line (``Anonymous #N`` at a
    seat, ``Anonymous`` as a spectator); the tables named are the ones to tell."""
    players, together = Players(store), Together(store)
    host, watcher = players.register("Hosting", "h"), players.register("Watching", "h")
    table = table_of(store, host)
    store.start_table(table.id, ["Hosting", "Bot 2", "Bot 3", "Bot 4"], 0)
    other = table_of(store, players.register("Elsewhere", "h"))
    for seq, (user, seat) in enumerate([(host, 0), (watcher, None)], start=1):
        at = datetime.now(UTC)
        together.add_chat(
            ChatRow(table.id, seq, user.id, user.nickname, seat, "hi", None, 1, 0, at)
        )
    together.add_chat(ChatRow(other.id, 1, watcher.id, "Watching", None, "yo", None, 0, 0, at))
    assert sorted(players.delete_account(host.id)[0]) == [table.id]
    assert store.get_table(table.id).names == ("Anonymous #1", "Bot 2", "Bot 3", "Bot 4")
    assert [line.name for line in together.chat_of(table.id)] == ["Anonymous #1", "Watching"]
    assert sorted(players.delete_account(watcher.id)[0]) == sorted([table.id, other.id])
    assert [line.name for line in together.chat_of(table.id)] == ["Anonymous #1", ANONYMOUS]


def test_a_profile_shows_others_only_the_games_anyone_may_know_of(store: Store) -> None:
    """Not a private table's game nor a club's (a public one too, as a club tournament's):
    those are hidden information; the player sees every game of their own."""
    players, clubs = Players(store), ClubStore(store)
    anna, other = players.register("Anna", "h"), players.register("Other", "h")
    games = [finished_game(store, anna, public=public) for public in (True, False, True)]
    in_club(store, new_club(clubs, other.id, "Club"), games[2])
    own = players.profile(anna.id, viewer=anna.id).recent
    assert {game.table_id for game in own} == set(games)
    for viewer in (other.id, None):
        seen = players.profile(anna.id, viewer=viewer).recent
        assert [game.table_id for game in seen] == games[:1]
    assert [game.table_id for game in players.profile(anna.id).recent] == games[:1]
