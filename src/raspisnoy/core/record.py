"""Game records (docs/record.md): parse, validate, write, replay, and the ``replay`` report.

A record is to raspisnoy what PGN is to chess. ``parse_record`` checks its shape and
notation and raises ``InvalidInputError`` naming the place (``round 2, trick 1: ...``);
``replay`` then pushes every deal, bid and card through a ``Game``, so the rules are
checked by the one engine that plays games, and raises ``IllegalActionError`` (or
``InvalidInputError`` for a round with impossible tricks) with the round, trick, player
and input. Records may stop anywhere (a game in progress).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from raspisnoy.core.actions import ControlRound, Play
from raspisnoy.core.cards import Card
from raspisnoy.core.errors import IllegalActionError, InvalidInputError, count
from raspisnoy.core.events import Phase, RoundResult, Trick
from raspisnoy.core.game import Game, player_names
from raspisnoy.core.kinds import RoundKind
from raspisnoy.core.plan import check_players
from raspisnoy.core.rules import DEFAULT_PRESET, Rules, resolve_rules

__all__ = [
    "RECORD_FORMAT",
    "Record",
    "RecordRound",
    "dumps_record",
    "game_to_record",
    "loads_json",
    "loads_record",
    "parse_record",
    "record_to_json",
    "replay",
    "replay_report",
]

RECORD_FORMAT = "raspisnoy-record/1"
_RECORD_KEYS = {"format", "rules", "players", "rounds"}
_ROUND_KEYS = {"dealer", "hands", "trump_card", "bids", "tricks", "cards", "kind"}
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class RecordRound:
    """One round of a record; ``bids`` by seat (``None``: not yet, or a round without bids)."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card | None
    bids: tuple[int | None, ...] | None
    tricks: tuple[tuple[Play, ...], ...]
    cards: int | None = None
    kind: RoundKind | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """A whole or partial game: its rules, the players in seat order, and the rounds."""

    rules: Rules
    players: tuple[str, ...]
    rounds: tuple[RecordRound, ...]


# ------------------------------------------------------------------------- reading


def loads_record(text: str) -> Record:
    """Parse a record from JSON text (a leading byte-order mark is allowed)."""
    if not isinstance(text, str):
        raise InvalidInputError(f"a record is JSON text, not {type(text).__name__}")
    return parse_record(loads_json(text))


