"""Offline games in their players' histories (docs/offline.md, "Back online"), over a
``Store``'s engine: each stored whole in one transaction, once per player and game.

The key of ``offline_uploads`` is the game's identity (the player and the device's id
of the game), so the same game uploaded twice, from two devices or by two workers at the
same moment, is stored once: the database refuses the second insert, and the upload that
lost answers the table the first one stored.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from raspisnoy.store.models import GameEvent, GameTable, OfflineUpload
from raspisnoy.store.repository import (
    Store,
    StoreError,
    add_table,
    lock_live_person,
    transaction,
)

__all__ = ["GAME_ID_LENGTH", "OfflineGameIn", "OfflineGamesRepository", "stored_once"]

#: The longest device id of a game that is stored (``offline_uploads.game_id``).
GAME_ID_LENGTH = 64


@dataclass(frozen=True, slots=True)
class OfflineGameIn:
    """A finished offline game to store: the device's id of it, its table's settings,
    the seat names at the start, who dealt first and every action, in order."""

    game_id: str
    rules: dict[str, Any]
    bots: tuple[str, ...]
    bot_delay_ms: int
    seed: str
    names: tuple[str, ...]
    first_dealer: int
    actions: tuple[tuple[int, str], ...]


def stored_once(
    kept: Callable[[], str | None],
    session: Callable[[], AbstractContextManager[Session]],
    add: Callable[[Session], str],
) -> tuple[str, bool]:
    """What an upload is stored as, and whether this call stored it: ``kept()`` (the id
    an earlier upload of the same thing was stored as) if any, else ``add`` in one
    transaction. When an upload that committed first meanwhile makes the database refuse
    ``add``'s key, that one's id (``StoreError`` if nothing explains the refusal)."""
    found = kept()
    if found is not None:
        return found, False
    try:
        with session() as opened:
            return add(opened), True
    except StoreError:
        found = kept()  # the key refused: stored meanwhile
        if found is None:
            raise
        return found, False


class OfflineGamesRepository:
    """Offline games stored as finished, private, unrated tables of their player."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        """A transaction that commits on success; database errors → ``StoreError``."""
        return transaction(self._sessions)

    def table_of(self, user_id: str, game_id: str) -> str | None:
        """The id of the table ``user_id``'s offline game ``game_id`` was stored as."""
        with self._session() as session:
            upload = session.get(OfflineUpload, (user_id, game_id))
            return None if upload is None else upload.table_id

    def store(self, user_id: str, game: OfflineGameIn) -> tuple[str, bool]:
        """The id of the table ``game`` of ``user_id`` (in seat 0) is stored as, and
        whether this call stored it: the table, its seats, its start and every action in
        one transaction, or nothing if the game was stored before (by an earlier upload,
        or one that committed first meanwhile). ``StoreError`` if it could not be."""
        return stored_once(
            lambda: self.table_of(user_id, game.game_id),
            self._session,
            lambda session: self._add(session, user_id, game),
        )

    @staticmethod
    def _add(session: Session, user_id: str, game: OfflineGameIn) -> str:
        """The game stored in ``session``; ``NotFoundError`` if its player's account is
        deleted, however late (``lock_live_person``): the deletion renamed their games,
        and one stored now would keep the name it took away."""
        lock_live_person(session, user_id)
        table_id = add_table(
            session,
            host_id=user_id,
            public=False,
            rules=game.rules,
            bots=game.bots,
            turn_seconds=0,
            bot_delay_ms=game.bot_delay_ms,
            stand_in=game.bots[0],
            seed=game.seed,
            rated=False,
            spectator_chat=False,
            people={0: user_id},
            first_dealer=game.first_dealer,
        )
        now = datetime.now(UTC)
        table = session.get_one(GameTable, table_id)
        table.status, table.names, table.started_at = "playing", list(game.names), now
        session.add_all(
            GameEvent(table_id=table_id, seq=seq, seat=seat, action=action, created_at=now)
            for seq, (seat, action) in enumerate(game.actions, start=1)
        )
        session.add(
            OfflineUpload(user_id=user_id, game_id=game.game_id, table_id=table_id, created_at=now)
        )
        return table_id
