"""The review queue's processes (docs/review.md, "On the server"): reviews and puzzle
mining share ``review_workers`` processes, so the queue never hands its pool more jobs
than that, whatever kind they are and however many polls go by while they run, and a
review asked for goes out before further mining. The pool here is a stand-in whose jobs
run until the test ends them: what the queue handed over is all that is looked at."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fresh_databases import new_store
from server_helpers import FAST

from raspisnoy.server.services import reviews as review_service
from raspisnoy.server.services.reviews import ReviewQueue, run_claim, run_mining
from raspisnoy.store import ROUND_COUNTS, GameEnd, GameEnds, Reviews, Store

#: Two processes, mining on (the pool is the test's: priorities are never applied).
MINING = FAST.model_copy(update={"review_workers": 2, "puzzle_mining": True})
#: Seconds between the queue's looks here: many looks in a short test.
POLL = 0.01
#: The looks at the queue after which what it handed over is taken as settled: enough
#: for a queue that forgets its running jobs to hand over every game there is.
LOOKS = 20
Job = Callable[[Any], Any]


class JobsThatRun:
    """A pool whose jobs run until ``end``: every job handed over, in order, and the most
    that ran at once."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Job, Any, Callable[[Any], None]]] = []
        self.ended: set[int] = set()
        self.most = 0

    def apply_async(
        self,
        job: Job,
        arguments: tuple[Any, ...],
        callback: Callable[[Any], None],
        error_callback: Callable[[Any], None],
    ) -> None:
        self.jobs.append((job, arguments[0], callback))
        self.most = max(self.most, self.running())

    def running(self) -> int:
        return len(self.jobs) - len(self.ended)

    def kinds(self) -> list[Job]:
        return [job for job, _argument, _callback in self.jobs]

    def end(self, index: int) -> None:
        """The job handed over ``index``-th ends (its process reports back)."""
        self.ended.add(index)
        self.jobs[index][2](None)

    def terminate(self) -> None:
        pass

    def join(self) -> None:
        pass


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with new_store("sqlite", tmp_path) as opened:
        yield opened


def finished_games(store: Store, count: int) -> list[str]:
    """``count`` public unrated games of a guest and three bots, over; their ids."""
    host = store.create_user("Host")
    games = []
    for _ in range(count):
        table = store.create_table(
            host_id=host.id,
            public=True,
            rules={"preset": "classic"},
            bots=["random"] * 4,
            turn_seconds=0,
            bot_delay_ms=0,
            stand_in="random",
            seed="seed",
        )
        store.start_table(table.id, ["Host", "Bot 2", "Bot 3", "Bot 4"], 0)
        nothing = dict.fromkeys(ROUND_COUNTS, 0) | {"points": 0}
        figures = tuple(nothing | {"place": seat + 1} for seat in range(4))
        GameEnds(store).finish(table.id, GameEnd(figures, "classic"))
        games.append(table.id)
    return games


class Looks:
    """Counts the looks a queue takes at its jobs (each starts by queueing the stale
    ones again)."""

    def __init__(self, queue: ReviewQueue, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        requeue = queue.reviews.requeue_stale

        def counted(stale_seconds: float) -> int:
            self.count += 1
            return requeue(stale_seconds)

        monkeypatch.setattr(queue.reviews, "requeue_stale", counted)

    async def settled(self, pool: JobsThatRun, jobs: int) -> list[Job]:
        """The jobs handed over once ``jobs`` of them were and ``LOOKS`` more looks went
        by (at most 30 s)."""
        deadline = asyncio.get_running_loop().time() + 30
        while len(pool.jobs) < jobs:
            assert asyncio.get_running_loop().time() < deadline, pool.kinds()
            await asyncio.sleep(POLL)
        seen = self.count
        while self.count < seen + LOOKS:
            await asyncio.sleep(POLL)
        return pool.kinds()


def test_the_pool_gets_no_more_jobs_than_processes_and_reviews_go_first(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = finished_games(store, 6)
    asker = store.create_user("Asker")
    pool = JobsThatRun()
    monkeypatch.setattr(review_service, "_POLL_SECONDS", POLL)
    queue = ReviewQueue(store, MINING, alone=True)
    monkeypatch.setattr(queue, "_pool", pool)
    looks = Looks(queue, monkeypatch)

    async def scenario() -> None:
        await queue.start()
        # two games being mined fill both processes, and stay counted while they run
        assert await looks.settled(pool, 2) == [run_mining, run_mining]
        Reviews(store).request(games[0], 0, asker.id, 64, "10.0.0.1")
        queue.wake()
        assert len(await looks.settled(pool, 2)) == 2  # the review waits: no process is free
        pool.end(0)
        # the free process goes to the review, not to more mining
        assert (await looks.settled(pool, 3))[2:] == [run_claim]
        pool.end(1)
        # no review waits now: mining again, in the one process free
        assert (await looks.settled(pool, 4))[3:] == [run_mining]
        await queue.stop()

    asyncio.run(scenario())
    assert pool.most == MINING.review_workers
