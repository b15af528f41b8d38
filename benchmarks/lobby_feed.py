"""What the live lobby costs the server, against the polling it replaced.

Before, every lobby page asked ``GET /api/tables`` every 5 s: reads grew with the number
of people in the lobby. The lobby socket (``raspisnoy.server.services.lobby``) reads the lobby
once per change (a burst of changes within the settling time costs one read) and sends
the same text to every socket, so reads follow the changes, not the watchers. This
measures one read of each kind on SQLite with ``--tables`` open and as many playing
public tables, and turns them into reads per second for ``--watchers`` lobby pages:

    .venv/bin/python benchmarks/lobby_feed.py --tables 50 --watchers 200 --changes 2
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from figures import print_figures
from raspisnoy.server.services.lobby import MAX_LINES
from raspisnoy.server.wire import encode, lobby_message, table_json
from raspisnoy.store import Store

#: How often the old lobby page polled, in seconds.
POLL_SECONDS = 5.0


def fill(store: Store, tables: int) -> None:
    """``tables`` open public tables and as many public games being played (4 seats)."""
    host = store.create_user("Host")
    for number in range(2 * tables):
        row = store.create_table(
            host_id=host.id,
            public=True,
            rules={"preset": "raspisnoy.com"},
            bots=["random"] * 4,
            turn_seconds=0,
            bot_delay_ms=0,
            stand_in="random",
            seed=secrets.token_hex(16),
            rated=False,
        )
        if number % 2:
            store.start_table(row.id, ["Host", "Bot 2", "Bot 3", "Bot 4"], 0)


def best_ms(work: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``work``, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=MAX_LINES)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--changes", type=float, default=2.0, help="lobby changes a second")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(f"sqlite:///{folder}/lobby.sqlite3")
        fill(store, args.tables)

        def feed_read() -> str:
            return encode(
                lobby_message(
                    store.list_tables(status="open", limit=MAX_LINES),
                    store.list_tables(status="playing", limit=MAX_LINES),
                )
            )

        def poll() -> str:
            return encode({"tables": [table_json(r) for r in store.list_tables(status="open")]})

        feed_ms, poll_ms = best_ms(feed_read, args.repeat), best_ms(poll, args.repeat)
        size = len(feed_read().encode())
        store.close()
    poll_reads = args.watchers / POLL_SECONDS
    print_figures(
        "live lobby against polling",
        {
            "tables_open_and_playing": 2 * args.tables,
            "lobby_read_ms": round(feed_ms, 2),
            "old_poll_read_ms": round(poll_ms, 2),
            "lobby_message_bytes": size,
            "watchers": args.watchers,
            "changes_per_second": args.changes,
            "old_reads_per_second": poll_reads,
            "lobby_reads_per_second": args.changes,
            "server_ms_per_second_old": round(poll_reads * poll_ms, 1),
            "server_ms_per_second_live": round(args.changes * feed_ms, 1),
        },
        args.json,
    )


if __name__ == "__main__":
    main()
