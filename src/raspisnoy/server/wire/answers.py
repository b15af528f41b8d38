"""The REST answers: each shape declared once, as a Pydantic model that is both what
FastAPI checks and documents (``/api/docs``, ``/api/openapi.json``) and what the route
builds (its ``of`` constructor), so no dict builder runs beside it. The models forbid
extra fields; their field order is the order of the JSON keys.

Everything about a game comes from views and finished rounds (``messages``); a profile
and a leaderboard from finished games only, so nothing of a game in progress.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from raspisnoy.core import PRESET_DESCRIPTIONS, PRESETS, option_info, resolve_rules
from raspisnoy.ratings import PROVISIONAL_GAMES, LevelStrength
from raspisnoy.scorekeeper import Sheet, sheet_from_json, sheet_report, sheet_to_json
from raspisnoy.store import (
    ActionRow,
    BoardKey,
    BoardLine,
    BoardPage,
    Figures,
    Profile,
    RatingLine,
    RecentGame,
    ReportRow,
    ReviewRow,
    SessionLine,
    SheetRow,
    Standing,
    TableRow,
    UserRow,
)

__all__ = [
    "BlindOut",
    "BoardLineOut",
    "BotLevelOut",
    "BotsOut",
    "ChatOut",
    "ChoiceOut",
    "FiguresOut",
    "GamesOut",
    "HealthOut",
    "HintOut",
    "HistoryOut",
    "KindOut",
    "LeaderboardOut",
    "LogoutOut",
    "ModerationLogOut",
    "ModerationOut",
    "NoticeOut",
    "NoticesSeenOut",
    "OfflineGameOut",
    "OfflineStatusOut",
    "OptionOut",
    "PlayerReportOut",
    "PlayerReportsOut",
    "PoolOut",
    "PresetFiguresOut",
    "PresetOut",
    "ProblemsOut",
    "ProfileOut",
    "RatingOut",
    "RatingPointOut",
    "RecentGameOut",
    "RecordOut",
    "ReportDetailOut",
    "ReportOut",
    "ReportRoundOut",
    "ReportTrickOut",
    "ReportedTableOut",
    "ReviewOut",
    "RulesOut",
    "SeatOut",
    "SessionLineOut",
    "SessionOut",
    "SessionsOut",
    "SheetOut",
    "SheetSummaryOut",
    "SheetsOut",
    "StandingOut",
    "TableOut",
    "TablesOut",
    "UserAnswer",
    "UserOut",
    "board_cursor",
    "board_key",
    "stored_sheet",
]

Json = dict[str, Any]


class _Out(BaseModel):
    """An answer's shape: exactly these fields."""

    model_config = ConfigDict(extra="forbid")


class HealthOut(_Out):
    status: str


# ------------------------------------------------------------------------- users, sessions


class UserOut(_Out):
    id: str
    nickname: str
    kind: str

    @classmethod
    def of(cls, user: UserRow) -> UserOut:
        return cls(id=user.id, nickname=user.nickname, kind=user.kind)


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


class SessionLineOut(_Out):
    """One of a user's sessions, for the profile's list of devices."""

    id: str
    created_at: str
    expires_at: str
    user_agent: str | None
    current: bool

    @classmethod
    def of(cls, line: SessionLine) -> SessionLineOut:
        return cls(
            id=line.id,
            created_at=line.created_at.isoformat(),
            expires_at=line.expires_at.isoformat(),
            user_agent=line.user_agent,
            current=line.current,
        )


class SessionsOut(_Out):
    sessions: list[SessionLineOut]


# ------------------------------------------------------------------------- the catalogue


class BotLevelOut(_Out):
    """A level's strength as the lobby shows it (``ratings.level_strengths``): its
    displayed rating, and in how many of 100 arena games it finished ahead of the level
    ``versus`` (the one just below; the weakest's, just above)."""

    level: str
    rating: int
    versus: str
    ahead_of_100: int

    @classmethod
    def of(cls, strength: LevelStrength) -> BotLevelOut:
        return cls.model_validate(strength, from_attributes=True)


