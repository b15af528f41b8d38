"""Request bodies of the REST API: each a Pydantic model, checked before any route runs
(and shown at ``/api/docs``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from raspisnoy.bots import BOTS
from raspisnoy.core import DEFAULT_PRESET
from raspisnoy.store.offline_sheets import DEVICE_ID_LENGTH

__all__ = [
    "MAX_LINK",
    "MAX_NOTE",
    "CredentialsIn",
    "DealIn",
    "DecisionIn",
    "EntryIn",
    "ModerationIn",
    "NewPasswordIn",
    "NicknameIn",
    "NoticesSeenIn",
    "OfflineGameIn",
    "PasswordIn",
    "PlayerReportIn",
    "PoolIn",
    "QrIn",
    "Reason",
    "RoundIn",
    "SeatIn",
    "SheetChangeIn",
    "SheetUploadIn",
    "TableIn",
    "default_bot",
]

#: The bots a table gets unless it names one, best first; the first one registered wins.
_PREFERRED_BOTS = ("heuristic", "beginner", "random")


def default_bot() -> str:
    """The default bot level: the first of ``_PREFERRED_BOTS`` in ``BOTS``."""
    return next((name for name in _PREFERRED_BOTS if name in BOTS), next(iter(BOTS)))


class _StrictIn(BaseModel):
    """A request body as the client must write it: no unknown field, and every value of
    its own JSON type (``"1"`` is not a seat number, ``"yes"`` not a boolean)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class NicknameIn(_StrictIn):
    nickname: str = Field(max_length=200)


class CredentialsIn(_StrictIn):
    """A user name and password: to register or to log in."""

    username: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class PasswordIn(_StrictIn):
    """The current password, which deleting the account asks for again."""

    password: str = Field(max_length=1000)


class NewPasswordIn(PasswordIn):
    new_password: str = Field(max_length=1000)


class SeatIn(_StrictIn):
    seat: int


class TableIn(_StrictIn):
    """A new table: the ruleset (a preset name or ``{"preset": ..., option: value}``), how
    many seats, who may find it, the bot for each seat left empty, the clocks."""

    rules: str | dict[str, Any] = DEFAULT_PRESET
    players: int = 4
    public: bool = True
    #: One bot level for every empty seat, or one per seat (seat 0 is the host's).
    bots: str | list[str] = Field(default_factory=default_bot)
    #: Seconds a person has for each action (0: no timer).
    turn_seconds: int = 30
    #: How long a bot waits before acting, so people can follow the game.
    bot_delay_ms: int = 800
    #: The bot that plays a person's seat while they are away.
    stand_in: str = Field(default_factory=default_bot)
    #: Whether the game's end moves the players' ratings (a preset's own rules only).
    rated: bool = False
    #: Whether spectators may read and write the table's chat.
    spectator_chat: bool = False


class SheetChangeIn(BaseModel):
    """A change of a score sheet. ``version``, when sent, is the sheet's version the change
    was made on (the ``version`` of the SHEET last shown): a sheet at another version
    refuses it (409 ``sheet_changed``), so that a change sent twice, or made on a sheet
    another device changed meanwhile, is not applied to what came after. Without it the
    change applies to the sheet as it is, as it did for clients older than the field."""

    model_config = ConfigDict(extra="forbid")
    version: StrictInt | None = None


class EntryIn(SheetChangeIn):
    """One entry of a score sheet, as the model's ``next_entry`` asks for it: a bid or a
    trick count of a seat (``value``), or the kind and dealer of a control round
    («контрольная»)."""

    entry: Literal["bid", "taken", "control"]
    seat: StrictInt | None = None
    value: StrictInt | None = None
    kind: str | None = None
    dealer: StrictInt | None = None


class RoundIn(SheetChangeIn):
    """A past round of a score sheet rewritten: bids (``null`` for a round without bids)
    and tricks by seat."""

    bids: list[StrictInt | None] | None
    taken: list[StrictInt | None]


#: Longest link drawn as a QR code (the longest the client makes is under 200 characters).
MAX_LINK = 512


