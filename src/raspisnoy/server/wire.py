"""The wire format: every JSON shape the server sends to clients (docs/PROTOCOL.md).

WebSocket messages (``state``, ``event``, ``table``, ``ack``, ``pong``, ``error``, the
chat's messages and the lobby's ``lobby``) are
built here as dicts and encoded with orjson, since one goes to every seat after every
action. REST answers are built by the same functions and declared by the Pydantic
models at the end, which FastAPI checks each answer against and shows at ``/api/docs``;
they forbid extra fields, so a field added to a builder but not to its model fails
loudly instead of going undocumented.

Everything about a game is built from ``game.view(seat)`` and from public facts (the
tricks and results of finished rounds, which every player saw), never from the full
game state. A spectator's view is ``game.view(None)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import orjson
from pydantic import BaseModel, ConfigDict

from raspisnoy.core import (
    PRESET_DESCRIPTIONS,
    PRESETS,
    Action,
    Card,
    Game,
    OwnView,
    Phase,
    Play,
    RoundResult,
    Trick,
    View,
    option_info,
    replay_report,
    resolve_rules,
)
from raspisnoy.core.fast import ALL_CARDS
from raspisnoy.ratings import PROVISIONAL_GAMES
from raspisnoy.scorekeeper import Sheet, sheet_from_json, sheet_report, sheet_to_json
from raspisnoy.store import (
    BoardKey,
    BoardLine,
    BoardPage,
    ChatRow,
    Figures,
    Profile,
    RatingLine,
    SessionLine,
    SheetRow,
    TableRow,
    UserRow,
)

__all__ = [
    "PROTOCOL_VERSION",
    "SeatPresence",
    "ack_message",
    "action_text",
    "board_key",
    "chat_json",
    "encode",
    "epoch_ms",
    "error_message",
    "event_message",
    "game_report",
    "history_json",
    "leaderboard_json",
    "lobby_line",
    "lobby_message",
    "pong_message",
    "profile_json",
    "round_summary",
    "rules_catalogue",
    "session_line_json",
    "sheet_json",
    "sheet_summary",
    "state_message",
    "stored_sheet",
    "table_json",
    "table_message",
    "trick_json",
    "user_json",
    "view_json",
]

#: Sent in every ``state`` message; bumped when a message changes incompatibly.
PROTOCOL_VERSION = 1

Json = dict[str, Any]


def encode(message: Json) -> str:
    """A server message as compact JSON text (names and nicknames kept as written).

    orjson, because encoding a view for every seat after every action is a large share
    of the server's work, and orjson does it several times faster than ``json``."""
    return orjson.dumps(message).decode()


def epoch_ms(moment: float | None) -> int | None:
    """A ``time.time()`` moment as whole milliseconds since the epoch (what JavaScript uses)."""
    return None if moment is None else int(moment * 1000)


# ------------------------------------------------------------------------- the game

#: The phases in which a round is dealt and not yet scored.
_DEALT = (Phase.BID, Phase.PLAY)
#: Every card's notation by index. ``str(card)`` is a Python call per card, and the views
#: sent after every action name dozens of cards for every seat.
_CARD_TEXT = tuple(str(card) for card in ALL_CARDS)


def _cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [_CARD_TEXT[card.index] for card in cards]


def action_text(action: Action) -> str:
    """An action in record notation (``KD``, ``X:take``, ``2``, ``control:blind:1``)."""
    if type(action) is Play and action.mode is None:
        return _CARD_TEXT[action.card.index]
    return str(action)


def trick_json(trick: Trick) -> Json:
    """A trick: leader, the cards in order from the leader, winner (``null`` while open)."""
    cards = [action_text(play) for play in trick.plays]
    return {"leader": trick.leader, "cards": cards, "winner": trick.winner}


