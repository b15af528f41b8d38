"""Where a served process's latency tail comes from, measured from inside it during a
load run (``server_load.py``): how late the event loop runs what is ready (its lag), the
garbage collector's pauses, and how long each commit of a batch of actions and each
SQLite checkpoint takes (both run in a worker thread; an action waits for its commit).

The server process records every sample with its ``time.perf_counter()`` moment (the
same clock in every process of the machine), saves them when it stops, and the load
generator summarises those of its measuring window only (``summary``).
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["Internals", "summary"]

_T = TypeVar("_T")
#: How often the loop-lag probe wakes (seconds).
_PROBE_SECONDS = 0.005


@dataclass
class Internals:
    """Samples of one server process: ``(moment, seconds)`` per kind."""

    samples: dict[str, list[tuple[float, float]]] = field(
        default_factory=lambda: {
            "loop_lag": [],
            "gc": [],
            "gc2": [],
            "commit": [],
            "checkpoint": [],
        }
    )
    _gc_started: float = 0.0

    def install(self, store: Any) -> None:
        """Time the garbage collector's passes and ``store``'s commits and checkpoints."""
        gc.callbacks.append(self._on_gc)
        store.append_events = self._timed("commit", store.append_events)
        store.checkpoint = self._timed("checkpoint", store.checkpoint)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_started = now
            return
        kind = "gc2" if info["generation"] == 2 else "gc"
        self.samples[kind].append((now, now - self._gc_started))

    def _timed(self, kind: str, function: Callable[..., _T]) -> Callable[..., _T]:
        @wraps(function)
        def timed(*args: Any, **kwargs: Any) -> _T:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                now = time.perf_counter()
                self.samples[kind].append((now, now - started))

        return timed

    async def probe_loop(self) -> None:
        """Sleep ``_PROBE_SECONDS`` again and again; each wake-up's delay is the loop's
        lag: how long something ready to run waits for the loop."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(_PROBE_SECONDS)
            now = time.perf_counter()
            self.samples["loop_lag"].append((now, now - started - _PROBE_SECONDS))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.samples), encoding="utf-8")


def summary(path: Path, start: float, end: float) -> dict[str, float]:
    """The samples saved at ``path`` between ``start`` and ``end`` (``perf_counter``):
    per kind, the count, p50, p99, the longest (ms) and, for pauses, the total (ms)."""
    samples: dict[str, list[list[float]]] = json.loads(path.read_text(encoding="utf-8"))
    figures: dict[str, float] = {"window_s": end - start}
    for kind, pairs in samples.items():
        values = sorted(seconds * 1000 for moment, seconds in pairs if start <= moment <= end)
        figures[f"{kind}_count"] = len(values)
        if not values:
            continue
        figures[f"{kind}_ms_p50"] = values[len(values) // 2]
        figures[f"{kind}_ms_p99"] = values[min(len(values) - 1, int(0.99 * len(values)))]
        figures[f"{kind}_ms_max"] = values[-1]
        figures[f"{kind}_ms_total"] = sum(values)
    return figures
