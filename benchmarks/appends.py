"""CPU per batch of actions stored (``Store.append_events``), the server's hot path into
the database: fenced batches of 1, 3 and 6 events of as many tables, as the table hub's
event writer commits them, each size repeated ``--batches`` times on a fresh database
(after as many batches of 1 not counted: the connection's first use). On SQLite the
batches go through ``append_events_now`` where the tree has it (the server's event loop
commits them itself since session 17), else ``append_events``.

``--baseline OTHER/src`` measures another tree the same way in the same run, alternating
passes of the two (each a fresh subprocess with ``PYTHONPATH=OTHER/src``), and gives the
least CPU per batch of each and their ratio. ``--postgresql`` uses a new schema of the
local PostgreSQL (``127.0.0.1:5432/test``, dropped afterwards) instead of SQLite.

    .venv/bin/python benchmarks/appends.py --baseline /tmp/base/src [--passes 5] [--postgresql]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trees import output_in_tree, publish

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "store"))
from fresh_databases import new_store
from store_helpers import table_of

#: The batch sizes measured: one table's action alone, a usual batch, a busy moment.
_SIZES = (1, 3, 6)


def _pass(batches: int, postgresql: bool) -> dict[str, float]:
    """Microseconds of CPU per batch of each size, in this process."""
    from raspisnoy.store import EventRow

    kind = "postgresql" if postgresql else "sqlite"
    with tempfile.TemporaryDirectory() as folder, new_store(kind, Path(folder)) as store:
        host = store.create_user("Host")
        tables = [table_of(store, host).id for _ in range(max(_SIZES))]
        fences = {table: store.claim_table(table) for table in tables}
        seqs = dict.fromkeys(tables, 0)
        append: Callable[..., Any] = store.append_events
        if not postgresql:  # the loop's own commit where the tree has it
            append = getattr(store, "append_events_now", append)
        costs = {}
        for size in (1, *_SIZES):  # the first pass of 1 warms up; the second's figure stays
            chosen = tables[:size]
            work = []
            for _ in range(batches):
                for table in chosen:
                    seqs[table] += 1
                events = [EventRow(table, seqs[table], 0, "1", None) for table in chosen]
                work.append((events, {table: fences[table] for table in chosen}))
            store.checkpoint()
            started = time.process_time()
            for events, batch_fences in work:
                if append(events, batch_fences) is False:  # SQLite busy: nothing else writes
                    raise SystemExit("SQLite was locked by another writer")
            costs[f"batch of {size}"] = (time.process_time() - started) / batches * 1e6
        return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=None, help="another tree's src")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--batches", type=int, default=2000, help="batches of each size a pass")
    parser.add_argument("--postgresql", action="store_true", help="the local PostgreSQL")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--pass", dest="one_pass", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_pass:
        print(json.dumps(_pass(args.batches, args.postgresql)))
        return
    trees: dict[str, Path | None] = {"this tree": None}
    if args.baseline is not None:
        trees = {"baseline": args.baseline, **trees}
    arguments = ["--pass", "--batches", str(args.batches)]
    arguments += ["--postgresql"] if args.postgresql else []
    passes: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(args.passes):
        for name, source in trees.items():
            passes[name].append(json.loads(output_in_tree(source, __file__, arguments)))
    least = {
        name: {size: min(one[size] for one in runs) for size in runs[0]}
        for name, runs in passes.items()
    }
    figures: dict[str, Any] = {
        "command": " ".join(["benchmarks/appends.py", *sys.argv[1:]]),
        "database": "postgresql" if args.postgresql else "sqlite",
        "load_average_1min": os.getloadavg()[0],
        "cpu_us_per_batch_least": least,
        "cpu_us_per_batch_passes": passes,
    }
    if args.baseline is not None:
        figures["ratio_this_to_baseline"] = {
            size: least["this tree"][size] / least["baseline"][size] for size in least["baseline"]
        }
    publish(figures, args.json)


if __name__ == "__main__":
    main()
