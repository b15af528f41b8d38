"""Rows the store tests start from: people and a table of theirs."""

from __future__ import annotations

from raspisnoy.store import Store, TableRow, UserRow


def people(store: Store, *nicknames: str) -> list[UserRow]:
    """A guest for each nickname."""
    return [store.create_user(nickname) for nickname in nicknames]


def table_of(store: Store, host: UserRow, *, public: bool = True, rated: bool = False) -> TableRow:
    """An open four-seat table of random bots with ``host`` in seat 0."""
    return store.create_table(
        host_id=host.id,
        public=public,
        rules={"preset": "classic"},
        bots=["random"] * 4,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed="seed",
        rated=rated,
    )
