"""Where a served process's latency tail comes from, measured from inside it during a
load run (``server_load.py``): how late the event loop runs what is ready (its lag), the
garbage collector's pauses by generation, and how long each commit of a batch of actions
and each SQLite checkpoint takes (both run in a worker thread; an action waits for its
commit). A collection's pause is measured twice: in wall-clock time (what the tables
wait) and in the thread's CPU time (what it costs, whatever else the machine runs).

The server process records every sample with its ``time.perf_counter()`` moment (the
same clock in every process of the machine), saves them when it stops, and the load
generator summarises those of its measuring window only (``summary``).
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["Internals", "summarise", "summary"]

_T = TypeVar("_T")
#: How often the loop-lag probe wakes (seconds).
_PROBE_SECONDS = 0.005


@dataclass
class Internals:
    """Samples of one server process: ``(moment, seconds)`` per kind."""

    samples: dict[str, list[tuple[float, float]]] = field(
        default_factory=lambda: {
            kind: []
            for kind in (
                *("loop_lag", "commit", "checkpoint"),
                *("gc0", "gc1", "gc2", "gc0_cpu", "gc1_cpu", "gc2_cpu"),
            )
        }
    )
    #: When the collection under way started: ``perf_counter`` and ``thread_time``.
    _gc_started: tuple[float, float] = (0.0, 0.0)

    def install(self, store: Any) -> None:
        """Time the garbage collector's passes and ``store``'s commits and checkpoints (a
        commit made on the loop and one made in a thread alike; one that found SQLite
        locked and went to a thread is two samples). A tree from before session 17 (a
        ``--baseline``) commits in threads only and has no ``append_events_now``."""
        self.watch_gc()
        store.append_events = self._timed("commit", store.append_events)
        if hasattr(store, "append_events_now"):
            store.append_events_now = self._timed("commit", store.append_events_now)
        store.checkpoint = self._timed("checkpoint", store.checkpoint)

    def watch_gc(self) -> None:
        """Time this process's garbage collections from now on."""
        gc.callbacks.append(self._on_gc)

    def unwatch_gc(self) -> None:
        """Stop timing this process's garbage collections."""
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if phase == "start":
            self._gc_started = now, cpu
            return
        kind = f"gc{info['generation']}"
        self.samples[kind].append((now, now - self._gc_started[0]))
        self.samples[f"{kind}_cpu"].append((now, cpu - self._gc_started[1]))

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
    return summarise(json.loads(path.read_text(encoding="utf-8")), start, end)


def summarise(
    samples: Mapping[str, Sequence[Sequence[float]]], start: float, end: float
) -> dict[str, float]:
    """``summary`` of samples in memory (a process's own, e.g. the load generator's)."""
    figures: dict[str, float] = {"window_s": end - start}
    for kind, pairs in samples.items():
        values = sorted(seconds * 1000 for moment, seconds in pairs if start <= moment <= end)
        if not kind.endswith("_cpu"):
            figures[f"{kind}_count"] = len(values)
        # Every figure is there, NaN without samples: runs are compared figure by figure.
        nan = float("nan")
        figures[f"{kind}_ms_p50"] = values[len(values) // 2] if values else nan
        figures[f"{kind}_ms_p99"] = (
            values[min(len(values) - 1, int(0.99 * len(values)))] if values else nan
        )
        figures[f"{kind}_ms_max"] = values[-1] if values else nan
        figures[f"{kind}_ms_total"] = sum(values)
    return figures
