"""``raspisnoy casino hand | compare | settle`` to the letter of docs/casino.md, and the
other commands' contracts (``verify``, ``advise``)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from casino_helpers import BOX_EXAMPLE, Result, assert_error

from raspisnoy.casino import CasinoHand

Cli = Callable[..., Result]

BOX = BOX_EXAMPLE


def test_hand_json_exactly(cli: Cli) -> None:
    result = cli("casino", "hand", "AS", "AH", "KD", "8C", "9S", "--json")
    assert result.status == 0 and result.stderr == ""
    assert result.stdout == (
        '{"cards": ["AS", "AH", "KD", "8C", "9S"], "combination": "one-pair", '
        '"second": "ace-king", "pays": 2, "qualifies": true}\n'
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # One quoted string, any notation RECORD.md accepts; canonical cards come back.
        (
            ["10h jh qh kh ah 9h"],
            {
                "cards": ["TH", "JH", "QH", "KH", "AH", "9H"],
                "combination": "royal-flush",
                "second": "straight-flush",
                "pays": 150,
                "qualifies": True,
            },
        ),
        (
            ["A♠ A♥ A♦ A♣ 9♠"],
            {
                "cards": ["AS", "AH", "AD", "AC", "9S"],
                "combination": "four-of-a-kind",
                "second": None,
                "pays": 20,
                "qualifies": True,
            },
        ),
        (
            ["JS", "TH", "7D", "5C", "2S"],
            {
                "cards": ["JS", "TH", "7D", "5C", "2S"],
                "combination": "no-hand",
                "second": None,
                "pays": 0,
                "qualifies": False,
            },
        ),
        (
            ["AS KH 8D 7C 3S"],
            {
                "cards": ["AS", "KH", "8D", "7C", "3S"],
                "combination": "ace-king",
                "second": None,
                "pays": 1,
                "qualifies": True,
            },
        ),
    ],
)
def test_hand_json(cli: Cli, args: list[str], expected: dict[str, object]) -> None:
    result = cli("casino", "hand", *args, "--json")
    assert result.status == 0
    assert json.loads(result.stdout) == expected
    assert list(json.loads(result.stdout)) == [
        "cards",
        "combination",
        "second",
        "pays",
        "qualifies",
    ]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["AS", "AS", "KD", "8C", "9S"], "AS appears twice"),
        (["X", "AH", "KD", "8C", "9S"], "joker"),
        (["AS", "AH", "KD", "8C"], "4 cards given"),
        (["AS AH KD 8C 9S 7S 6S"], "7 cards given"),
        (["AS", "AH", "KD", "8C", "ZZ"], "'ZZ' is not a card"),
        # Jokers in every notation RECORD.md has for them, with or without a mode.
        (["AS", "AH", "KD", "8C", "X1"], "'X1' is a joker"),
        (["AS AH KD 8C X2"], "'X2' is a joker"),
        (["AS", "AH", "KD", "8C", "X:take"], "'X:take' is not a card"),
        # One card in two notations is a repeat.
        (["10h", "TH", "KD", "8C", "9S"], "TH appears twice"),
        (["1h", "AH", "KD", "8C", "9S"], "'1h' is not a card"),
        ([""], "0 cards given"),
    ],
)
def test_hand_errors(cli: Cli, args: list[str], fragment: str) -> None:
    assert_error(cli("casino", "hand", *args, "--json"), fragment)
    assert_error(cli("casino", "hand", *args), fragment)


@pytest.mark.parametrize(
    "args",
    [
        ["TH", "JH", "QH", "KH", "AH"],
        ["th", "jh", "qh", "kh", "ah"],
        ["10H", "JH", "QH", "KH", "AH"],
        ["10♥", "J♥", "Q♥", "K♥", "A♥"],
        ["T♡", "j♡", "Q♡", "k♡", "A♡"],
        ["10h J♥ qH K♡ AH"],
    ],
)
def test_hand_accepts_every_notation_of_record_md(cli: Cli, args: list[str]) -> None:
    """Ranks ``T`` or ``10``, suit letters or symbols, any case; separate arguments or one
    quoted string: the same five cards, printed in canonical form."""
    result = cli("casino", "hand", *args, "--json")
    assert (result.status, result.stderr) == (0, "")
    evaluation = json.loads(result.stdout)
    assert evaluation["cards"] == ["TH", "JH", "QH", "KH", "AH"]
    assert evaluation["combination"] == "royal-flush"


@pytest.mark.parametrize(
    ("player", "dealer", "winner"),
    [
        ("AS AH KD 8C 9S", "QS JD 7C 5H 3S", "player"),
        ("4S 4H AD KC QS", "5S 5H 4D 3C 2S", "dealer"),
        ("AH KH QH JH TH", "AC KC QC JC TC", "tie"),
        # Six cards for the player: the best five count.
        ("QS QH QD QC 8S 8H", "KS KH KD KC 2S", "dealer"),
    ],
)
def test_compare(cli: Cli, player: str, dealer: str, winner: str) -> None:
    result = cli("casino", "compare", player, dealer, "--json")
    assert result.status == 0 and result.stdout == f'{{"winner": "{winner}"}}\n'


@pytest.mark.parametrize(
    ("player", "dealer", "fragment"),
    [
        ("AS AH KD 8C 9S", "AS JD 7C 5H 3S", "AS is in both hands"),
        ("AS AH KD 8C 9S", "QS JD 7C 5H 3S 2S", "dealer: 6 cards given"),
        ("AS AH KD 8C", "QS JD 7C 5H 3S", "player: 4 cards given"),
        ("AS AH KD 8C X", "QS JD 7C 5H 3S", "player: 'X' is a joker"),
        ("AS AH KD 8C 9S", "QS JD 7C 5H X2", "dealer: 'X2' is a joker"),
        ("AS AH KD 8C 9S", "QS JD 7C 5H Q", "dealer: 'Q' is not a card"),
        ("AS AH KD 8C 9Z", "QS JD 7C 5H 3S", "player: '9Z' is not a card"),
        ("", "QS JD 7C 5H 3S", "player: 0 cards given"),
        ("AS AH KD 8C 9S", "", "dealer: 0 cards given"),
    ],
)
def test_compare_errors(cli: Cli, player: str, dealer: str, fragment: str) -> None:
    assert_error(cli("casino", "compare", player, dealer, "--json"), fragment)


def test_settle_file_and_stdin(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "box.json"
    path.write_text(json.dumps(BOX))
    expected = '{"net": -30, "outcome": "bet-back", "pays": 0}\n'
    assert cli("casino", "settle", str(path), "--json").stdout == expected
    result = cli("casino", "settle", "-", "--json", stdin=json.dumps(BOX))
    assert (result.status, result.stdout, result.stderr) == (0, expected, "")


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("not json", "not valid JSON"),
        (json.dumps({**BOX, "ante": 0}), "ante"),
        (json.dumps({**BOX, "decision": "fold"}), "buy_dealer"),
        (json.dumps({**BOX, "dealer": ["QS", "QD", "7C", "5H", "3S"]}), "buy_dealer"),
        (json.dumps({**BOX, "format": "x"}), "format"),
    ],
)
def test_settle_errors(cli: Cli, data: str, fragment: str) -> None:
    assert_error(cli("casino", "settle", "-", "--json", stdin=data), fragment)


#: A dealer who qualifies (a pair of queens) and one who does not (queen high).
QUALIFYING = ["QS", "QH", "7C", "5H", "3S"]
NOT_QUALIFYING = ["QC", "JD", "7D", "5C", "3D"]


def _box(cards: str, dealer: list[str], **fields: object) -> dict[str, object]:
    """A box file of ante 10 (bet 20) that bets ``cards`` against ``dealer``, with
    ``fields`` added or replaced."""
    box = {"format": BOX["format"], "ante": 10, "cards": cards.split(), "decision": "bet"}
    return box | {"dealer": dealer} | fields


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        # A full house (7:1) beats a qualifying dealer: the bet is paid, the ante comes back.
        (_box("6S 6H 6D KC KS", QUALIFYING), '{"net": 140, "outcome": "win", "pays": 7}'),
        # A-A-2-2-K after a change: two pairs + ace-king, 3:1, less the change.
        (
            _box(
                "AS AH KD 8C 9S",
                QUALIFYING,
                exchange={"change": ["8C", "9S"], "draw": ["2H", "2D"]},
            ),
            '{"net": 50, "outcome": "win", "pays": 3}',
        ),
        # The dealer's game bought: Q♣ out, J♣ in, a pair of jacks qualifies; less the purchase.
        (
            _box("6S 6H 6D KC KS", NOT_QUALIFYING, buy_dealer={"draw": "JC"}),
            '{"net": 130, "outcome": "win", "pays": 7}',
        ),
        (_box("8S 8H KD 4C 2S", QUALIFYING), '{"net": -30, "outcome": "lose", "pays": 0}'),
        # A sixth card bought, still lower: ante, bet and the buy are lost.
        (
            _box("8S 8H KD 4C 2S", QUALIFYING, exchange={"buy": "3D"}),
            '{"net": -40, "outcome": "lose", "pays": 0}',
        ),
        (_box("QD QC 7S 5D 3C", QUALIFYING), '{"net": 0, "outcome": "tie", "pays": 0}'),
        (_box("JS TH 7S 5S 2H", NOT_QUALIFYING), '{"net": 10, "outcome": "ante", "pays": 0}'),
        (
            _box("JS TH 7S 5S 2H", QUALIFYING, decision="fold"),
            '{"net": -10, "outcome": "fold", "pays": 0}',
        ),
        # Costs are sunk: a change, then a fold.
        (
            _box(
                "JS TH 7S 5S 2H",
                QUALIFYING,
                exchange={"change": ["2H"], "draw": ["9D"]},
                decision="fold",
            ),
            '{"net": -20, "outcome": "fold", "pays": 0}',
        ),
    ],
)
def test_settle_each_outcome_exactly(cli: Cli, box: dict[str, object], expected: str) -> None:
    """The outcomes of docs/casino.md's net rules, as ``settle --json`` prints them."""
    result = cli("casino", "settle", "-", "--json", stdin=json.dumps(box))
    assert (result.status, result.stdout, result.stderr) == (0, expected + "\n", "")


