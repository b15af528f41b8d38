"""The table socket's messages and the game's shapes (docs/PROTOCOL.md): ``state``,
``event``, ``table``, ``ack``, ``pong``, ``error``, the chat's messages and the lobby's
``lobby``, built as dicts and encoded with orjson, since one goes to every seat after
every action (a Pydantic model per message would cost several times as much). The REST
answers that carry the same shapes declare them in ``answers`` (``TableOut`` is
``table_json``'s, ``ReportOut`` is ``game_report``'s), and the REST tests check each
answer against its model.

Everything about a game is built from ``game.view(seat)`` and from public facts (the
tricks and results of finished rounds, which every player saw), never from the full
game state. A spectator's view is ``game.view(None)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from raspisnoy.core import (
    Action,
    Card,
    Game,
    OwnView,
    Phase,
    Play,
    RoundResult,
    Trick,
    View,
    replay_report,
)
from raspisnoy.core.fast import ALL_CARDS

if TYPE_CHECKING:  # only named here: the game's shapes run in the browser (docs/offline.md)
    from raspisnoy.store import ChatRow, TableRow, UserRow

__all__ = [
    "PROTOCOL_VERSION",
    "Json",
    "SeatPresence",
    "ack_message",
    "action_event",
    "action_text",
    "chat_json",
    "encode",
    "epoch_ms",
    "error_message",
    "event_message",
    "game_report",
    "lobby_line",
    "lobby_message",
    "pong_message",
    "round_summary",
    "seat_view_json",
    "spectators_message",
    "state_message",
    "table_json",
    "table_message",
    "trick_json",
    "view_json",
]

#: Sent in every ``state`` message; bumped when a message changes incompatibly.
PROTOCOL_VERSION = 1

Json = dict[str, Any]


def encode(message: Json) -> str:
    """A server message as compact JSON text (names and nicknames kept as written).

    orjson, because encoding a view for every seat after every action is a large share
    of the server's work, and orjson does it several times faster than ``json``. Imported
    here, not above: the rest of this module also runs in the browser, with the game on
    the device (docs/offline.md), where there is no orjson."""
    import orjson

    return orjson.dumps(message).decode()


def epoch_ms(moment: float | None) -> int | None:
    """A ``time.time()`` moment as whole milliseconds since the epoch (what JavaScript uses)."""
    return None if moment is None else int(moment * 1000)


# ------------------------------------------------------------------------- the game

#: The phases in which a round is dealt and not yet scored.
_DEALT = (Phase.BID, Phase.PLAY)
#: The phases between rounds: the game over, or a control round to be chosen.
_BETWEEN_ROUNDS = (Phase.OVER, Phase.CHOOSE)
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


def action_event(
    version: int,
    before: Game,
    after: Game,
    seat: int,
    action: Action,
    by: str,
    deadline: float | None,
    public: View | None = None,
) -> Json:
    """The ``event`` of ``action`` by ``seat`` (``by``: a person, "bot" or "stand-in"),
    which took the game from ``before`` to ``after``, with the trick and round it closed.
    ``public`` is ``after.view(None)`` if the caller has it already (the table actor,
    which sends it to the spectators too): made here only if it is needed and not given."""
    # A round ends when the next one starts, the game ends, or a control round is to be
    # chosen; choosing one starts a round without ending any.
    number = before.round.number
    ended = after.round.number != number or after.phase in _BETWEEN_ROUNDS
    round_done = None
    if ended and before.phase is not Phase.CHOOSE:
        round_done = round_summary(after.rounds()[number - 1])
    trick_done = None
    if type(action) is Play and not after.trick.plays:  # the action closed a trick
        if round_done is not None:
            trick_done = round_done["tricks"][-1]
        else:
            trick_done = trick_json((public or after.view(None)).tricks[-1])
    return event_message(
        version, {"seat": seat, "action": str(action), "by": by}, trick_done, round_done, deadline
    )


def table_message(version: int, table: Json) -> Json:
    return {"type": "table", "version": version, "table": table}


def spectators_message(watchers: Iterable[UserRow | None]) -> Json:
    """The ``spectators`` message: how many watch the table (a person once however many
    pages they have open, a socket without a session once) and the names of those
    with an account; guests are only counted. Nothing else of them: no id, no seat."""
    every = list(watchers)
    people = {user.id: user for user in every if user is not None}
    anonymous = every.count(None)
    names = sorted(user.nickname for user in people.values() if user.is_account)
    return {"type": "spectators", "count": len(people) + anonymous, "names": names}


def ack_message(client_id: str, version: int, *, duplicate: bool) -> Json:
    return {"type": "ack", "id": client_id, "version": version, "duplicate": duplicate}


def pong_message(version: int) -> Json:
    return {"type": "pong", "version": version}


def error_message(
    code: str,
    text: str,
    client_id: str | None = None,
    params: Mapping[str, str | int] | None = None,
) -> Json:
    """An ``error`` message; ``id`` only when it answers an ``act``, ``params`` only where
    the code has any (what a client words the error with)."""
    message: Json = {"type": "error", "code": str(code), "message": text}
    if client_id is not None:
        message["id"] = client_id
    if params:
        message["params"] = dict(params)
    return message
