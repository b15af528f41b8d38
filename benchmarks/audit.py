"""The long audit of ``raspisnoy serve``, run as a stranger would run it: the real server
in a subprocess, its own clients over loopback, nothing but the public protocol (and the
store, read afterwards, to check what was kept). Three parts, each printing a Rich table:

- ``kill``: tables of people (WebSocket clients acting at once with random legal actions,
  each under a unique id, resent under the same id after a reconnect until acknowledged,
  as docs/PROTOCOL.md says) and bots; the server is SIGKILLed every few seconds and
  restarted on the same port and database; the clients reconnect and carry on. At the
  end every acknowledged action must be stored exactly once, at the version its ``ack``
  named (lost 0, duplicated 0, misplaced 0), and every finished game's record replays.
- ``fuzz``: seeded malformed and hostile inputs against REST and the table WebSocket.
  Each must get an answer (an ``error`` message, a documented close code or a 4xx; never
  a 5xx, silence or a dead server) and none may change the state of the tables under
  test (their version, every seat's view, the table and a score sheet are compared
  before and after each input; an input the server accepts as legal is counted apart).
- ``leaks``: whole games with blind and forehead rounds, three seats played by people,
  a bot, a signed-in spectator and an anonymous one, syncs and reconnects mid-round;
  every message every socket receives and the REST routes as each kind of caller are
  checked with the leak checker of the tests (tests/server/leak_check.py) against the
  full game state rebuilt from the store.

The per-address and per-user abuse limits are lifted by environment variables (one
address plays every client here), as in benchmarks/soak.py. Short forms run in a minute
or two; the long forms of the audit of issue 15 are ``kill --kills 70``, ``leaks --games
40`` (about 40,000 messages) and ``fuzz --inputs 2000``:

    .venv/bin/python benchmarks/audit.py kill [--kills 10] [--interval 3] [--tables 3]
        [--people 2] [--database sqlite|postgresql] [--seed 1] [--json out.json]
    .venv/bin/python benchmarks/audit.py fuzz [--inputs 300] [--seed 1] [--json out.json]
    .venv/bin/python benchmarks/audit.py leaks [--games 2] [--rest-every 4] [--seed 1]
        [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import connect as connect_sync

from figures import print_figures
from soak import LIFTED_LIMITS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from fresh_databases import new_database
from leak_check import EVERY_KIND, check, check_rest, states_of
from server_helpers import TEST_SECRET, Api, Player
from server_process import ServerProcess

from raspisnoy.core import loads_record, replay
from raspisnoy.store import Store

Message = dict[str, Any]

#: Besides soak's lifted limits: clients here act at bot speed and hold many seats.
AUDIT_LIMITS = {
    **LIFTED_LIMITS,
    "RASPISNOY_MESSAGES_PER_SECOND": "100000",
    "RASPISNOY_MESSAGE_BURST": "100000",
    "RASPISNOY_MAX_OPEN_TABLES_PER_USER": "1000000",
    "RASPISNOY_MAX_GAMES_PER_USER": "1000000",
    "RASPISNOY_MAX_SOCKETS_PER_TABLE": "1000",
}


@contextmanager
def running_server(database: str) -> Iterator[tuple[ServerProcess, str]]:
    """A started server on a fresh database (a SQLite file, or a PostgreSQL schema that
    is dropped afterwards), and the database's URL; the server is stopped at the end."""
    with tempfile.TemporaryDirectory() as folder, new_database(database, Path(folder)) as url:
        env = {**AUDIT_LIMITS, "RASPISNOY_SECRET_KEY": TEST_SECRET}
        log = Path(folder) / "server.log"
        server = ServerProcess("--database-url", url, env=env, log=log, startup_seconds=120)
        server.start()
        try:
            yield server, url
        finally:
            server.stop()


# ----------------------------------------------------------------------------- kill


@dataclass(slots=True)
class Person:
    """One person's client: its seat, and what the server acknowledged of its actions."""

    table_id: str
    seat: int
    token: str
    rng: random.Random
    acked: dict[str, tuple[int, str]] = field(default_factory=dict)  # id: (version, action)
    pending: tuple[str, str] | None = None  # sent, not yet acknowledged: (id, action)
    sent: int = 0
    version: int = -1
    acked_version: int = -1
    game: Message | None = None
    refused: Counter[str] = field(default_factory=Counter)
    resent: int = 0  # actions sent again on a new connection
    acked_as_duplicate: int = 0  # of those, applied before the kill (ack duplicate: true)
    dropped_at: float | None = None
    pauses: list[float] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return bool(self.game and self.game["phase"] == "over")

    def next_message(self) -> Message | None:
        """The ``act`` to send now, if it is this seat's turn and nothing is pending."""
        game = self.game
        if self.pending or game is None or self.version < self.acked_version:
            return None
        if game["to_act"] != self.seat or not game["legal"]:
            return None
        self.pending = (f"s{self.seat}-{self.sent}", self.rng.choice(game["legal"]))
        self.sent += 1
        return self.act_message()

    def act_message(self) -> Message:
        assert self.pending is not None
        return {"type": "act", "id": self.pending[0], "action": self.pending[1]}

    def receive(self, message: Message) -> Message | None:
        """Take in one server message; the message to send in answer, if any."""
        kind = message["type"]
        if kind in ("state", "event"):
            self.version, self.game = message["version"], message["game"]
            if kind == "state" and self.dropped_at is not None:
                self.pauses.append(time.monotonic() - self.dropped_at)
                self.dropped_at = None
        elif kind == "ack" and self.pending and message["id"] == self.pending[0]:
            self.acked[message["id"]] = (message["version"], self.pending[1])
            self.acked_as_duplicate += message["duplicate"]
            self.acked_version = message["version"]
            self.pending = None
        elif kind == "error" and self.pending and message.get("id") == self.pending[0]:
            if message["code"] == "storage_failed":  # nothing changed: try again
                return self.act_message()
            self.refused[message["code"]] += 1  # e.g. a stand-in acted while we were away
            self.pending = None
        return self.next_message()