def test_settle_accepts_a_byte_order_mark(cli: Cli, tmp_path: Path) -> None:
    """UTF-8 with a byte-order mark, as ``replay`` reads it, from a file or standard input."""
    path = tmp_path / "box.json"
    path.write_text(json.dumps(BOX), encoding="utf-8-sig")
    expected = '{"net": -30, "outcome": "bet-back", "pays": 0}\n'
    assert cli("casino", "settle", str(path), "--json").stdout == expected
    result = cli("casino", "settle", "-", "--json", stdin="\ufeff" + json.dumps(BOX))
    assert (result.status, result.stdout, result.stderr) == (0, expected, "")


@pytest.mark.parametrize("command", ["settle", "verify"])
@pytest.mark.parametrize(
    "data",
    [
        "[" * 100_000,
        '{"format": "russian-poker-box/1", "ante": ' + "1" * 5000 + "}",
    ],
    ids=["nested-too-deep", "number-too-long"],
)
def test_json_python_cannot_decode_is_one_error_line(cli: Cli, command: str, data: str) -> None:
    assert_error(cli("casino", command, "-", "--json", stdin=data), "not a usable JSON document")


def test_settle_input_must_be_utf8(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "box.json"
    path.write_bytes(json.dumps(BOX).encode().replace(b"AS", b"A\xff"))
    assert_error(cli("casino", "settle", str(path)), "the input is not UTF-8 text")


def test_settle_names_both_fields_of_a_repeated_card(cli: Cli) -> None:
    data = json.dumps(BOX | {"buy_dealer": {"draw": "QS"}})
    result = cli("casino", "settle", "-", "--json", stdin=data)
    assert_error(result, "buy_dealer.draw: QS is also in dealer")


def test_settle_missing_file(cli: Cli, tmp_path: Path) -> None:
    assert_error(cli("casino", "settle", str(tmp_path / "none.json")), "No such file")


def test_verify(cli: Cli, tmp_path: Path) -> None:
    hand = CasinoHand([10, 5], 500, "verify-me")
    while not hand.is_over:
        hand.apply(hand.legal_actions()[1 if len(hand.legal_actions()) > 1 else 0])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand.to_record()))
    result = cli("casino", "verify", str(path), "--json")
    assert result.status == 0
    assert json.loads(result.stdout)["final_balance"] == hand.balance
    bad = hand.to_record() | {"seed": "not-it"}
    assert_error(cli("casino", "verify", "-", stdin=json.dumps(bad)), "commitment")


