"""The club rating (docs/clubs.md): OpenSkill over the club's games alone, replayed
oldest first from a newcomer's rating; bots play at their level's fixed rating and are
never rated."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from raspisnoy.ratings import DEFAULT_RATING, displayed
from raspisnoy.server.services.clubs import club_ratings
from raspisnoy.store import ClubResultRow

START = datetime(2026, 12, 1, tzinfo=UTC)


def game(number: int, seats: Sequence[tuple[str | None, str | None, int]]) -> list[ClubResultRow]:
    """The seats of club game ``number`` (later numbers end later): (person, bot level,
    total) each, placed by total."""
    totals = sorted((total for _, _, total in seats), reverse=True)
    return [
        ClubResultRow(
            f"t{number}",
            seat,
            person,
            person,
            bot,
            totals.index(total) + 1,
            total,
            START + timedelta(minutes=number),
        )
        for seat, (person, bot, total) in enumerate(seats)
    ]


def newest_first(games: list[list[ClubResultRow]]) -> list[ClubResultRow]:
    """The seats as the store gives them: the newest game first."""
    return [row for rows in reversed(games) for row in rows]


def test_bots_are_not_rated_and_a_win_over_them_counts() -> None:
    rows = newest_first([game(0, [("anna", None, 120), (None, "random", 10), (None, "expert", 5)])])
    ratings = club_ratings(rows)
    assert set(ratings) == {"anna"}
    assert ratings["anna"].sigma < DEFAULT_RATING.sigma
    assert displayed(ratings["anna"]) > displayed(DEFAULT_RATING)


@given(st.lists(st.tuples(st.integers(0, 300), st.integers(1, 300)), min_size=1, max_size=12))
def test_who_beats_the_same_opponent_every_time_rates_above_them(
    scores: list[tuple[int, int]],
) -> None:
    games = [
        game(n, [("boris", None, low), ("anna", None, low + lead)])
        for n, (low, lead) in enumerate(scores)
    ]
    ratings = club_ratings(newest_first(games))
    assert displayed(ratings["anna"]) > displayed(ratings["boris"])
    assert ratings["anna"].mu > DEFAULT_RATING.mu > ratings["boris"].mu


def test_the_games_are_replayed_oldest_first() -> None:
    """The same two games in the other order leave other ratings: the newest counts last."""
    anna_wins = [("anna", None, 100), ("boris", None, 0), ("vera", None, 50)]
    boris_wins = [("anna", None, 0), ("boris", None, 100), ("vera", None, 50)]
    first = club_ratings(newest_first([game(0, anna_wins), game(1, boris_wins)]))
    second = club_ratings(newest_first([game(0, boris_wins), game(1, anna_wins)]))
    assert first["anna"].mu < second["anna"].mu and first["boris"].mu > second["boris"].mu
