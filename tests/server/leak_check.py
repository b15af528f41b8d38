"""The leak checker: whether a WebSocket message or a REST answer holds a card (or a
blind round's trump) its recipient could not know at that moment, judged against the
full game state rebuilt from the store, not against any view the server built.

Used by tests/server/test_no_leaks.py and by the long audit in benchmarks/audit.py
(``audit leaks``). Each check raises ``AssertionError`` naming the message and the leak."""

from __future__ import annotations

from typing import Any

from raspisnoy.core import Card, Game, Phase, RoundKind, parse_action
from raspisnoy.ratings import rebuild_game
from raspisnoy.store import EventRow, TableRow

Message = dict[str, Any]

#: Every kind of round, a forehead round, and a blind maximum deal (the dealer shows the trump).
EVERY_KIND = {
    "preset": "raspisnoy.com",
    "custom_plan": [
        "1:forehead",
        "2",
        "3:blind",
        "9:blind",
        "9",
        "2:no-trump",
        "2:misere",
        "2:golden",
    ],
}


def states_of(table: TableRow, events: list[EventRow]) -> list[Game]:
    """The full game state at every version of a started table: ``result[v]`` after its
    first ``v`` stored actions (each a copy, so the list holds them all at once)."""
    game = rebuild_game(table, [])
    states = [game.clone()]
    for event in events:
        game.apply(parse_action(event.action), event.seat)
        states.append(game.clone())
    return states


def cards_in(value: Any) -> set[Card]:
    """Every card named anywhere in a JSON value (``X:take`` counts as ``X``)."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for k, v in value.items() if k != "rules"), set())
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value), set())
    if isinstance(value, str):
        try:
            return {Card.parse(value.split(":")[0])}
        except ValueError:
            return set()
    return set()


def hidden_from(game: Game, seat: int | None) -> set[Card]:
    """The cards ``seat`` cannot know now, from the full state (not from a view)."""
    kind, bidding = game.round.kind, game.phase is Phase.BID
    blind = bidding and kind is RoundKind.BLIND
    forehead = bidding and kind is RoundKind.FOREHEAD
    hidden: set[Card] = set()
    for other in range(game.players):
        if other == seat:
            if blind or forehead:
                hidden |= set(game.hand(other))
        elif not (forehead and seat is not None):
            hidden |= set(game.hand(other))
    dealt = set().union(*map(set, game.rounds()[-1].hands)) if game.rounds() else set()
    hidden |= set(game.deck) - dealt
    if game.trump_card is not None:
        (hidden.add if blind else hidden.discard)(game.trump_card)
    return hidden


def trump_known(game: Game) -> bool:
    """Whether the current round's trump is public: not while a blind round is bid."""
    return not (game.phase is Phase.BID and game.round.kind is RoundKind.BLIND)


def current_round_parts(value: Any, number: int) -> list[Message]:
    """Every object in a JSON value that describes round ``number`` (has its ``round``)."""
    found: list[Message] = []
    if isinstance(value, dict):
        if value.get("round") == number:
            found.append(value)
        for item in value.values():
            found += current_round_parts(item, number)
    elif isinstance(value, list):
        for item in value:
            found += current_round_parts(item, number)
    return found


def check_trump(value: Any, game: Game, where: str) -> None:
    """No part of ``value`` about the current round names its trump while it is hidden."""
    if trump_known(game):
        return
    for part in current_round_parts(value, game.round.number):
        assert part.get("trump") is None, f"{where}: the hidden trump shows: {part}"
        assert part.get("trump_card") is None, f"{where}: the hidden trump card shows: {part}"


def played_in(game: Game, number: int) -> set[Card]:
    """The cards played in round ``number`` so far and its trump card: public."""
    result = game.rounds()[number - 1]
    public = {play.card for trick in result.tricks for play in trick.plays}
    return public | ({result.trump_card} if result.trump_card is not None else set())


def check(message: Message, seat: int | None, states: list[Game], events: list[EventRow]) -> None:
    """Assert ``message`` to ``seat`` holds no card hidden from it at its version."""
    game = states[message["version"]]
    check_trump(message, game, f"{message['type']} v{message['version']} to seat {seat}")
    view = message.get("game")
    if view is not None:
        assert view["seat"] == seat
        leaked = cards_in(view) & hidden_from(game, seat)
        assert not leaked, f"{message['type']} v{message['version']} to seat {seat}: {leaked}"
        if view["hand"] is not None:
            assert view["hand"] == [str(card) for card in game.hand(seat)]  # type: ignore[arg-type]
    summary = message.get("round") or message.get("last_round")
    if summary is not None:
        assert cards_in(summary) <= played_in(game, summary["round"])
    if message.get("trick"):
        number = summary["round"] if summary else game.round.number
        assert cards_in(message["trick"]) <= played_in(game, number)
    if message["type"] == "event":
        stored = events[message["version"] - 1]
        assert (message["action"]["seat"], message["action"]["action"]) == (
            stored.seat,
            stored.action,
        )
    rest = {
        k: v
        for k, v in message.items()
        if k not in ("game", "round", "last_round", "trick", "action")
    }
    assert not cards_in(rest), f"cards outside the game fields: {message}"


def finished_rounds(game: Game) -> int:
    return sum(result.points is not None for result in game.rounds())


def check_rest(path: str, answer: Any, seat: int | None, game: Game) -> None:
    """A REST answer at this moment holds nothing its caller ``seat`` may not know."""
    where = f"GET {path} as seat {seat} in round {game.round.number}, {game.phase}"
    check_trump(answer, game, where)
    if path.endswith("/score"):
        for entry in answer["rounds"]:
            number = entry["round"]
            shown = cards_in(entry)
            if number == game.round.number and finished_rounds(game) < number:
                assert not shown & hidden_from(game, seat), where
            assert shown <= played_in(game, number), f"{where}: {shown - played_in(game, number)}"
    elif path.endswith("/record"):
        assert len(answer["rounds"]) == finished_rounds(game), where
        for number, entry in enumerate(answer["rounds"], 1):
            assert cards_in(entry) <= played_in(game, number), where
    else:
        assert not cards_in(answer), f"{where}: {answer}"
