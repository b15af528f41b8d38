"""The scorekeeper as the /score page uses it with no network (docs/offline.md, "The
scorekeeper offline"): run by Pyodide in the page's worker, so a sheet kept on the device
is checked and scored by this same model, never by a second implementation.

Each call takes the sheet's ``raspisnoy-sheet/1`` JSON and answers plain JSON: the sheet
as the API's SHEET object shows it (``sheet``, ``planned``, ``report``, ``next``), or the
model's structured ``problem`` (``SheetError.to_json``) when the rules refuse a change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from raspisnoy.scorekeeper.errors import SheetError
from raspisnoy.scorekeeper.sheet import Sheet
from raspisnoy.scorekeeper.sheetfile import sheet_from_json, sheet_report, sheet_to_json

__all__ = ["page_change", "page_view"]

Json = dict[str, Any]


def _view(sheet: Sheet) -> Json:
    """What the page draws: the sheet, its plan's length, its scores and the next entry."""
    entry = sheet.next_entry
    return {
        "sheet": sheet_to_json(sheet),
        "planned": len(sheet.plan),
        "report": sheet_report(sheet),
        "next": None if entry is None else entry.to_json(),
    }


def _answer(make: Callable[[], Sheet]) -> Json:
    """The new sheet's view, or the problem that refused it."""
    try:
        return _view(make())
    except SheetError as error:
        return {"problem": error.to_json()}


def page_view(data: Mapping[str, Any]) -> Json:
    """A kept sheet, checked again (a damaged one answers its problem)."""
    return _answer(lambda: sheet_from_json(data))


def _changed(sheet: Sheet, change: Mapping[str, Any]) -> Sheet:
    """One change as the API's routes make it: an entry (``bid``, ``taken``, ``control``),
    a round rewritten (``round``) or the last entry taken back (``undo``)."""
    kind = change.get("entry")
    if kind == "bid":
        return sheet.bid(int(change["seat"]), int(change["value"]))
    if kind == "taken":
        return sheet.take(int(change["seat"]), int(change["value"]))
    if kind == "control":
        return sheet.choose_control(str(change["kind"]), int(change["dealer"]))
    if kind == "round":
        bids = change.get("bids")
        taken = tuple(change["taken"])
        return sheet.edit_round(int(change["number"]), None if bids is None else tuple(bids), taken)
    if kind == "undo":
        return sheet.undo()
    raise ValueError(f"unknown change {kind!r}")


def page_change(data: Mapping[str, Any], change: Mapping[str, Any]) -> Json:
    """The sheet ``data`` with ``change`` applied, or the problem that refused it."""
    return _answer(lambda: _changed(sheet_from_json(data), change))
