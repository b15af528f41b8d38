"""A rematch whose table was stored but whose game was not started (docs/PROTOCOL.md,
"Rematch"): the worker that settled it died between the two, or another worker started
it meanwhile. Whoever finds it stored starts it if it is still open, once: the hub over
a real store, on each backend; and if nobody comes back to the old table, the pass that
looks for such rematches does (the real server)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fresh_databases import BACKENDS, new_store
from server_helpers import FAST, Server
from server_helpers import until as eventually
from test_tables import Client, hub_of, run, stored_table, until

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.protocol import RematchAnswer
from raspisnoy.server.services.tables import seat_names
from raspisnoy.server.services.tables.hub import Hub
from raspisnoy.server.services.tables.rematch_sweep import start_unstarted_rematches
from raspisnoy.store import Store, TableRow, Together, UserRow


def _fours(store: Store, host: UserRow) -> TableRow:
    """A public table of ``host`` and three random bots, not started."""
    return stored_table(store, host, seed="old seed")


def over_table(store: Store, host: UserRow) -> TableRow:
    """A table of ``host`` and three bots, its game played to its end (by stand-ins: the
    host never connects) on a worker that is stopped afterwards."""
    table = _fours(store, host)

    async def scenario() -> None:
        worker = hub_of(store)
        await worker.start()
        async with worker.using(table.id) as actor:
            await actor.call(lambda: actor.start(host.id))
        await until(lambda: store.get_table(table.id).status == "over")
        await worker.stop()

    run(scenario)
    return store.get_table(table.id)


async def rematch_told(worker: Hub, old: TableRow, person: UserRow) -> dict[str, Any]:
    """The ``rematch`` message ``person`` gets on connecting to the old table, loaded by
    ``worker`` (which finds its stored rematch then)."""
    async with worker.using(old.id) as actor:
        client = Client(person)
        await actor.call(lambda: actor.join(client))
        told: dict[str, Any] = client.last("rematch")
    return told


def next_dealer(old: TableRow) -> int:
    assert old.first_dealer is not None
    return (old.first_dealer + 1) % len(old.seats)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_rematch_stored_by_a_worker_that_died_starts_when_its_old_table_loads(
    backend: str, tmp_path: Path
) -> None:
    """The worker that settled Anna's rematch stored its table and died before starting
    it. The worker that loads the old table next starts it (Anna its host, expected in
    her seat) and sends her there; a later load leaves the game being played alone."""
    with new_store(backend, tmp_path) as store:
        anna = store.create_user("Anna")
        old = over_table(store, anna)
        # What the dying worker left: the rematch stored with the old table, not started.
        rematch = Together(store).open_rematch(old, {0: anna.id}, anna.id, next_dealer(old), "s")
        assert rematch.status == "open"

        async def scenario() -> None:
            worker = hub_of(store)
            await worker.start()
            told = await rematch_told(worker, old, anna)
            assert (told["status"], told["table"]) == ("started", rematch.id)
            started = store.get_table(rematch.id)
            assert started.status == "playing" and started.host_id == anna.id
            assert started.first_dealer == next_dealer(old)
            async with worker.using(rematch.id) as game:
                assert game.game is not None and not game.table_json()["seats"][0]["away"]
            await worker.stop()

            again = hub_of(store)  # the next restart finds it started
            await again.start()
            async with again.using(old.id) as actor:
                await actor.call(lambda: actor.join(Client(anna)))
            assert store.get_table(rematch.id).started_at == started.started_at
            await again.stop()

        run(scenario)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_rematch_everyone_left_is_not_started_when_its_old_table_loads(
    backend: str, tmp_path: Path
) -> None:
    """Anna, the only one who accepted, left the rematch table while it waited (its
    worker died before starting it): loading the old table starts no game of bots alone,
    and the old table still tells where the rematch went."""
    with new_store(backend, tmp_path) as store:
        anna = store.create_user("Anna")
        old = over_table(store, anna)
        rematch = Together(store).open_rematch(old, {0: anna.id}, anna.id, next_dealer(old), "s")
        store.leave_open_table(rematch.id, 0, anna.id)

        async def scenario() -> None:
            worker = hub_of(store)
            await worker.start()
            told = await rematch_told(worker, old, anna)
            assert (told["status"], told["table"]) == ("started", rematch.id)
            assert store.get_table(rematch.id).status == "open"
            await worker.stop()

        run(scenario)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_rematch_started_meanwhile_by_another_worker_counts_as_started(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anna settles her rematch; between storing its table and starting it, another
    worker that found it open starts it (just before this one claims the table). This
    worker's start is then no start at all, not a failure: the rematch is started, and
    everyone at the old table learns where."""
    with new_store(backend, tmp_path) as store:
        anna = store.create_user("Anna")
        old = over_table(store, anna)
        claim = Store.claim_table
        started_elsewhere: list[str] = []

        def started_first(self: Store, table_id: str, *args: Any) -> int:
            if table_id != old.id and not started_elsewhere:
                row = self.get_table(table_id)
                assert row.first_dealer is not None  # a rematch table fixes it
                self.start_table(table_id, seat_names(row), row.first_dealer)
                started_elsewhere.append(table_id)
            return claim(self, table_id, *args)

        monkeypatch.setattr(Store, "claim_table", started_first)

        async def scenario() -> None:
            worker = hub_of(store)
            await worker.start()
            async with worker.using(old.id) as actor:
                client = Client(anna)
                await actor.call(lambda: actor.join(client))
                answer = RematchAnswer(accept=True)
                await actor.call(lambda: actor.rematch.receive(client, answer))
                told = client.last("rematch")
            assert told["status"] == "started" and [told["table"]] == started_elsewhere
            assert store.get_table(told["table"]).status == "playing"
            await worker.stop()

        run(scenario)


