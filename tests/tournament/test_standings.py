"""The standings: a game's tournament points (one per opponent below, a half per one
level), byes worth a table's average, and the order with its tie-breaks, against
examples worked by hand (docs/tournaments.md, "Standings")."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st
from test_duplicate import deal

from raspisnoy.tournament import Line, TablePlay, game_points, standings


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


def test_ties_left_are_ordered_by_name_not_by_key() -> None:
    """Players known by entry ids that sort otherwise: three bots and two people who have
    not played yet all tie, and are listed by name as the standings' note says, without
    regard to case («анна» before «Борис»); two entrants of one name by their ids."""
    names = {
        "q7": "Бот номер 2",
        "b2": "Бот номер 3",
        "x9": "Бот номер 1",
        "a1": "Борис",
        "z3": "анна",
        "m5": "Бот номер 1",
    }
    lines = standings([], {}, 4, players=names, names=names)
    assert [(names[line.player], line.player) for line in lines] == [
        ("анна", "z3"),
        ("Борис", "a1"),
        ("Бот номер 1", "m5"),
        ("Бот номер 1", "x9"),
        ("Бот номер 2", "q7"),
        ("Бот номер 3", "b2"),
    ]


#: Names that tie without regard to case, and Cyrillic ones, for the property below.
NAMES = ("Anna", "anna", "Boris", "Бот номер 1", "бот номер 2", "Бот номер 3", "Вера")


@st.composite
def events(draw: st.DrawFn) -> tuple[list[TablePlay], dict[str, int], dict[str, str]]:
    """One round of an event of tables of 3: entrants known by ids, named from ``NAMES``,
    seated at random at tables that play the same deal with few scores (many ties), the
    ones left over with a bye."""
    count = draw(st.integers(2, 10))
    names = {f"entry-{number}": draw(st.sampled_from(NAMES)) for number in range(count)}
    seated = draw(st.permutations(list(names)))
    full = count - count % 3
    tables = [
        TablePlay(
            tuple(seated[start : start + 3]),
            (deal(1, tuple(draw(st.sampled_from((0, 10, 20))) for _ in range(3))),),
        )
        for start in range(0, full, 3)
    ]
    return tables, dict.fromkeys(seated[full:], 1), names


def result(line: Line) -> tuple[Fraction, float, int]:
    """What the standings compare before the name (no duplicate score counts as 50 %)."""
    return line.points, 50.0 if line.duplicate is None else line.duplicate, line.totals


@given(events(), st.booleans())
def test_equal_results_are_ordered_by_name(
    event: tuple[list[TablePlay], dict[str, int], dict[str, str]], duplicate_first: bool
) -> None:
    """Whatever the results, two neighbours in the standings with the same points,
    duplicate score and game points are in the order of their names without regard to
    case, then of their ids; and everyone is listed once, placed 1, 2, 3..."""
    tables, byes, names = event
    lines = standings([tables], byes, 3, names, names=names, duplicate_first=duplicate_first)
    assert sorted(line.player for line in lines) == sorted(names)
    assert [line.place for line in lines] == list(range(1, len(names) + 1))
    for one, other in pairwise(lines):
        if result(one) == result(other):
            assert (names[one.player].casefold(), one.player) < (
                names[other.player].casefold(),
                other.player,
            )
