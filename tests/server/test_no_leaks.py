"""Nothing hidden leaks: every message each seat (and a spectator) receives over whole
games, blind and forehead rounds included, is checked against the full game state at the
message's version. No card that recipient could not know may appear in it, and no trump
while a blind round («тёмная») is being bid.

The second test stops at every moment of a game played by four people and asks every
REST route as each kind of caller (each seat, a signed-in spectator, an anonymous
client), syncs every socket and reconnects one in each blind and forehead round."""

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


#: A short game with a forehead round, two blind rounds (one where the dealer shows the
#: trump from their own hand) and a normal one, for four people.
MOMENT_RULES = {"preset": "raspisnoy.com", "custom_plan": ["1:forehead", "2:blind", "2", "9:blind"]}


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


def test_no_rest_answer_or_socket_message_at_any_moment_shows_a_hidden_card(
    server: Server,
) -> None:
    people = [Api(server.base, name) for name in ("Anna", "Boris", "Vera", "Gleb")]
    watcher, stranger = Api(server.base, "Watcher"), Api(server.base)
    table = people[0].create_table(rules=MOMENT_RULES, players=4, turn_seconds=600)
    table_id = table["id"]
    for seat, person in enumerate(people[1:], 1):
        assert person.post(f"/api/tables/{table_id}/sit", seat=seat).status_code == 200
    sockets: list[Player] = [person.socket(table_id) for person in people]
    watching = [watcher.socket(table_id), stranger.socket(table_id)]
    every_socket = [*sockets, *watching]
    seats_of = {id(p): seat for p, seat in zip(every_socket, [0, 1, 2, 3, None, None], strict=True)}
    received: list[tuple[Player, int | None]] = []
    for player in every_socket:
        player.recv()
    assert people[0].post(f"/api/tables/{table_id}/start").status_code == 200
    callers = [*zip(people, range(4), strict=True), (watcher, None), (stranger, None)]
    routes = [f"/api/games/{table_id}/score", f"/api/games/{table_id}/record"]
    routes += [f"/api/tables/{table_id}", "/api/tables", "/api/me/games"]
    answers: list[tuple[int, str, Any, int | None]] = []
    reconnected: set[tuple[int, int]] = set()
    version = 0
    while True:
        for player in every_socket:
            while player.game is None or player.version < version:
                player.recv()
        view = sockets[0].game
        assert view is not None
        for person, seat in callers:
            for path in routes:
                got = person.http.get(path)
                if got.status_code != 401:  # /api/me/games needs a session
                    assert got.status_code == 200, (path, got.text)
                    answers.append((version, path, got.json(), seat))
        for player in every_socket:
            player.send({"type": "sync"})
            player.recv_until(lambda m: m["type"] == "state")
        hidden_round = view["kind"] in ("blind", "forehead") and view["phase"] == "bid"
        bids_made = sum(bid is not None for bid in view["bids"] or [])
        if hidden_round and (view["round"], bids_made) not in reconnected and bids_made < 2:
            reconnected.add((view["round"], bids_made))
            seat = (view["dealer"] + 1 + bids_made) % 4  # the seat to act, then the next
            received.append((sockets[seat], seat))
            sockets[seat].close()
            sockets[seat] = people[seat].socket(table_id)
            assert sockets[seat].recv()["type"] == "state"
            every_socket = [*sockets, *watching]
            seats_of[id(sockets[seat])] = seat
        if view["phase"] == "over":
            break
        mover = sockets[view["to_act"]]
        assert mover.game is not None and mover.game["legal"]
        mover.send({"type": "act", "id": f"v{version}", "action": mover.game["legal"][-1]})
        assert mover.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        version += 1
    row = server.store.get_table(table_id)
    events = server.store.events_of(table_id)
    states = [rebuild_game(row, events[:number]) for number in range(len(events) + 1)]
    assert {RoundKind.BLIND, RoundKind.FOREHEAD} <= {state.round.kind for state in states}
    assert len(reconnected) == 6  # two reconnects in each blind and forehead round
    for at, path, answer, seat in answers:
        check_rest(path, answer, seat, states[at])
    for player, seat in [*received, *((p, seats_of[id(p)]) for p in every_socket)]:
        for message in player.messages:
            if "version" in message and message["type"] not in ("ack", "pong"):
                check(message, seat, states, events)
        player.close()
