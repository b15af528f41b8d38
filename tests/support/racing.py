"""Calls made at the same moment from several threads: two workers, two devices or two
tabs racing for the same row, for the tests of what a lock or a transaction keeps apart."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

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
