"""The whole suite's order: the long files first, and Hypothesis without wall-clock limits.

``scripts/test`` runs the suite on one pytest-xdist worker per core with ``--dist
loadfile``: each worker takes the next file in collection order when it is done with its
last. Collected alphabetically, the browser files and the command line's (each a minute
or two, starting servers, browsers and processes) came late, so one worker was often
still on a long file while the other had nothing left. Taken first, the long files run
side by side and the many short ones fill in at the end.

Hypothesis's per-example ``deadline`` (200 ms) and its "too slow" health check are
timings: on a shared machine they fail tests whose code is right (a card-mask property
failed once at load 7). Timings belong in ``benchmarks/``, so the suite's profile turns
both off for every property; a property's own ``@settings`` still sets its example count.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("suite")

#: The parts of the suite that take longest per file, longest first (paths relative to
#: this folder); everything else keeps its order after them.
LONG_FIRST = ("e2e", "test_cli.py", "server/test_no_leaks.py", "cluster", "server")

_HERE = Path(__file__).parent


def _rank(item: pytest.Item) -> int:
    """Where ``item``'s file comes: the index of its part in ``LONG_FIRST``, else after."""
    relative = item.path.relative_to(_HERE).as_posix()
    for rank, part in enumerate(LONG_FIRST):
        if relative == part or relative.startswith(f"{part}/"):
            return rank
    return len(LONG_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Puts the long files first (a stable sort: files and tests keep their order within
    each part, so each file's tests stay together for ``--dist loadfile``)."""
    items.sort(key=_rank)