class BotsOut(_Out):
    """The levels a table may seat, weakest first, and the rated ones' strengths."""

    bots: list[str]
    levels: list[BotLevelOut]


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
    """The presets (resolved) and every rules option a table may override."""

    presets: list[PresetOut]
    options: list[OptionOut]

    @classmethod
    def catalogue(cls) -> RulesOut:
        return cls(
            presets=[
                PresetOut(
                    name=name,
                    description=PRESET_DESCRIPTIONS[name][0],
                    rules=resolve_rules(name).to_json(),
                )
                for name in PRESETS
            ],
            options=[
                OptionOut(
                    name=info.name,
                    type={bool: "bool", int: "int", str: "str", tuple: "list"}[info.type],
                    default=list(info.default) if isinstance(info.default, tuple) else info.default,
                    en=info.en,
                    ru=info.ru,
                    low=info.low,
                    high=info.high,
                    choices=list(info.choices),
                    max_items=info.max_items,
                )
                for info in option_info()
            ],
        )


# ------------------------------------------------------------------------- tables, history


class SeatOut(_Out):
    seat: int
    user_id: str | None
    nickname: str | None
    bot: str
    registered: bool
    connected: bool
    away: bool


class TableOut(_Out):
    """A table as ``messages.table_json`` writes it (the table socket sends the same)."""

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
    """One line of a player's history: the game, their seat, links to its reports, and
    once it is over their place and points."""

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

    @classmethod
    def of(
        cls,
        row: TableRow,
        user_id: str,
        result: tuple[int, int] | None = None,
        hints: tuple[int, ...] = (),
    ) -> HistoryOut:
        seat = next(s.seat for s in row.seats if s.user_id == user_id)
        place, points = result if result is not None else (None, None)
        return cls(
            id=row.id,
            status=row.status,
            seat=seat,
            players=list(row.names or ()),
            profiles=[s.user_id if s.registered else None for s in row.seats],
            rules=row.rules.get("preset"),
            started_at=None if row.started_at is None else row.started_at.isoformat(),
            finished_at=None if row.finished_at is None else row.finished_at.isoformat(),
            score=f"/api/games/{row.id}/score",
            record=f"/api/games/{row.id}/record",
            place=place,
            points=points,
            hints=list(hints),
        )


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


# ------------------------------------------------------------------------- score sheets


def stored_sheet(row: SheetRow) -> Sheet:
    """The stored sheet as a ``Sheet`` (it was checked when it was written)."""
    return sheet_from_json(row.sheet)


class SheetOut(_Out):
    """The API's SHEET object: the sheet, how many rounds its plan has, its score report
    and the next entry; ``id``, ``edit_token`` and ``continues`` (the id of the server's
    sheet this one continues, uploaded from a device that continued it offline) only for
    those who may change it (the routes send it without the fields left unset)."""

    id: str | None = None
    edit_token: str | None = None
    continues: str | None = None
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

    @classmethod
    def of(cls, row: SheetRow, *, editor: bool = True) -> SheetOut:
        sheet = stored_sheet(row)
        secret = {"id": row.id, "edit_token": row.edit_token} if editor else {}
        if editor and row.continues is not None:
            secret["continues"] = row.continues
        entry = sheet.next_entry
        return cls(
            **secret,
            share_id=row.share_id,
            share=f"/score?share={row.share_id}",
            editable=editor,
            owner=row.owner_nickname,
            version=row.version,
            updated_at=row.updated_at.isoformat(),
            sheet=sheet_to_json(sheet),
            planned=len(sheet.plan),
            report=sheet_report(sheet),
            next=None if entry is None else entry.to_json(),
        )


class SheetSummaryOut(_Out):
    """A line of the owner's list of sheets."""

    id: str
    players: list[str]
    rules: str
    rounds: int
    planned: int
    complete: bool
    totals: list[int]
    updated_at: str

    @classmethod
    def of(cls, row: SheetRow) -> SheetSummaryOut:
        sheet = stored_sheet(row)
        return cls(
            id=row.id,
            players=list(sheet.players),
            rules=sheet.rules.preset,
            rounds=sum(scored.points is not None for scored in sheet.scored),
            planned=len(sheet.plan),
            complete=sheet.complete,
            totals=list(sheet.totals),
            updated_at=row.updated_at.isoformat(),
        )


class SheetsOut(_Out):
    sheets: list[SheetSummaryOut]


class ProblemsOut(_Out):
    where_round: str
    where_player: str
    problems: dict[str, str]
    #: The engine's error templates by code (plural forms as ``CODE.one`` …): the words of
    #: a ``format`` problem's ``cause``.
    errors: dict[str, str]


# ------------------------------------------------------------------------- profiles, ratings


