"""Score sheets in the store: fresh random ids, the read-only link, the owner's list,
and a write that never overwrites another writer's (docs/PROTOCOL.md, "Score sheets")."""

from __future__ import annotations

import pytest
from store_helpers import people

from raspisnoy.store import NotFoundError, StaleWriteError, Store

SHEET = {"format": "raspisnoy-sheet/1", "players": ["A", "B", "C"], "rounds": []}


def test_a_sheet_is_made_read_and_shared(store: Store) -> None:
    (owner,) = people(store, "Owner")
    made = store.create_sheet(owner.id, SHEET)
    assert made.version == 1 and made.owner_id == owner.id and made.owner_nickname == "Owner"
    assert len({made.id, made.share_id, made.edit_token}) == 3
    assert store.get_sheet(made.id) == made
    assert store.get_shared_sheet(made.share_id) == made
    with pytest.raises(NotFoundError):
        store.get_shared_sheet(made.id)  # the id is not a share id
    with pytest.raises(NotFoundError):
        store.get_sheet("nope")


def test_a_stale_write_is_refused(store: Store) -> None:
    (owner,) = people(store, "Writer")
    made = store.create_sheet(owner.id, SHEET)
    changed = store.update_sheet(made.id, {**SHEET, "players": ["X", "B", "C"]}, made.version)
    assert changed.version == 2 and changed.sheet["players"][0] == "X"
    with pytest.raises(StaleWriteError):
        store.update_sheet(made.id, SHEET, made.version)  # written from version 1 again
    assert store.get_sheet(made.id).sheet == changed.sheet
    with pytest.raises(NotFoundError):
        store.update_sheet("gone", SHEET, 1)


def test_the_owners_list_is_newest_change_first(store: Store) -> None:
    owner, stranger = people(store, "Lister", "Stranger")
    first, second = (store.create_sheet(owner.id, SHEET) for _ in range(2))
    store.update_sheet(first.id, SHEET, first.version)
    assert [row.id for row in store.sheets_of_user(owner.id)] == [first.id, second.id]
    assert store.sheets_of_user(stranger.id) == []
    assert len(store.sheets_of_user(owner.id, limit=1)) == 1
