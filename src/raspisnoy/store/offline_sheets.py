"""Score sheets kept on a device and uploaded (docs/offline.md, "The scorekeeper
offline"), over a ``Store``'s engine: each stored as a new sheet of its uploader, once
per player, device id and version.

The key of ``offline_sheet_uploads`` is the upload's identity, so the same sheet uploaded
twice (its answer lost, a copy on another device, two workers at the same moment) is
stored once: the database refuses the second insert, and the upload that lost answers the
sheet the first one stored. A sheet continued offline from a server's sheet keeps the
id of that original beside it (``continues_id``), which the original never learns of.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.models import OfflineSheetUpload, ScoreSheet
from raspisnoy.store.offline_games import stored_once
from raspisnoy.store.repository import Store, add_sheet, transaction

__all__ = ["DEVICE_ID_LENGTH", "OfflineSheetIn", "OfflineSheetsRepository"]

#: The longest device id of a sheet that is stored (``offline_sheet_uploads.device_id``).
DEVICE_ID_LENGTH = 64


@dataclass(frozen=True, slots=True)
class OfflineSheetIn:
    """A sheet of a device's to store: the device's id and version of it, the (already
    checked) ``raspisnoy-sheet/1`` JSON, and the server's sheet it continues, if any."""

    device_id: str
    version: int
    sheet: dict[str, Any]
    continues: str | None = None


class OfflineSheetsRepository:
    """Sheets uploaded from devices, stored as new sheets of their uploader."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    def sheet_of(self, user_id: str, device_id: str, version: int) -> str | None:
        """The id of the sheet ``user_id``'s upload of ``device_id`` at ``version`` was
        stored as."""
        with self._session() as session:
            query = select(OfflineSheetUpload.sheet_id).where(
                OfflineSheetUpload.user_id == user_id,
                OfflineSheetUpload.device_id == device_id,
                OfflineSheetUpload.version == version,
            )
            return session.scalar(query)

    def store(self, user_id: str, upload: OfflineSheetIn) -> tuple[str, bool]:
        """The id of the sheet ``upload`` of ``user_id`` is stored as, and whether this
        call stored it: the sheet and its upload's key in one transaction, or nothing if
        it was stored before (by an earlier upload, or one that committed first
        meanwhile). ``StoreError`` if it could not be."""
        return stored_once(
            lambda: self.sheet_of(user_id, upload.device_id, upload.version),
            self._session,
            lambda session: self._add(session, user_id, upload),
        )

    @staticmethod
    def _add(session: Session, user_id: str, upload: OfflineSheetIn) -> str:
        sheet_id = add_sheet(session, user_id, upload.sheet)
        session.flush()  # the sheet before the upload that refers to it
        session.add(
            OfflineSheetUpload(
                user_id=user_id,
                device_id=upload.device_id,
                version=upload.version,
                sheet_id=sheet_id,
                continues_id=_still_there(session, upload.continues),
                created_at=datetime.now(UTC),
            )
        )
        return sheet_id


def _still_there(session: Session, sheet_id: str | None) -> str | None:
    """``sheet_id`` if that sheet is still there, its row held (shared) until the
    transaction ends; else ``None``. Its deletion (``drop_sheets``) holds it first too, so
    one at the same moment on another worker comes wholly before this upload, which then
    names nothing, or wholly after, and unlinks it."""
    if sheet_id is None:
        return None
    held = select(ScoreSheet.id).where(ScoreSheet.id == sheet_id).with_for_update(read=True)
    return session.scalar(held)