def view_json(view: View) -> Json:
    """One seat's ``View`` as JSON: everything that seat may know, nothing more."""
    return {
        "seat": view.seat,
        "phase": str(view.phase),
        "round": view.round,
        "cards": view.cards,
        "kind": str(view.kind),
        "dealer": view.dealer,
        "to_act": view.to_act,
        "hand": _cards(view.hand),
        "shown_hands": [_cards(hand) for hand in view.shown_hands],
        "trump_card": None if view.trump_card is None else _CARD_TEXT[view.trump_card.index],
        "trump": None if view.trump is None else view.trump.letter,
        "trump_hidden": view.trump_hidden,
        "bids": None if view.bids is None else list(view.bids),
        "taken": list(view.taken),
        "hand_sizes": list(view.hand_sizes),
        "trick": trick_json(view.trick),
        "tricks": [trick_json(trick) for trick in view.tricks],
        "scores": [list(points) for points in view.scores],
        "totals": list(view.totals),
        "legal": [action_text(action) for action in view.legal_actions],
    }


def seat_view_json(seat: int, own: OwnView, public: Json) -> Json:
    """``view_json(game.view(seat))``, built on ``public``, the JSON of the spectator's view
    of the same moment, and ``own = game.own_view(seat)``: only what a seat's view has of
    its own (its hand, the hands shown to it, its legal actions) is made anew, so sending
    every seat its view of an action makes the rest once, not once per seat.
    ``tests/cluster/test_views.py`` checks both ways agree."""
    return {
        **public,
        "seat": seat,
        "hand": _cards(own.hand),
        "shown_hands": [_cards(hand) for hand in own.shown_hands],
        "legal": [action_text(action) for action in own.legal_actions],
    }


def round_summary(result: RoundResult) -> Json:
    """A finished round as everyone saw it: bids, tricks, points. The dealt hands are left
    out (every card was played anyway) and so is the undealt rest."""
    return {
        "round": result.number,
        "dealer": result.dealer,
        "cards": result.cards,
        "kind": str(result.kind),
        "trump_card": None if result.trump_card is None else str(result.trump_card),
        "trump": None if result.trump is None else result.trump.letter,
        "bids": None if result.bids is None else list(result.bids),
        "taken": list(result.taken),
        "tricks": [trick_json(trick) for trick in result.tricks],
        "points": None if result.points is None else list(result.points),
    }


def game_report(game: Game, view: View) -> Json:
    """The score report (``raspisnoy replay --json``, docs/record.md) of a game as the holder of
    ``view`` may know it: the finished rounds (public: every card was played) and the
    round in progress from the view, so a blind round's trump stays hidden while it is
    bid. The full state's report of the round in progress is dropped."""
    report = replay_report(game)
    finished = len(view.scores)
    report["rounds"] = report["rounds"][:finished]
    if view.phase in _DEALT and view.round > finished:
        report["rounds"].append(_round_so_far(view))
    return report


def _round_so_far(view: View) -> Json:
    """The round in progress as a report's round (docs/record.md), from one view only: no
    hands, and the trump (card) as the view shows it."""
    tricks = (*view.tricks, view.trick) if view.trick.plays else view.tricks
    known = RoundResult(
        view.round,
        view.dealer,
        view.cards,
        view.kind,
        (),
        view.trump_card,
        view.trump,
        view.bids,
        view.taken,
        tricks,
        None,
    )
    report = round_summary(known)
    del report["trump_card"]  # the report's rounds have none (docs/record.md)
    return report


# ------------------------------------------------------------------------- tables and people


class SeatPresence(Protocol):
    """What the table message says of a seat's person: connected clients, away or not."""

    @property
    def connections(self) -> int: ...

    @property
    def away(self) -> bool: ...


