"""The puzzle rating (raspisnoy.puzzles.rating): it moves as OpenSkill's Plackett–Luce
model says, up for a solved puzzle and down for a missed one, and more for a harder
puzzle solved."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from raspisnoy.puzzles.rating import NEW_RATING, PuzzleRating, rate_attempt

ratings = st.builds(
    PuzzleRating, st.floats(min_value=-20, max_value=80), st.floats(min_value=1, max_value=9)
)


def test_a_newcomer_solving_a_new_puzzle_moves_as_the_library_says() -> None:
    model = PlackettLuce()
    (solver,), (puzzle,) = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    assert PuzzleRating(model.mu, model.sigma) == NEW_RATING
    assert rate_attempt(NEW_RATING, NEW_RATING, solved=True) == (
        PuzzleRating(solver.mu, solver.sigma),
        PuzzleRating(puzzle.mu, puzzle.sigma),
    )


@given(ratings, ratings)
def test_solving_raises_the_solver_and_lowers_the_puzzle(
    solver: PuzzleRating, puzzle: PuzzleRating
) -> None:
    won, easier = rate_attempt(solver, puzzle, solved=True)
    lost, harder = rate_attempt(solver, puzzle, solved=False)
    assert won.mu > solver.mu > lost.mu
    assert harder.mu > puzzle.mu > easier.mu


@given(ratings, st.floats(min_value=-20, max_value=60))
def test_a_harder_puzzle_solved_gains_more(solver: PuzzleRating, mu: float) -> None:
    easy = PuzzleRating(mu, 4.0)
    hard = PuzzleRating(mu + 20, 4.0)
    gain_easy = rate_attempt(solver, easy, solved=True)[0].mu - solver.mu
    gain_hard = rate_attempt(solver, hard, solved=True)[0].mu - solver.mu
    assert gain_hard > gain_easy