async def play_person(ws_base: str, person: Person) -> None:
    """Play the seat to the end of the game, reconnecting whenever the server goes away;
    an action not yet acknowledged is resent under its id on every new connection."""
    url = f"{ws_base}/ws/tables/{person.table_id}?token={person.token}"
    while not person.over:
        try:
            async with connect(url, open_timeout=5, close_timeout=1, max_queue=None) as ws:
                if person.pending:
                    person.resent += 1
                    await ws.send(json.dumps(person.act_message()))
                async for raw in ws:
                    answer = person.receive(json.loads(raw))
                    if answer is not None:
                        await ws.send(json.dumps(answer))
                    if person.over:
                        return
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
            pass
        if person.dropped_at is None:
            person.dropped_at = time.monotonic()
        await asyncio.sleep(0.05)


async def until_answered(
    http: httpx.AsyncClient, method: str, path: str, **options: Any
) -> httpx.Response:
    """A REST call, retried while the server is down (it is being killed)."""
    while True:
        try:
            answer = await http.request(method, path, **options)
            if answer.status_code < 500:
                return answer
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)


@dataclass(slots=True)
class KillRun:
    """What the kill audit played: every person of every game, and the finished games."""

    people: list[Person] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)


async def play_tables(
    http: httpx.AsyncClient, tokens: list[str], options: Message, run: KillRun, seed: int
) -> None:
    """Open a table for these people (the first is the host; bots fill the other seats),
    play it to the end, and open the next, until the killing is over."""
    auth = [{"authorization": f"Bearer {token}"} for token in tokens]
    ws_base = str(http.base_url).rstrip("/").replace("http://", "ws://")
    while not run.stop.is_set():
        created = await until_answered(http, "POST", "/api/tables", json=options, headers=auth[0])
        created.raise_for_status()
        table_id = created.json()["id"]
        for seat, headers in enumerate(auth[1:], 1):
            path = f"/api/tables/{table_id}/sit"
            sat = await until_answered(http, "POST", path, json={"seat": seat}, headers=headers)
            assert sat.status_code in (200, 409), sat.text
        path = f"/api/tables/{table_id}/start"
        started = await until_answered(http, "POST", path, headers=auth[0])
        assert started.status_code in (200, 409), started.text  # 409: started before a kill
        rng = random.Random(f"{seed}-{table_id}")
        people = [Person(table_id, seat, token, rng) for seat, token in enumerate(tokens)]
        run.people += people
        await asyncio.gather(*(play_person(ws_base, person) for person in people))
        run.finished.append(table_id)


async def kill_repeatedly(
    server: ServerProcess, kills: int, interval: float, rng: random.Random
) -> None:
    """SIGKILL the server ``kills`` times, at 0.5 to 1.5 × ``interval`` apart, restarting it
    on the same port and database each time."""
    for _ in range(kills):
        await asyncio.sleep(interval * rng.uniform(0.5, 1.5))
        server.kill()
        await asyncio.to_thread(server.start)


async def kill_audit(server: ServerProcess, args: argparse.Namespace) -> KillRun:
    plan = {"preset": "raspisnoy.com", "custom_plan": (args.plan or "").split(",")}
    rules = EVERY_KIND if args.plan is None else plan
    options = {
        "rules": rules,
        "players": 4,
        "bots": "random",
        "stand_in": "random",
        "turn_seconds": 60,  # people keep their turn over a restart
        "bot_delay_ms": args.bot_delay_ms,
        "public": False,
    }
    run = KillRun()
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        tokens = []
        for number in range(args.tables * args.people):
            session = await http.post("/api/session", json={"nickname": f"Audit {number}"})
            session.raise_for_status()
            tokens.append(session.json()["token"])
        groups = [tokens[i : i + args.people] for i in range(0, len(tokens), args.people)]
        players = [
            asyncio.create_task(play_tables(http, group, options, run, args.seed))
            for group in groups
        ]
        await kill_repeatedly(server, args.kills, args.interval, random.Random(args.seed))
        run.stop.set()  # the games in progress are played to the end
        await asyncio.gather(*players)
        for table_id in run.finished:
            record = await http.get(f"/api/games/{table_id}/record")
            record.raise_for_status()
            assert replay(loads_record(record.text)).is_over, f"{table_id}: the record is not over"
    return run