def test_a_rematch_nobody_comes_back_for_starts_by_itself(
    start_server: Callable[[ServerSettings], Server],
) -> None:
    """The worker that settled Anna's rematch stored its table and died before starting
    it; her client had gone to the new table already, so nobody loads the old one again.
    The pass that looks for rematches left open (every ``rematch_sweep_seconds``, on one
    worker) starts it, as the worker that stored it would have."""
    server = start_server(FAST.model_copy(update={"rematch_sweep_seconds": 0.2}))
    store = server.store
    anna = store.create_user("Anna")
    old = over_table(store, anna)
    # What the dying worker left: the rematch stored with the old table, not started.
    rematch = Together(store).open_rematch(old, {0: anna.id}, anna.id, next_dealer(old), "s")
    started = eventually(lambda: store.get_table(rematch.id), lambda t: t.status == "playing")
    assert started.host_id == anna.id and started.first_dealer == next_dealer(old)
    assert old.id not in server.services.hub._actors  # nobody loaded the old table


def left_open(store: Store, host: UserRow) -> TableRow:
    """The rematch of a table of ``host`` (with three bots), stored and not started."""
    return Together(store).open_rematch(_fours(store, host), {0: host.id}, host.id, 1, "s")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_rematch_that_cannot_start_keeps_no_other_from_starting(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Two rematches left open; the older one fails to start (whatever the reason). The
    pass logs it and starts the other; the next pass finds the failed one again."""
    with new_store(backend, tmp_path) as store:
        broken, fine = (left_open(store, store.create_user(name)) for name in ("Anna", "Boris"))
        start = Hub.start_if_open

        async def failing(hub: Hub, table_id: str) -> None:
            if table_id == broken.id:
                raise RuntimeError("cannot start")
            await start(hub, table_id)

        monkeypatch.setattr(Hub, "start_if_open", failing)
        settings = ServerSettings(data_dir=Path(), rematch_sweep_seconds=0.01)
        together = Together(store)

        async def scenario() -> None:
            worker = Hub(store, settings)
            await worker.start()
            await asyncio.sleep(0.05)  # both opened over a pass ago
            found = await start_unstarted_rematches(together, worker, settings)
            assert found == [broken.id, fine.id]  # oldest first
            await worker.stop()

        run(scenario)
        assert store.get_table(fine.id).status == "playing"
        assert together.unstarted_rematches(datetime.now(UTC)) == [broken.id]
        assert f"rematch table {broken.id} left open could not be started" in caplog.text
