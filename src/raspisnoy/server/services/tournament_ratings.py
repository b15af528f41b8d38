"""The duplicate rating (docs/accounts.md, "The duplicate rating"): when a rated
tournament's round ends, the people who held the same cards — the same seat number at
every table of the round, dealt from the round's one seed — are ranked by their
matchpoints of the round (``raspisnoy.tournament.duplicate_scores`` over the round's
tables), and each such group is one OpenSkill game (``ratings.rate_game``, the house's
model) in the ``duplicate`` scope of their ratings. Bots are compared with for the
matchpoints but are never in a group; a group needs two people.

The store moves the ratings in the transaction that ends the round (``end_round``), so a
round is rated once and nothing of an unfinished round is ever in a rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from raspisnoy.ratings import Rating, displayed, rate_game
from raspisnoy.ratings.results import NEWCOMER
from raspisnoy.server.services.tournaments import table_play
from raspisnoy.store import EntryRow, RoundRating, StoredRating, TournamentTableRow
from raspisnoy.tournament import duplicate_scores

__all__ = ["round_rating", "same_cards_orders"]

#: A group's scores are its people's round matchpoints in tenths of a percent.
_SCALE = 10


def same_cards_orders(
    tables: Sequence[TournamentTableRow], users: Mapping[str, str]
) -> list[dict[str, int]]:
    """For each seat number of the round's recorded ``tables``, the people (by user id;
    ``users`` maps an entrant to their person) who held its cards, with their round's
    matchpoints as a percentage in tenths; only groups of two people or more."""
    plays = [table_play(table) for table in tables]
    scores = duplicate_scores(plays)
    groups: dict[int, dict[str, int]] = {}
    for play in plays:
        for seat, entry in enumerate(play.players):
            person = None if entry is None else users.get(entry)
            score = None if entry is None else scores.get(entry)
            if person is not None and score is not None and score.percent is not None:
                groups.setdefault(seat, {})[person] = round(_SCALE * score.percent)
    return [group for _, group in sorted(groups.items()) if len(group) >= 2]


def round_rating(
    tables: Sequence[TournamentTableRow], entries: Sequence[EntryRow]
) -> RoundRating | None:
    """How the end of a round of ``tables`` (every one recorded) moves its people's
    duplicate ratings; ``None`` when no two people held the same cards."""
    users = {entry.entry_id: entry.user_id for entry in entries if entry.user_id is not None}
    groups = same_cards_orders(tables, users)
    if not groups:
        return None

    def rate(before: Mapping[str, StoredRating]) -> dict[str, StoredRating]:
        after = dict(before)
        for group in groups:
            people = sorted(group)
            ratings = [Rating(before[p].mu, before[p].sigma) for p in people]
            moved = rate_game(ratings, [group[p] for p in people], [False] * len(people))
            for person, rating in zip(people, moved, strict=True):
                after[person] = StoredRating(rating.mu, rating.sigma, displayed(rating))
        return after

    people = frozenset(person for group in groups for person in group)
    return RoundRating(people, NEWCOMER, rate)
