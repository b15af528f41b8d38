"""Table leases in Redis (``raspisnoy.server.cluster.Ownership``): one holder at a time,
handed over when asked, lost when not renewed, renewed while the holder runs (even while
its event loop is blocked, up to a patience)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable

import pytest

from raspisnoy.server.cluster import LOOP_PATIENCE, LeaseBusyError, Ownership


def _run(redis_url: str, test: Callable[[Ownership, Ownership, str], Awaitable[None]]) -> None:
    """Run ``test`` with two workers' leases (0.6 s) and a table id of its own."""

    async def main() -> None:
        first = Ownership.connect(redis_url, 0.6)
        second = Ownership.connect(redis_url, 0.6)
        first.name, second.name = "first:1", "second:2"
        try:
            await test(first, second, f"test-{secrets.token_hex(6)}")
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(main())


async def _renewing_holder(owner: Ownership, table: str) -> list[str]:
    """``owner`` renewing its leases and holding ``table``: the list of its lost ones."""
    lost: list[str] = []
    owner.start(lost=lost.append, asked=lambda _table: None)
    await owner.acquire(table, wait=0)
    return lost


def test_one_holder_at_a_time_until_the_lease_expires(redis_url: str) -> None:
    async def test(first: Ownership, second: Ownership, table: str) -> None:
        await first.acquire(table, wait=0)
        assert not await second.try_acquire(table)
        with pytest.raises(LeaseBusyError):
            await second.acquire(table, wait=0.2)
        assert (await second.owners([table])) == {table: "first:1"}
        await asyncio.sleep(0.7)  # first never renews (not started): its lease runs out
        assert await second.try_acquire(table)

    _run(redis_url, test)


def test_the_holder_hands_over_when_asked(redis_url: str) -> None:
    async def test(first: Ownership, second: Ownership, table: str) -> None:
        asked: list[str] = []

        def hand_over(wanted: str) -> None:
            asked.append(wanted)
            asyncio.get_running_loop().create_task(first.release(wanted))

        first.start(lost=lambda _table: None, asked=hand_over)
        await asyncio.sleep(0.1)  # subscribed
        await first.acquire(table, wait=0)
        await second.acquire(table, wait=0.5)  # well before the lease would expire
        assert asked == [table]
        assert (await second.owners([table])) == {table: "second:2"}

    _run(redis_url, test)


def test_renewal_keeps_the_lease_and_reports_one_taken_away(redis_url: str) -> None:
    async def test(first: Ownership, second: Ownership, table: str) -> None:
        lost = await _renewing_holder(first, table)
        await asyncio.sleep(1.5)  # more than two lease periods: renewed all along
        assert (await second.owners([table])) == {table: "first:1"}
        await first.redis.set(f"raspisnoy:owner:{table}", "second:2", px=5000)
        await asyncio.sleep(0.5)
        assert lost == [table]

    _run(redis_url, test)


def test_leases_outlive_a_loop_blocked_for_several_lease_periods(redis_url: str) -> None:
    async def test(first: Ownership, second: Ownership, table: str) -> None:
        lost = await _renewing_holder(first, table)
        time.sleep(2.0)  # the loop does nothing for over three lease periods (0.6 s)
        assert not await second.try_acquire(table)
        await asyncio.sleep(0.5)
        assert lost == []

    _run(redis_url, test)


def test_a_loop_stuck_past_its_patience_lets_the_leases_lapse(redis_url: str) -> None:
    async def test(first: Ownership, second: Ownership, table: str) -> None:
        lost = await _renewing_holder(first, table)
        # Past the patience and one lease more, the lease is gone while the loop is stuck.
        time.sleep(LOOP_PATIENCE * first.lease_seconds + first.lease_seconds + 0.4)
        assert await second.try_acquire(table)
        await asyncio.sleep(0.5)  # the loop runs again: the lease is known to be lost
        assert lost == [table]

    _run(redis_url, test)
