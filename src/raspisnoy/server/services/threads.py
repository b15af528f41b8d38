"""The one way the server's services run blocking work (a store call, a replay, a
search) off the event loop: ``in_thread``, on the default executor.

Password hashing never comes here: it has a pool of its own (``passwords``), so that it
cannot hold up the store calls queued on this one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

__all__ = ["in_thread"]

_T = TypeVar("_T")


async def in_thread(function: Callable[..., _T], *args: object) -> _T:
    """``function(*args)`` in a worker thread of the default executor."""
    return await asyncio.to_thread(function, *args)
