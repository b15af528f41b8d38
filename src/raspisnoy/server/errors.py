"""Refusals: what went wrong as a code, one list (``Refusal``) for the REST routes and the
sockets, each mapped in one place: to an HTTP status (``HTTP_STATUS``) by the handler the
app installs, and to the ``code`` of a socket's ``error`` message (``SOCKET_ERRORS``,
docs/PROTOCOL.md).

Code below the routes (the table actor, the checks of a new table) raises
``RequestError`` with a ``Refusal`` and its parameters (or, answering a socket message,
``protocol.ProtocolError``); it knows nothing of HTTP. The REST answer keeps the
``detail`` every client knows (English, for people reading logs and for old clients) and
adds the ``code`` and its ``params``, which a client words in its reader's language
(``web.refusal.<code>``, issue 28); a socket sends the ``error`` message with the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from raspisnoy.store import FencedError

__all__ = [
    "HTTP_STATUS",
    "REST_REFUSALS",
    "SOCKET_ERRORS",
    "Refusal",
    "RequestError",
    "fenced_answer",
    "request_error_answer",
    "validation_error_answer",
]


class Refusal(StrEnum):
    """Why a request or a socket message was refused."""

    # Refused on REST and on the table socket alike.
    NOT_SEATED = "not_seated"
    NOT_STARTED = "not_started"
    # REST.
    NO_SESSION = "no_session"
    FORBIDDEN = "forbidden"
    CROSS_ORIGIN = "cross_origin"
    NOT_FOUND = "not_found"
    SEAT_TAKEN = "seat_taken"
    ALREADY_STARTED = "already_started"
    CONFLICT = "conflict"
    INVALID = "invalid"
    TOO_MANY = "too_many"
    #: Another server worker holds the table for now (several workers, docs/cluster.md).
    BUSY = "busy"
    #: A request body that does not fit its model (``params.field``: where).
    BAD_FIELD = "bad_field"
    #: Accounts and nicknames (``services.accounts``, ``auth.check_nickname``).
    WRONG_LOGIN = "wrong_login"
    WRONG_PASSWORD = "wrong_password"
    GUEST_NO_PASSWORD = "guest_no_password"
    NAME_TAKEN = "name_taken"
    PASSWORD_LENGTH = "password_length"
    NICKNAME_LENGTH = "nickname_length"
    NICKNAME_CHAR = "nickname_char"
    NICKNAME_START = "nickname_start"
    NICKNAME_RESERVED = "nickname_reserved"
    #: A new table (``services.tables.opening``): rules that do not resolve (``params.option``: the
    #: option at fault, or ``preset``), a custom round plan that cannot be dealt to this
    #: many players (``plan``, ``count``: the players) and a rated table's stand-in bot
    #: stronger than the policy (``level``, ``strongest``: bot levels). A rated table
    #: whose rules are not its preset's own (``preset``: the preset they change).
    BAD_RULES = "bad_rules"
    CUSTOM_PLAN = "custom_plan"
    STAND_IN_TOO_STRONG = "stand_in_too_strong"
    RATED_RULES_CHANGED = "rated_rules_changed"
    #: The casino (``services.casino``): a deal while a hand is in progress, a decision or
    #: a hint with none, a free refill not due (``params.below``: the balance under which
    #: it is) and a hand's record asked before its settlement.
    HAND_IN_PROGRESS = "hand_in_progress"
    NO_HAND = "no_hand"
    REFILL_NOT_DUE = "refill_not_due"
    HAND_NOT_OVER = "hand_not_over"
    #: An offline game brought to the history (``services.offline``) that does not
    #: replay by the rules (altered or damaged), or that is not over.
    OFFLINE_GAME_INVALID = "offline_game_invalid"
    OFFLINE_GAME_NOT_OVER = "offline_game_not_over"
    #: Clubs (``services.clubs``): a guest creating or joining one, a name that is too
    #: short or long (``params.min``, ``max``) or taken (``name``), a banned member
    #: coming back, a right of the club's admins or of its owner only, the owner leaving
    #: or being removed, a public club's table asked by someone not in it.
    CLUB_ACCOUNT = "club_account"
    CLUB_NAME_LENGTH = "club_name_length"
    CLUB_NAME_TAKEN = "club_name_taken"
    CLUB_BANNED = "club_banned"
    CLUB_ADMINS_ONLY = "club_admins_only"
    CLUB_OWNER_ONLY = "club_owner_only"
    CLUB_OWNER_STAYS = "club_owner_stays"
    CLUB_MEMBERS_ONLY = "club_members_only"
    #: A chat line at a club's table of a member its admins muted (``params.until``: the
    #: mute's end; ``services.chat``).
    CLUB_MUTED = "club_muted"
    #: Tournaments (``services.tournaments``, docs/tournaments.md): a start time in the
    #: past, a number of rounds out of bounds (``params.min``, ``max``), a table size
    #: not 3 to 5 or not played by the rules (``size``), a right of the director only,
    #: registering twice, into a full event (``places``) or one that has started, and
    #: a director's act the event's state does not allow (``state``).
    TOURNAMENT_START_PAST = "tournament_start_past"
    TOURNAMENT_ROUNDS = "tournament_rounds"
    TOURNAMENT_TABLE_SIZE = "tournament_table_size"
    TOURNAMENT_DIRECTOR_ONLY = "tournament_director_only"
    TOURNAMENT_REGISTERED = "tournament_registered"
    TOURNAMENT_FULL = "tournament_full"
    TOURNAMENT_STARTED = "tournament_started"
    TOURNAMENT_STATE = "tournament_state"
    # The sockets' ``error`` messages.
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    WRONG_SEAT = "wrong_seat"
    NOT_YOUR_TURN = "not_your_turn"
    INVALID_ACTION = "invalid_action"
    ILLEGAL_ACTION = "illegal_action"
    STORAGE_FAILED = "storage_failed"
    DUPLICATE_ID = "duplicate_id"
    #: Chat and rematch (``services.chat``, ``services.rematch``).
    RATE_LIMITED = "rate_limited"
    CHAT_FORBIDDEN = "chat_forbidden"
    NOT_OVER = "not_over"
    REMATCH_CLOSED = "rematch_closed"
    #: Friends (``services.friends``): following, blocking or inviting oneself; a block
    #: between the two either way; an invitation to someone who is not a friend (both
    #: follow each other), or who is not online; an invitation to a finished game.
    FRIEND_SELF = "friend_self"
    BLOCKED = "blocked"
    NOT_FRIENDS = "not_friends"
    FRIEND_OFFLINE = "friend_offline"
    TABLE_OVER = "table_over"
    #: The matchmaking pool (``services.pool``): a preset it does not know
    #: (``params.preset``), a preset none of whose numbers of players was chosen
    #: (``preset``, ``players``: the smallest chosen), the rated pool asked by a guest, a
    #: second entry of a person waiting already, and a person the pool seated at a table
    #: whose game is not over.
    POOL_PRESET = "pool_preset"
    POOL_PLAYERS = "pool_players"
    POOL_RATED_GUEST = "pool_rated_guest"
    POOL_ALREADY_IN = "pool_already_in"
    POOL_AT_TABLE = "pool_at_table"
    #: The rated pool refused after abandoned rated pool games (``params.minutes``: until
    #: the cooldown is over, ``abandons``: of the last week).
    POOL_COOLDOWN = "pool_cooldown"
    #: Moderation (``services.moderation``, docs/moderation.md): a route only moderators
    #: may use, an account banned for a time (``params.until``: when it ends) or for good,
    #: a guest's report, a report of oneself, and a chat message of a muted person
    #: (``params.until``).
    NOT_MODERATOR = "not_moderator"
    BANNED = "banned"
    BANNED_FOR_GOOD = "banned_for_good"
    GUEST_CANNOT_REPORT = "guest_cannot_report"
    REPORT_SELF = "report_self"
    MUTED = "muted"
    #: The review queue's bounds (``services.reviews``; ``params.count``: the reviews
    #: waiting or running, ``limit``: the bound): the asker's own, its address's, all.
    REVIEWS_PENDING = "reviews_pending"
    REVIEWS_FROM_ADDRESS = "reviews_from_address"
    REVIEW_QUEUE_FULL = "review_queue_full"
    #: A user's seats at their bound (``services.tables.opening``; ``params.count``: the
    #: seats held, ``limit``: the bound): at tables waiting for players, so no new table,
    #: and at games being played, so no new game. It lasts until they leave, start or
    #: finish one, so it is not worded as a wait (as ``too_many`` is).
    WAITING_TABLES_HELD = "waiting_tables_held"
    GAMES_HELD = "games_held"
    #: Puzzles (``services.puzzles``): none left that the caller has not answered (of
    #: the themes asked for), none on the server yet (its set is still being built), a
    #: move that is not one of the puzzle's legal moves (``params.move``), and a second
    #: answer to one puzzle.
    NO_PUZZLES_LEFT = "no_puzzles_left"
    NO_PUZZLES_YET = "no_puzzles_yet"
    PUZZLE_MOVE = "puzzle_move"
    PUZZLE_ANSWERED = "puzzle_answered"
    #: Score sheets (``services.sheets``): a change made on a version of the sheet it has
    #: left behind (``params.version``: the stored one), sent twice or made on another
    #: device meanwhile; nothing is changed.
    SHEET_CHANGED = "sheet_changed"


#: The HTTP status of each refusal a REST route answers with.
HTTP_STATUS: dict[Refusal, int] = {
    Refusal.NO_SESSION: 401,
    Refusal.FORBIDDEN: 403,
    Refusal.CROSS_ORIGIN: 403,
    Refusal.NOT_FOUND: 404,
    Refusal.SEAT_TAKEN: 409,
    Refusal.NOT_SEATED: 409,
    Refusal.ALREADY_STARTED: 409,
    Refusal.NOT_STARTED: 409,
    Refusal.CONFLICT: 409,
    Refusal.INVALID: 422,
    Refusal.TOO_MANY: 429,
    Refusal.BUSY: 503,
    Refusal.BAD_FIELD: 422,
    Refusal.WRONG_LOGIN: 401,
    Refusal.WRONG_PASSWORD: 403,
    Refusal.GUEST_NO_PASSWORD: 403,
    Refusal.NAME_TAKEN: 409,
    Refusal.PASSWORD_LENGTH: 422,
    Refusal.NICKNAME_LENGTH: 422,
    Refusal.NICKNAME_CHAR: 422,
    Refusal.NICKNAME_START: 422,
    Refusal.NICKNAME_RESERVED: 422,
    Refusal.BAD_RULES: 422,
    Refusal.CUSTOM_PLAN: 422,
    Refusal.STAND_IN_TOO_STRONG: 422,
    Refusal.RATED_RULES_CHANGED: 422,
    Refusal.HAND_IN_PROGRESS: 409,
    Refusal.NO_HAND: 409,
    Refusal.REFILL_NOT_DUE: 409,
    Refusal.HAND_NOT_OVER: 409,
    Refusal.FRIEND_SELF: 422,
    Refusal.BLOCKED: 403,
    Refusal.NOT_FRIENDS: 403,
    Refusal.FRIEND_OFFLINE: 409,
    Refusal.TABLE_OVER: 409,
    Refusal.OFFLINE_GAME_INVALID: 422,
    Refusal.OFFLINE_GAME_NOT_OVER: 409,
    Refusal.POOL_PRESET: 422,
    Refusal.POOL_PLAYERS: 422,
    Refusal.POOL_RATED_GUEST: 403,
    Refusal.POOL_ALREADY_IN: 409,
    Refusal.POOL_AT_TABLE: 409,
    Refusal.POOL_COOLDOWN: 403,
    Refusal.NOT_MODERATOR: 403,
    Refusal.BANNED: 403,
    Refusal.BANNED_FOR_GOOD: 403,
    Refusal.GUEST_CANNOT_REPORT: 403,
    Refusal.REPORT_SELF: 422,
    Refusal.REVIEWS_PENDING: 429,
    Refusal.REVIEWS_FROM_ADDRESS: 429,
    Refusal.REVIEW_QUEUE_FULL: 429,
    Refusal.WAITING_TABLES_HELD: 429,
    Refusal.GAMES_HELD: 429,
    Refusal.NO_PUZZLES_LEFT: 404,
    Refusal.NO_PUZZLES_YET: 404,
    Refusal.PUZZLE_MOVE: 422,
    Refusal.PUZZLE_ANSWERED: 409,
    Refusal.SHEET_CHANGED: 409,
    Refusal.CLUB_ACCOUNT: 403,
    Refusal.CLUB_NAME_LENGTH: 422,
    Refusal.CLUB_NAME_TAKEN: 409,
    Refusal.CLUB_BANNED: 403,
    Refusal.CLUB_ADMINS_ONLY: 403,
    Refusal.CLUB_OWNER_ONLY: 403,
    Refusal.CLUB_OWNER_STAYS: 409,
    Refusal.CLUB_MEMBERS_ONLY: 403,
    Refusal.TOURNAMENT_START_PAST: 422,
    Refusal.TOURNAMENT_ROUNDS: 422,
    Refusal.TOURNAMENT_TABLE_SIZE: 422,
    Refusal.TOURNAMENT_DIRECTOR_ONLY: 403,
    Refusal.TOURNAMENT_REGISTERED: 409,
    Refusal.TOURNAMENT_FULL: 409,
    Refusal.TOURNAMENT_STARTED: 409,
    Refusal.TOURNAMENT_STATE: 409,
}
#: Every refusal a REST answer can carry as its ``code``; each has a translation for
#: clients (``web.refusal.<code>``).
REST_REFUSALS: frozenset[Refusal] = frozenset(HTTP_STATUS)
#: The refusals a socket sends as the ``code`` of an ``error`` message (the connection
#: stays open); each has a translation for clients (``server.error.<code>``).
SOCKET_ERRORS: frozenset[Refusal] = frozenset(
    {
        Refusal.BAD_JSON,
        Refusal.BAD_MESSAGE,
        Refusal.UNKNOWN_TYPE,
        Refusal.NOT_SEATED,
        Refusal.WRONG_SEAT,
        Refusal.NOT_STARTED,
        Refusal.NOT_YOUR_TURN,
        Refusal.INVALID_ACTION,
        Refusal.ILLEGAL_ACTION,
        Refusal.STORAGE_FAILED,
        Refusal.DUPLICATE_ID,
        Refusal.RATE_LIMITED,
        Refusal.CHAT_FORBIDDEN,
        Refusal.NOT_OVER,
        Refusal.REMATCH_CLOSED,
        Refusal.MUTED,
        Refusal.CLUB_MUTED,
    }
)


#: The parameters of a refusal: what a client fills into its translated message.
Params = Mapping[str, str | int]


class RequestError(Exception):
    """A request that cannot be carried out: its ``code``, a message naming the input (in
    English), the ``params`` a client words the refusal with and, for a limit, in how many
    seconds to try again (also the ``seconds`` parameter)."""

    def __init__(
        self,
        code: Refusal,
        message: str,
        retry_after: int | None = None,
        params: Params | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.params: dict[str, str | int] = dict(params or {})
        if retry_after is not None:
            self.params.setdefault("seconds", retry_after)


async def request_error_answer(_request: Request, error: Exception) -> JSONResponse:
    """The HTTP answer to a ``RequestError`` (installed as the app's exception handler)."""
    assert isinstance(error, RequestError)
    headers = None if error.retry_after is None else {"retry-after": str(error.retry_after)}
    answer = {"detail": error.message, "code": error.code.value, "params": error.params}
    return JSONResponse(answer, status_code=HTTP_STATUS[error.code], headers=headers)


async def fenced_answer(request: Request, error: Exception) -> JSONResponse:
    """503 ``busy`` for a write the database refused because the table has a newer owner
    (``store.FencedError``: another worker, or this one after its lease lapsed), instead
    of a 500: the worker has let the table go, and the client's retry reaches the owner."""
    assert isinstance(error, FencedError)
    moved = RequestError(
        Refusal.BUSY, "the table moved to another server worker: try again", retry_after=1
    )
    return await request_error_answer(request, moved)


async def validation_error_answer(_request: Request, error: Exception) -> JSONResponse:
    """422 naming each problem of a request that does not fit its model, as FastAPI's own
    handler does, except that an input that is not text (a body that is not UTF-8) is named
    by its size: FastAPI's handler fails decoding it and answers 500. The ``code`` is
    ``bad_field`` with the first problem's ``field`` (its place in the body, dotted)."""
    assert isinstance(error, RequestValidationError)
    problems = [{**one, "input": _printable(one.get("input"))} for one in error.errors()]
    place = problems[0].get("loc", ()) if problems else ()
    field = ".".join(str(part) for part in place[1:]) or ".".join(str(p) for p in place)
    answer = {
        "detail": jsonable_encoder(problems),
        "code": Refusal.BAD_FIELD.value,
        "params": {"field": field},
    }
    return JSONResponse(answer, status_code=422)


def _printable(value: Any) -> Any:
    """``value`` as JSON can hold it: raw bytes as their text, or their size if not UTF-8."""
    if not isinstance(value, bytes):
        return value
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return f"{len(value)} bytes that are not UTF-8 text"
