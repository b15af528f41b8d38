"""Duplicate deals really are the same at every table, their records replay, and the
duplicate score matches examples worked by hand (docs/tournaments.md)."""

from __future__ import annotations

import json
from fractions import Fraction

from raspisnoy.bots import make_bot
from raspisnoy.core import Card, Game, RoundKind, RoundResult, resolve_rules
from raspisnoy.core.record import dumps_record, game_to_record, loads_record, replay
from raspisnoy.tournament import TablePlay, deal_table, duplicate_scores, round_seed


def play_out(game: Game, seed: str) -> None:
    """Random bots play ``game`` to its end (the moves differ from table to table)."""
    bots = [make_bot("random", seed=f"{seed}/{seat}") for seat in range(game.players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)


def test_every_table_of_a_round_is_dealt_the_same_hands() -> None:
    rules = resolve_rules()
    seed = round_seed("spring cup", 3)
    lineups = [
        ["Anna", "Boris", "Vera", "Gleb"],
        ["Dina", "Egor", "Zoya", "Ilya"],
        ["a", "b", "c", "d"],
    ]
    records, totals = [], []
    for index, names in enumerate(lineups):
        game = deal_table(rules, names, seed)
        play_out(game, f"table {index}")
        records.append(json.loads(dumps_record(game_to_record(game))))
        totals.append(game.totals)
    deals = [
        [(r["dealer"], r["hands"], r["trump_card"]) for r in record["rounds"]] for record in records
    ]
    assert deals[0] == deals[1] == deals[2]
    assert len(deals[0]) == len(game.rounds()) > 10
    plays = [[r["tricks"] for r in record["rounds"]] for record in records]
    assert plays[0] != plays[1]  # the same cards, played differently
    for record, total in zip(records, totals, strict=True):
        assert replay(loads_record(json.dumps(record))).totals == total  # records replay


def test_another_round_or_table_size_is_dealt_differently() -> None:
    rules = resolve_rules()
    names = ["Anna", "Boris", "Vera", "Gleb"]
    first = deal_table(rules, names, round_seed("cup", 1))
    second = deal_table(rules, names, round_seed("cup", 2))
    five = deal_table(rules, [*names, "Dina"], round_seed("cup", 1))
    assert first.hand(0) != second.hand(0)
    assert first.hand(0) != five.hand(0)


def deal(number: int, points: tuple[int, ...] | None, card: str = "AS") -> RoundResult:
    """A one-card round whose only interesting parts are its deal and its points."""
    hands = tuple((Card.parse(card),) for _ in range(len(points or (0, 0, 0))))
    return RoundResult(
        number, 0, 1, RoundKind.NORMAL, hands, None, None, None, (0,) * len(hands), (), points
    )


def test_matchpoints_worked_by_hand() -> None:
    """Three tables of three play deal 1; tables 0 and 1 also play a deal 2 that table 2
    was dealt differently.

    Deal 1, seat 0 scored 10, 5, 10: Anna beats 5 (1) and ties 10 (1/2): 3/2 of 2;
    Dina 0 of 2; Zoya 3/2 of 2. Seat 1 scored 0, 0, -10: Boris 3/2, Egor 3/2, the bot
    nothing (bots are not scored). Seat 2 scored 20, 30, 40: Vera 0, Ilya 1, Lev 2.
    Deal 2 (tables 0 and 1 only), seat 0 scored 7 and 3: Anna 1 of 1, Dina 0 of 1; the
    other seats tie: 1/2 each. Table 2's deal 2 has other cards: no comparison. A round
    not yet over (points None) counts for nothing.
    """
    tables = [
        TablePlay(("Anna", "Boris", "Vera"), (deal(1, (10, 0, 20)), deal(2, (7, 1, 1)))),
        TablePlay(
            ("Dina", "Egor", "Ilya"), (deal(1, (5, 0, 30)), deal(2, (3, 1, 1)), deal(3, None))
        ),
        TablePlay(("Zoya", None, "Lev"), (deal(1, (10, -10, 40)), deal(2, (9, 9, 9), card="KS"))),
    ]
    scores = duplicate_scores(tables)
    got = {player: (score.matchpoints, score.comparisons) for player, score in scores.items()}
    assert got == {
        "Anna": (Fraction(5, 2), 3),
        "Boris": (Fraction(2), 3),
        "Vera": (Fraction(1, 2), 3),
        "Dina": (Fraction(0), 3),
        "Egor": (Fraction(2), 3),
        "Ilya": (Fraction(3, 2), 3),
        "Zoya": (Fraction(3, 2), 2),
        "Lev": (Fraction(2), 2),
    }
    assert scores["Lev"].percent == 100.0
    assert scores["Anna"].percent == 100 * 5 / 6
    assert duplicate_scores([tables[2]])["Zoya"].percent is None  # no one to compare with


def test_duplicate_scores_of_played_tables_are_fair_shares() -> None:
    """Over real games the matchpoints of each deal's holders add up to the comparisons'
    half: every comparison hands out exactly one point between two players."""
    rules = resolve_rules()
    seed = round_seed("cup", 1)
    tables = []
    for index, names in enumerate([["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]]):
        game = deal_table(rules, names, seed)
        play_out(game, f"t{index}")
        tables.append(TablePlay.of(names, game))
    scores = duplicate_scores(tables)
    assert sum(s.matchpoints for s in scores.values()) * 2 == sum(
        s.comparisons for s in scores.values()
    )
    assert all(s.comparisons == 2 * len(tables[0].rounds) for s in scores.values())
