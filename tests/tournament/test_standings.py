"""The standings: a game's tournament points (one per opponent below, a half per one
level), byes worth a table's average, and the order with its tie-breaks, against
examples worked by hand (docs/tournaments.md, "Standings")."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from test_duplicate import deal

from raspisnoy.tournament import TablePlay, game_points, standings


def test_a_game_gives_a_point_per_opponent_below() -> None:
    assert game_points((10, 30, 30, -5)) == tuple(map(Fraction, (1, 2.5, 2.5, 0)))


@given(st.lists(st.integers(-50, 50), min_size=3, max_size=5))
def test_every_game_hands_out_one_point_per_pair(totals: list[int]) -> None:
    points = game_points(totals)
    assert sum(points) == Fraction(len(totals) * (len(totals) - 1), 2)
    for one, mine in enumerate(totals):
        for other, theirs in enumerate(totals):
            if mine > theirs:
                assert points[one] > points[other]
            elif mine == theirs:
                assert points[one] == points[other]


def test_standings_worked_by_hand() -> None:
    """Round 1, tables of 3: Anna 10, Boris 0, Vera 20 and Dina 5, Egor 0, a bot 30; Lev
    has the bye. Anna 1 point, Boris 0, Vera 2; Dina 1, Egor 0; Lev 1 (half a point per
    opponent of a table of 3). Anna and Dina and Lev have 1: Anna held the cards Dina
    held and did better (duplicate 100 % against 0 %); Lev has no duplicate score (50 %).
    Boris and Egor have 0 and tied their deal (50 % each): Boris's 0 game points tie
    Egor's, so the name decides."""
    first = [
        TablePlay(("Anna", "Boris", "Vera"), (deal(1, (10, 0, 20)),)),
        TablePlay(("Dina", "Egor", None), (deal(1, (5, 0, 30)),)),
    ]
    lines = standings([first], {"Lev": 1}, 3, players=["Zoya"])
    got = [(line.place, line.player, float(line.points), line.duplicate) for line in lines]
    assert got == [
        (1, "Vera", 2, 0.0),
        (2, "Anna", 1, 100.0),
        (3, "Lev", 1, None),
        (4, "Dina", 1, 0.0),
        (5, "Boris", 0, 50.0),
        (6, "Egor", 0, 50.0),
        (7, "Zoya", 0, None),
    ]
    assert [(line.games, line.byes, line.totals) for line in lines[:3]] == [
        (1, 0, 20),
        (1, 0, 10),
        (0, 1, 0),
    ]


def test_the_duplicate_format_orders_by_duplicate_score_first() -> None:
    """The same results as above in the duplicate format: Anna's 100 % first; then the
    50 % (Lev's none counts so) by points, Lev's bye point ahead, then by name; Vera's
    2 points and Dina's 1 at 0 % last."""
    first = [
        TablePlay(("Anna", "Boris", "Vera"), (deal(1, (10, 0, 20)),)),
        TablePlay(("Dina", "Egor", None), (deal(1, (5, 0, 30)),)),
    ]
    lines = standings([first], {"Lev": 1}, 3, players=["Zoya"], duplicate_first=True)
    assert [line.player for line in lines] == [
        "Anna",
        "Lev",
        "Boris",
        "Egor",
        "Zoya",
        "Vera",
        "Dina",
    ]
    assert [line.place for line in lines] == list(range(1, 8))