def table_json(
    table: TableRow, presence: Sequence[SeatPresence] | None = None, deadline: float | None = None
) -> Json:
    """A table as JSON (lobby list, REST answers and WebSocket ``table`` messages)."""
    seats = []
    for seat in table.seats:
        here = presence[seat.seat] if presence is not None else None
        seats.append(
            {
                "seat": seat.seat,
                "user_id": seat.user_id,
                "nickname": seat.nickname,
                "bot": seat.bot,
                "registered": seat.registered,
                "connected": bool(here and here.connections),
                "away": bool(here and here.away and seat.user_id is not None),
            }
        )
    return {
        "id": table.id,
        "status": table.status,
        "public": table.public,
        "host_id": table.host_id,
        "rules": table.rules,
        "players": len(table.seats),
        "turn_seconds": table.turn_seconds,
        "bot_delay_ms": table.bot_delay_ms,
        "stand_in": table.stand_in,
        "seats": seats,
        "names": None if table.names is None else list(table.names),
        "deadline_ms": epoch_ms(deadline),
        "invite": f"/?table={table.id}",
        "rated": table.rated,
        "spectator_chat": table.spectator_chat,
    }


def user_json(user: UserRow) -> Json:
    return {"id": user.id, "nickname": user.nickname, "kind": user.kind}


def history_json(row: TableRow, user_id: str, result: tuple[int, int] | None = None) -> Json:
    """One line of a player's history: the game, their seat, links to its reports, and
    once it is over their ``result`` (place and points)."""
    seat = next(s.seat for s in row.seats if s.user_id == user_id)
    place, points = result if result is not None else (None, None)
    return {
        "id": row.id,
        "status": row.status,
        "seat": seat,
        "players": list(row.names or ()),
        "profiles": [s.user_id if s.registered else None for s in row.seats],
        "rules": row.rules.get("preset"),
        "started_at": None if row.started_at is None else row.started_at.isoformat(),
        "finished_at": None if row.finished_at is None else row.finished_at.isoformat(),
        "score": f"/api/games/{row.id}/score",
        "record": f"/api/games/{row.id}/record",
        "place": place,
        "points": points,
    }


def session_line_json(line: SessionLine) -> Json:
    """One of a user's sessions, for the profile's list of devices."""
    return {
        "id": line.id,
        "created_at": line.created_at.isoformat(),
        "expires_at": line.expires_at.isoformat(),
        "user_agent": line.user_agent,
        "current": line.current,
    }


def _rating_json(line: RatingLine) -> Json:
    return {
        "scope": line.scope,
        "rating": line.display,
        "mu": round(line.mu, 3),
        "sigma": round(line.sigma, 3),
        "games": line.games,
        "provisional": line.games < PROVISIONAL_GAMES,
    }


def _figures_json(figures: Figures) -> Json:
    """Sums turned into the rates a profile shows (``None`` where nothing was counted)."""

    def rate(part: int, whole: int) -> float | None:
        return None if whole == 0 else round(part / whole, 4)

    return {
        "games": figures.games,
        "wins": figures.wins,
        "places": list(figures.places),
        "points": figures.points,
        "points_per_game": None if figures.games == 0 else round(figures.points / figures.games, 2),
        "bid_rounds": figures.bid_rounds,
        "exact_rate": rate(figures.exact, figures.bid_rounds),
        "zero_bids": figures.zero_bids,
        "zero_exact_rate": rate(figures.zero_exact, figures.zero_bids),
        "blind": {
            "rounds": figures.blind_rounds,
            "exact_rate": rate(figures.blind_exact, figures.blind_rounds),
            "points": figures.blind_points,
        },
        "misere": {"rounds": figures.misere_rounds, "points": figures.misere_points},
        "golden": {"rounds": figures.golden_rounds, "points": figures.golden_points},
    }


def profile_json(profile: Profile) -> Json:
    """A player's profile: from finished games only, so nothing of a game in progress."""
    return {
        "user": user_json(profile.user),
        "username": profile.username,
        "provisional_games": PROVISIONAL_GAMES,
        "ratings": [_rating_json(line) for line in profile.ratings],
        "history": [{"at": at.isoformat(), "rating": value} for at, value in profile.history],
        "stats": _figures_json(profile.figures),
        "presets": [
            {"preset": name, **_figures_json(figures)} for name, figures in profile.per_preset
        ],
        "recent": [
            {
                "id": game.table_id,
                "preset": game.preset,
                "rated": game.rated,
                "finished_at": game.finished_at.isoformat(),
                "place": game.place,
                "points": game.points,
                "players": list(game.players),
                "profiles": list(game.profiles),
                "replay": f"/?replay={game.table_id}",
            }
            for game in profile.recent
        ],
    }