def check_stored(store: Store, run: KillRun) -> Counter[str]:
    """Every acknowledged action stored exactly once at its acknowledged version."""
    counts: Counter[str] = Counter()
    tables = {person.table_id for person in run.people}
    for table_id in tables:
        events = store.events_of(table_id)
        assert [event.seq for event in events] == list(range(1, len(events) + 1)), table_id
        by_id: dict[str, list[Any]] = {}
        for event in events:
            if event.client_id is not None:
                by_id.setdefault(f"{event.seat}/{event.client_id}", []).append(event)
        for person in (p for p in run.people if p.table_id == table_id):
            for client_id, (version, action) in person.acked.items():
                stored = by_id.get(f"{person.seat}/{client_id}", [])
                counts["acknowledged"] += 1
                if not stored:
                    counts["lost"] += 1
                elif len(stored) > 1:
                    counts["duplicated"] += 1
                elif (stored[0].seq, stored[0].action) != (version, action):
                    counts["misplaced"] += 1
        counts["stored"] += len(events)
    return counts


def kill_command(args: argparse.Namespace) -> None:
    started = time.monotonic()
    with running_server(args.database) as (server, url):
        run = asyncio.run(kill_audit(server, args))
        server.stop()
        store = Store.open(url, migrate=False)
        try:
            counts = check_stored(store, run)
        finally:
            store.close()
    refused = sum((person.refused for person in run.people), Counter())
    pauses = [pause for person in run.people for pause in person.pauses]
    figures = {
        "database": args.database,
        "kills": args.kills,
        "interval_s": args.interval,
        "tables_at_once": args.tables,
        "people_per_table": args.people,
        "actions_acknowledged": counts["acknowledged"],
        "lost": counts["lost"],
        "duplicated": counts["duplicated"],
        "misplaced": counts["misplaced"],
        "actions_stored": counts["stored"],
        "resent_after_reconnect": sum(person.resent for person in run.people),
        "acked_as_duplicate": sum(person.acked_as_duplicate for person in run.people),
        "refused": sum(refused.values()),
        "refused_by_code": dict(refused),
        "reconnects": len(pauses),
        "longest_pause_s": round(max(pauses, default=0.0), 2),
        "games_finished": len(run.finished),
        "seconds": round(time.monotonic() - started, 1),
    }
    figures["ok"] = counts["lost"] == counts["duplicated"] == counts["misplaced"] == 0
    print_figures(f"SIGKILL audit ({args.database})", figures, args.json)


# ----------------------------------------------------------------------------- fuzz


