"""Score sheets of games played with real cards: the REST API under ``/api/sheets``
(docs/PROTOCOL.md, "Score sheets"); the ``/score`` page that uses it is in ``pages``.

A sheet is stored as its ``raspisnoy-sheet/1`` JSON (docs/sheet-format.md). Every change
reads it, applies one entry, edit or undo with ``raspisnoy.scorekeeper`` (which checks it
against the rules: this module knows none of them) and writes it back only if nobody
changed it meanwhile, so entries from two phones never overwrite each other. A refused
change answers 422 with the model's structured problem (``SheetError.to_json``).

Who may do what: the owner (the session that created the sheet) or anyone holding its
edit token (``X-Sheet-Token``) reads and changes it by ``id``; anyone with the share id
reads it, and nothing else, at ``/api/sheets/shared/{share_id}``.
"""

import asyncio
import csv
import hmac
import io
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Header, HTTPException, Response
from pydantic import BaseModel, ConfigDict, StrictInt

from raspisnoy.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, translate
from raspisnoy.scorekeeper import PROBLEMS, Sheet, SheetError, sheet_from_json, sheet_to_json
from raspisnoy.server.deps import OptionalUser, StoreDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.wire import (
    ProblemsOut,
    SheetOut,
    SheetsOut,
    sheet_json,
    sheet_summary,
    stored_sheet,
)
from raspisnoy.store import NotFoundError, SheetRow, StaleWriteError, Store, UserRow

__all__ = ["TOKEN_HEADER", "router", "sheet_csv"]

#: How often a change is tried again when another writer got there first.
_WRITE_ATTEMPTS = 5
#: Header that carries a sheet's edit token.
TOKEN_HEADER = "X-Sheet-Token"

_T = TypeVar("_T")
Token = Annotated[str | None, Header(alias=TOKEN_HEADER)]

router = APIRouter(prefix="/api/sheets", tags=["sheets"])


class EntryIn(BaseModel):
    """One entry, as the model's ``next_entry`` asks for it: a bid or a trick count of a
    seat (``value``), or the kind and dealer of a control round («контрольная»)."""

    model_config = ConfigDict(extra="forbid")
    entry: Literal["bid", "taken", "control"]
    seat: StrictInt | None = None
    value: StrictInt | None = None
    kind: str | None = None
    dealer: StrictInt | None = None


class RoundIn(BaseModel):
    """A past round rewritten: bids (``null`` for a round without bids) and tricks by seat."""

    model_config = ConfigDict(extra="forbid")
    bids: list[StrictInt | None] | None
    taken: list[StrictInt | None]


@router.get("", response_model=SheetsOut)
async def my_sheets(user: OptionalUser, store: StoreDep) -> dict[str, Any]:
    """The caller's sheets, the most recently changed first."""
    rows = await _run(store.sheets_of_user, _signed_in(user).id)
    return {"sheets": [sheet_summary(row) for row in rows]}


@router.post("", status_code=201, response_model=SheetOut, response_model_exclude_unset=True)
async def create_sheet(body: dict[str, Any], user: OptionalUser, store: StoreDep) -> Any:
    """A new sheet owned by the caller: a ``raspisnoy-sheet/1`` object (usually with no
    rounds yet), checked by the scorekeeper."""
    owner = _signed_in(user)
    sheet = _checked(sheet_from_json, body)
    return sheet_json(await _run(store.create_sheet, owner.id, sheet_to_json(sheet)))


@router.get("/problems/{lang}", response_model=ProblemsOut)
async def problems(lang: str) -> dict[str, Any]:
    """How the scorekeeper's problems read in ``lang`` (ru, uk, en): the templates of
    the ``score`` catalog, filled in with an error's ``params``, ``round`` and ``player``."""
    if lang not in LANGUAGES:
        raise RequestError(
            Refusal.NOT_FOUND, f"no language {lang[:8]!r}; languages: {', '.join(LANGUAGES)}"
        )
    messages = {**catalog(DEFAULT_LANGUAGE), **catalog(lang)}
    return {
        "where_round": messages["score.where_round"],
        "where_player": messages["score.where_player"],
        "problems": {code: messages[f"score.problem.{code}"] for code in PROBLEMS},
    }


@router.get("/shared/{share_id}", response_model=SheetOut, response_model_exclude_unset=True)
async def shared_sheet(share_id: str, store: StoreDep) -> Any:
    """The sheet behind a read-only link: no id, no token, nothing to change it with."""
    return sheet_json(await _shared(share_id, store), editor=False)


