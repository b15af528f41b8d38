"""Game review and hints by the expert's search (docs/review.md).

``review_game(record, seat, budget, progress=...)`` judges every bid and card a seat
chose in a recorded game by the expected round points the search gives the move made and
its own choice, from the seat's view at that moment; ``hint(view, budget)`` is the
search's suggestion for one decision. Pure Python over ``raspisnoy.core`` and
``raspisnoy.bots``: the server runs it in its worker pool, the command line directly.
"""

from raspisnoy.review.engine import (
    DEFAULT_ITERATIONS,
    DEFAULT_SCREEN,
    FLAG_SHARE,
    REVIEW_FORMAT,
    Budget,
    Hint,
    Moment,
    Reason,
    Review,
    Severity,
    Thresholds,
    decisions,
    hint,
    judge,
    review_game,
)

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_SCREEN",
    "FLAG_SHARE",
    "REVIEW_FORMAT",
    "Budget",
    "Hint",
    "Moment",
    "Reason",
    "Review",
    "Severity",
    "Thresholds",
    "decisions",
    "hint",
    "judge",
    "review_game",
]
