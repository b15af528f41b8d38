"""The scorekeeper: the score sheet of a game played with real cards («расписная»).

People type in the bids and the tricks each player took; the sheet checks them against
the ruleset and scores them with core's round plan and scoring. ``Sheet`` is the model
(immutable; every entry or edit returns a new, checked sheet), ``SheetError`` a problem
with its round, player and code, and ``sheetfile`` the ``raspisnoy-sheet/1`` file format
(docs/sheet-format.md). Imports core only, so a command line and a web API can share it.
"""

from raspisnoy.scorekeeper.errors import PROBLEMS, SheetError
from raspisnoy.scorekeeper.sheet import Entry, EntryKind, ScoredRound, Sheet, SheetRound
from raspisnoy.scorekeeper.sheetfile import (
    FORMAT,
    dumps_sheet,
    loads_sheet,
    read_sheet,
    sheet_from_json,
    sheet_report,
    sheet_to_json,
    write_sheet,
)

__all__ = [
    "FORMAT",
    "PROBLEMS",
    "Entry",
    "EntryKind",
    "ScoredRound",
    "Sheet",
    "SheetError",
    "SheetRound",
    "dumps_sheet",
    "loads_sheet",
    "read_sheet",
    "sheet_from_json",
    "sheet_report",
    "sheet_to_json",
    "write_sheet",
]
