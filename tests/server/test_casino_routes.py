"""Casino Russian poker over REST (``/api/casino``): whole hands dealt and settled by the
server, money kept in the database and conserved, the free refill, a hand surviving a
restart, every illegal decision and malformed input refused with no change of state,
and no card (nor seed) reaching the player before it is dealt to them or revealed."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fresh_databases import BACKENDS, new_database
from server_helpers import FAST, Api, Server

from raspisnoy.casino import DECK, HAND_FORMAT, Card, CasinoHand, Deal, Phase
from raspisnoy.casino.record import replay_record, verify_record
from raspisnoy.server.services.casino import (
    ADVISOR_POOL,
    HINT_THREADS,
    REFILL_BELOW,
    START_BALANCE,
    Casino,
)
from raspisnoy.store import CasinoStore, Store

Message = dict[str, Any]
HINT_TIMEOUT = 180.0


@dataclass
class Answer:
    """One answer the client got, and where the player's hand stood when it was sent."""

    path: str
    status: int
    text: str
    hand: str | None
    decisions: int


@dataclass
class Player:
    """A guest playing the casino game, keeping every answer it receives."""

    api: Api
    answers: list[Answer] = field(default_factory=list)
    hand: str | None = None
    decisions: int = 0

    def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        # A hint may wait for the advisor's first compilation (a minute on a slow machine).
        timeout = HINT_TIMEOUT if path.endswith("/hint") else self.api.http.timeout
        answer = self.api.http.request(method, path, json=body, timeout=timeout)
        if answer.status_code < 300 and path == "/api/casino/hands":
            self.hand, self.decisions = answer.json()["id"], 0
        elif answer.status_code < 300 and path == "/api/casino/hand/decision":
            self.decisions += 1
        self.answers.append(
            Answer(path, answer.status_code, answer.text, self.hand, self.decisions)
        )
        return answer

    def state(self) -> Message:
        answer = self.call("GET", "/api/casino")
        assert answer.status_code == 200, answer.text
        state: Message = answer.json()
        return state

    def deal(self, *antes: int) -> Message:
        answer = self.call("POST", "/api/casino/hands", {"antes": list(antes)})
        assert answer.status_code == 201, answer.text
        hand: Message = answer.json()
        return hand

    def decide(self, hand: Message, action: str, cards: list[str] | None = None) -> Message:
        body: Message = {"box": hand["to_act"], "action": action}
        if cards is not None:
            body["cards"] = cards
        answer = self.call("POST", "/api/casino/hand/decision", body)
        assert answer.status_code == 200, answer.text
        after: Message = answer.json()
        return after


def new_player(server: Server, name: str) -> Player:
    return Player(Api(server.base, name))


#: A box's choice: given the hand and the box's cards, the decision and its cards.
Policy = Callable[[Message, list[str]], tuple[str, list[str] | None]]


def varied(number: int) -> Policy:
    """Decisions that change with the hand's number and the box: a change of two cards,
    a sixth card, a bet or a fold first, then a bet; the dealer's game bought on box 1."""

    def choose(hand: Message, cards: list[str]) -> tuple[str, list[str] | None]:
        legal, box = hand["legal"], hand["to_act"]
        if hand["phase"] == "purchase":
            return ("buy-dealer" if box == 1 and "buy-dealer" in legal else "decline"), None
        first = ["change", "buy", "bet", "fold"][(number + box) % 4]
        if first in legal:
            return first, cards[:2] if first == "change" else None
        return ("bet" if "bet" in legal else "fold"), None

    return choose


def play(player: Player, hand: Message, policy: Policy) -> Message:
    """Plays the hand to its end with ``policy``."""
    while hand["phase"] != "over":
        box = hand["boxes"][hand["to_act"] - 1]
        action, cards = policy(hand, box["cards"])
        hand = player.decide(hand, action, cards)
    return hand