def test_advise_purchase(cli: Cli) -> None:
    # A flush against a dealer's queen high: buying his game is worth more than the ante.
    result = cli("casino", "advise", "AS 9S 7S 4S 2S", "--dealer", "QH JD 8C 6H 3D", "--json")
    assert result.status == 0
    advice = json.loads(result.stdout)
    assert advice["best"] == "buy-dealer"
    assert {option["option"] for option in advice["options"]} == {"buy-dealer", "decline"}
    assert all(option["method"] == "exact" for option in advice["options"])


def test_advise_errors(cli: Cli) -> None:
    assert_error(cli("casino", "advise", "AS 9S 7S 4S 2S"), "--up")
    assert_error(cli("casino", "advise", "AS 9S 7S 4S 2S", "--up", "AS"), "AS appears twice")
    assert_error(
        cli("casino", "advise", "AS 9S 7S 4S 2S", "--dealer", "QS JD 7C 5H QD"), "qualifies"
    )


def test_the_real_command_keeps_stdout_clean_on_errors() -> None:
    """One subprocess run of the installed entry point: usage errors too are one line."""
    done = subprocess.run(
        [sys.executable, "-m", "raspisnoy", "casino", "compare", "AS AH KD 8C 9S"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1


def test_advise_a_box_decision(cli: Cli) -> None:
    result = cli("casino", "advise", "AS", "AH", "KD", "8C", "9S", "--up", "QS", "--json")
    assert result.status == 0 and result.stderr == ""
    advice = json.loads(result.stdout)
    assert list(advice) == ["cards", "up", "best", "options", "considered", "seconds", "compiled"]
    assert advice["best"] == "bet" and advice["considered"] == 34
    first = advice["options"][0]
    assert list(first) == ["option", "ev", "error", "method", "cases"]
    assert (first["option"], first["method"], first["ev"]) == ("bet", "exact", 2.0374)
    # Fold, bet and the buy are always listed, with their methods.
    listed = {option["option"]: option for option in advice["options"]}
    assert listed["fold"]["ev"] == -1.0 and listed["buy"]["method"] == "exact"
    # Too little money for anything but a bet or a fold.
    poor = cli("casino", "advise", "AS AH KD 8C 9S", "--up", "QS", "--money", "2", "--json")
    assert {o["option"] for o in json.loads(poor.stdout)["options"]} == {"fold", "bet"}


@pytest.mark.parametrize(
    "args",
    [
        ("hand",),
        ("hand", "--nope", "AS AH KD 8C 9S"),
        ("compare", "AS AH KD 8C 9S"),
        ("compare", "AS AH KD 8C 9S", "QS JD 7C 5H 3S", "2C 3C 4C 5C 6C"),
        ("settle",),
        ("settle", "a.json", "b.json"),
        ("verify",),
        ("verify", "--json=yes", "a.json"),
        ("advise",),
        ("advise", "AS AH KD 8C 9S", "--up", "QS", "--seed", "x"),
        ("play", "--nope"),
        ("nope",),
    ],
)
def test_usage_errors_are_one_line_and_status_2(cli: Cli, args: tuple[str, ...]) -> None:
    result = cli("casino", *args)
    assert result.status == 2
    assert_error(result)