class Fuzz:
    """The tables under test and the inputs thrown at them.

    A game waits for seat 1 (a person who never acts; turn timer 600 s, so nothing moves
    by itself); seat 0 (``me``) is the client that sends most inputs, seats 2 and 3 are
    bots. A second table, open, belongs to the other person; the host owns a score sheet.
    """

    def __init__(self, base: str, rng: random.Random) -> None:
        self.base, self.rng = base, rng
        self.host, self.other = Api(base, "Host"), Api(base, "Other")
        self.stranger = Api(base, "Stranger")
        table = self.host.create_table(bots="random", bot_delay_ms=0, turn_seconds=600)
        self.table = table["id"]
        self.other.post(f"/api/tables/{self.table}/sit", seat=1).raise_for_status()
        self.me, self.blocker = self.host.socket(self.table), self.other.socket(self.table)
        self.watcher = Api(base).socket(self.table)
        for player in (self.me, self.blocker, self.watcher):
            player.recv()
        self.host.post(f"/api/tables/{self.table}/start").raise_for_status()
        self.used_ids: list[tuple[str, str]] = []
        self.sent = ""  # what the last input sent, for the report
        self.acked_version = 0  # the version of the last ack an input got
        self.reach_seat_one()
        self.second = self.other.create_table()["id"]
        sheet = self.host.post(
            "/api/sheets",
            format="raspisnoy-sheet/1",
            rules="raspisnoy.com",
            players=["Anna", "Boris", "Vera"],
            first_dealer=0,
            rounds=[],
        )
        sheet.raise_for_status()
        self.sheet = sheet.json()["id"]
        self.options = self.host.http.get("/api/rules").json()["options"]

    def reach_seat_one(self, seen: int = 0) -> None:
        """Play seats 0 and 1 (random legal actions) until seat 0 has acted and seat 1 is
        to act, keeping seat 0's ids and actions (to reuse them). ``seen``: a version the
        server has reached (seat 0's view must catch up to it first)."""
        me, acted = self.me, -1
        while me.game is None or me.version < seen:
            me.recv()
        while True:
            game = me.game
            if not (game and game["to_act"] in (0, 1) and me.version > acted):
                me.recv()  # bots are acting, or our last action is not seen yet
                continue
            if game["to_act"] == 1 and self.used_ids:
                break
            actor = me if game["to_act"] == 0 else self.blocker
            while actor.game is None or actor.version < me.version:
                actor.recv()
            acted = me.version
            sent = (f"v{acted}", self.rng.choice(actor.game["legal"]))
            actor.send({"type": "act", "id": sent[0], "action": sent[1]})
            assert actor.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            if actor is me:
                self.used_ids.append(sent)
        while self.blocker.game is None or self.blocker.version < me.version:
            self.blocker.recv()

    def snapshot(self) -> Any:
        """The state under test: both seats' version and view, both tables (without who
        is connected, which fuzzing sockets may change) and the sheet."""
        views = []
        for player in (self.me, self.blocker):
            player.send({"type": "sync"})
            state = player.recv_until(lambda m: m["type"] == "state")
            views.append((state["version"], state["game"]))
        tables = []
        for table_id in (self.table, self.second):
            table = self.stranger.http.get(f"/api/tables/{table_id}").json()
            for seat in table["seats"]:
                seat.pop("connected", None)
            tables.append(table)
        sheet = self.host.http.get(f"/api/sheets/{self.sheet}").json()
        return views, tables, sheet

    # Each input sends one thing and returns how it was answered ("ws error bad_json",
    # "http 422", ...). The WebSocket inputs go out on a seated socket or the watcher's.

    def answer_of(self, player: Player, message: Message | str | bytes) -> str:
        self.sent = f"ws {message!r:.160}"
        if isinstance(message, bytes):
            player.ws.send(message)
        else:
            player.send(message)
        try:
            answer = player.recv_until(lambda m: m["type"] in ("error", "ack"), timeout=10)
        except TimeoutError:
            return "ws no answer"
        if answer["type"] == "ack":
            self.acked_version = answer["version"]
            return "ws ack duplicate" if answer["duplicate"] else "ws ack (legal)"
        return f"ws error {answer['code']}"

    def close_of(self, url_tail: str, message: str | None = None) -> str:
        """Open a new socket (``url_tail`` after the table path), send ``message``; how it
        was closed (or ``ws open`` if it was not)."""
        self.sent = f"ws connect {url_tail:.120} {message!r:.80}"
        url = self.base.replace("http://", "ws://") + url_tail
        try:
            with connect_sync(url, open_timeout=10, proxy=None) as ws:
                if message is not None:
                    ws.send(message)
                while True:
                    ws.recv(timeout=10)
        except ConnectionClosed as closed:
            return f"ws close {closed.rcvd.code if closed.rcvd else 'none'}"
        except TimeoutError:
            return "ws open"
        except InvalidStatus as refused:
            return f"ws refused http {refused.response.status_code}"

    def garbage(self) -> str:
        pieces = ["{", '{"type": "act",', "nul", "[", '"', "{'type': 'ping'}", "\x00", "}{"]
        length = self.rng.randint(0, 60)
        noise = "".join(chr(self.rng.randint(1, 0x2FFF)) for _ in range(length))
        return self.rng.choice(pieces) + noise

    def huge_number(self) -> Any:
        return self.rng.choice(
            [
                10 ** self.rng.randint(19, 300),
                -(10 ** self.rng.randint(19, 300)),
                1e308,
                -1e308,
                2**63,
                -(2**63) - 1,
            ]
        )

    def odd_value(self) -> Any:
        return self.rng.choice(
            [
                None,
                True,
                [],
                {},
                [1, 2],
                {"a": 1},
                "",
                "x" * self.rng.randint(1, 3000),
                -1,
                0.5,
                self.huge_number(),
            ]
        )

    def not_legal(self) -> str:
        """An action for seat 1 that is not one of its ``legal`` strings."""
        legal = set(self.blocker.game["legal"]) if self.blocker.game else set()
        candidates = [
            "0",
            "1",
            "2",
            "9",
            "36",
            "-1",
            " 1",
            "01",
            "kd",
            "KD",
            "6S",
            "AH",
            "X",
            "X:take",
            "X:discard:S",
            "X:highest:H",
            "control:blind:1",
            "10S",
            "TS",
            "",
            "pass",
        ]
        return self.rng.choice([c for c in candidates if c not in legal])

    def inputs(self) -> list[tuple[str, Callable[[], str]]]:
        """Every kind of input: its name and a function that sends one of that kind."""
        rng, me, blocker, watcher = self.rng, self.me, self.blocker, self.watcher
        types = ["act", "sync", "back", "ping"]
        return [
            ("bad json", lambda: self.answer_of(me, self.garbage())),
            ("not an object", lambda: self.answer_of(me, json.dumps(self.odd_value()))),
            ("no type", lambda: self.answer_of(me, {"id": "a", "action": "1"})),
            (
                "unknown type",
                lambda: self.answer_of(me, {"type": rng.choice(["play", "", "ACT", "bid", "Act"])}),
            ),
            (
                "unknown field",
                lambda: self.answer_of(
                    me,
                    {
                        "type": rng.choice(types),
                        rng.choice(["extra", "table", "version", "Seat"]): self.odd_value(),
                    },
                ),
            ),
            (
                "wrong type of id",
                lambda: self.answer_of(
                    me,
                    {"type": "act", "id": rng.choice([5, None, [], {}, True, ""]), "action": "1"},
                ),
            ),
            (
                "wrong type of action",
                lambda: self.answer_of(
                    blocker, {"type": "act", "id": f"t{rng.random()}", "action": self.odd_value()}
                ),
            ),
            (
                "wrong type of seat",
                lambda: self.answer_of(
                    blocker,
                    {
                        "type": "act",
                        "id": f"t{rng.random()}",
                        "action": self.blocker_legal(),
                        "seat": rng.choice(["1", None, [], 1.5, True]),
                    },
                ),
            ),
            (
                "huge number",
                lambda: self.answer_of(
                    blocker,
                    {
                        "type": "act",
                        "id": f"h{rng.random()}",
                        "action": str(self.huge_number()),
                        "seat": self.huge_number(),
                    },
                ),
            ),
            (
                "huge id",
                lambda: self.answer_of(
                    me, {"type": "act", "id": "i" * rng.randint(65, 3000), "action": "1"}
                ),
            ),
            (
                "huge string",
                lambda: self.answer_of(
                    blocker, {"type": "act", "id": "s", "action": "K" * rng.randint(100, 3900)}
                ),
            ),
            (
                "oversized message",
                lambda: self.close_of(
                    f"/ws/tables/{self.table}",
                    json.dumps({"type": "ping", "pad": "x" * rng.randint(4097, 200_000)}),
                ),
            ),
            (
                "wrong seat",
                lambda: self.answer_of(
                    me,
                    {
                        "type": "act",
                        "id": f"w{rng.random()}",
                        "action": "1",
                        "seat": rng.choice([1, 2, 3, 4, -1, 99]),
                    },
                ),
            ),
            (
                "out of turn",
                lambda: self.answer_of(
                    me,
                    {
                        "type": "act",
                        "id": f"o{rng.random()}",
                        "action": rng.choice((me.game or {}).get("hand") or ["0", "1"]),
                    },
                ),
            ),
            (
                "not in legal",
                lambda: self.answer_of(
                    blocker, {"type": "act", "id": f"n{rng.random()}", "action": self.not_legal()}
                ),
            ),
            (
                "reused id, other action",
                lambda: self.answer_of(
                    me, {"type": "act", "id": self.reused()[0], "action": self.reused_other()}
                ),
            ),
            (
                "reused id, same action",
                lambda: self.answer_of(
                    me, {"type": "act", "id": (used := self.reused())[0], "action": used[1]}
                ),
            ),
            (
                "spectator acts",
                lambda: self.answer_of(
                    watcher,
                    {"type": rng.choice(["act", "back"]), "id": "x", "action": self.blocker_legal()}
                    if rng.random() < 0.5
                    else {"type": "back"},
                ),
            ),
            (
                "binary frame",
                lambda: self.answer_of(me, rng.randbytes(rng.randint(0, 200)) or b"\x00"),
            ),
            ("no such table (socket)", lambda: self.close_of(f"/ws/tables/{self.random_id()}")),
            (
                "bad token (socket)",
                lambda: self.close_of(f"/ws/tables/{self.table}?token={self.random_id()}"),
            ),
            (
                "bad session body",
                lambda: self.rest("post", "/api/session", self.stranger, self.bad_nickname_body()),
            ),
            (
                "bad nickname change",
                lambda: self.rest("patch", "/api/session", self.stranger, self.bad_nickname_body()),
            ),
            (
                "bad rule options",
                lambda: self.rest(
                    "post", "/api/tables", self.stranger, {"rules": self.bad_rules()}
                ),
            ),
            (
                "bad table fields",
                lambda: self.rest("post", "/api/tables", self.stranger, self.bad_table_fields()),
            ),
            (
                "bad seat",
                lambda: self.rest(
                    "post",
                    f"/api/tables/{rng.choice([self.table, self.second])}/sit",
                    self.stranger,
                    {"seat": rng.choice([0, 1, -1, 4, 99, "1", None, self.huge_number()])},
                ),
            ),
            (
                "start another's table",
                lambda: self.rest(
                    "post",
                    f"/api/tables/{self.second}/start",
                    rng.choice([self.host, self.stranger]),
                    None,
                ),
            ),
            (
                "start a started table",
                lambda: self.rest(
                    "post",
                    f"/api/tables/{self.table}/start",
                    rng.choice([self.host, self.other]),
                    None,
                ),
            ),
            (
                "leave a table not sat at",
                lambda: self.rest(
                    "post",
                    f"/api/tables/{rng.choice([self.table, self.second])}/leave",
                    self.stranger,
                    None,
                ),
            ),
            (
                "unknown ids",
                lambda: self.rest(
                    "get",
                    rng.choice(
                        [
                            "/api/tables/{}",
                            "/api/games/{}/score",
                            "/api/games/{}/record",
                            "/api/sheets/{}",
                            "/api/sheets/shared/{}",
                        ]
                    ).format(self.random_id()),
                    rng.choice([self.stranger, self.host]),
                    None,
                ),
            ),
            (
                "other's sheet",
                lambda: self.rest(
                    rng.choice(["get", "post"]),
                    f"/api/sheets/{self.sheet}" + rng.choice(["", "/entries", "/undo"]),
                    self.stranger,
                    {"entry": "bid", "seat": 0, "value": 0},
                ),
            ),
            (
                "bad sheet entry",
                lambda: self.rest(
                    "post", f"/api/sheets/{self.sheet}/entries", self.host, self.bad_entry()
                ),
            ),
            (
                "bad sheet",
                lambda: self.rest(
                    "post",
                    "/api/sheets",
                    self.stranger,
                    {
                        "format": rng.choice(["raspisnoy-sheet/1", "x", 5]),
                        "rules": rng.choice(["raspisnoy.com", "nosuch", self.odd_value()]),
                        "players": rng.choice([[], ["A"], ["A"] * 9, self.odd_value()]),
                        "first_dealer": rng.choice([-1, 7, self.huge_number()]),
                        "rounds": self.odd_value(),
                    },
                ),
            ),
            (
                "raw body",
                lambda: self.raw(
                    rng.choice(
                        [
                            "/api/session",
                            "/api/tables",
                            f"/api/tables/{self.second}/sit",
                            "/api/sheets",
                        ]
                    )
                ),
            ),
            (
                "bad bearer token",
                lambda: self.rest(
                    "get",
                    rng.choice(["/api/session", "/api/me/games", "/api/sheets"]),
                    Api(self.base),
                    None,
                    token=self.random_id(),
                ),
            ),
        ]

    def blocker_legal(self) -> str:
        return self.rng.choice(self.blocker.game["legal"]) if self.blocker.game else "1"

    def reused(self) -> tuple[str, str]:
        return self.rng.choice(self.used_ids)

    def reused_other(self) -> str:
        return self.rng.choice(["0", "1", "2", "KD", "6S", "X:take"])

    def random_id(self) -> str:
        return self.rng.choice(
            [
                "".join(
                    self.rng.choices(
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", k=16
                    )
                ),
                "x" * self.rng.randint(100, 3000),
                "%00",
                "..%2F..%2Fetc",
                "%D1%82%D0%B0%D0%B1",
                "0",
            ]
        )

    def bad_nickname_body(self) -> Any:
        return self.rng.choice(
            [
                {
                    "nickname": self.rng.choice(
                        ["", " ", "a", "!!!", "x" * 25, "a\x00b", "-ab", "x" * 5000, "<script>"]
                    )
                },
                {"nickname": self.odd_value()},
                {},
                {"name": "Anna"},
                self.odd_value(),
            ]
        )

    def bad_rules(self) -> Any:
        """Rules with one option out of its bounds, of a wrong type, or unknown."""
        option = self.rng.choice(self.options)
        value = self.rng.choice([self.huge_number(), -(10**9), "many", [1], {"a": 1}, None, 1.5])
        if self.rng.random() < 0.2:
            return self.rng.choice(
                ["nosuch", 5, "", {"preset": "nosuch"}, {"preset": "raspisnoy.com", "nosuch": 1}]
            )
        return {"preset": "raspisnoy.com", option["name"]: value}

    def bad_table_fields(self) -> Any:
        name, value = self.rng.choice(
            [
                ("players", self.rng.choice([0, 1, 2, 6, 10, "4", self.huge_number()])),
                ("turn_seconds", self.rng.choice([-1, 1, 4, 601, 1e9, self.huge_number(), "30"])),
                ("bot_delay_ms", self.rng.choice([-1, 10001, self.huge_number(), "800"])),
                ("bots", self.rng.choice(["nosuch", ["random"] * 9, 5, [None], ""])),
                ("stand_in", self.rng.choice(["nosuch", 5, None, ""])),
                ("public", self.rng.choice(["yes", 5, [], None])),
                ("seat", 3),
                ("id", "mine"),
            ]
        )
        return {name: value}

    def bad_entry(self) -> Any:
        return self.rng.choice(
            [
                {
                    "entry": "bid",
                    "seat": self.rng.choice([-1, 3, 99, self.huge_number()]),
                    "value": 0,
                },
                {
                    "entry": "bid",
                    "seat": 1,
                    "value": self.rng.choice([-1, 2, 99, self.huge_number(), 0.5, "1"]),
                },
                {"entry": self.rng.choice(["nope", "", None, 5]), "seat": 1, "value": 0},
                {"entry": "control", "kind": "nosuch", "dealer": 0},
                {"entry": "taken", "seat": 1, "value": 0},
                self.odd_value(),
            ]
        )

    def rest(self, method: str, path: str, caller: Api, body: Any, token: str | None = None) -> str:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        kwargs: dict[str, Any] = {} if body is None else {"json": body}
        self.sent = f"{method.upper()} {path:.120} {body!r:.160}"
        answer = caller.http.request(method.upper(), path, headers=headers, **kwargs)
        return f"http {answer.status_code}"

    def raw(self, path: str) -> str:
        """A body that is not JSON, or not UTF-8, under a JSON or another content type (on
        a connection of its own: the server may drop one after a 500)."""
        content = self.rng.choice(
            [self.garbage().encode(), self.rng.randbytes(50), b"", b"\xff\xfe"]
        )
        kind = self.rng.choice(["application/json", "text/plain", "multipart/form-data"])
        self.sent = f"POST {path} {kind} {content!r:.120}"
        headers = {"content-type": kind, "authorization": f"Bearer {self.stranger.token}"}
        answer = httpx.post(self.base + path, content=content, headers=headers, timeout=10)
        return f"http {answer.status_code}"