def loads_json(text: str) -> Any:
    """The JSON document of ``text`` as the project's files are read (records, sheets,
    casino boxes): a leading byte-order mark allowed; ``InvalidInputError`` naming the
    problem for text that is not JSON, or that Python cannot decode (nested too deep,
    a number too long), so that a command answers it in one line, not a traceback."""
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as error:
        raise InvalidInputError(
            f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except (RecursionError, ValueError) as error:  # nesting too deep, a number too long
        raise InvalidInputError(f"not a usable JSON document: {error}") from None


def parse_record(data: Any) -> Record:
    """Check the shape and notation of a decoded JSON record and build a ``Record``."""
    if not isinstance(data, Mapping):
        raise InvalidInputError("a record must be a JSON object")
    _reject_unknown(data, _RECORD_KEYS, "record")
    if data.get("format") != RECORD_FORMAT:
        raise InvalidInputError(f"format: expected {RECORD_FORMAT!r}, got {data.get('format')!r}")
    if "rules" in data and data["rules"] is None:
        raise InvalidInputError("rules: expected a preset name or an object, got null")
    rules = resolve_rules(data.get("rules", DEFAULT_PRESET))
    players = _parse_players(data.get("players"), rules)
    parsed: list[RecordRound] = []
    for number, raw in enumerate(_expect(data.get("rounds", []), list, "rounds", "a list"), 1):
        round_, unreadable = _parse_round(raw, number, players)
        parsed.append(round_)
        if unreadable is not None:
            trick, error = unreadable
            player = _next_player(Record(rules, players, tuple(parsed)))
            raise InvalidInputError(f"round {number}, trick {trick}: {player}'s card: {error}")
    return Record(rules, players, tuple(parsed))


def _parse_players(raw: Any, rules: Rules) -> tuple[str, ...]:
    names = player_names(_expect(raw, list, "players", "a list of names"))
    check_players(rules, len(names))
    return names


#: Where a round's tricks stop being readable: the trick's number and the play's error.
_Unreadable = tuple[int, InvalidInputError]


def _parse_round(
    raw: Any, number: int, names: tuple[str, ...]
) -> tuple[RecordRound, _Unreadable | None]:
    """The round, and where its tricks stop being readable (its tricks then end with the
    plays before that one: who was to play it is known only by replaying them)."""
    where = f"round {number}"
    data = _expect(raw, dict, where, "an object")
    _reject_unknown(data, _ROUND_KEYS, where)
    players = len(names)
    dealer = _expect(data.get("dealer"), int, f"{where}: dealer", "a seat number")
    if not 0 <= dealer < players:
        raise InvalidInputError(f"{where}: dealer {dealer} is not a seat (0 to {players - 1})")
    hands_raw = _expect(data.get("hands"), list, f"{where}: hands", "a list of hands")
    hands = tuple(
        tuple(
            _located(Card.parse, card, f"{where}: {_name(names, seat)}'s hand")
            for card in _expect(hand, list, f"{where}: hands", "lists of cards")
        )
        for seat, hand in enumerate(hands_raw)
    )
    trump_raw = data.get("trump_card")
    trump_card = (
        None if trump_raw is None else _located(Card.parse, trump_raw, f"{where}: trump_card")
    )
    tricks, unreadable = _parse_tricks(data.get("tricks", []), where)
    round_ = RecordRound(
        dealer=dealer,
        hands=hands,
        trump_card=trump_card,
        bids=_parse_bids(data.get("bids"), where, names),
        tricks=tricks,
        cards=_optional_int(data.get("cards"), f"{where}: cards"),
        kind=_parse_kind(data.get("kind"), where),
    )
    return round_, unreadable


def _name(names: tuple[str, ...], seat: int) -> str:
    """The player of ``seat``, or the seat's number where the record has more hands than
    players (an error the replay reports)."""
    return names[seat] if seat < len(names) else f"seat {seat}"


def _parse_tricks(raw: Any, where: str) -> tuple[tuple[tuple[Play, ...], ...], _Unreadable | None]:
    """The tricks as far as their plays read, and where the first unreadable play is."""
    tricks: list[tuple[Play, ...]] = []
    for t, trick in enumerate(_expect(raw, list, f"{where}: tricks", "a list"), 1):
        plays: list[Play] = []
        for play in _expect(trick, list, f"{where}, trick {t}", "a list of cards"):
            try:
                plays.append(Play.parse(play))
            except InvalidInputError as error:
                return (*tricks, tuple(plays)), (t, error)
        tricks.append(tuple(plays))
    return tuple(tricks), None


def _next_player(record: Record) -> str:
    """Who plays next after ``record`` (which stops before an unreadable play); an error
    in the record before that play is raised instead, as the first one."""
    seat = replay(record).to_act
    assert seat is not None, "a round's tricks end inside it (_replay_tricks checks)"
    return record.players[seat]


def _parse_bids(raw: Any, where: str, names: tuple[str, ...]) -> tuple[int | None, ...] | None:
    if raw is None:
        return None
    players = len(names)
    bids = _expect(raw, list, f"{where}: bids", "a list of numbers by seat, or null")
    if len(bids) > players:
        raise InvalidInputError(f"{where}: bids: {len(bids)} bids for {players} players")
    for seat, bid in enumerate(bids):
        if bid is not None and (isinstance(bid, bool) or not isinstance(bid, int)):
            raise InvalidInputError(f"{where}: {names[seat]}'s bid: {bid!r} is not a bid")
    return tuple(bids) + (None,) * (players - len(bids))


def _parse_kind(raw: Any, where: str) -> RoundKind | None:
    if raw is None:
        return None
    try:
        return RoundKind(raw)
    except ValueError:
        kinds = ", ".join(kind.value for kind in RoundKind)
        raise InvalidInputError(f"{where}: kind {raw!r} is not one of {kinds}") from None


def _optional_int(raw: Any, where: str) -> int | None:
    return None if raw is None else _expect(raw, int, where, "a whole number")


def _expect(value: Any, kind: type[_T], where: str, what: str) -> _T:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidInputError(f"{where}: expected {what}, got {json.dumps(value)}")
    return value


def _located(parse: Callable[[str], _T], text: Any, where: str) -> _T:
    try:
        return parse(text)
    except InvalidInputError as error:
        raise InvalidInputError(f"{where}: {error}") from None


def _reject_unknown(data: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidInputError(f"{where}: unknown field {unknown[0]!r}")


# ------------------------------------------------------------------------- replaying


def replay(record: Record) -> Game:
    """Play the record through a ``Game``; every deal, bid and card is checked by the rules."""
    first_dealer = record.rounds[0].dealer if record.rounds else 0
    game = Game(record.rules, record.players, first_dealer=first_dealer)
    for number, round_ in enumerate(record.rounds, start=1):
        _check_round_start(game, round_, number)
        game.deal(round_.hands, round_.trump_card)
        _replay_bids(game, round_, number)
        _replay_tricks(game, round_, number)
    return game


def _check_round_start(game: Game, round_: RecordRound, number: int) -> None:
    if game.phase is Phase.CHOOSE:
        _choose_control_round(game, round_, number)
    if game.is_over:
        raise IllegalActionError(
            f"round {number}: the game is over after {count(len(game.plan), 'round')}"
        )
    if game.phase is not Phase.DEAL:
        raise IllegalActionError(f"round {number - 1} is not finished, but round {number} follows")
    where = f"round {number}"
    if round_.dealer != game.dealer:
        raise IllegalActionError(
            f"{where}: the deal passes clockwise, so the dealer is {game.names[game.dealer]} "
            f"(seat {game.dealer}), not seat {round_.dealer}"
        )
    spec = game.round
    if round_.cards is not None and round_.cards != spec.cards:
        raise IllegalActionError(
            f"{where}: the plan deals {count(spec.cards, 'card')}, not {round_.cards}"
        )
    if round_.kind is not None and round_.kind is not spec.kind:
        raise IllegalActionError(
            f"{where}: the plan makes it a {spec.kind} round, not {round_.kind}"
        )


def _choose_control_round(game: Game, round_: RecordRound, number: int) -> None:
    """A round after the plan is a control round: its kind and dealer are the choice."""
    if round_.kind is None:
        raise InvalidInputError(f"round {number}: a control round must give its kind")
    try:
        choice = ControlRound(round_.kind, round_.dealer)
    except InvalidInputError as error:
        raise InvalidInputError(f"round {number}: {error}") from None
    game.choose_control(choice)


def _replay_bids(game: Game, round_: RecordRound, number: int) -> None:
    where = f"round {number}"
    if not game.round.kind.has_bids:
        if round_.bids is not None and any(bid is not None for bid in round_.bids):
            raise IllegalActionError(f"{where}: a {game.round.kind} round has no bids")
        return
    bids = round_.bids or (None,) * game.players
    order = [(game.dealer + 1 + k) % game.players for k in range(game.players)]
    missing = None
    for seat in order:
        if bids[seat] is None:
            missing = missing if missing is not None else seat
        elif missing is not None:
            raise IllegalActionError(
                f"{where}: {game.names[seat]} has a bid, but {game.names[missing]}, "
                f"who bids first, has none"
            )
        else:
            game.bid(bids[seat], seat)  # type: ignore[arg-type]
    if missing is not None and round_.tricks:
        raise IllegalActionError(f"{where}: cards are played before {game.names[missing]} has bid")


def _replay_tricks(game: Game, round_: RecordRound, number: int) -> None:
    cards = game.round.cards
    if len(round_.tricks) > cards:
        raise InvalidInputError(
            f"round {number}, trick {cards + 1}: a round of {count(cards, 'card')} "
            f"has only {count(cards, 'trick')}"
        )
    for t, trick in enumerate(round_.tricks, start=1):
        if len(trick) > game.players:
            raise InvalidInputError(
                f"round {number}, trick {t}: {len(trick)} cards for {game.players} players"
            )
        if len(trick) < game.players and t < len(round_.tricks):
            raise InvalidInputError(
                f"round {number}, trick {t}: only {len(trick)} cards, but another trick follows"
            )
        for play in trick:
            game.play(play)


# ------------------------------------------------------------------------- writing


def game_to_record(game: Game) -> Record:
    """The record of a game so far (with its fully resolved rules)."""
    rounds = tuple(
        RecordRound(
            dealer=r.dealer,
            hands=r.hands,
            trump_card=r.trump_card,
            bids=r.bids,
            tricks=tuple(trick.plays for trick in r.tricks),
            cards=r.cards,
            kind=r.kind,
        )
        for r in game.rounds()
    )
    return Record(game.rules, game.names, rounds)


def record_to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON-ready object (docs/record.md), rules fully resolved."""
    return {
        "format": RECORD_FORMAT,
        "rules": record.rules.to_json(),
        "players": list(record.players),
        "rounds": [_round_to_json(r) for r in record.rounds],
    }


def _round_to_json(round_: RecordRound) -> dict[str, Any]:
    data: dict[str, Any] = {"dealer": round_.dealer}
    if round_.cards is not None:
        data["cards"] = round_.cards
    if round_.kind is not None:
        data["kind"] = str(round_.kind)
    data["hands"] = [[str(card) for card in hand] for hand in round_.hands]
    data["trump_card"] = None if round_.trump_card is None else str(round_.trump_card)
    data["bids"] = None if round_.bids is None else list(round_.bids)
    data["tricks"] = [[str(play) for play in trick] for trick in round_.tricks]
    return data


def dumps_record(record: Record, indent: int | None = 2) -> str:
    """The record as JSON text (UTF-8 safe, names kept as written)."""
    return json.dumps(record_to_json(record), ensure_ascii=False, indent=indent)


# ------------------------------------------------------------------------- the replay report


def replay_report(game: Game) -> dict[str, Any]:
    """The ``raspisnoy replay --json`` object (docs/record.md) for a game so far."""
    return {
        "players": list(game.names),
        "rounds": [_round_report(r) for r in game.rounds()],
        "totals": list(game.totals),
        "complete": game.is_over,
        "winners": list(game.winners()),
    }


def _round_report(result: RoundResult) -> dict[str, Any]:
    return {
        "round": result.number,
        "dealer": result.dealer,
        "cards": result.cards,
        "kind": str(result.kind),
        "trump": None if result.trump is None else result.trump.letter,
        "bids": None if result.bids is None else list(result.bids),
        "taken": list(result.taken),
        "points": None if result.points is None else list(result.points),
        "tricks": [_trick_report(trick) for trick in result.tricks],
    }


def _trick_report(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [str(play) for play in trick.plays],
        "winner": trick.winner,
    }