def test_a_whole_hand_is_settled_and_verifies(server: Server) -> None:
    player = new_player(server, "Crupier")
    start = player.state()
    assert start["balance"] == START_BALANCE and start["hand"] is None
    hand = player.deal(10, 5, 2)
    # the commitment shown before the antes were chosen is the hand's
    assert hand["commitment"] == start["next_commitment"]
    assert hand["seed"] is None and hand["dealer"] is None and hand["to_act"] == 1
    assert [box["cards"] is None for box in hand["boxes"]] == [False, True, True]
    assert hand["balance"] == START_BALANCE - 10 - 5 - 2 * 3  # the closed box's bet too
    assert player.state()["next_commitment"] != hand["commitment"]
    hand = play(player, hand, varied(0))
    assert hand["seed"] is not None and len(hand["dealer"]) == 5
    nets = [result["net"] for result in hand["results"]]
    assert hand["net"] == sum(nets) == hand["balance"] - START_BALANCE
    for result in hand["results"]:
        if result["outcome"] == "win":
            assert result["pays"] == result["combination_pays"] + result["second_pays"]
    state = player.state()
    assert state["balance"] == hand["balance"] and state["hand"] is None

    history = player.call("GET", "/api/casino/history").json()["hands"]
    assert [line["id"] for line in history] == [hand["id"]]
    line = history[0]
    assert line["seed"] == hand["seed"] and line["net"] == hand["net"]
    record = player.call("GET", line["record_url"])
    assert line["file"] in record.headers["content-disposition"]
    assert verify_record(record.json())["final_balance"] == hand["balance"]
    assert line["verify"] == f"raspisnoy casino verify {line['file']}"


