"""The puzzle rating: each attempt is a duel of the solver and the puzzle, rated with
OpenSkill's Plackett–Luce model (already the game ratings' library,
``raspisnoy.ratings.skill``: no second rating library).

The solver wins the duel by solving the puzzle and loses it otherwise; both ratings
move, as on lichess, so that a puzzle that many strong players miss comes to be rated
as hard. A newcomer and a new puzzle start at the model's defaults.

The number players see (``shown``) is the mean, scaled around 1500 as lichess's
puzzle ratings are: unlike the game ratings' conservative mu − 3σ, it goes up with
every puzzle solved and down with every one missed, which is what a solver expects.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["NEW_RATING", "PuzzleRating", "rate_attempt", "shown"]

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class PuzzleRating:
    """A solver's or a puzzle's rating: ``mu`` (the mean) and ``sigma`` (how unsure)."""

    mu: float
    sigma: float


#: The rating of a solver's first attempt and of a puzzle never tried.
NEW_RATING = PuzzleRating(_MODEL.mu, _MODEL.sigma)


def rate_attempt(
    solver: PuzzleRating, puzzle: PuzzleRating, solved: bool
) -> tuple[PuzzleRating, PuzzleRating]:
    """The solver's and the puzzle's ratings after one attempt (module docstring)."""
    teams = [[_MODEL.rating(mu=solver.mu, sigma=solver.sigma)]]
    teams.append([_MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)])
    (new_solver,), (new_puzzle,) = _MODEL.rate(teams, ranks=[0, 1] if solved else [1, 0])
    return (
        PuzzleRating(new_solver.mu, new_solver.sigma),
        PuzzleRating(new_puzzle.mu, new_puzzle.sigma),
    )


#: ``shown`` is ``SHOWN_BASE + SHOWN_SCALE * (mu - NEW_RATING.mu)``: 1500 at the start.
SHOWN_BASE, SHOWN_SCALE = 1500, 40


def shown(rating: PuzzleRating) -> int:
    """The puzzle rating players see (module docstring): 1500 for a newcomer."""
    return round(SHOWN_BASE + SHOWN_SCALE * (rating.mu - NEW_RATING.mu))
