"""The sheet file format ``raspisnoy-sheet/1`` (docs/sheet-format.md) and the score report.

``loads_sheet``/``sheet_from_json`` read a sheet, checking its shape (``SheetError`` with
the code ``format``, the place and an English ``detail``; what is wrong is also a code of
its own with its values, ``detail_code``/``detail_params``, which a terminal words in the
reader's language from ``score.format.<code>``) and then its rules (``Sheet`` checks every
round); ``dumps_sheet``/``sheet_to_json`` write one with the fully resolved rules, so a
sheet is scored the same way whatever later becomes of its preset. ``sheet_report`` is the
object ``raspisnoy score --sheet FILE --json`` prints. A web API can use the same functions
for its JSON in and out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from raspisnoy.core import (
    DEFAULT_PRESET,
    InvalidInputError,
    RaspisnoyError,
    RoundKind,
    loads_json,
    resolve_rules,
)
from raspisnoy.files import write_atomically
from raspisnoy.scorekeeper.errors import SheetError
from raspisnoy.scorekeeper.sheet import Seats, Sheet, SheetRound

__all__ = [
    "FORMAT",
    "dumps_sheet",
    "loads_sheet",
    "read_sheet",
    "sheet_from_json",
    "sheet_report",
    "sheet_to_json",
    "write_sheet",
]

FORMAT = "raspisnoy-sheet/1"
_SHEET_KEYS = {"format", "rules", "players", "first_dealer", "rounds"}
_ROUND_KEYS = {"bids", "taken", "kind", "dealer"}


def _format_error(
    detail: str, number: int | None, code: str | None, **values: str | int
) -> SheetError:
    """A ``format`` problem: ``detail`` in English, ``code`` and ``values`` for its words
    (``None``: a problem the engine found, the error's ``__cause__``, which words it)."""
    return SheetError("format", round=number, detail=detail, detail_code=code, detail_params=values)


def _shown(value: Any) -> str:
    """A value read from the file, as JSON writes it (``null``, ``"2"``, ``[1, 1]``)."""
    return json.dumps(value, ensure_ascii=False)


def loads_sheet(text: str) -> Sheet:
    """Read a sheet from JSON text (a leading byte-order mark is allowed)."""
    try:
        data = loads_json(text)
    except InvalidInputError as error:
        # The decoder's own error (implicitly chained) says where the JSON breaks.
        broken = error.__context__
        if isinstance(broken, json.JSONDecodeError):
            raise _format_error(
                str(error), None, "not_json", line=broken.lineno, column=broken.colno
            ) from None
        raise _format_error(str(error), None, "unusable_json") from None
    return sheet_from_json(data)


def sheet_from_json(data: Any) -> Sheet:
    """Build a ``Sheet`` from a decoded JSON object, checking its shape, then its rounds."""
    if not isinstance(data, Mapping):
        raise _format_error("a sheet must be a JSON object", None, "not_object")
    _reject_unknown(data, _SHEET_KEYS, None)
    if data.get("format") != FORMAT:
        written = data.get("format")
        detail = f"format: expected {FORMAT!r}, got {written!r}"
        raise _format_error(detail, None, "format", expected=_shown(FORMAT), got=_shown(written))
    try:
        rules = resolve_rules(data.get("rules", DEFAULT_PRESET))
    except RaspisnoyError as error:  # chained: its code words it in the reader's language
        raise _format_error(str(error), None, None) from error
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        detail = f"players: expected a list of names, got {json.dumps(players)}"
        raise _format_error(detail, None, "players", got=_shown(players))
    first_dealer = data.get("first_dealer")
    if type(first_dealer) is not int:
        detail = f"first_dealer: expected a seat number, got {json.dumps(first_dealer)}"
        raise _format_error(detail, None, "seat", field="first_dealer", got=_shown(first_dealer))
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        detail = f"rounds: expected a list, got {json.dumps(rounds)}"
        raise _format_error(detail, None, "rounds", got=_shown(rounds))
    parsed = tuple(
        _round_from_json(raw, number, len(players)) for number, raw in enumerate(rounds, 1)
    )
    return Sheet(rules, tuple(players), first_dealer, parsed)


def _round_from_json(raw: Any, number: int, players: int) -> SheetRound:
    if not isinstance(raw, Mapping):
        detail = f"expected an object, got {json.dumps(raw)}"
        raise _format_error(detail, number, "round", got=_shown(raw))
    _reject_unknown(raw, _ROUND_KEYS, number)
    kind = raw.get("kind")
    if kind is not None:
        try:
            kind = RoundKind(kind)
        except ValueError:
            kinds = ", ".join(RoundKind)
            detail = f"kind {kind!r} is not one of {kinds}"
            raise _format_error(detail, number, "kind", value=_shown(kind), kinds=kinds) from None
    dealer = raw.get("dealer")
    if dealer is not None and type(dealer) is not int:
        detail = f"dealer: expected a seat number, got {json.dumps(dealer)}"
        raise _format_error(detail, number, "seat", field="dealer", got=_shown(dealer))
    bids = _seats(raw.get("bids"), "bids", number, players)
    taken = _seats(raw.get("taken"), "taken", number, players) or (None,) * players
    return SheetRound(bids, taken, kind, dealer)


def _seats(raw: Any, what: str, number: int, players: int) -> Seats | None:
    """A list by seat of whole numbers or nulls (``null`` or absent: nothing entered)."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != players:
        detail = f"{what}: expected a list of {players} numbers or nulls, got {json.dumps(raw)}"
        raise _format_error(detail, number, "seats", field=what, count=players, got=_shown(raw))
    for value in raw:
        if value is not None and type(value) is not int:
            detail = f"{what}: {json.dumps(value)} is not a whole number"
            raise _format_error(detail, number, "not_whole", field=what, value=_shown(value))
    return tuple(raw)


def _reject_unknown(data: Mapping[str, Any], known: set[str], number: int | None) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise _format_error(
            f"unknown field {unknown[0]!r}", number, "unknown_field", field=unknown[0]
        )


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    """The sheet as a JSON-ready object: rules fully resolved, bids ``null`` in rounds
    without bids, ``kind`` and ``dealer`` written on control rounds only."""
    rounds = []
    for entered, row in zip(sheet.rounds, sheet.scored, strict=True):
        data: dict[str, Any] = {}
        if row.control:
            data["kind"], data["dealer"] = str(row.kind), row.dealer
        bids = entered.bids if row.kind.has_bids else None
        data["bids"] = None if bids is None else list(bids)
        data["taken"] = list(entered.taken)
        rounds.append(data)
    return {
        "format": FORMAT,
        "rules": sheet.rules.to_json(),
        "players": list(sheet.players),
        "first_dealer": sheet.first_dealer,
        "rounds": rounds,
    }


def dumps_sheet(sheet: Sheet) -> str:
    """The sheet as JSON text with one round a line: readable, and diffs show the rounds."""
    data = sheet_to_json(sheet)
    lines = [
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in data.items()
        if key != "rounds"
    ]
    rounds = ",\n".join(f"    {json.dumps(r, ensure_ascii=False)}" for r in data["rounds"])
    lines.append(f'  "rounds": [\n{rounds}\n  ]' if rounds else '  "rounds": []')
    return "{\n" + ",\n".join(lines) + "\n}\n"


def sheet_report(sheet: Sheet) -> dict[str, Any]:
    """The ``raspisnoy score --sheet FILE --json`` object (docs/sheet-format.md)."""
    return {
        "rounds": [row.to_json() for row in sheet.scored],
        "totals": list(sheet.totals),
        "complete": sheet.complete,
        "winners": list(sheet.winners),
    }


def read_sheet(path: Path) -> Sheet:
    """Read and check a sheet file."""
    return loads_sheet(path.read_bytes().decode("utf-8"))


def write_sheet(sheet: Sheet, path: Path) -> None:
    """Write the sheet in one step (``raspisnoy.files``): a crash or a closed terminal
    leaves the old or the new sheet, never half of one; it keeps the mode it had, or 0644."""
    write_atomically(path, dumps_sheet(sheet))
