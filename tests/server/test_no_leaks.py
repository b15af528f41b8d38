"""Nothing hidden leaks: every message each seat (and a spectator) receives over whole
games, blind and forehead rounds included, is checked against the full game state at the
message's version. No card that recipient could not know may appear in it."""

from __future__ import annotations

from typing import Any

from server_helpers import Api, Message, Player, Server, play_in_threads

from raspisnoy.core import Card, Game, Phase, RoundKind
from raspisnoy.server.actor import rebuild_game
from raspisnoy.store import EventRow

#: Every kind of round, a forehead round, and a blind maximum deal (the dealer shows the trump).
RULES = {
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


def played_in(game: Game, number: int) -> set[Card]:
    """The cards played in round ``number`` so far and its trump card: public."""
    result = game.rounds()[number - 1]
    public = {play.card for trick in result.tricks for play in trick.plays}
    return public | ({result.trump_card} if result.trump_card is not None else set())


def check(message: Message, seat: int | None, states: list[Game], events: list[EventRow]) -> None:
    """Assert ``message`` to ``seat`` holds no card hidden from it at its version."""
    game = states[message["version"]]
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


def test_no_message_shows_a_card_its_recipient_could_not_know(server: Server) -> None:
    for _game in range(2):
        anna, vera = Api(server.base, "Anna"), Api(server.base, "Vera")
        table = anna.create_table(rules=RULES, bots="random", bot_delay_ms=0, turn_seconds=0)
        vera.post(f"/api/tables/{table['id']}/sit", seat=3)
        players = [anna.socket(table["id"]), vera.socket(table["id"])]
        spectator = Api(server.base).socket(table["id"])
        for player in [*players, spectator]:
            player.recv()
        anna.post(f"/api/tables/{table['id']}/start")
        play_in_threads(players)
        spectator.recv_until(lambda m: m.get("game") is not None and m["game"]["phase"] == "over")
        row = server.store.get_table(table["id"])
        events = server.store.events_of(table["id"])
        states = [rebuild_game(row, events[:version]) for version in range(len(events) + 1)]
        kinds = {state.round.kind for state in states}
        assert {RoundKind.BLIND, RoundKind.FOREHEAD} <= kinds
        recipients: list[tuple[Player, int | None]] = [
            (players[0], 0),
            (players[1], 3),
            (spectator, None),
        ]
        for player, seat in recipients:
            assert player.messages
            for message in player.messages:
                if "version" in message and message["type"] != "ack":
                    check(message, seat, states, events)
            player.close()