#: The parts of ``Fuzz.snapshot()``, to say which one an input changed.
SNAPSHOT = ("the seats' versions and views", "the tables", "the sheet")


def legal_answer(answer: str) -> bool:
    """Inputs the server rightly accepted: they may make new objects (a guest, a table)."""
    return answer == "ws ack (legal)" or answer.startswith("http 2")


def fuzz_command(args: argparse.Namespace) -> None:
    started = time.monotonic()
    rng = random.Random(args.seed)
    answers: Counter[str] = Counter()
    changes: list[str] = []
    failures: list[str] = []
    accepted: list[str] = []
    crashes = 0
    with running_server("sqlite") as (server, _url):
        fuzz = Fuzz(server.url, rng)
        kinds = fuzz.inputs()
        before = fuzz.snapshot()
        for number in range(args.inputs):
            name, send = rng.choice(kinds)
            try:
                answer = send()
            except (ConnectionClosed, httpx.TransportError) as error:
                answer = f"dropped: {type(error).__name__}"
            answers[answer] += 1
            said = f"input {number} ({name}): {answer} to {fuzz.sent}"
            answered = answer.startswith(
                ("ws error", "ws close 100", "ws close 44", "ws ack duplicate", "ws refused http 4")
            )
            answered |= answer.startswith("http 4") or legal_answer(answer)
            if not answered:
                failures.append(said)
            if legal_answer(answer):
                accepted.append(said)
                if answer == "ws ack (legal)":  # the game moved on: wait for seat 1 again
                    fuzz.reach_seat_one(fuzz.acked_version)
            if not server.alive():
                crashes += 1
                failures.append(f"input {number} ({name}): the server died")
                break
            after = fuzz.snapshot()
            if after != before and not legal_answer(answer):
                parts = [part for part, a, b in zip(SNAPSHOT, after, before, strict=True) if a != b]
                changes.append(f"{said}: changed {', '.join(parts)}")
            before = after
    figures = {
        "inputs": sum(answers.values()),
        "kinds_of_input": len(kinds),
        "answers": dict(answers.most_common()),
        "http_5xx": sum(n for a, n in answers.items() if a.startswith("http 5")),
        "unanswered": len(failures) - crashes,
        "crashes": crashes,
        "state_changes": len(changes),
        "accepted_as_legal": sum(n for a, n in answers.items() if legal_answer(a)),
        "failures": failures[:20],
        "changes": changes[:20],
        "accepted": accepted[:20],
        "seed": args.seed,
        "seconds": round(time.monotonic() - started, 1),
    }
    figures["ok"] = not failures and not changes
    print_figures("fuzz audit", figures, args.json)
    table = Table(title="answers by kind")
    table.add_column("answer")
    table.add_column("count", justify="right")
    for answer, count in answers.most_common():
        table.add_row(answer, str(count))
    Console().print(table)
    for line in [*failures[:20], *changes[:20], *(f"accepted: {a}" for a in accepted[:20])]:
        Console().print(line)