class RatingOut(_Out):
    scope: str
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool

    @classmethod
    def of(cls, line: RatingLine) -> RatingOut:
        return cls(
            scope=line.scope,
            rating=line.display,
            mu=round(line.mu, 3),
            sigma=round(line.sigma, 3),
            games=line.games,
            provisional=line.games < PROVISIONAL_GAMES,
        )


class BlindOut(_Out):
    rounds: int
    exact_rate: float | None
    points: int


class KindOut(_Out):
    rounds: int
    points: int


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 4)


class FiguresOut(_Out):
    """Sums turned into the rates a profile shows (``None`` where nothing was counted)."""

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

    @staticmethod
    def fields_of(figures: Figures) -> Json:
        """The fields of the figures, for this model and those that extend it."""
        return {
            "games": figures.games,
            "wins": figures.wins,
            "places": list(figures.places),
            "points": figures.points,
            "points_per_game": (
                None if figures.games == 0 else round(figures.points / figures.games, 2)
            ),
            "bid_rounds": figures.bid_rounds,
            "exact_rate": _rate(figures.exact, figures.bid_rounds),
            "zero_bids": figures.zero_bids,
            "zero_exact_rate": _rate(figures.zero_exact, figures.zero_bids),
            "blind": BlindOut(
                rounds=figures.blind_rounds,
                exact_rate=_rate(figures.blind_exact, figures.blind_rounds),
                points=figures.blind_points,
            ),
            "misere": KindOut(rounds=figures.misere_rounds, points=figures.misere_points),
            "golden": KindOut(rounds=figures.golden_rounds, points=figures.golden_points),
        }

    @classmethod
    def of(cls, figures: Figures) -> FiguresOut:
        return cls(**cls.fields_of(figures))


class PresetFiguresOut(FiguresOut):
    preset: str

    @classmethod
    def of_preset(cls, preset: str, figures: Figures) -> PresetFiguresOut:
        return cls(preset=preset, **cls.fields_of(figures))


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

    @classmethod
    def of(cls, game: RecentGame) -> RecentGameOut:
        return cls(
            id=game.table_id,
            preset=game.preset,
            rated=game.rated,
            finished_at=game.finished_at.isoformat(),
            place=game.place,
            points=game.points,
            players=list(game.players),
            profiles=list(game.profiles),
            replay=f"/?replay={game.table_id}",
        )


class ProfileOut(_Out):
    """A player's profile: from finished games only, so nothing of a game in progress."""

    user: UserOut
    username: str | None
    provisional_games: int
    ratings: list[RatingOut]
    history: list[RatingPointOut]
    stats: FiguresOut
    presets: list[PresetFiguresOut]
    recent: list[RecentGameOut]

    @classmethod
    def of(cls, profile: Profile) -> ProfileOut:
        return cls(
            user=UserOut.of(profile.user),
            username=profile.username,
            provisional_games=PROVISIONAL_GAMES,
            ratings=[RatingOut.of(line) for line in profile.ratings],
            history=[
                RatingPointOut(at=at.isoformat(), rating=value) for at, value in profile.history
            ],
            stats=FiguresOut.of(profile.figures),
            presets=[PresetFiguresOut.of_preset(name, f) for name, f in profile.per_preset],
            recent=[RecentGameOut.of(game) for game in profile.recent],
        )


class BoardLineOut(_Out):
    position: int
    user_id: str
    nickname: str
    rating: int
    games: int
    provisional: bool

    @classmethod
    def of(cls, line: BoardLine) -> BoardLineOut:
        return cls(
            position=line.position,
            user_id=line.user_id,
            nickname=line.nickname,
            rating=line.display,
            games=line.games,
            provisional=line.games < PROVISIONAL_GAMES,
        )


def board_cursor(key: BoardKey | None) -> str | None:
    """A leaderboard line as a cursor of the API: ``RATING:ID``."""
    return None if key is None else f"{key.display}:{key.user_id}"


def board_key(cursor: str) -> BoardKey:
    """The line a cursor names (``ValueError``: not one)."""
    display, separator, user_id = cursor.partition(":")
    if not separator or not user_id:
        raise ValueError(cursor)
    return BoardKey(int(display), user_id)


