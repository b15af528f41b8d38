"""Free-for-all ratings with OpenSkill's Plackett–Luce model.

Every seat of a rated game is a team of one, ranked by its final total (ties share a
rank). People carry a ``Rating`` (mu, sigma) per scope (all games, and each preset);
bots play at a fixed rating per level (``BOT_RATINGS``, measured from arena matches,
docs/accounts.md) that the game rates against but never changes, so a game with bots
still moves a person's rating and a bot's rating cannot drift with the people it meets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce

from raspisnoy.core import resolve_rules

__all__ = [
    "BOT_RATINGS",
    "BOT_RATINGS_FILE",
    "BOT_RATINGS_FORMAT",
    "DEFAULT_RATING",
    "PROVISIONAL_GAMES",
    "RATED_STAND_IN",
    "Rating",
    "displayed",
    "is_rated_rules",
    "may_stand_in_rated",
    "rate_game",
    "shipped_bot_fit",
]

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: ``mu`` (the mean) and ``sigma`` (how unsure it still is)."""

    mu: float
    sigma: float


#: A newcomer's rating: OpenSkill's defaults (mu 25, sigma 25/3).
DEFAULT_RATING = Rating(_MODEL.mu, _MODEL.sigma)

#: The fit of the bot levels shipped with the package, relative to ``raspisnoy.ratings``:
#: written by ``scripts/fit_bot_ratings.py`` from an arena match of the levels
#: (``bot_levels``; docs/accounts.md gives the match, the commands and the figures).
BOT_RATINGS_FILE = "data/bot_ratings.json"
BOT_RATINGS_FORMAT = 1


@cache
def shipped_bot_fit() -> dict[str, Any]:
    """The fit's output file as shipped (``BOT_RATINGS_FILE``)."""
    text = resources.files("raspisnoy.ratings").joinpath(BOT_RATINGS_FILE).read_text()
    data: dict[str, Any] = json.loads(text)
    if data.get("format") != BOT_RATINGS_FORMAT:
        raise ValueError(f"{BOT_RATINGS_FILE}: format {BOT_RATINGS_FORMAT} wanted")
    return data


#: The fixed rating of each bot level, weakest first: the fit's (``shipped_bot_fit``),
#: whose sigma tells the model how sure the match made us of the bot's strength.
BOT_RATINGS: dict[str, Rating] = {
    level: Rating(value["mu"], value["sigma"])
    for level, value in shipped_bot_fit()["ratings"].items()
}

#: The strongest stand-in a rated table may have (docs/accounts.md): the stand-in plays
#: the seat of a person who left, and although a seat its person did not mostly play
#: ranks last, a stronger bot than this would still win the rest of a game for them.
RATED_STAND_IN = "heuristic"

#: Rated games after which a rating is no longer marked provisional. With four seats a
#: newcomer's sigma falls from 8.3 to about 4 in ten games (half its start), the point
#: from which mu − 3σ stops jumping by hundreds of displayed points per game.
PROVISIONAL_GAMES = 10

#: The displayed rating is ``BASE + SCALE * (mu - 3 sigma)``: a newcomer shows 1000,
#: and a rating only goes up as the model becomes sure of it.
_BASE, _SCALE = 1000, 40


def displayed(rating: Rating) -> int:
    """The conservative number players see: mu − 3σ, scaled (1000 for a newcomer)."""
    return round(_BASE + _SCALE * (rating.mu - 3 * rating.sigma))


def rate_game(
    ratings: Sequence[Rating], totals: Sequence[int], fixed: Sequence[bool]
) -> list[Rating]:
    """Every seat's rating after a game with these final totals (higher is better); a
    ``fixed`` seat (a bot) keeps the rating it came with."""
    if not len(ratings) == len(totals) == len(fixed) or len(ratings) < 2:
        raise ValueError(
            f"a rated game has two or more seats, each with a rating, a total and a fixed "
            f"flag; got {len(ratings)}, {len(totals)} and {len(fixed)}"
        )
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    after = _MODEL.rate(teams, scores=[float(total) for total in totals])
    return [
        before if keep else Rating(team[0].mu, team[0].sigma)
        for before, team, keep in zip(ratings, after, fixed, strict=True)
    ]


def may_stand_in_rated(level: str) -> bool:
    """Whether the bot ``level`` may be a rated table's stand-in: no stronger (by its
    fixed rating) than ``RATED_STAND_IN``."""
    return BOT_RATINGS[level].mu <= BOT_RATINGS[RATED_STAND_IN].mu


def is_rated_rules(rules: dict[str, Any]) -> bool:
    """Whether a table with these rules (``Rules.to_json()``) may be rated: only a
    preset's own rules and plan, so that one rating compares like with like."""
    preset = rules.get("preset")
    if not isinstance(preset, str):
        return False
    try:
        return resolve_rules(preset).to_json() == rules
    except ValueError:
        return False