def chat_json(row: ChatRow) -> Json:
    """One message as clients get it."""
    return {
        "seq": row.seq,
        "user_id": row.user_id,
        "name": row.name,
        "seat": row.seat,
        "text": row.text,
        "phrase": row.phrase,
        "round": row.round,
        "trick": row.trick,
        "at_ms": epoch_ms(row.at.timestamp()),
    }


def lobby_line(row: TableRow) -> Json:
    """One table of the lobby: its public settings and who sits there (``names``: the
    nickname at each seat, ``null`` for a free one; once started, the names in the game;
    ``host_profile``: the host's user id where their name links to a profile)."""
    host = next((seat for seat in row.seats if seat.user_id == row.host_id), None)
    names = list(row.names) if row.names else [seat.nickname for seat in row.seats]
    return {
        "id": row.id,
        "status": row.status,
        "preset": row.rules.get("preset"),
        "players": len(row.seats),
        "people": sum(seat.user_id is not None for seat in row.seats),
        "host": None if host is None else host.nickname,
        #: The host's profile (their user id) if they are registered; guests have none.
        "host_profile": host.user_id if host is not None and host.registered else None,
        "names": names,
        "turn_seconds": row.turn_seconds,
        "rated": row.rated,
        "link": f"/?table={row.id}",
    }


def lobby_message(open_tables: list[TableRow], playing: list[TableRow]) -> Json:
    """The ``lobby`` message: the open tables to join and the games to watch."""
    return {
        "type": "lobby",
        "open": [lobby_line(row) for row in open_tables if row.public],
        "playing": [lobby_line(row) for row in playing if row.public],
    }


def _board_line_json(line: BoardLine) -> Json:
    return {
        "position": line.position,
        "user_id": line.user_id,
        "nickname": line.nickname,
        "rating": line.display,
        "games": line.games,
        "provisional": line.games < PROVISIONAL_GAMES,
    }


def board_cursor(key: BoardKey | None) -> str | None:
    """A leaderboard line as a cursor of the API: ``RATING:ID``."""
    return None if key is None else f"{key.display}:{key.user_id}"


def board_key(cursor: str) -> BoardKey:
    """The line a cursor names (``ValueError``: not one)."""
    display, separator, user_id = cursor.partition(":")
    if not separator or not user_id:
        raise ValueError(cursor)
    return BoardKey(int(display), user_id)


def leaderboard_json(page: BoardPage, *, preset: str, period: str, size: int) -> Json:
    """A page of a leaderboard, the viewer's own line (``None``: not on it), and the
    cursors of the pages before and after it (``None``: none). ``page`` is the number
    of the page of ``size`` lines its first line falls on."""
    first = page.lines[0].position if page.lines else 1
    return {
        "preset": preset,
        "period": period,
        "page": (first - 1) // size + 1,
        "size": size,
        "total": page.total,
        "lines": [_board_line_json(line) for line in page.lines],
        "me": None if page.mine is None else _board_line_json(page.mine),
        "previous": board_cursor(page.previous),
        "next": board_cursor(page.next),
    }


def rules_catalogue() -> Json:
    """The presets (resolved) and every rules option a table may override."""
    return {
        "presets": [
            {
                "name": name,
                "description": PRESET_DESCRIPTIONS[name][0],
                "rules": resolve_rules(name).to_json(),
            }
            for name in PRESETS
        ],
        "options": [
            {
                "name": info.name,
                "type": {bool: "bool", int: "int", str: "str", tuple: "list"}[info.type],
                "default": list(info.default) if isinstance(info.default, tuple) else info.default,
                "en": info.en,
                "ru": info.ru,
                "low": info.low,
                "high": info.high,
                "choices": list(info.choices),
                "max_items": info.max_items,
            }
            for info in option_info()
        ],
    }


# ------------------------------------------------------------------------- socket messages


