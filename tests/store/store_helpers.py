"""Rows the store tests start from: people and a table of theirs; and calls made at the
same moment from several threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from raspisnoy.store import Store, TableRow, UserRow

T = TypeVar("T")


def at_the_same_moment(count: int, call: Callable[[], T]) -> list[T]:
    """The answers of ``call`` made by ``count`` threads released together (two workers,
    two devices racing), in the order they came."""
    start = threading.Barrier(count)
    answers: list[T] = []

    def run() -> None:
        start.wait()
        answers.append(call())

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


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