class LeaderboardOut(_Out):
    """A page of a leaderboard, the viewer's own line (``null``: not on it), and the
    cursors of the pages before and after it (``null``: none)."""

    preset: str
    period: str
    page: int
    size: int
    total: int
    lines: list[BoardLineOut]
    me: BoardLineOut | None
    previous: str | None
    next: str | None

    @classmethod
    def of(cls, page: BoardPage, *, preset: str, period: str, size: int) -> LeaderboardOut:
        """``page`` is the number of the page of ``size`` lines its first line falls on."""
        first = page.lines[0].position if page.lines else 1
        return cls(
            preset=preset,
            period=period,
            page=(first - 1) // size + 1,
            size=size,
            total=page.total,
            lines=[BoardLineOut.of(line) for line in page.lines],
            me=None if page.mine is None else BoardLineOut.of(page.mine),
            previous=board_cursor(page.previous),
            next=board_cursor(page.next),
        )


# ------------------------------------------------------------------------- reviews, hints


class ReviewOut(_Out):
    """A review job: its status, progress and, once done (or as far as it has run), the
    review itself, naming the seats as the game's table does now."""

    game: str
    seat: int
    status: str
    done: int
    total: int
    #: Jobs queued before this one (``null`` unless it is queued).
    position: int | None
    iterations: int
    error: str | None
    #: The ``raspisnoy-review/1`` object of docs/review.md once done.
    review: Json | None
    #: The seats of the game that used hints.
    hints: list[int]

    @classmethod
    def of(
        cls,
        row: ReviewRow,
        position: int | None,
        hints: tuple[int, ...],
        names: tuple[str, ...] | None,
    ) -> ReviewOut:
        """``names``: the table's names of its seats now (``_named``)."""
        return cls(
            game=row.table_id,
            seat=row.seat,
            status=str(row.status),
            done=row.done,
            total=row.total,
            position=position,
            iterations=row.iterations,
            error=row.error,
            review=_named(row.result, names),
            hints=list(hints),
        )


def _named(review: Json | None, names: tuple[str, ...] | None) -> Json | None:
    """The stored ``review`` naming the seats by ``names`` (its ``players`` and each
    summary line's ``name``), not by the names it was made with: the table's names are
    the ones kept up to date (a deleted account's seat is renamed there, and so by any
    later rule), so every review follows them and no stored review is rewritten."""
    if review is None or names is None:
        return review
    named = dict(review)
    if "players" in review:
        named["players"] = list(names)
    if "summary" in review:
        named["summary"] = [{**line, "name": names[line["seat"]]} for line in review["summary"]]
    return named


class ChoiceOut(_Out):
    action: str
    visits: int
    points: float


class HintOut(_Out):
    seat: int
    suggested: str
    choices: list[ChoiceOut]
    #: Why the suggestion beats the runner-up (``{"code", "params"}``, docs/review.md).
    reason: Json | None = None


# ------------------------------------------------------------------------- offline play


class OfflineStatusOut(_Out):
    """``GET /offline/status`` (docs/offline.md): whether this server has offline play's
    files, Pyodide's version and the bundle's (a hash of its bytes), and the bot levels
    that run offline, weakest first (the offline new-table form offers these), and whether
    a page makes the engine ready in the background on a first visit (``prepare``), and
    if so the address of the engine's snapshot made at install time (``snapshot``), which
    the service worker keeps with the files; and the paths of the files to keep as one
    set (``files``, the status itself first; none where offline play is not installed)."""

    installed: bool
    pyodide: str | None
    bundle: str | None
    bots: list[str]
    prepare: bool
    snapshot: str | None
    files: list[str]


class OfflineGameOut(_Out):
    """``POST /api/offline/games``: the stored game's id and its replay's address."""

    id: str
    replay: str


class PoolOut(_Out):
    """The caller's place in the matchmaking pool (docs/pool.md): ``none`` (not in it),
    ``waiting`` (their choices and the seconds waited) or ``matched`` (the table the pool
    opened for them, which they are seated at); and how many people wait for each preset
    and speed (``counts[preset][speed]``; a person accepting several presets counts under
    each)."""

    status: Literal["none", "waiting", "matched"]
    choices: Json | None = None
    waited_seconds: int | None = None
    table: str | None = None
    invite: str | None = None
    #: After abandoned rated pool games (docs/pool.md, "Fair play"): ``minutes`` until
    #: the rated pool is open again, ``abandons`` of the last week.
    rated_cooldown: dict[str, int] | None = None
    #: While waiting at the cap of games at once: ``count`` and ``limit`` (as the refusal
    #: ``games_held``); the pool passes the caller over until one of those games ends.
    games_held: dict[str, int] | None = None
    counts: dict[str, dict[str, int]]


# ------------------------------------------------------------------------- moderation


