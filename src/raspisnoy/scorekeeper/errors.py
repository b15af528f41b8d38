"""Sheet problems as structured values: the round, the player and what is wrong.

A ``SheetError`` carries a problem code and its parameters as well as an English message,
so a command line or a web page can show the problem in the reader's language
(``score.problem.<code>`` in the ``score`` translation catalogs) and a web API can return
it as JSON (``to_json``). Every template below has a translation under the same code.

A ``format`` problem (the sheet file's shape: not JSON, a missing field, a value of the
wrong type) says what is wrong in its English ``detail``, and as a code of its own with
its values, ``detail_code`` and ``detail_params``, which a terminal words in the reader's
language from ``score.format.<code>``; ``to_json`` is the same as without them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from raspisnoy.core import RaspisnoyError

__all__ = ["PROBLEMS", "SheetError"]

#: Problem code -> English template (``str.format`` with the error's ``params``).
PROBLEMS: dict[str, str] = {
    "bid_range": "a bid is 0 to {cards}, not {bid}",
    "dealer_bid": (
        "the dealer may not bid {bid}: the bids would add up to the number of cards dealt ({cards})"
    ),
    "zero_streak": "may not bid 0 again: the limit of zero bids in a row is {limit}",
    "bid_turn": "may not bid before {first}, who bids first",
    "no_bids": "a {kind} round has no bids",
    "bid_not_expected": "no bid is expected now",
    "taken_not_expected": "no trick count is expected now",
    "taken_range": "may take 0 to {cards} tricks, not {taken}",
    "taken_sum": (
        "the tricks taken would add up to {total}, not the number of cards dealt ({cards})"
    ),
    "taken_early": "tricks are entered before {first} has bid",
    "unfinished": "round {previous} is not finished",
    "game_over": "the game is over (rounds played: {rounds})",
    "control_needed": "a round after the plan is a control round and needs its kind and dealer",
    "control_kind": "a control round is one of {kinds}, not {kind}",
    "control_not_expected": "no control round is due now",
    "not_seat": "{value} is not a seat from 0 to {last}",
    "plan_kind": "the plan makes it a {expected} round, not {kind}",
    "plan_dealer": "the deal passes clockwise, so the dealer is {expected} (seat {expected_seat})",
    "no_round": "there is no round {number} yet",
    "nothing_to_undo": "the sheet is empty",
    "format": "{detail}",
}


class SheetError(RaspisnoyError, ValueError):
    """A sheet, or an entry made on it, that the rules do not allow.

    ``round`` is 1-based (``None``: the sheet as a whole), ``seat`` the player's seat
    (``None``: the round as a whole), ``code`` a key of ``PROBLEMS`` and ``params`` the
    values its template needs (the engine's ``code`` and ``params``, in the sheet's own
    codes). ``str(error)`` is the English line ``round 3, Boris: a bid is 0 to 3, not 4``.
    A ``format`` problem that the engine found (players the rules do not allow, a round
    plan that cannot be dealt) has the engine's error as its ``__cause__``; one of the sheet
    file's shape has ``detail_code`` (a ``score.format.<code>`` message) and the values of
    that message, ``detail_params`` (``None`` and empty otherwise).
    """

    #: Always one of ``PROBLEMS``.
    code: str

    def __init__(
        self,
        code: str,
        *,
        round: int | None = None,
        seat: int | None = None,
        player: str | None = None,
        detail_code: str | None = None,
        detail_params: Mapping[str, str | int] | None = None,
        **params: Any,
    ) -> None:
        self.round = round
        self.seat = seat
        self.player = player
        self.detail_code = detail_code
        self.detail_params: Mapping[str, str | int] = dict(detail_params or {})
        message = self.where() + PROBLEMS[code].format(**params)
        super().__init__(message, code=code, params=params)

    def where(self) -> str:
        """``round 3, Boris: `` — the place, or nothing for the sheet as a whole."""
        parts = [] if self.round is None else [f"round {self.round}"]
        if self.player is not None:
            parts.append(self.player)
        return f"{', '.join(parts)}: " if parts else ""

    @property
    def problem(self) -> str:
        """What is wrong, in English, without the place."""
        return PROBLEMS[self.code].format(**self.params)

    def to_json(self) -> dict[str, Any]:
        """The error as a JSON object, for an API: place, code, parameters and message,
        and for a ``format`` problem that the engine found, the engine's ``cause`` (its
        code and values), so a page can word it in the reader's language as a terminal
        does (``translate_error``)."""
        data: dict[str, Any] = {
            "round": self.round,
            "seat": self.seat,
            "player": self.player,
            "problem": self.code,
            "params": self.params,
            "message": str(self),
        }
        cause = self.__cause__
        if isinstance(cause, RaspisnoyError) and cause.code is not None:
            data["cause"] = {"code": cause.code, "params": dict(cause.params)}
        return data
