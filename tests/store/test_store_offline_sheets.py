"""``OfflineSheetsRepository``: a sheet kept on a device is stored as a new sheet of its
uploader, once per player, device id and version: uploaded again, from another device or
by two workers at the same moment, it answers the sheet stored first (the database's key
decides the race); a continued sheet names its original, which stays as it was."""

from __future__ import annotations

import pytest
from racing import at_the_same_moment
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people

from raspisnoy.store import NotFoundError, Store, UserRow
from raspisnoy.store.models import OfflineSheetUpload, ScoreSheet
from raspisnoy.store.offline_sheets import OfflineSheetIn, OfflineSheetsRepository
from raspisnoy.store.repository import drop_sheets

SHEET = {"format": "raspisnoy-sheet/1", "players": ["A", "B", "C"], "rounds": []}
UPLOAD = OfflineSheetIn(device_id="device-0b7e", version=3, sheet=SHEET)


def sheets_of(store: Store, user: UserRow) -> int:
    with store.engine.connect() as connection:
        query = select(func.count()).select_from(ScoreSheet).where(ScoreSheet.owner_id == user.id)
        return int(connection.scalar(query) or 0)


def test_an_uploaded_sheet_is_a_new_sheet_of_its_uploader(store: Store) -> None:
    (anna,) = people(store, "Anna")
    sheet_id, stored = OfflineSheetsRepository(store).store(anna.id, UPLOAD)
    assert stored
    row = store.get_sheet(sheet_id)
    assert row.owner_id == anna.id and row.sheet == SHEET and row.version == 1
    assert row.continues is None


def test_the_same_upload_again_is_stored_once_per_player(store: Store) -> None:
    anna, vera = people(store, "Anna", "Vera")
    sheets = OfflineSheetsRepository(store)
    first, stored = sheets.store(anna.id, UPLOAD)
    assert stored
    assert sheets.store(anna.id, UPLOAD) == (first, False)
    assert sheets_of(store, anna) == 1
    other, stored = sheets.store(vera.id, UPLOAD)  # another player's: their own copy
    assert stored and other != first


def test_a_later_version_of_the_device_sheet_is_another_sheet(store: Store) -> None:
    """Changed on the device after an upload whose answer was lost: nothing is lost."""
    (anna,) = people(store, "Anna")
    sheets = OfflineSheetsRepository(store)
    first, _ = sheets.store(anna.id, UPLOAD)
    later = OfflineSheetIn(
        UPLOAD.device_id, UPLOAD.version + 1, {**SHEET, "players": ["A", "B", "D"]}
    )
    second, stored = sheets.store(anna.id, later)
    assert stored and second != first
    assert store.get_sheet(second).sheet == later.sheet and store.get_sheet(first).sheet == SHEET


def test_a_continued_sheet_names_its_original_which_stays_as_it_was(store: Store) -> None:
    (anna,) = people(store, "Anna")
    original = store.create_sheet(anna.id, SHEET)
    upload = OfflineSheetIn("device-1", 1, {**SHEET, "players": ["X", "B", "C"]}, original.id)
    sheet_id, _ = OfflineSheetsRepository(store).store(anna.id, upload)
    assert store.get_sheet(sheet_id).continues == original.id
    assert store.get_shared_sheet(store.get_sheet(sheet_id).share_id).continues == original.id
    assert store.get_sheet(original.id) == original


def test_a_continuation_outlives_its_original(store: Store) -> None:
    """The original deleted on the server: the continuation is still read, naming it."""
    (anna,) = people(store, "Anna")
    original = store.create_sheet(anna.id, SHEET)
    upload = OfflineSheetIn("device-2", 1, SHEET, original.id)
    sheet_id, _ = OfflineSheetsRepository(store).store(anna.id, upload)
    with store.engine.begin() as connection:
        connection.execute(delete(ScoreSheet).where(ScoreSheet.id == original.id))
    assert store.get_sheet(sheet_id).continues == original.id


def test_a_deleted_sheet_takes_its_upload_key_and_its_continuations_link(store: Store) -> None:
    """``Store.delete_sheet``: the sheet goes with its upload's key (uploaded again, it
    is stored anew); a continuation of it stays, no longer naming it."""
    (anna,) = people(store, "Anna")
    uploads = OfflineSheetsRepository(store)
    original, _ = uploads.store(anna.id, UPLOAD)
    continued, _ = uploads.store(anna.id, OfflineSheetIn("device-2", 1, SHEET, original))
    store.delete_sheet(original)
    with pytest.raises(NotFoundError):
        store.get_sheet(original)
    with pytest.raises(NotFoundError):
        store.delete_sheet(original)
    assert uploads.sheet_of(anna.id, UPLOAD.device_id, UPLOAD.version) is None
    assert store.get_sheet(continued).continues is None
    assert sheets_of(store, anna) == 1


class StaleRead(OfflineSheetsRepository):
    """Reads no upload at first, as an upload that raced another one and lost does."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.stale = True

    def sheet_of(self, user_id: str, device_id: str, version: int) -> str | None:
        if self.stale:
            self.stale = False
            return None
        return super().sheet_of(user_id, device_id, version)


def test_the_loser_of_a_race_is_refused_by_the_key_and_answers_the_first(store: Store) -> None:
    (anna,) = people(store, "Anna")
    first, _ = OfflineSheetsRepository(store).store(anna.id, UPLOAD)
    assert StaleRead(store).store(anna.id, UPLOAD) == (first, False)
    assert sheets_of(store, anna) == 1  # the loser's sheet went with its transaction


def test_uploads_at_the_same_moment_store_one_sheet(store: Store) -> None:
    (anna,) = people(store, "Anna")
    sheets = OfflineSheetsRepository(store)
    answers = at_the_same_moment(6, lambda: sheets.store(anna.id, UPLOAD))
    assert len(answers) == 6 and len({sheet_id for sheet_id, _ in answers}) == 1
    assert [stored for _, stored in answers].count(True) == 1
    assert sheets_of(store, anna) == 1
    with store.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(OfflineSheetUpload)) == 1


def _original_and_uploads(store: Store) -> tuple[UserRow, str, OfflineSheetsRepository]:
    (anna,) = people(store, "Anna")
    uploads = OfflineSheetsRepository(store)
    original, _ = uploads.store(anna.id, UPLOAD)
    return anna, original, uploads


def test_a_continuation_stored_as_its_original_is_deleted_never_names_it(store: Store) -> None:
    """The original is being deleted on one worker (not yet committed) as a device
    uploads a continuation of it on another: the upload waits, and names nothing."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    anna, original, uploads = _original_and_uploads(store)

    def deleting(session: Session) -> None:
        drop_sheets(session, select(ScoreSheet.id).where(ScoreSheet.id == original))

    upload = OfflineSheetIn("device-2", 1, SHEET, original)
    continued, _ = answer_behind(store, deleting, lambda: uploads.store(anna.id, upload))
    assert store.get_sheet(continued).continues is None


def test_an_original_deleted_as_a_continuation_is_stored_is_unlinked(store: Store) -> None:
    """The other way round: the continuation's upload holds the original first; its
    deletion waits for it, and the continuation, stored, no longer names it."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    anna, original, _ = _original_and_uploads(store)
    upload = OfflineSheetIn("device-2", 1, SHEET, original)
    stored: list[str] = []

    def uploading(session: Session) -> None:
        stored.append(OfflineSheetsRepository._add(session, anna.id, upload))

    answer_behind(store, uploading, lambda: store.delete_sheet(original))
    assert store.get_sheet(stored[0]).continues is None