def _moment(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


class PlayerReportOut(_Out):
    """A player's report, as moderators see it (docs/moderation.md)."""

    id: str
    reporter: UserOut
    reported: UserOut
    place: str
    table_id: str | None
    chat_seq: int | None
    reason: str
    note: str | None
    created_at: str
    status: str
    resolved_at: str | None

    @classmethod
    def of(cls, row: ReportRow) -> PlayerReportOut:
        return cls(
            id=row.id,
            reporter=UserOut.of(row.reporter),
            reported=UserOut.of(row.reported),
            place=row.place,
            table_id=row.table_id,
            chat_seq=row.chat_seq,
            reason=row.reason,
            note=row.note,
            created_at=row.created_at.isoformat(),
            status=row.status,
            resolved_at=_moment(row.resolved_at),
        )


class PlayerReportsOut(_Out):
    reports: list[PlayerReportOut]


class ModerationOut(_Out):
    """A moderator's action, as the log shows it to moderators."""

    id: str
    moderator: UserOut
    user: UserOut
    kind: str
    until: str | None
    reason: str
    note: str | None
    report_id: str | None
    created_at: str

    @classmethod
    def of(cls, row: ActionRow) -> ModerationOut:
        return cls(
            id=row.id,
            moderator=UserOut.of(row.moderator),
            user=UserOut.of(row.user),
            kind=row.kind,
            until=_moment(row.until),
            reason=row.reason,
            note=row.note,
            report_id=row.report_id,
            created_at=row.created_at.isoformat(),
        )


class ModerationLogOut(_Out):
    actions: list[ModerationOut]


class ReportedTableOut(_Out):
    """The table a report came from: what the lobby shows of it. Its game is read
    through the routes everyone reads it by (``/api/games/{id}/record`` and ``/score``),
    so a moderator sees of a game in progress what a spectator sees, no hidden hand."""

    id: str
    status: str
    names: list[str | None]

    @classmethod
    def of(cls, row: TableRow) -> ReportedTableOut:
        names = list(row.names) if row.names else [seat.nickname for seat in row.seats]
        return cls(id=row.id, status=row.status, names=names)


class ReportDetailOut(_Out):
    """One report with what a moderator judges it by: the chat around the reported line
    (or the table's last lines, each as ``messages.chat_json`` writes it), its table, and
    the reported person's standing and earlier actions on them."""

    report: PlayerReportOut
    chat: list[dict[str, Any]]
    table: ReportedTableOut | None
    muted_until: str | None
    banned: bool
    banned_until: str | None
    actions: list[ModerationOut]

    @classmethod
    def of(
        cls,
        row: ReportRow,
        chat: list[dict[str, Any]],
        table: TableRow | None,
        standing: Standing,
        actions: list[ActionRow],
    ) -> ReportDetailOut:
        return cls(
            report=PlayerReportOut.of(row),
            chat=chat,
            table=None if table is None else ReportedTableOut.of(table),
            muted_until=_moment(standing.muted_until),
            banned=standing.banned,
            banned_until=_moment(standing.banned_until),
            actions=[ModerationOut.of(action) for action in actions],
        )


class NoticeOut(_Out):
    """A moderator's action as the person it concerns is shown it (the moderator is not
    named): the client words the kind and reason in its reader's language."""

    id: str
    kind: str
    until: str | None
    reason: str
    note: str | None
    created_at: str

    @classmethod
    def of(cls, row: ActionRow) -> NoticeOut:
        return cls(
            id=row.id,
            kind=row.kind,
            until=_moment(row.until),
            reason=row.reason,
            note=row.note,
            created_at=row.created_at.isoformat(),
        )


class StandingOut(_Out):
    """``GET /api/moderation/me``: whether the caller moderates, is muted (until when),
    and the actions on them not yet shown."""

    moderator: bool
    muted_until: str | None
    notices: list[NoticeOut]

    @classmethod
    def of(cls, moderator: bool, standing: Standing, notices: list[ActionRow]) -> StandingOut:
        return cls(
            moderator=moderator,
            muted_until=_moment(standing.muted_until),
            notices=[NoticeOut.of(row) for row in notices],
        )


class NoticesSeenOut(_Out):
    marked: int


# ------------------------------------------------------------------------- chat


class ChatOut(_Out):
    """``GET /api/games/{id}/chat``: the table's chat in order, each message as
    ``messages.chat_json`` writes it (the table socket sends the same)."""

    messages: list[Json]
