"""``OfflineGamesRepository``: an offline game is stored whole, as a started table with
every action, and once per player and game: uploaded again, from another device or by
two workers at the same moment, it answers the table stored first (the database's key
decides the race)."""

from __future__ import annotations

from racing import at_the_same_moment
from sqlalchemy import func, select
from store_helpers import people

from raspisnoy.store import Store, UserRow
from raspisnoy.store.models import GameTable, OfflineUpload
from raspisnoy.store.offline_games import OfflineGameIn, OfflineGamesRepository

GAME = OfflineGameIn(
    game_id="local-0123456789ab",
    rules={"preset": "classic"},
    bots=("heuristic", "heuristic", "random"),
    bot_delay_ms=0,
    seed="0123456789abcdef",
    names=("Anna", "Bot 2 (heuristic)", "Bot 3 (random)"),
    first_dealer=1,
    actions=((2, "0"), (0, "1"), (1, "0")),
)


def tables_of(store: Store, user: UserRow) -> int:
    with store.engine.connect() as connection:
        query = select(func.count()).select_from(GameTable).where(GameTable.host_id == user.id)
        return int(connection.scalar(query) or 0)


def test_an_offline_game_is_stored_whole(store: Store) -> None:
    (anna,) = people(store, "Anna")
    table_id, stored = OfflineGamesRepository(store).store(anna.id, GAME)
    assert stored
    row = store.get_table(table_id)
    assert row.status == "playing" and row.public is False and row.rated is False
    assert row.names == GAME.names and row.first_dealer == 1 and row.seed == GAME.seed
    assert [seat.user_id for seat in row.seats] == [anna.id, None, None]
    assert [(e.seat, e.action) for e in store.events_of(table_id)] == list(GAME.actions)


def test_the_same_game_uploaded_again_is_stored_once_per_player(store: Store) -> None:
    anna, vera = people(store, "Anna", "Vera")
    games = OfflineGamesRepository(store)
    first, stored = games.store(anna.id, GAME)
    assert stored
    assert games.store(anna.id, GAME) == (first, False)
    assert tables_of(store, anna) == 1
    other, stored = games.store(vera.id, GAME)  # another player's history: their own copy
    assert stored and other != first


class StaleRead(OfflineGamesRepository):
    """Reads no upload at first, as an upload that raced another one and lost does."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.stale = True

    def table_of(self, user_id: str, game_id: str) -> str | None:
        if self.stale:
            self.stale = False
            return None
        return super().table_of(user_id, game_id)


def test_the_loser_of_a_race_is_refused_by_the_key_and_answers_the_first(store: Store) -> None:
    (anna,) = people(store, "Anna")
    first, _ = OfflineGamesRepository(store).store(anna.id, GAME)
    assert StaleRead(store).store(anna.id, GAME) == (first, False)
    assert tables_of(store, anna) == 1  # the loser's table went with its transaction


def test_uploads_at_the_same_moment_store_one_table(store: Store) -> None:
    (anna,) = people(store, "Anna")
    games = OfflineGamesRepository(store)
    answers = at_the_same_moment(6, lambda: games.store(anna.id, GAME))
    assert len(answers) == 6 and len({table_id for table_id, _ in answers}) == 1
    assert [stored for _, stored in answers].count(True) == 1
    assert tables_of(store, anna) == 1
    with store.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(OfflineUpload)) == 1
