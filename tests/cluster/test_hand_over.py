"""A table asked for by another worker while this one is still loading it (its lease
taken, its actor not yet made): the load finishes and the actor is then handed over, as
any live actor is, instead of staying behind without a lease (``Hub.hand_over``)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from raspisnoy.server.cluster import Ownership
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.store import Store

_T = TypeVar("_T")


class _PausedLoads(Hub):
    """A hub whose load of a table stops before it reads the table's events (the lease
    taken and the table claimed) until ``go_on`` is set; ``reading`` is set when it
    gets there."""

    def __init__(self, store: Store, ownership: Ownership) -> None:
        super().__init__(store, ServerSettings(data_dir=Path()), ownership)
        self.reading = asyncio.Event()
        self.go_on = asyncio.Event()

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        if function == self.store.events_of:
            self.reading.set()
            await self.go_on.wait()
        return await super().run(function, *args)


def _game_of_four_people(store: Store) -> str:
    """A started table whose four seats are people (no bot moves, no turn timer)."""
    names = [f"P{number}-{secrets.token_hex(3)}" for number in range(4)]
    host, *guests = (store.create_user(name) for name in names)
    table = store.create_table(
        host_id=host.id,
        public=True,
        rules={"preset": "classic"},
        bots=["random"] * 4,
        turn_seconds=0,
        bot_delay_ms=0,
        stand_in="random",
        seed="s",
    )
    for seat, guest in enumerate(guests, start=1):
        store.set_seat(table.id, seat, guest.id)
    store.start_table(table.id, names, 0)
    return table.id


async def _settled(hub: Hub) -> None:
    """Until the hub's background work (hand-overs) is done."""
    for _ in range(200):
        if not hub._background:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the hand-over never finished")


def test_a_table_asked_for_while_it_loads_is_handed_over_once_loaded(
    redis_url: str, postgres_url: str
) -> None:
    store = Store.open(postgres_url)
    table = _game_of_four_people(store)

    async def main() -> None:
        mine, theirs = Ownership.connect(redis_url, 5.0), Ownership.connect(redis_url, 5.0)
        mine.name, theirs.name = "mine:1", "theirs:2"
        hub = _PausedLoads(store, mine)
        try:

            async def use() -> None:
                async with hub.using(table):
                    pass

            loading = asyncio.create_task(use())
            await hub.reading.wait()  # the lease is this worker's, the actor not made yet
            hub.hand_over(table)  # another worker asks (as the lease listener calls it)
            await asyncio.sleep(0.2)  # the hand-over goes as far as it can meanwhile
            hub.go_on.set()
            await loading
            await _settled(hub)
            assert table not in hub._actors and table not in hub.fences
            await theirs.acquire(table, wait=1.0)  # free long before the lease would end
            assert (await theirs.owners([table])) == {table: "theirs:2"}
        finally:
            await hub.stop()
            await theirs.stop()

    try:
        asyncio.run(main())
    finally:
        store.close()
