"""Score sheets of games played with real cards: the REST API under ``/api/sheets``
(docs/PROTOCOL.md, "Score sheets"); the ``/score`` page that uses it is in ``pages``.
The sheets service (``services.sheets``) says who may do what and applies the changes;
a change the rules refuse answers 422 with the model's structured problem
(``SheetError.to_json``).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Response

from raspisnoy.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, error_templates
from raspisnoy.scorekeeper import PROBLEMS, SheetError
from raspisnoy.server.deps import OptionalUser, ServicesDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.sheets import TOKEN_HEADER, sheet_csv
from raspisnoy.server.wire import (
    EntryIn,
    ProblemsOut,
    RoundIn,
    SheetChangeIn,
    SheetOut,
    SheetsOut,
    SheetSummaryOut,
    SheetUploadIn,
    stored_sheet,
)
from raspisnoy.store import SheetRow

__all__ = ["router"]

Token = Annotated[str | None, Header(alias=TOKEN_HEADER)]

router = APIRouter(prefix="/api/sheets", tags=["sheets"])


@contextmanager
def _problems() -> Iterator[None]:
    """A change the scorekeeper refuses as HTTP 422 with its problem as the ``detail``."""
    try:
        yield
    except SheetError as error:
        raise HTTPException(422, error.to_json()) from None


def _listed(rows: list[SheetRow]) -> SheetsOut:
    return SheetsOut(sheets=[SheetSummaryOut.of(row) for row in rows])


@router.get("", response_model=SheetsOut)
async def my_sheets(user: OptionalUser, services: ServicesDep) -> SheetsOut:
    """The caller's sheets, the most recently changed first."""
    return _listed(await services.sheets.of_user(user))


@router.post("", status_code=201, response_model=SheetOut, response_model_exclude_unset=True)
async def create_sheet(body: dict[str, Any], user: OptionalUser, services: ServicesDep) -> SheetOut:
    """A new sheet owned by the caller: a ``raspisnoy-sheet/1`` object (usually with no
    rounds yet), checked by the scorekeeper."""
    with _problems():
        return SheetOut.of(await services.sheets.create(user, body))


@router.post(
    "/uploads", status_code=201, response_model=SheetOut, response_model_exclude_unset=True
)
async def upload_sheet(body: SheetUploadIn, user: OptionalUser, services: ServicesDep) -> SheetOut:
    """A sheet kept on the caller's device (docs/offline.md, "The scorekeeper offline")
    stored as a new sheet of theirs, checked by the scorekeeper; the same device id and
    version sent again answers the sheet stored the first time. ``continues`` names the
    server's sheet it goes on from, kept only if the caller may change that sheet."""
    with _problems():
        return SheetOut.of(await services.sheets.upload(user, body))


@router.get("/problems/{lang}", response_model=ProblemsOut)
async def problems(lang: str) -> ProblemsOut:
    """How the scorekeeper's problems read in ``lang`` (ru, uk, en): the templates of
    the ``score`` catalog, filled in with an error's ``params``, ``round`` and ``player``,
    and the engine's errors, filled in with a ``format`` problem's ``cause``."""
    if lang not in LANGUAGES:
        raise RequestError(
            Refusal.NOT_FOUND, f"no language {lang[:8]!r}; languages: {', '.join(LANGUAGES)}"
        )
    messages = {**catalog(DEFAULT_LANGUAGE), **catalog(lang)}
    return ProblemsOut(
        where_round=messages["score.where_round"],
        where_player=messages["score.where_player"],
        problems={code: messages[f"score.problem.{code}"] for code in PROBLEMS},
        errors=error_templates(lang),
    )


@router.get("/shared/{share_id}", response_model=SheetOut, response_model_exclude_unset=True)
async def shared_sheet(share_id: str, services: ServicesDep) -> SheetOut:
    """The sheet behind a read-only link: no id, no token, nothing to change it with."""
    return SheetOut.of(await services.sheets.shared(share_id), editor=False)


@router.get(
    "/shared/{share_id}/csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
async def shared_csv(
    share_id: str, services: ServicesDep, lang: str = DEFAULT_LANGUAGE
) -> Response:
    """The sheet as CSV (one round a line, then the totals), headings in ``lang``."""
    row = await services.sheets.shared(share_id)
    text = sheet_csv(stored_sheet(row), lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    filename = f"raspisnoy-sheet-{row.created_at:%Y-%m-%d}.csv"
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/{sheet_id}", response_model=SheetOut, response_model_exclude_unset=True)
async def read_sheet(
    sheet_id: str, user: OptionalUser, services: ServicesDep, token: Token = None
) -> SheetOut:
    """The sheet with its share id and edit token (owner or edit token only)."""
    return SheetOut.of(await services.sheets.editable(sheet_id, user, token))


@router.delete("/{sheet_id}", response_model=SheetsOut)
async def delete_sheet(
    sheet_id: str, user: OptionalUser, services: ServicesDep, token: Token = None
) -> SheetsOut:
    """Delete the sheet (its owner only; a holder of its edit token is told so, anyone
    else that there is no such sheet); the caller's sheets left, as ``GET /api/sheets``."""
    return _listed(await services.sheets.delete(sheet_id, user, token))


@router.post("/{sheet_id}/entries", response_model=SheetOut, response_model_exclude_unset=True)
async def add_entry(
    sheet_id: str, body: EntryIn, user: OptionalUser, services: ServicesDep, token: Token = None
) -> SheetOut:
    """Enter the next bid, trick count or control round (the sheet's ``next``); with
    ``version``, only into the sheet at that version (409 ``sheet_changed`` else)."""
    with _problems():
        return SheetOut.of(await services.sheets.enter(sheet_id, user, token, body))


@router.put(
    "/{sheet_id}/rounds/{number}", response_model=SheetOut, response_model_exclude_unset=True
)
async def edit_round(
    sheet_id: str,
    number: int,
    body: RoundIn,
    user: OptionalUser,
    services: ServicesDep,
    token: Token = None,
) -> SheetOut:
    """Rewrite round ``number`` (from 1); later rounds are checked again, totals follow.
    With ``version``, only the sheet at that version (409 ``sheet_changed`` else)."""
    with _problems():
        return SheetOut.of(await services.sheets.edit_round(sheet_id, user, token, number, body))


@router.post("/{sheet_id}/undo", response_model=SheetOut, response_model_exclude_unset=True)
async def undo(
    sheet_id: str,
    user: OptionalUser,
    services: ServicesDep,
    token: Token = None,
    body: SheetChangeIn | None = None,
) -> SheetOut:
    """Take back the last entry; with ``version``, only of the sheet at that version."""
    expected = None if body is None else body.version
    with _problems():
        return SheetOut.of(await services.sheets.undo(sheet_id, user, token, expected))