@router.get(
    "/shared/{share_id}/csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
async def shared_csv(share_id: str, store: StoreDep, lang: str = DEFAULT_LANGUAGE) -> Response:
    """The sheet as CSV (one round a line, then the totals), headings in ``lang``."""
    row = await _shared(share_id, store)
    text = sheet_csv(stored_sheet(row), lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    filename = f"raspisnoy-sheet-{row.created_at:%Y-%m-%d}.csv"
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/{sheet_id}", response_model=SheetOut, response_model_exclude_unset=True)
async def read_sheet(
    sheet_id: str, user: OptionalUser, store: StoreDep, token: Token = None
) -> Any:
    """The sheet with its share id and edit token (owner or edit token only)."""
    return sheet_json(await _editable(store, sheet_id, user, token))


@router.post("/{sheet_id}/entries", response_model=SheetOut, response_model_exclude_unset=True)
async def add_entry(
    sheet_id: str, body: EntryIn, user: OptionalUser, store: StoreDep, token: Token = None
) -> Any:
    """Enter the next bid, trick count or control round (the sheet's ``next``)."""
    return await _change(store, sheet_id, user, token, lambda sheet: _enter(sheet, body))


@router.put(
    "/{sheet_id}/rounds/{number}", response_model=SheetOut, response_model_exclude_unset=True
)
async def edit_round(
    sheet_id: str,
    number: int,
    body: RoundIn,
    user: OptionalUser,
    store: StoreDep,
    token: Token = None,
) -> Any:
    """Rewrite round ``number`` (from 1); later rounds are checked again, totals follow."""
    bids = None if body.bids is None else tuple(body.bids)
    return await _change(
        store,
        sheet_id,
        user,
        token,
        lambda sheet: sheet.edit_round(number, bids, tuple(body.taken)),
    )


@router.post("/{sheet_id}/undo", response_model=SheetOut, response_model_exclude_unset=True)
async def undo(sheet_id: str, user: OptionalUser, store: StoreDep, token: Token = None) -> Any:
    """Take back the last entry."""
    return await _change(store, sheet_id, user, token, Sheet.undo)


def _signed_in(user: UserRow | None) -> UserRow:
    if user is None:
        raise RequestError(
            Refusal.NO_SESSION, "no valid session: choose a nickname first (POST /api/session)"
        )
    return user


async def _editable(
    store: Store, sheet_id: str, user: UserRow | None, token: str | None
) -> SheetRow:
    """The sheet, if the caller is its owner or holds its edit token."""
    try:
        row = await _run(store.get_sheet, sheet_id)
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no sheet {sheet_id[:40]!r}") from None
    if user is not None and user.id == row.owner_id:
        return row
    if token is not None and hmac.compare_digest(token.encode(), row.edit_token.encode()):
        return row
    if user is None and token is None:
        raise RequestError(
            Refusal.NO_SESSION, f"sign in as the sheet's owner or send its {TOKEN_HEADER}"
        )
    raise RequestError(
        Refusal.FORBIDDEN, "only the sheet's owner or a holder of its edit token may"
    )


async def _change(
    store: Store,
    sheet_id: str,
    user: UserRow | None,
    token: str | None,
    apply: Callable[[Sheet], Sheet],
) -> dict[str, Any]:
    """Apply a change to the stored sheet and store the result, reading it again if
    another writer changed it in between."""
    for _ in range(_WRITE_ATTEMPTS):
        row = await _editable(store, sheet_id, user, token)
        changed = _checked(apply, stored_sheet(row))
        try:
            return sheet_json(
                await _run(store.update_sheet, row.id, sheet_to_json(changed), row.version)
            )
        except StaleWriteError:
            continue
    raise RequestError(Refusal.CONFLICT, "the sheet is being changed from elsewhere: try again")


async def _shared(share_id: str, store: Store) -> SheetRow:
    try:
        return await _run(store.get_shared_sheet, share_id)
    except NotFoundError:
        raise RequestError(Refusal.NOT_FOUND, f"no shared sheet {share_id[:40]!r}") from None


async def _run(function: Callable[..., _T], *args: Any) -> _T:
    """A blocking store call in a worker thread."""
    return await asyncio.to_thread(function, *args)


def _checked(make: Callable[..., Sheet], *args: Any) -> Sheet:
    """``make(*args)``, or HTTP 422 with the model's problem as the ``detail`` object."""
    try:
        return make(*args)
    except SheetError as error:
        raise HTTPException(422, error.to_json()) from None


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