# ----------------------------------------------------------------------------- leaks

#: People at seats 0 to 2, a bot at seat 3.
PEOPLE = 3


@dataclass(slots=True)
class LeakGame:
    """One game's sockets and REST answers, checked once it is over."""

    sockets: list[Player]  # seats 0 to 2, then the signed-in spectator, then the anonymous one
    seats: dict[int, int | None]  # id(socket): its seat
    retired: list[Player] = field(default_factory=list)  # sockets closed by a reconnect
    answers: list[tuple[int, str, Any, int | None]] = field(default_factory=list)
    syncs: int = 0
    hidden_reconnects: int = 0  # reconnects while a blind or forehead round is bid


def ask_routes(
    game: LeakGame, callers: list[tuple[Api, int | None]], routes: list[str], version: int
) -> None:
    """Ask every route as every caller, keeping the answers to check at ``version``."""
    for person, seat in callers:
        for path in routes:
            got = person.http.get(path)
            if got.status_code != 401:  # /api/me/games needs a session
                assert got.status_code == 200, (path, got.text)
                game.answers.append((version, path, got.json(), seat))


def leak_game(base: str, rng: random.Random, number: int, rest_every: int) -> tuple[str, LeakGame]:
    """Play one game in lock step: at each moment a person is to act (so nothing moves),
    every socket catches up, some sync, one reconnects now and then (always in blind and
    forehead bidding), the REST routes are asked as each caller every ``rest_every``
    moments, and the person to act plays a random legal action."""
    people = [Api(base, f"Leak {number}-{seat}") for seat in range(PEOPLE)]
    watcher, stranger = Api(base, f"Watch {number}"), Api(base)
    table_id = people[0].create_table(
        rules=EVERY_KIND, bots="random", bot_delay_ms=0, turn_seconds=600
    )["id"]
    for seat, person in enumerate(people[1:], 1):
        person.post(f"/api/tables/{table_id}/sit", seat=seat).raise_for_status()
    sockets = [person.socket(table_id) for person in people] + [
        watcher.socket(table_id),
        stranger.socket(table_id),
    ]
    game = LeakGame(
        sockets, {id(s): seat for s, seat in zip(sockets, [0, 1, 2, None, None], strict=True)}
    )
    for player in sockets:
        player.recv()
    people[0].post(f"/api/tables/{table_id}/start").raise_for_status()
    callers: list[tuple[Api, int | None]] = [*zip(people, range(PEOPLE), strict=True)]
    callers += [(watcher, None), (stranger, None)]
    routes = [f"/api/games/{table_id}/score", f"/api/games/{table_id}/record"]
    routes += [f"/api/tables/{table_id}", "/api/tables", "/api/me/games"]
    acted, moment = -1, 0
    anonymous = game.sockets[-1]
    while True:
        while not (
            anonymous.game
            and anonymous.version > acted
            and (anonymous.game["phase"] == "over" or anonymous.game["to_act"] < PEOPLE)
        ):
            anonymous.recv()
        version, view = anonymous.version, anonymous.game
        for player in game.sockets:
            while player.game is None or player.version < version:  # the start is version 0 too
                player.recv()
        if moment % rest_every == 0:
            ask_routes(game, callers, routes, version)
        for player in game.sockets:
            if rng.random() < 0.2:
                player.send({"type": "sync"})
                player.recv_until(lambda m: m["type"] == "state")
                game.syncs += 1
        hidden_bidding = view["kind"] in ("blind", "forehead") and view["phase"] == "bid"
        if rng.random() < (0.5 if hidden_bidding else 0.05):
            moved = rng.randrange(PEOPLE)
            game.retired.append(game.sockets[moved])
            game.hidden_reconnects += hidden_bidding
            game.sockets[moved].close()
            game.sockets[moved] = people[moved].socket(table_id)
            game.seats[id(game.sockets[moved])] = moved
            game.sockets[moved].recv_until(lambda m: m["type"] == "state")
        if view["phase"] == "over":
            return table_id, game
        mover = game.sockets[view["to_act"]]
        assert mover.game is not None and mover.game["legal"], mover.game
        mover.send({"type": "act", "id": f"m{version}", "action": rng.choice(mover.game["legal"])})
        assert mover.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        acted, moment = version, moment + 1