class QrIn(BaseModel):
    """A link of this site to draw as a QR code (``POST /api/qr``)."""

    url: str = Field(min_length=1, max_length=MAX_LINK)


class DealIn(BaseModel):
    """A new hand: one ante per box bought (1 to 3 boxes; the third plays closed)."""

    model_config = ConfigDict(extra="forbid")
    antes: Annotated[list[StrictInt], Field(min_length=1, max_length=3)]


class DecisionIn(BaseModel):
    """A decision of the box to act (``box`` from 1, which guards against a double tap):
    ``cards`` names the cards to change, and only for ``change``."""

    model_config = ConfigDict(extra="forbid")
    box: StrictInt
    action: Literal["fold", "bet", "buy", "change", "buy-dealer", "decline"]
    cards: Annotated[list[StrictStr], Field(max_length=5)] | None = None


class OfflineGameIn(BaseModel):
    """An offline game as the device keeps it (``LocalTable.save``, docs/offline.md);
    ``services.offline`` checks it by replaying it."""

    model_config = ConfigDict(extra="forbid")
    game: dict[str, Any]


class SheetOriginalIn(BaseModel):
    """The server's sheet a device's sheet continues, and its edit token if the device
    kept it by that token (not as its owner)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=32)
    token: str | None = Field(default=None, max_length=64)


class SheetUploadIn(BaseModel):
    """A score sheet kept on a device (docs/offline.md, "The scorekeeper offline"): the
    device's id and version of it (the upload's identity: stored once) and the sheet,
    which the scorekeeper checks again; ``continues``: the server's sheet it goes on from."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=DEVICE_ID_LENGTH)
    version: int = Field(ge=1)
    sheet: dict[str, Any]
    continues: SheetOriginalIn | None = None


class PoolIn(_StrictIn):
    """What a person accepts in the matchmaking pool (docs/pool.md): one preset or any of
    several, numbers of players (one, or any of several), a speed (a named turn timer),
    rated or not, and the seconds before bots fill the free seats (``null``: never)."""

    presets: list[str] = Field(min_length=1, max_length=10)
    players: list[Literal[3, 4, 5]] = Field(min_length=1, max_length=3)
    speed: Literal["fast", "normal", "slow"] = "normal"
    rated: bool = False
    bot_wait: Literal[30, 60, 120] | None = 60


# ------------------------------------------------------------------------- moderation

#: Why a player reports another, and why a moderator acts (docs/moderation.md): codes
#: the client words in its reader's language.
Reason = Literal["abuse", "spam", "cheating", "name", "other"]
#: The longest note a report or a moderator's action may carry.
MAX_NOTE = 500
#: The longest mute or ban in minutes (a year); a ban without an end is for good.
MAX_MINUTES = 366 * 24 * 60


class PlayerReportIn(_StrictIn):
    """A report of ``user_id``: from a table (``table_id``), one of its chat messages
    (``table_id`` and ``chat_seq``) or the profile; a reason and an optional note."""

    user_id: str = Field(min_length=1, max_length=32)
    place: Literal["table", "chat", "profile"]
    table_id: str | None = Field(default=None, max_length=32)
    chat_seq: int | None = Field(default=None, ge=1)
    reason: Reason
    note: str | None = Field(default=None, max_length=MAX_NOTE)


class ModerationIn(_StrictIn):
    """A moderator's action on ``user_id``: a mute lasts ``minutes`` (required), a ban
    ``minutes`` or for good (none); ``report_id``, if given, is resolved with it."""

    user_id: str = Field(min_length=1, max_length=32)
    kind: Literal["warn", "mute", "unmute", "ban", "unban"]
    minutes: int | None = Field(default=None, ge=1, le=MAX_MINUTES)
    reason: Reason
    note: str | None = Field(default=None, max_length=MAX_NOTE)
    report_id: str | None = Field(default=None, max_length=32)


class NoticesSeenIn(_StrictIn):
    """The notices (moderators' actions) the person was shown."""

    ids: list[str] = Field(max_length=100)