def state_message(
    version: int, you: Json, table: Json, view: View | None, last_round: RoundResult | None
) -> Json:
    """The full resync: who you are, the table, your view of the game, the last round."""
    return {
        "type": "state",
        "protocol": PROTOCOL_VERSION,
        "version": version,
        "you": you,
        "table": table,
        "game": None if view is None else view_json(view),
        "last_round": None if last_round is None else round_summary(last_round),
    }


def event_message(
    version: int,
    action: Json,
    trick: Json | None,
    round_done: Json | None,
    deadline: float | None,
) -> Json:
    """An applied action, without the recipient's view (``game``, added per seat)."""
    return {
        "type": "event",
        "version": version,
        "action": action,
        "trick": trick,
        "round": round_done,
        "deadline_ms": epoch_ms(deadline),
    }


def table_message(version: int, table: Json) -> Json:
    return {"type": "table", "version": version, "table": table}


def ack_message(client_id: str, version: int, *, duplicate: bool) -> Json:
    return {"type": "ack", "id": client_id, "version": version, "duplicate": duplicate}


def pong_message(version: int) -> Json:
    return {"type": "pong", "version": version}


def error_message(code: str, text: str, client_id: str | None = None) -> Json:
    """An ``error`` message; ``id`` only when it answers an ``act``."""
    message: Json = {"type": "error", "code": str(code), "message": text}
    if client_id is not None:
        message["id"] = client_id
    return message


# ------------------------------------------------------------------------- score sheets


def stored_sheet(row: SheetRow) -> Sheet:
    """The stored sheet as a ``Sheet`` (it was checked when it was written)."""
    return sheet_from_json(row.sheet)


def sheet_json(row: SheetRow, *, editor: bool = True) -> Json:
    """The API's SHEET object: the sheet, how many rounds its plan has, its score report
    and the next entry; the id and edit token only for those who may change it."""
    sheet = stored_sheet(row)
    data: Json = {"id": row.id, "edit_token": row.edit_token} if editor else {}
    entry = sheet.next_entry
    return {
        **data,
        "share_id": row.share_id,
        "share": f"/score?share={row.share_id}",
        "editable": editor,
        "owner": row.owner_nickname,
        "version": row.version,
        "updated_at": row.updated_at.isoformat(),
        "sheet": sheet_to_json(sheet),
        "planned": len(sheet.plan),
        "report": sheet_report(sheet),
        "next": None if entry is None else entry.to_json(),
    }


def sheet_summary(row: SheetRow) -> Json:
    """A line of the owner's list of sheets."""
    sheet = stored_sheet(row)
    return {
        "id": row.id,
        "players": list(sheet.players),
        "rules": sheet.rules.preset,
        "rounds": sum(scored.points is not None for scored in sheet.scored),
        "planned": len(sheet.plan),
        "complete": sheet.complete,
        "totals": list(sheet.totals),
        "updated_at": row.updated_at.isoformat(),
    }


# ------------------------------------------------------------------------- REST answer models


class _Out(BaseModel):
    """An answer's shape: exactly these fields."""

    model_config = ConfigDict(extra="forbid")


class HealthOut(_Out):
    status: str


class UserOut(_Out):
    id: str
    nickname: str
    kind: str


class UserAnswer(_Out):
    user: UserOut


class SessionOut(_Out):
    user: UserOut
    #: The session token, for clients that send it themselves (also set as a cookie).
    token: str


class LogoutOut(_Out):
    user: UserOut
    #: How many sessions (tokens) were ended.
    sessions_ended: int


class BotsOut(_Out):
    bots: list[str]


class PresetOut(_Out):
    name: str
    description: str
    rules: Json


class OptionOut(_Out):
    name: str
    type: str
    default: Any
    en: str
    ru: str
    low: int | None
    high: int | None
    choices: list[str]
    #: Most entries of a list option.
    max_items: int | None


class RulesOut(_Out):
    presets: list[PresetOut]
    options: list[OptionOut]


class SeatOut(_Out):
    seat: int
    user_id: str | None
    nickname: str | None
    bot: str
    registered: bool
    connected: bool
    away: bool