def test_the_verify_command_checks_a_downloaded_hand(server: Server, tmp_path: Path) -> None:
    player = new_player(server, "Verifier")
    hand = play(player, player.deal(7), varied(1))
    line = player.call("GET", "/api/casino/history").json()["hands"][0]
    path = tmp_path / line["file"]
    path.write_bytes(player.call("GET", line["record_url"]).content)
    command = line["verify"].split()
    done = subprocess.run(
        [sys.executable, "-m", "raspisnoy", *command[1:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert hand["commitment"] in done.stdout


def test_money_is_conserved_over_many_hands(server: Server) -> None:
    player = new_player(server, "Spender")
    for number in range(6):
        antes = [(number * 7 + box) % 20 + 1 for box in range(number % 3 + 1)]
        play(player, player.deal(*antes), varied(number))
    balance = player.state()["balance"]
    history = player.call("GET", "/api/casino/history?limit=100").json()["hands"]
    assert len(history) == 6
    assert sum(line["net"] for line in history) == balance - START_BALANCE
    for line in history:  # the hand's net is the sum of its boxes' nets
        assert line["net"] == sum(result["net"] for result in line["results"])
        assert line["final_balance"] - line["balance"] == line["net"]
    for older, newer in zip(history[1:], history, strict=False):
        assert newer["balance"] == older["final_balance"]  # each starts where the last ended


def casino_of(server: Server) -> Casino:
    """The running app's casino (made at its first casino request), for white-box checks."""
    return server.services.casino


def fold_all(player: Player, *antes: int) -> None:
    play(player, player.deal(*antes), lambda _hand, _cards: ("fold", None))


def test_the_money_rule_and_the_free_refill(server: Server) -> None:
    player = new_player(server, "Bankrupt")
    for _ in range(4):
        fold_all(player, 100, 100)
    fold_all(player, 95, 95)
    assert player.state()["balance"] == 10
    refused = player.call("POST", "/api/casino/hands", {"antes": [5, 5, 1]})  # 11 + 2
    assert refused.status_code == 409 and "balance is 10" in refused.json()["detail"]
    # Ante 5 leaves 5: the bet of 10 is not covered, so the box may only fold.
    hand = player.deal(5)
    assert hand["legal"] == ["fold"]
    state = player.state()
    for action, body, fragment in (
        ("bet", {}, "the bet needs 10 chips"),
        ("buy", {}, "would not cover the bet"),
        ("change", {"cards": hand["boxes"][0]["cards"][:1]}, "would not cover the bet"),
    ):
        decision = {"box": 1, "action": action, **body}
        answer = player.call("POST", "/api/casino/hand/decision", decision)
        assert answer.status_code == 409 and fragment in answer.json()["detail"], answer.text
        assert player.state() == state
    assert player.call("POST", "/api/casino/refill").status_code == 409  # a hand is on
    player.decide(hand, "fold")
    assert player.call("POST", "/api/casino/refill").status_code == 409  # 5 chips left
    fold_all(player, 5)
    state = player.state()
    assert state["balance"] == 0 < REFILL_BELOW and state["can_refill"] and state["refills"] == 0
    refused = player.call("POST", "/api/casino/hands", {"antes": [1]})
    assert refused.status_code == 409 and "balance is 0" in refused.json()["detail"]
    refilled = player.call("POST", "/api/casino/refill").json()
    assert refilled["balance"] == START_BALANCE and refilled["refills"] == 1
    assert not refilled["can_refill"]
    again = player.call("POST", "/api/casino/refill")
    assert again.status_code == 409 and "refill" in again.json()["detail"]
    assert player.state()["balance"] == START_BALANCE
    history = player.call("GET", "/api/casino/history?limit=100").json()["hands"]
    assert sum(line["net"] for line in history) == 0 - START_BALANCE  # before the refill


def test_hints_run_beside_the_event_loop_a_bounded_number_at_a_time(server: Server) -> None:
    """While the advisor's threads are busy, a hint waits, other requests are answered,
    and a second hint of the same player is refused until the first is done; the hint
    values the box's own cards against the up card."""
    player = new_player(server, "Thinker")
    hand = player.deal(10)
    release = threading.Event()
    blockers = [ADVISOR_POOL.submit(release.wait) for _ in range(HINT_THREADS)]
    casino = casino_of(server)
    waiting: list[httpx.Response] = []
    thread = threading.Thread(
        target=lambda: waiting.append(player.call("GET", "/api/casino/hand/hint"))
    )
    thread.start()
    try:
        while player.api.user["id"] not in casino.hinting:
            time.sleep(0.01)
        assert player.state()["hand"] == hand  # the event loop is free meanwhile
        busy = player.call("GET", "/api/casino/hand/hint")
        assert busy.status_code == 429 and "busy" in busy.json()["detail"]
        assert not waiting
    finally:
        release.set()
        for blocker in blockers:
            blocker.result()
        thread.join(HINT_TIMEOUT)
    advice = waiting[0].json()
    assert waiting[0].status_code == 200, advice
    assert advice["cards"] == hand["boxes"][0]["cards"] and advice["up"] == hand["up_card"]
    assert advice["best"] in {option["option"] for option in advice["options"]}
    assert {"fold", "bet", "buy"} <= {option["option"] for option in advice["options"]}
    # the same decision point again: the kept answer
    assert player.call("GET", "/api/casino/hand/hint").json() == advice


def bad_requests(hand: Message) -> Iterator[tuple[str, str, Any, int, str]]:
    """Requests refused while ``hand`` (box 1 to act, three boxes) is in progress: the
    method, path, body, status and a fragment of the explanation."""
    box = hand["boxes"][0]["cards"]
    decision = "/api/casino/hand/decision"
    yield "POST", "/api/casino/hands", {"antes": [5]}, 409, "in progress"
    yield "POST", decision, {"box": 2, "action": "bet"}, 409, "box 2 is not the box to act"
    yield "POST", decision, {"box": 3, "action": "fold"}, 409, "not the box to act"
    yield "POST", decision, {"box": "1", "action": "bet"}, 422, "box"
    yield "POST", decision, {"box": 1, "action": "raise"}, 422, "action"
    yield "POST", decision, {"box": 1}, 422, "action"
    yield "POST", decision, {"box": 1, "action": "bet", "cards": []}, 422, "only a change"
    yield "POST", decision, {"box": 1, "action": "change"}, 422, "names 1 to 5"
    yield "POST", decision, {"box": 1, "action": "change", "cards": []}, 422, "names 1 to 5"
    yield "POST", decision, {"box": 1, "action": "change", "cards": ["ZZ"]}, 422, "not a card"
    yield "POST", decision, {"box": 1, "action": "change", "cards": ["X"]}, 422, "joker"
    twice = [box[0], box[0]]
    yield "POST", decision, {"box": 1, "action": "change", "cards": twice}, 422, "twice"
    six = [*box, box[0]]
    yield "POST", decision, {"box": 1, "action": "change", "cards": six}, 422, "cards"
    # a card of the deck that is not the box's (the last card of the deck not in it)
    other = next(str(card) for card in reversed(DECK) if str(card) not in box)
    yield "POST", decision, {"box": 1, "action": "change", "cards": [other]}, 409, "not in box 1"
    yield "POST", decision, {"box": 1, "action": "buy-dealer"}, 409, "cannot buy the dealer"
    yield "POST", decision, {"box": 1, "action": "decline"}, 409, "cannot decline"
    yield "POST", decision, {"box": 1, "action": "bet", "extra": 1}, 422, "extra"
    yield "POST", decision, "bet", 422, ""
    yield "POST", "/api/casino/refill", None, 409, "refill"
    yield "GET", f"/api/casino/hands/{hand['id']}/record", None, 409, "not over"
    yield "GET", "/api/casino/hands/nonesuch/record", None, 404, "no hand"
    yield "GET", "/api/casino/history?limit=0", None, 422, "limit"


def test_every_illegal_decision_and_malformed_input_is_refused_and_changes_nothing(
    server: Server,
) -> None:
    player = new_player(server, "Tester")
    before = player.state()
    for path, body, fragment in (
        ("/api/casino/hand/decision", {"box": 1, "action": "bet"}, "no hand in progress"),
        ("/api/casino/hands", {"antes": []}, "antes"),
        ("/api/casino/hands", {"antes": [0]}, "ante"),
        ("/api/casino/hands", {"antes": [101]}, "1 to 100"),
        ("/api/casino/hands", {"antes": [1, 2, 3, 4]}, "antes"),
        ("/api/casino/hands", {"antes": ["10"]}, "antes"),
        ("/api/casino/hands", {"antes": [1.5]}, "antes"),
        ("/api/casino/hands", {}, "antes"),
    ):
        answer = player.call("POST", path, body)
        assert answer.status_code in (409, 422), (body, answer.text)
        assert fragment in answer.text, (body, answer.text)
    assert player.call("GET", "/api/casino/hand/hint").status_code == 409
    assert player.state() == before

    hand = player.deal(10, 10, 10)
    state = player.state()
    for method, path, body, status, fragment in bad_requests(hand):
        if isinstance(body, str):
            answer = player.api.http.request(method, path, content=body)
        else:
            answer = player.call(method, path, body)
        assert answer.status_code == status, (path, body, answer.text)
        assert fragment in answer.text, (path, body, answer.text)
        assert player.state() == state, (path, body)
    # after a change, only bet or fold
    box = hand["boxes"][0]["cards"]
    hand = player.decide(hand, "change", box[:1])
    state = player.state()
    for action, body in (("buy", {}), ("change", {"cards": hand["boxes"][0]["cards"][:1]})):
        answer = player.call(
            "POST", "/api/casino/hand/decision", {"box": 1, "action": action, **body}
        )
        assert answer.status_code == 409 and "one buy or change per box" in answer.text
        assert player.state() == state
    # someone else can neither see nor play this hand
    stranger = new_player(server, "Stranger")
    assert stranger.state()["hand"] is None
    assert (
        stranger.call("POST", "/api/casino/hand/decision", {"box": 1, "action": "bet"}).status_code
        == 409
    )
    finished = play(player, hand, varied(2))
    foreign = stranger.call("GET", f"/api/casino/hands/{finished['id']}/record")
    assert foreign.status_code == 404
    anonymous = httpx.get(f"{server.base}/api/casino")
    assert anonymous.status_code == 401


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_hand_in_progress_survives_a_restart(backend: str, tmp_path: Path) -> None:
    settings = FAST.model_copy(update={"data_dir": tmp_path})
    with new_database(backend, tmp_path) as url:
        store = Store.open(url)
        first = Server(store, settings)
        try:
            player = new_player(first, "Survivor")
            hand = player.deal(4, 3)
            hand = player.decide(hand, "change", hand["boxes"][0]["cards"][2:])
        finally:
            first.stop()
            store.close()
        store = Store.open(url)
        second = Server(store, settings)
        try:
            player.api.http.base_url = httpx.URL(second.base)
            state = player.state()
            assert state["hand"] == hand  # the same hand, rebuilt from its stored decisions
            hand = play(player, hand, varied(3))
            assert verify_record(
                player.call("GET", f"/api/casino/hands/{hand['id']}/record").json()
            )
        finally:
            second.stop()
            store.close()


# ------------------------------------------------------------------ no card leaks


def cards_in(text: str) -> set[Card]:
    """Every card named anywhere in an answer: each JSON string, and each word of it
    (``change 8C 9S``), that reads as a card."""
    found: set[Card] = set()

    def visit(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                visit(item)
        elif isinstance(value, list):
            for item in value:
                visit(item)
        elif isinstance(value, str):
            for word in value.replace(",", " ").replace(":", " ").split():
                with contextlib.suppress(ValueError):
                    found.add(Card.parse(word))

    visit(json.loads(text))
    return found


def known_cards(hand: CasinoHand) -> set[Card]:
    """What the player may know of the hand's cards now, from its full state and log (not
    from its view): the dealer's up card; each box's cards once its turn has come (every
    box before it decided), the closed box's and the dealer's once every box is decided;
    every card drawn once it is drawn."""
    known = {hand.up_card}
    deal = hand.events[0].action
    assert isinstance(deal, Deal)
    shown = len(deal.boxes) if hand.phase is not Phase.DECIDE else (hand.to_act or 0) + 1
    for cards in deal.boxes[:shown]:
        known |= set(cards)
    if hand.phase is not Phase.DECIDE:
        known |= set(deal.dealer)
    for event in hand.events[1:]:
        known |= set(event.drawn)
    return known


def test_no_card_or_seed_reaches_the_player_before_it_is_dealt_or_revealed(
    server: Server,
) -> None:
    player = new_player(server, "Watcher")
    antes = [[5], [4, 6], [3, 2, 1], [10, 10], [2, 2, 2], [7], [1, 1], [6, 5, 4]]
    phases: set[str] = set()
    number = 0
    # Eight hands at least, and on until the dealer has failed to qualify in one (about
    # one hand in two) so that purchases are among the answers (30 at most).
    while number < len(antes) or ("purchase" not in phases and number < 30):
        player.state()
        hand = player.deal(*antes[number % len(antes)])
        while hand["phase"] != "over":
            phases.add(hand["phase"])
            player.state()
            if number in (0, 2) or hand["phase"] == "purchase":
                player.call("GET", "/api/casino/hand/hint")
            player.call("POST", "/api/casino/hand/decision", {"box": 9, "action": "bet"})
            box = hand["boxes"][hand["to_act"] - 1]
            action, cards = varied(number)(hand, box["cards"])
            hand = player.decide(hand, action, cards)
        player.call("GET", "/api/casino/history")
        number += 1
    assert "purchase" in phases
    assert {a.path for a in player.answers if a.status == 429} <= {"/api/casino/hand/hint"}
    assert any(a.path == "/api/casino/hand/hint" and a.status == 200 for a in player.answers)

    casino = CasinoStore(server.store)
    rows = {row.id: row for row in casino.history(player.api.user["id"], 100)}
    assert len(rows) == number
    wallet = casino.wallet(player.api.user["id"], START_BALANCE, lambda: "unused")

    def hidden(value: Any, hand_id: str, decisions: int) -> set[Card]:
        """The cards in ``value`` the player could not know of hand ``hand_id`` after
        its first ``decisions`` decisions; its seed, if it is not over, is a failure."""
        row = rows[hand_id]
        record = {
            "format": HAND_FORMAT,
            "antes": list(row.antes),
            "balance": row.balance,
            "actions": list(row.actions[:decisions]),
        }
        full = replay_record(record, row.seed)
        text = json.dumps(value)
        assert full.is_over or row.seed not in text, (hand_id, decisions)
        return cards_in(text) - known_cards(full)

    checked = 0
    for answer in player.answers:
        # the seed of a hand not dealt yet is never shown, only its hash
        number = 0 if answer.hand is None else rows[answer.hand].number
        later = [row.seed for row in rows.values() if row.number > number]
        assert all(seed not in answer.text for seed in [wallet.next_seed, *later]), answer
        body = json.loads(answer.text)
        if answer.path == "/api/casino/history":  # finished hands, each checked as itself
            for line in body["hands"]:
                assert not hidden(line, line["id"], len(rows[line["id"]].actions))
        elif answer.hand is None:
            assert not cards_in(answer.text), answer
        else:
            leaked = hidden(body, answer.hand, answer.decisions)
            assert not leaked, f"{answer.path} after {answer.decisions} decisions: {leaked}"
        checked += 1
    assert checked == len(player.answers) > 50
