"""Conditions on what is hidden from whom, for the queries of several stores: a table of
a tournament round still being played is its own players' only (docs/tournaments.md).
Kept apart from the stores that use them so that each can import them (the tournaments'
store imports the results', which imports the players')."""

from __future__ import annotations

from sqlalchemy import ColumnElement, SQLColumnExpression, exists

from raspisnoy.store.models import Tournament, TournamentRound, TournamentTable

__all__ = ["in_round_being_played"]


def in_round_being_played(table_id: SQLColumnExpression[str]) -> ColumnElement[bool]:
    """Whether ``table_id`` (a column of the query, or a value) is a table of a tournament
    round still being played: the event running or paused, the round's last game not yet
    recorded. Every table of such a round is dealt the same cards, so until the round
    ends what happened at one (its play, its points, what its players' profiles count)
    is its own players' only (``TournamentStore.hides_table``, ``Players.profile``)."""
    return exists().where(
        TournamentTable.table_id == table_id,
        TournamentRound.tournament_id == TournamentTable.tournament_id,
        TournamentRound.number == TournamentTable.round_number,
        Tournament.id == TournamentTable.tournament_id,
        TournamentRound.finished_at.is_(None),
        Tournament.state.in_(["running", "paused"]),
    )