class TableOut(_Out):
    id: str
    status: str
    public: bool
    host_id: str
    rules: Json
    players: int
    turn_seconds: int
    bot_delay_ms: int
    stand_in: str
    seats: list[SeatOut]
    names: list[str] | None
    deadline_ms: int | None
    invite: str
    rated: bool
    spectator_chat: bool


class TablesOut(_Out):
    tables: list[TableOut]


class HistoryOut(_Out):
    id: str
    status: str
    seat: int
    players: list[str]
    profiles: list[str | None]
    rules: str | None
    started_at: str | None
    finished_at: str | None
    score: str
    record: str
    #: Once the game is over: the player's place (1 = first) and points.
    place: int | None
    points: int | None
    #: The seats that asked for hints in this game (docs/review.md).
    hints: list[int] = []


class GamesOut(_Out):
    games: list[HistoryOut]


class ReportTrickOut(_Out):
    leader: int
    cards: list[str]
    winner: int | None


class ReportRoundOut(_Out):
    round: int
    dealer: int
    cards: int
    kind: str
    trump: str | None
    bids: list[int | None] | None
    taken: list[int]
    points: list[int] | None
    tricks: list[ReportTrickOut]


class ReportOut(_Out):
    """The ``raspisnoy replay --json`` report of docs/record.md."""

    players: list[str]
    rounds: list[ReportRoundOut]
    totals: list[int]
    complete: bool
    winners: list[int]


class RecordOut(_Out):
    """A game record (docs/record.md, ``raspisnoy-record/1``)."""

    format: str
    rules: Json
    players: list[str]
    rounds: list[Json]


class SheetOut(_Out):
    """A score sheet; ``id`` and ``edit_token`` only for those who may change it."""

    id: str | None = None
    edit_token: str | None = None
    share_id: str
    share: str
    editable: bool
    owner: str | None
    version: int
    updated_at: str
    sheet: Json
    planned: int
    report: Json
    next: Json | None


class SheetSummaryOut(_Out):
    id: str
    players: list[str]
    rules: str
    rounds: int
    planned: int
    complete: bool
    totals: list[int]
    updated_at: str


class SheetsOut(_Out):
    sheets: list[SheetSummaryOut]


class ProblemsOut(_Out):
    where_round: str
    where_player: str
    problems: dict[str, str]


class SessionLineOut(_Out):
    id: str
    created_at: str
    expires_at: str
    user_agent: str | None
    current: bool


class SessionsOut(_Out):
    sessions: list[SessionLineOut]


class RatingOut(_Out):
    scope: str
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool


class BlindOut(_Out):
    rounds: int
    exact_rate: float | None
    points: int


class KindOut(_Out):
    rounds: int
    points: int


class FiguresOut(_Out):
    games: int
    wins: int
    places: list[int]
    points: int
    points_per_game: float | None
    bid_rounds: int
    exact_rate: float | None
    zero_bids: int
    zero_exact_rate: float | None
    blind: BlindOut
    misere: KindOut
    golden: KindOut


class PresetFiguresOut(FiguresOut):
    preset: str


class RatingPointOut(_Out):
    at: str
    rating: int


class RecentGameOut(_Out):
    id: str
    preset: str
    rated: bool
    finished_at: str
    place: int
    points: int
    players: list[str]
    profiles: list[str | None]
    replay: str


class ProfileOut(_Out):
    user: UserOut
    username: str | None
    provisional_games: int
    ratings: list[RatingOut]
    history: list[RatingPointOut]
    stats: FiguresOut
    presets: list[PresetFiguresOut]
    recent: list[RecentGameOut]


class BoardLineOut(_Out):
    position: int
    user_id: str
    nickname: str
    rating: int
    games: int
    provisional: bool


class LeaderboardOut(_Out):
    preset: str
    period: str
    page: int
    size: int
    total: int
    lines: list[BoardLineOut]
    me: BoardLineOut | None
    previous: str | None
    next: str | None
