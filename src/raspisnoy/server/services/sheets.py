"""Score sheets of games played with real cards (docs/PROTOCOL.md, "Score sheets"): who
may read and change one, its changes applied by ``raspisnoy.scorekeeper`` and stored
without ever overwriting another writer's, and the sheet as CSV.

A sheet is stored as its ``raspisnoy-sheet/1`` JSON (docs/sheet-format.md). Every change
reads it, applies one entry, edit or undo (the scorekeeper checks it against the rules:
this module knows none of them) and writes it back only if nobody changed it meanwhile,
so entries from two phones never overwrite each other. A change that names the version
it was made on (the client's last seen) is refused once the sheet has moved on from it
(``sheet_changed``), rather than applied again to the newer sheet: a retry, or a second
phone's correction of the same round, then changes nothing. A change the rules refuse
raises the scorekeeper's ``SheetError``, which the routes answer with its structured
problem.

Who may do what: the owner (the session that created the sheet) or anyone holding its
edit token reads and changes it by id; anyone with the share id reads it, and nothing
else.
"""

from __future__ import annotations

import csv
import hmac
import io
from collections.abc import Callable

from raspisnoy.i18n import translate
from raspisnoy.scorekeeper import Sheet, sheet_from_json, sheet_to_json
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    EntryIn,
    Json,
    RoundIn,
    SheetOriginalIn,
    SheetUploadIn,
    stored_sheet,
)
from raspisnoy.store import NotFoundError, SheetRow, StaleWriteError, Store, UserRow
from raspisnoy.store.offline_sheets import OfflineSheetIn, OfflineSheetsRepository

__all__ = ["TOKEN_HEADER", "Sheets", "sheet_csv"]

#: How often a change is tried again when another writer got there first.
_WRITE_ATTEMPTS = 5
#: Header that carries a sheet's edit token.
TOKEN_HEADER = "X-Sheet-Token"


class Sheets:
    """The score sheets of one app's store."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._uploads = OfflineSheetsRepository(store)

    async def of_user(self, user: UserRow | None) -> list[SheetRow]:
        """The caller's sheets, the most recently changed first."""
        return await in_thread(self._store.sheets_of_user, _signed_in(user).id)

    async def create(self, user: UserRow | None, body: Json) -> SheetRow:
        """A new sheet owned by the caller, checked by the scorekeeper."""
        owner = _signed_in(user)
        sheet = sheet_from_json(body)
        try:
            return await in_thread(self._store.create_sheet, owner.id, sheet_to_json(sheet))
        except NotFoundError:  # the account was deleted meanwhile
            raise _no_user(owner) from None

    async def upload(self, user: UserRow | None, body: SheetUploadIn) -> SheetRow:
        """A sheet kept on a device, stored as a new sheet of the caller's, checked again
        by the scorekeeper, once per device id and version however often it comes. It
        names the server's sheet it continues only if that sheet is there and the caller
        may change it (its owner, or with its edit token); else it is a sheet of its own."""
        owner = _signed_in(user)
        sheet = sheet_to_json(sheet_from_json(body.sheet))
        original = None if body.continues is None else await self._original(owner, body.continues)
        upload = OfflineSheetIn(body.id, body.version, sheet, original)
        try:
            sheet_id, _ = await in_thread(self._uploads.store, owner.id, upload)
        except NotFoundError:  # the account was deleted meanwhile
            raise _no_user(owner) from None
        return await in_thread(self._store.get_sheet, sheet_id)

    async def _original(self, user: UserRow, original: SheetOriginalIn) -> str | None:
        """The id of the sheet ``original`` names, if ``user`` may change it."""
        try:
            return (await self.editable(original.id, user, original.token)).id
        except RequestError:
            return None  # gone, or never theirs: said the same, so it tells nothing

    async def shared(self, share_id: str) -> SheetRow:
        """The sheet behind a read-only link."""
        try:
            return await in_thread(self._store.get_shared_sheet, share_id)
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no shared sheet {share_id[:40]!r}") from None

    async def editable(self, sheet_id: str, user: UserRow | None, token: str | None) -> SheetRow:
        """The sheet, if the caller is its owner or holds its edit token. To anyone else a
        sheet is not found, in the words of a sheet that does not exist: a sheet's id
        reaches people who may not change it (a continued sheet names the one it
        continues), and "not yours" would tell them that it exists. A caller with
        neither a session nor a token is asked for one, whatever the id."""
        if user is None and token is None:
            raise RequestError(
                Refusal.NO_SESSION, f"sign in as the sheet's owner or send its {TOKEN_HEADER}"
            )
        row = await self._stored(sheet_id)
        if _may_change(row, user, token):
            return row
        raise _no_sheet(sheet_id)

    async def delete(
        self, sheet_id: str, user: UserRow | None, token: str | None
    ) -> list[SheetRow]:
        """Delete the caller's own sheet (its share link and edit token lead nowhere
        after); the caller's sheets left. Its owner's alone: a holder of the edit token
        (a second phone) enters and corrects, but does not throw the game away, and is
        told so; to anyone else the sheet is not found (``editable``)."""
        owner = _signed_in(user)
        row = await self._stored(sheet_id)
        if row.owner_id != owner.id:
            if _may_change(row, owner, token):
                raise RequestError(Refusal.FORBIDDEN, "only the sheet's owner may delete it")
            raise _no_sheet(sheet_id)
        try:
            await in_thread(self._store.delete_sheet, sheet_id)
        except NotFoundError:  # deleted meanwhile, from another device
            raise _no_sheet(sheet_id) from None
        return await self.of_user(owner)

    async def _stored(self, sheet_id: str) -> SheetRow:
        """The stored sheet ``sheet_id``, whoever asks (``not_found`` if there is none)."""
        try:
            return await in_thread(self._store.get_sheet, sheet_id)
        except NotFoundError:
            raise _no_sheet(sheet_id) from None

    async def _change(
        self,
        sheet_id: str,
        user: UserRow | None,
        token: str | None,
        apply: Callable[[Sheet], Sheet],
        expected: int | None,
    ) -> SheetRow:
        """Apply a change to the stored sheet and store the result, reading it again if
        another writer changed it in between. A change made on version ``expected`` is
        refused once the sheet is at another: the store writes only over the version
        read, so the check holds across workers however the writes interleave."""
        for _ in range(_WRITE_ATTEMPTS):
            row = await self.editable(sheet_id, user, token)
            _check_version(row, expected)
            changed = apply(stored_sheet(row))
            try:
                return await in_thread(
                    self._store.update_sheet, row.id, sheet_to_json(changed), row.version
                )
            except StaleWriteError:
                continue
        raise RequestError(Refusal.CONFLICT, "the sheet is being changed from elsewhere: try again")

    async def enter(
        self, sheet_id: str, user: UserRow | None, token: str | None, entry: EntryIn
    ) -> SheetRow:
        """Enter the next bid, trick count or control round (the sheet's ``next``)."""
        return await self._change(
            sheet_id, user, token, lambda sheet: _enter(sheet, entry), entry.version
        )

    async def edit_round(
        self, sheet_id: str, user: UserRow | None, token: str | None, number: int, body: RoundIn
    ) -> SheetRow:
        """Rewrite round ``number`` (from 1); later rounds are checked again."""
        bids = None if body.bids is None else tuple(body.bids)
        taken = tuple(body.taken)
        return await self._change(
            sheet_id, user, token, lambda sheet: sheet.edit_round(number, bids, taken), body.version
        )

    async def undo(
        self, sheet_id: str, user: UserRow | None, token: str | None, expected: int | None
    ) -> SheetRow:
        """Take back the last entry (of version ``expected``, if given)."""
        return await self._change(sheet_id, user, token, Sheet.undo, expected)