def check_leak_game(
    store: Store, table_id: str, game: LeakGame, leaks: list[str]
) -> tuple[int, int]:
    """Check every message and REST answer of one game; (messages, answers) checked."""
    row, events = store.get_table(table_id), store.events_of(table_id)
    states = states_of(row, events)
    messages = 0
    for player in [*game.retired, *game.sockets]:
        seat = game.seats[id(player)]
        for message in player.messages:
            if "version" in message and message["type"] not in ("ack", "pong"):
                messages += 1
                try:
                    check(message, seat, states, events)
                except AssertionError as leak:
                    leaks.append(f"{table_id}: {leak}")
        player.close()
    for version, path, answer, seat in game.answers:
        try:
            check_rest(path, answer, seat, states[version])
        except AssertionError as leak:
            leaks.append(f"{table_id} {path}: {leak}")
    return messages, len(game.answers)


def leaks_command(args: argparse.Namespace) -> None:
    started = time.monotonic()
    rng = random.Random(args.seed)
    leaks: list[str] = []
    counts: Counter[str] = Counter()
    with running_server("sqlite") as (server, url):
        store = Store.open(url, migrate=False)
        try:
            for number in range(args.games):
                table_id, game = leak_game(server.url, rng, number, args.rest_every)
                messages, answers = check_leak_game(store, table_id, game, leaks)
                counts.update(messages=messages, answers=answers, syncs=game.syncs)
                counts.update(reconnects=len(game.retired), hidden=game.hidden_reconnects)
        finally:
            store.close()
    figures = {
        "games": args.games,
        "messages_checked": counts["messages"],
        "rest_answers_checked": counts["answers"],
        "syncs": counts["syncs"],
        "reconnects": counts["reconnects"],
        "reconnects_in_blind_or_forehead_bidding": counts["hidden"],
        "leaked": len(leaks),
        "leaks": leaks[:20],
        "seed": args.seed,
        "seconds": round(time.monotonic() - started, 1),
    }
    figures["ok"] = not leaks
    print_figures("leak audit", figures, args.json)
    for line in leaks[:20]:
        Console().print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    kill = commands.add_parser("kill", help="SIGKILL the server mid-game, again and again")
    kill.add_argument("--kills", type=int, default=10)
    kill.add_argument("--interval", type=float, default=3.0, help="mean seconds between kills")
    kill.add_argument("--tables", type=int, default=3, help="tables played at once")
    kill.add_argument("--people", type=int, default=2, help="people per table (the rest bots)")
    kill.add_argument("--bot-delay-ms", type=int, default=20)
    kill.add_argument(
        "--plan", default=None, help="a custom plan (e.g. 3,4,5); default: every kind of round"
    )
    kill.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    kill.set_defaults(run=kill_command)
    fuzz = commands.add_parser("fuzz", help="malformed and hostile inputs, REST and WebSocket")
    fuzz.add_argument("--inputs", type=int, default=300)
    fuzz.set_defaults(run=fuzz_command)
    leaks = commands.add_parser("leaks", help="whole games, every message and REST answer checked")
    leaks.add_argument("--games", type=int, default=2)
    leaks.add_argument(
        "--rest-every", type=int, default=4, help="ask the REST routes every N moments"
    )
    leaks.set_defaults(run=leaks_command)
    for command in (kill, fuzz, leaks):
        command.add_argument("--seed", type=int, default=1)
        command.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