def _may_change(row: SheetRow, user: UserRow | None, token: str | None) -> bool:
    """Whether the caller may change the sheet: its owner, or a holder of its edit token."""
    if user is not None and user.id == row.owner_id:
        return True
    return token is not None and hmac.compare_digest(token.encode(), row.edit_token.encode())


def _no_user(user: UserRow) -> RequestError:
    """The answer to a request of an account deleted while it was being answered."""
    return RequestError(Refusal.NOT_FOUND, f"no user {user.id!r}")


def _no_sheet(sheet_id: str) -> RequestError:
    """The answer about a sheet that does not exist (or is not the caller's to know of)."""
    return RequestError(Refusal.NOT_FOUND, f"no sheet {sheet_id[:40]!r}")


def _check_version(row: SheetRow, expected: int | None) -> None:
    """Refuse a change made on version ``expected`` of a sheet that is at another now."""
    if expected is not None and expected != row.version:
        raise RequestError(
            Refusal.SHEET_CHANGED,
            f"the sheet changed since version {expected}: it is at version {row.version}",
            params={"version": row.version},
        )


def _enter(sheet: Sheet, body: EntryIn) -> Sheet:
    """The entry applied by the model; a missing field is a problem of the request's shape."""
    if body.entry == "control":
        if body.kind is None or body.dealer is None:
            raise RequestError(Refusal.INVALID, "a control round needs its kind and dealer")
        return sheet.choose_control(body.kind, body.dealer)
    if body.seat is None or body.value is None:
        raise RequestError(Refusal.INVALID, f"a {body.entry} entry needs the seat and the value")
    return (
        sheet.bid(body.seat, body.value)
        if body.entry == "bid"
        else sheet.take(body.seat, body.value)
    )


def _signed_in(user: UserRow | None) -> UserRow:
    if user is None:
        raise RequestError(
            Refusal.NO_SESSION, "no valid session: choose a nickname first (POST /api/session)"
        )
    return user


def _cell(text: str) -> str:
    """A name made safe for spreadsheets, which run a cell starting with = + - @ as a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def sheet_csv(sheet: Sheet, lang: str) -> str:
    """The sheet as CSV: round, cards, kind, dealer, then bid, taken, points and running
    total of each player; the last line has the totals. It starts with a byte-order mark,
    by which spreadsheets tell UTF-8 (Cyrillic names) from the system's code page."""

    def word(key: str) -> str:
        return translate(f"web.score.csv.{key}", lang)

    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    heading = [word("round"), word("cards"), word("kind"), word("dealer")]
    for name in sheet.players:
        heading += [f"{_cell(name)}: {word(part)}" for part in ("bid", "taken", "points", "total")]
    writer.writerow(heading)
    for row in sheet.scored:
        line: list[object] = [
            row.number,
            row.cards,
            translate(f"kind.{row.kind}", lang),
            _cell(sheet.players[row.dealer]),
        ]
        for seat in range(len(sheet.players)):
            bid = None if row.bids is None else row.bids[seat]
            points = None if row.points is None else row.points[seat]
            total = None if row.points is None else row.totals[seat]
            line += [
                "" if value is None else value for value in (bid, row.taken[seat], points, total)
            ]
        writer.writerow(line)
    totals: list[object] = [word("totals"), "", "", ""]
    for total in sheet.totals:
        totals += ["", "", "", total]
    writer.writerow(totals)
    return out.getvalue()
